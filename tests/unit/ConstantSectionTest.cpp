//===- ConstantSectionTest.cpp - Weights written once into the object -----===//

#include "polyblocks/Target/CPUTarget.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>

using namespace llvm;
using namespace polyblocks;

namespace {

/// A module whose `@forward(ptr %out)` stores into `out` the sum of the
/// element 100 of `@big` (2048 floats, 8 KiB: detached) and the element 3
/// of `@small` (16 floats: kept).
std::unique_ptr<Module> makeModule(LLVMContext &context,
                                   std::vector<float> &bigValues) {
  auto module = std::make_unique<Module>("weights", context);
  bigValues.resize(2048);
  for (size_t i = 0; i < bigValues.size(); ++i)
    bigValues[i] = 0.5f * float(i) - 3.0f;
  std::vector<float> smallValues(16, 0.25f);
  auto makeGlobal = [&](StringRef name, ArrayRef<float> values) {
    Constant *data = ConstantDataArray::get(context, values);
    auto *global =
        new GlobalVariable(*module, data->getType(), /*isConstant=*/true,
                           GlobalValue::InternalLinkage, data, name);
    global->setAlignment(Align(64));
    return global;
  };
  GlobalVariable *big = makeGlobal("big", bigValues);
  GlobalVariable *small = makeGlobal("small", smallValues);
  IRBuilder<> b(context);
  auto *fn =
      Function::Create(FunctionType::get(b.getVoidTy(), {b.getPtrTy()}, false),
                       GlobalValue::ExternalLinkage, "forward", *module);
  b.SetInsertPoint(BasicBlock::Create(context, "entry", fn));
  Value *x = b.CreateLoad(
      b.getFloatTy(), b.CreateConstInBoundsGEP1_64(b.getFloatTy(), big, 100));
  Value *y = b.CreateLoad(
      b.getFloatTy(), b.CreateConstInBoundsGEP1_64(b.getFloatTy(), small, 3));
  b.CreateStore(b.CreateFAdd(x, y), fn->getArg(0));
  b.CreateRetVoid();
  return module;
}

// Constants of 4 KiB or more leave the module: hidden declarations named
// after the tag, their bytes returned; smaller ones stay.
TEST(ConstantSectionTest, DetachesLargeConstants) {
  LLVMContext context;
  std::vector<float> values;
  std::unique_ptr<Module> module = makeModule(context, values);
  std::vector<DetachedConstant> constants = detachConstantData(*module, "t1");
  EXPECT_FALSE(verifyModule(*module, &errs()));
  ASSERT_EQ(constants.size(), 1u);
  EXPECT_EQ(constants[0].symbol, "big.pb.t1");
  EXPECT_EQ(constants[0].alignment, 64u);
  ASSERT_EQ(constants[0].bytes.size(), values.size() * sizeof(float));
  EXPECT_EQ(0, memcmp(constants[0].bytes.data(), values.data(),
                      constants[0].bytes.size()));
  GlobalVariable *big = module->getNamedGlobal("big.pb.t1");
  ASSERT_TRUE(big);
  EXPECT_TRUE(big->isDeclaration());
  EXPECT_EQ(big->getVisibility(), GlobalValue::HiddenVisibility);
  GlobalVariable *small = module->getNamedGlobal("small");
  ASSERT_TRUE(small);
  EXPECT_TRUE(small->hasInitializer());
}

/// The ELF-64 object in the file `path`, read (null after a failure).
std::unique_ptr<object::ObjectFile>
readObject(StringRef path, std::unique_ptr<MemoryBuffer> &buffer) {
  auto read = MemoryBuffer::getFile(path);
  if (!read) {
    ADD_FAILURE() << "cannot read " << path.str();
    return nullptr;
  }
  buffer = std::move(*read);
  auto file = object::ObjectFile::createObjectFile(*buffer);
  if (!file) {
    ADD_FAILURE() << toString(file.takeError());
    return nullptr;
  }
  if (!isa<object::ELF64LEObjectFile>(file->get())) {
    ADD_FAILURE() << "not ELF-64";
    return nullptr;
  }
  return std::move(*file);
}

/// The section of `elf` named `name`, if there is one.
std::optional<object::SectionRef>
findSection(const object::ELF64LEObjectFile &elf, StringRef name) {
  for (const object::SectionRef &section : elf.sections())
    if (cantFail(section.getName()) == name)
      return section;
  return std::nullopt;
}

/// A temporary file's path, removed with the test.
struct TemporaryFile {
  SmallString<128> path;
  std::unique_ptr<FileRemover> remover;
  explicit TemporaryFile(StringRef suffix) {
    EXPECT_FALSE(
        sys::fs::createTemporaryFile("constant-section", suffix, path));
    remover = std::make_unique<FileRemover>(path);
  }
};

// The object's undefined symbol becomes defined in the new section, which
// holds the bytes; the rest of the object is as it was.
TEST(ConstantSectionTest, DefinesTheSymbolsInANewSection) {
  LLVMContext context;
  std::vector<float> values;
  std::unique_ptr<Module> module = makeModule(context, values);
  std::vector<DetachedConstant> constants = detachConstantData(*module, "t2");
  auto tm = createCPUTargetMachine(CPUTargetSpec{});
  ASSERT_TRUE(bool(tm)) << toString(tm.takeError());
  module->setDataLayout((*tm)->createDataLayout());
  module->setTargetTriple((*tm)->getTargetTriple());
  TemporaryFile code("o"), linked("o");
  {
    std::error_code ec;
    raw_fd_ostream os(code.path, ec);
    ASSERT_FALSE(ec);
    ASSERT_FALSE(
        bool(emitMachineCode(*module, **tm, CodeGenFileType::ObjectFile, os)));
  }
  Error error = appendConstantSection(code.path, constants, linked.path);
  ASSERT_FALSE(bool(error)) << toString(std::move(error));

  std::unique_ptr<MemoryBuffer> buffer;
  std::unique_ptr<object::ObjectFile> file = readObject(linked.path, buffer);
  ASSERT_TRUE(file);
  auto *elf = cast<object::ELF64LEObjectFile>(file.get());
  std::optional<object::SectionRef> section =
      findSection(*elf, ".rodata.polyblocks");
  ASSERT_TRUE(section);
  EXPECT_EQ(section->getAlignment().value(), 64u);
  EXPECT_EQ(cantFail(section->getContents()), constants[0].bytes);
  bool sawSymbol = false, sawForward = false;
  for (const object::ELFSymbolRef &symbol : elf->symbols()) {
    Expected<StringRef> name = symbol.getName();
    ASSERT_TRUE(bool(name));
    if (*name == "forward")
      sawForward = true;
    if (*name != "big.pb.t2")
      continue;
    sawSymbol = true;
    EXPECT_EQ(symbol.getSize(), 8192u);
    EXPECT_EQ(symbol.getELFType(), ELF::STT_OBJECT);
    EXPECT_EQ(symbol.getBinding(), ELF::STB_GLOBAL);
    EXPECT_EQ(symbol.getOther(), ELF::STV_HIDDEN);
    object::section_iterator in = cantFail(symbol.getSection());
    ASSERT_NE(in, elf->section_end());
    EXPECT_EQ(cantFail(in->getName()), ".rodata.polyblocks");
  }
  EXPECT_TRUE(sawSymbol);
  EXPECT_TRUE(sawForward);
}

// An object of their own: each constant at its alignment in the section,
// its symbol defined there, global and hidden.
TEST(ConstantSectionTest, WritesAnObjectOfTheirOwn) {
  std::string first(4100, '\x11'), second(64, '\x22');
  std::vector<DetachedConstant> constants = {{"first.pb.t3", 64, first},
                                             {"second.pb.t3", 16, second}};
  TemporaryFile out("o");
  Error error = writeConstantObject(constants, out.path);
  ASSERT_FALSE(bool(error)) << toString(std::move(error));
  std::unique_ptr<MemoryBuffer> buffer;
  std::unique_ptr<object::ObjectFile> file = readObject(out.path, buffer);
  ASSERT_TRUE(file);
  auto *elf = cast<object::ELF64LEObjectFile>(file.get());
  EXPECT_EQ(elf->getELFFile().getHeader().e_machine, ELF::EM_X86_64);
  EXPECT_EQ(elf->getELFFile().getHeader().e_type, ELF::ET_REL);
  std::string expected = first + std::string(4112 - 4100, '\0') + second;
  std::optional<object::SectionRef> section =
      findSection(*elf, ".rodata.polyblocks");
  ASSERT_TRUE(section);
  EXPECT_EQ(section->getAlignment().value(), 64u);
  EXPECT_EQ(cantFail(section->getContents()), expected);
  std::map<std::string, std::pair<uint64_t, uint64_t>> defined;
  for (const object::ELFSymbolRef &symbol : elf->symbols()) {
    std::string name = cantFail(symbol.getName()).str();
    if (name.empty())
      continue;
    EXPECT_EQ(symbol.getBinding(), ELF::STB_GLOBAL) << name;
    EXPECT_EQ(symbol.getOther(), ELF::STV_HIDDEN) << name;
    EXPECT_EQ(symbol.getELFType(), ELF::STT_OBJECT) << name;
    object::section_iterator section = cantFail(symbol.getSection());
    ASSERT_NE(section, elf->section_end());
    EXPECT_EQ(cantFail(section->getName()), ".rodata.polyblocks");
    defined[name] = {cantFail(symbol.getValue()), symbol.getSize()};
  }
  EXPECT_EQ(defined["first.pb.t3"],
            std::make_pair(uint64_t(0), uint64_t(4100)));
  EXPECT_EQ(defined["second.pb.t3"],
            std::make_pair(uint64_t(4112), uint64_t(64)));
  EXPECT_EQ(defined.size(), 2u);
}

// What is not an object is refused with a message, nothing written.
TEST(ConstantSectionTest, RefusesWhatIsNotAnObject) {
  TemporaryFile text("txt"), out("o");
  {
    std::error_code ec;
    raw_fd_ostream os(text.path, ec);
    ASSERT_FALSE(ec);
    os << "not an object\n";
  }
  sys::fs::remove(out.path);
  std::vector<DetachedConstant> none;
  Error error = appendConstantSection(text.path, none, out.path);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(toString(std::move(error))
                .find("cannot add the constant data to the object"),
            std::string::npos);
  EXPECT_FALSE(sys::fs::exists(out.path));
}

} // namespace
