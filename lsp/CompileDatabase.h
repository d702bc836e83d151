//===- CompileDatabase.h - Per-file flags from the build tree ---*- C++ -*-===//
//
// polyblocks_add_kernel records the pbtool flags of every kernel source in
// ${CMAKE_BINARY_DIR}/polyblocks_commands.json:
//
//   [{"file": "/src/blur.mlir", "kernel": "blur_kernel",
//     "directory": "/build/examples", "arguments": ["compile",
//     "--target=cpu"]}]
//
// This finds the entry for a file: in databases named explicitly first, then
// in polyblocks_commands.json in the file's directory or any parent, or in a
// build/ folder beside one of them. Databases are read once and read again
// when they change on disk.
//
//===----------------------------------------------------------------------===//

#ifndef POLYBLOCKS_LSP_COMPILEDATABASE_H
#define POLYBLOCKS_LSP_COMPILEDATABASE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"

#include <optional>
#include <string>
#include <vector>

namespace pblsp {

/// One entry of a compile database.
struct CompileCommand {
  /// The database it comes from.
  std::string database;
  std::string kernel;
  /// pbtool's arguments, e.g. {"compile", "--target=cpu", "--cpu=znver3"}.
  std::vector<std::string> arguments;
};

/// The name polyblocks_add_kernel gives the database.
inline constexpr char kCompileDatabaseName[] = "polyblocks_commands.json";

class CompileDatabase {
public:
  /// Databases to search before the ones found near a file: paths of
  /// database files, or of folders holding one.
  void setExplicitPaths(std::vector<std::string> paths);

  struct LookupResult {
    std::optional<CompileCommand> command;
    /// Databases that were found but could not be read, with the reason.
    std::vector<std::string> problems;
  };
  /// The entry for the file at `path`, if some database has one.
  LookupResult lookup(llvm::StringRef path);

private:
  struct Loaded {
    llvm::sys::TimePoint<> modified;
    uint64_t size = 0;
    std::string error;
    /// Entries by file path, as written and with symbolic links resolved.
    llvm::StringMap<CompileCommand> entries;
  };
  /// The database at `path`, read if it is new or has changed; nullptr if
  /// there is no such file.
  const Loaded *load(llvm::StringRef path);

  std::vector<std::string> explicitPaths;
  llvm::StringMap<Loaded> databases;
};

} // namespace pblsp

#endif // POLYBLOCKS_LSP_COMPILEDATABASE_H
