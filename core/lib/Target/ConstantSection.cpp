//===- ConstantSection.cpp - Weights written once, by no part -------------===//
//
// A network's object is mostly its weights (ResNet-18 at batch 8: 160 MB of
// its 160 MB, after Winograd's transform). Compiled in parts, the weights
// used to go through LLVM's code generation with part 0 (into its object's
// buffer, then its file) and through `ld -r` (read, then written into the
// one object): written twice, and the part that carried them finished
// last. Here they leave the module before its code generation: each
// constant global variable becomes a hidden declaration, and the weights'
// bytes go straight from the LLVM context into a file, in a section
// `.rodata.polyblocks` whose symbols define what the code refers to:
// added to the object the parts are linked into (appendConstantSection),
// or, for a shared library, an object of their own, written on a thread of
// its own while the parts compile (writeConstantObject).
//
//===----------------------------------------------------------------------===//

#include "polyblocks/Target/CPUTarget.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace polyblocks {

/// Constants smaller than this stay in the code's object (strings of error
/// messages, small tables LLVM may have folded already).
static constexpr uint64_t kMinDetachedBytes = 4096;

std::vector<DetachedConstant> detachConstantData(Module &module,
                                                 StringRef tag) {
  std::vector<DetachedConstant> constants;
  const DataLayout &layout = module.getDataLayout();
  for (GlobalVariable &global : module.globals()) {
    if (!global.isConstant() || !global.hasInitializer() ||
        global.isThreadLocal() || global.hasSection() || global.hasComdat() ||
        global.isInterposable())
      continue;
    auto *data = dyn_cast<ConstantDataSequential>(global.getInitializer());
    if (!data || data->getRawDataValues().size() < kMinDetachedBytes)
      continue;
    uint64_t alignment = std::max(global.getAlign().valueOrOne(),
                                  layout.getPreferredAlign(&global))
                             .value();
    // A hidden declaration now: the object defines it. The bytes stay in
    // the LLVM context, which keeps its constants until it is destroyed.
    global.setInitializer(nullptr);
    externalizeHidden(global, tag);
    global.setAlignment(Align(alignment));
    constants.push_back(
        {global.getName().str(), alignment, data->getRawDataValues()});
  }
  return constants;
}

namespace {
using ELFT = object::ELF64LE;
using Ehdr = ELFT::Ehdr;
using Shdr = ELFT::Shdr;
using Sym = ELFT::Sym;

/// The name of the section the constants go into.
constexpr StringLiteral kSectionName = ".rodata.polyblocks";

Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot add the constant data to the object: " +
                               message);
}

/// The constants' section: each constant at the next offset of its
/// alignment, in the order they are added.
struct ConstantLayout {
  SmallVector<std::pair<uint64_t, const DetachedConstant *>> placed;
  uint64_t size = 0, alignment = 1;

  /// Places `constant`; returns its offset.
  uint64_t add(const DetachedConstant &constant) {
    size = alignTo(size, constant.alignment);
    alignment = std::max(alignment, constant.alignment);
    placed.push_back({size, &constant});
    size += constant.bytes.size();
    return placed.back().first;
  }

  /// Writes the section's bytes from `dataOffset` in the file (`pad` fills
  /// the stream with zeros up to an offset).
  void write(raw_ostream &os, function_ref<void(uint64_t)> pad,
             uint64_t dataOffset) const {
    for (auto [offset, constant] : placed) {
      pad(dataOffset + offset);
      os << constant->bytes;
    }
  }
};

/// Makes `symbol` the definition of `constant`, at `offset` in the section
/// `section`: a global object.
void define(Sym &symbol, uint16_t section, uint64_t offset,
            const DetachedConstant &constant) {
  symbol.setBindingAndType(ELF::STB_GLOBAL, ELF::STT_OBJECT);
  symbol.st_shndx = section;
  symbol.st_value = offset;
  symbol.st_size = constant.bytes.size();
}

/// A section's header: its name (an offset into the section names), type,
/// flags, place in the file and alignment.
Shdr makeSection(uint32_t name, uint32_t type, uint64_t flags, uint64_t offset,
                 uint64_t size, uint64_t alignment) {
  Shdr section{};
  section.sh_name = name;
  section.sh_type = type;
  section.sh_flags = flags;
  section.sh_offset = offset;
  section.sh_size = size;
  section.sh_addralign = alignment;
  return section;
}

