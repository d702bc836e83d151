//===- CompileDatabase.cpp - Per-file flags from the build tree -----------===//

#include "CompileDatabase.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace pblsp {

void CompileDatabase::setExplicitPaths(std::vector<std::string> paths) {
  explicitPaths = std::move(paths);
}

/// `path` with symbolic links resolved, or as given when that fails.
static std::string getRealPath(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (fs::real_path(path, real))
    return path.str();
  return std::string(real);
}

/// Reads the entries of a database into `loaded`; fails with a message.
static llvm::Error readEntries(llvm::StringRef dbPath, llvm::StringRef text,
                               llvm::StringMap<CompileCommand> &entries) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return json.takeError();
  const llvm::json::Array *array = json->getAsArray();
  if (!array)
    return llvm::createStringError("expected an array of entries");
  for (auto [i, value] : llvm::enumerate(*array)) {
    auto fail = [&, i = i](const llvm::Twine &what) {
      return llvm::createStringError("entry #" + llvm::Twine(i) + ": " + what);
    };
    const llvm::json::Object *entry = value.getAsObject();
    if (!entry)
      return fail("expected an object");
    std::optional<llvm::StringRef> file = entry->getString("file");
    const llvm::json::Array *args = entry->getArray("arguments");
    if (!file || !args)
      return fail("expected \"file\" and \"arguments\"");
    CompileCommand command;
    command.database = dbPath.str();
    command.kernel = entry->getString("kernel").value_or("").str();
    for (const llvm::json::Value &arg : *args) {
      std::optional<llvm::StringRef> s = arg.getAsString();
      if (!s)
        return fail("\"arguments\" must hold strings");
      command.arguments.push_back(s->str());
    }
    entries.try_emplace(*file, command);
    entries.try_emplace(getRealPath(*file), command);
  }
  return llvm::Error::success();
}

const CompileDatabase::Loaded *CompileDatabase::load(llvm::StringRef dbPath) {
  fs::file_status status;
  if (fs::status(dbPath, status) || !fs::is_regular_file(status))
    return nullptr;
  auto it = databases.find(dbPath);
  if (it != databases.end() &&
      it->second.modified == status.getLastModificationTime() &&
      it->second.size == status.getSize())
    return &it->second;

  Loaded loaded;
  loaded.modified = status.getLastModificationTime();
  loaded.size = status.getSize();
  auto buffer = llvm::MemoryBuffer::getFile(dbPath, /*IsText=*/true);
  if (!buffer)
    loaded.error = buffer.getError().message();
  else if (llvm::Error err =
               readEntries(dbPath, (*buffer)->getBuffer(), loaded.entries))
    loaded.error = llvm::toString(std::move(err));
  if (!loaded.error.empty())
    loaded.entries.clear();
  return &(databases[dbPath] = std::move(loaded));
}

CompileDatabase::LookupResult CompileDatabase::lookup(llvm::StringRef file) {
  LookupResult result;
  std::string realFile = getRealPath(file);
  auto search = [&](llvm::StringRef dbPath) {
    const Loaded *db = load(dbPath);
    if (!db)
      return false;
    if (!db->error.empty()) {
      result.problems.push_back(dbPath.str() + ": " + db->error);
      return false;
    }
    auto it = db->entries.find(file);
    if (it == db->entries.end())
      it = db->entries.find(realFile);
    if (it == db->entries.end())
      return false;
    result.command = it->second;
    return true;
  };

  for (const std::string &given : explicitPaths) {
    llvm::SmallString<256> dbPath(given);
    if (fs::is_directory(dbPath))
      path::append(dbPath, kCompileDatabaseName);
    if (search(dbPath))
      return result;
  }
  for (llvm::StringRef dir = path::parent_path(file); !dir.empty();
       dir = path::parent_path(dir)) {
    llvm::SmallString<256> beside(dir), inBuild(dir);
    path::append(beside, kCompileDatabaseName);
    path::append(inBuild, "build", kCompileDatabaseName);
    if (search(beside) || search(inBuild))
      return result;
    if (dir == path::root_path(dir))
      break;
  }
  return result;
}

} // namespace pblsp