/// Writes the file `path`: what `write` writes into the stream, given a
/// function that pads it with zeros up to an offset, then `headers`, the
/// section header table, at `headersOffset`.
Error writeObject(
    StringRef path, uint64_t headersOffset, ArrayRef<Shdr> headers,
    function_ref<void(raw_ostream &, function_ref<void(uint64_t)>)> write) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return fail("cannot write '" + path + "': " + ec.message());
  auto pad = [&](uint64_t to) { os.write_zeros(to - os.tell()); };
  write(os, pad);
  pad(headersOffset);
  os.write(reinterpret_cast<const char *>(headers.data()),
           headers.size() * sizeof(Shdr));
  os.close();
  if (os.has_error())
    return fail("cannot write '" + path + "': " + os.error().message());
  return Error::success();
}
} // namespace

Error appendConstantSection(StringRef objectPath,
                            ArrayRef<DetachedConstant> constants,
                            StringRef outputPath) {
  auto buffer = MemoryBuffer::getFile(objectPath, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail("cannot read '" + objectPath +
                "': " + buffer.getError().message());
  // Patched in a copy: the symbols, the header, the section headers.
  std::string bytes = (*buffer)->getBuffer().str();
  auto file = object::ELFFile<ELFT>::create(bytes);
  if (!file)
    return fail(toString(file.takeError()));
  const Ehdr &header = file->getHeader();
  if (header.e_type != ELF::ET_REL)
    return fail("not a relocatable object");
  if (header.e_shnum == 0 || header.e_shstrndx == ELF::SHN_XINDEX ||
      header.e_shnum + 1 >= ELF::SHN_LORESERVE)
    return fail("too many sections");
  auto sections = file->sections();
  if (!sections)
    return fail(toString(sections.takeError()));
  const Shdr *symtab = nullptr;
  for (const Shdr &section : *sections) {
    if (section.sh_type == ELF::SHT_SYMTAB_SHNDX)
      return fail("extended section indices");
    if (section.sh_type == ELF::SHT_SYMTAB) {
      if (symtab)
        return fail("two symbol tables");
      symtab = &section;
    }
  }
  if (!symtab)
    return fail("no symbol table");
  auto names = file->getStringTableForSymtab(*symtab);
  if (!names)
    return fail(toString(names.takeError()));
  auto symbols = file->symbols(symtab);
  if (!symbols)
    return fail(toString(symbols.takeError()));
  auto shstrtab = file->getSectionStringTable(*sections);
  if (!shstrtab)
    return fail(toString(shstrtab.takeError()));

  // The constants the code refers to (an undefined symbol each), laid out
  // in their order (the module's: pb-order-constant-globals put them in the
  // order the code first reads them) at their alignments.
  StringMap<uint64_t> undefined; // name -> offset of its symbol in `bytes`
  for (const Sym &symbol : *symbols) {
    if (symbol.st_shndx != ELF::SHN_UNDEF || symbol.st_name == 0)
      continue;
    if (symbol.st_name >= names->size())
      return fail("a symbol's name is outside the string table");
    undefined[names->drop_front(symbol.st_name).split('\0').first] =
        reinterpret_cast<const char *>(&symbol) - bytes.data();
  }
  uint16_t sectionIndex = header.e_shnum;
  ConstantLayout layout;
  for (const DetachedConstant &constant : constants)
    if (auto it = undefined.find(constant.symbol); it != undefined.end())
      define(*reinterpret_cast<Sym *>(bytes.data() + it->second), sectionIndex,
             layout.add(constant), constant);

  // The file: the object as it was (its symbols defined), the section's
  // bytes, a section name table with the new name, the section headers.
  uint64_t dataOffset = alignTo(bytes.size(), layout.alignment);
  uint64_t namesOffset = dataOffset + layout.size;
  std::string sectionNames = shstrtab->str();
  uint32_t nameIndex = sectionNames.size();
  (sectionNames += kSectionName) += '\0';
  uint64_t headersOffset = alignTo(namesOffset + sectionNames.size(), 8);

  SmallVector<Shdr> headers(sections->begin(), sections->end());
  Shdr &names0 = headers[header.e_shstrndx];
  names0.sh_offset = namesOffset;
  names0.sh_size = sectionNames.size();
  headers.push_back(makeSection(nameIndex, ELF::SHT_PROGBITS, ELF::SHF_ALLOC,
                                dataOffset, layout.size, layout.alignment));

  auto *newHeader = reinterpret_cast<Ehdr *>(bytes.data());
  newHeader->e_shoff = headersOffset;
  newHeader->e_shnum = headers.size();

  return writeObject(outputPath, headersOffset, headers,
                     [&](raw_ostream &os, function_ref<void(uint64_t)> pad) {
                       os << bytes;
                       layout.write(os, pad, dataOffset);
                       os << sectionNames;
                     });
}

Error writeConstantObject(ArrayRef<DetachedConstant> constants,
                          StringRef path) {
  // The section's bytes, the symbols and their names.
  ConstantLayout layout;
  std::string symbolNames(1, '\0');
  SmallVector<Sym> symbols(1);
  for (const DetachedConstant &constant : constants) {
    Sym &symbol = symbols.emplace_back();
    symbol.st_name = symbolNames.size();
    (symbolNames += constant.symbol) += '\0';
    symbol.setVisibility(ELF::STV_HIDDEN);
    define(symbol, /*section=*/1, layout.add(constant), constant);
  }
  // Sections: the constants, an empty .note.GNU-stack (no executable stack
  // asked for), the symbols, their names, the sections' names.
  std::string sectionNames(1, '\0');
  auto name = [&](StringRef n) {
    uint32_t index = sectionNames.size();
    (sectionNames += n) += '\0';
    return index;
  };
  uint64_t dataOffset = alignTo(sizeof(Ehdr), layout.alignment);
  uint64_t symbolsOffset = alignTo(dataOffset + layout.size, 8);
  uint64_t symbolNamesOffset = symbolsOffset + symbols.size() * sizeof(Sym);
  uint64_t sectionNamesOffset = symbolNamesOffset + symbolNames.size();
  // Named first: the last section holds the names.
  uint32_t dataName = name(kSectionName), stackName = name(".note.GNU-stack"),
           symbolsName = name(".symtab"), symbolNamesName = name(".strtab"),
           sectionNamesName = name(".shstrtab");
  SmallVector<Shdr> headers = {
      Shdr{},
      makeSection(dataName, ELF::SHT_PROGBITS, ELF::SHF_ALLOC, dataOffset,
                  layout.size, layout.alignment),
      makeSection(stackName, ELF::SHT_PROGBITS, 0, symbolsOffset, 0, 1),
      makeSection(symbolsName, ELF::SHT_SYMTAB, 0, symbolsOffset,
                  symbols.size() * sizeof(Sym), 8),
      makeSection(symbolNamesName, ELF::SHT_STRTAB, 0, symbolNamesOffset,
                  symbolNames.size(), 1),
      makeSection(sectionNamesName, ELF::SHT_STRTAB, 0, sectionNamesOffset,
                  sectionNames.size(), 1)};
  Shdr &symtab = headers[3];
  symtab.sh_link = 4; // its names
  symtab.sh_info = 1; // the first global symbol
  symtab.sh_entsize = sizeof(Sym);
  uint64_t headersOffset = alignTo(sectionNamesOffset + sectionNames.size(), 8);

  Ehdr header{};
  memcpy(header.e_ident, ELF::ElfMagic, strlen(ELF::ElfMagic));
  header.e_ident[ELF::EI_CLASS] = ELF::ELFCLASS64;
  header.e_ident[ELF::EI_DATA] = ELF::ELFDATA2LSB;
  header.e_ident[ELF::EI_VERSION] = ELF::EV_CURRENT;
  header.e_ident[ELF::EI_OSABI] = ELF::ELFOSABI_NONE;
  header.e_type = ELF::ET_REL;
  header.e_machine = ELF::EM_X86_64;
  header.e_version = ELF::EV_CURRENT;
  header.e_shoff = headersOffset;
  header.e_ehsize = sizeof(Ehdr);
  header.e_shentsize = sizeof(Shdr);
  header.e_shnum = headers.size();
  header.e_shstrndx = 5;

  return writeObject(path, headersOffset, headers,
                     [&](raw_ostream &os, function_ref<void(uint64_t)> pad) {
                       os.write(reinterpret_cast<const char *>(&header),
                                sizeof header);
                       layout.write(os, pad, dataOffset);
                       pad(symbolsOffset);
                       os.write(reinterpret_cast<const char *>(symbols.data()),
                                symbols.size() * sizeof(Sym));
                       os << symbolNames << sectionNames;
                     });
}

} // namespace polyblocks
