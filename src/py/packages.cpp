// py/packages.cpp: imports from the lesson's folder, as CPython's path finder reads one sys.path
// entry: NAME/__init__.py (a package), else NAME.py (a module), else a folder NAME/ without
// __init__.py (a namespace package); a dotted name a.b.c imports a, then a.b, then a.b.c from
// the folder of the package above it, and makes each an attribute of its parent; `from .x import
// y` and `from .. import z` name modules relative to the running module's __package__, with
// CPython's errors.
//
// What it is not: sys.path, .pyc or zip imports, or any file outside the lesson's folder: a module
// name is made of identifiers, so it cannot spell `..` or `/`, and a link that leads out of the
// folder is refused by its real path (the sandbox of docs/instructors.md, "Untrusted lesson and answer files").
// A file is opened once and checked on that descriptor (read_in_folder): swapping it for a link
// out of the folder between the check and the read cannot make attn read the other file.
// The built-in modules and `import`'s statement forms are modules.cpp's.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <set>
#include <string>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"

namespace attn::py {

namespace fs = std::filesystem;

namespace {

// Whether `path` lies in `root` (both real paths: links followed).
bool inside(const fs::path& root, const fs::path& path) {
  auto r = root.begin(), p = path.begin();
  for (; r != root.end(); ++r, ++p)
    if (p == path.end() || *r != *p) return false;
  return true;
}

}  // namespace

// The file or folder `path` (lexically in the lesson's folder), refused if its real path is not.
void Interpreter::check_in_folder(const std::string& path) const {
  std::error_code ec;
  auto root = fs::weakly_canonical(import_dir_.empty() ? "." : import_dir_, ec);
  auto real = fs::weakly_canonical(path, ec);
  if (ec || !inside(root, real) || real == root)
    throw ImportError("attn imports .py files from the lesson's folder only, and " + path + " leads out of it");
}

namespace {

// Closes a descriptor on every path out.
struct ModuleFd {
  int fd;
  ~ModuleFd() {
    if (fd >= 0) ::close(fd);
  }
};

// At most limits::kMaxModuleFileBytes from fd, as a lesson file: a data file named like a module
// must not fill the memory before it fails to parse.
std::string read_module_fd(int fd, const std::string& path) {
  std::string text(limits::kMaxModuleFileBytes + 1, '\0');   // one byte more than allowed: enough to know it is too large
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw ImportError("cannot read " + path);
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  text.resize(got);
  if (text.size() > limits::kMaxModuleFileBytes)
    throw ImportError(fmt::format("{} is larger than {} MiB ({} bytes), attn's limit for an imported .py file "
                                  "(limits::kMaxModuleFileBytes)", path, limits::kMaxModuleFileBytes >> 20,
                                  limits::kMaxModuleFileBytes));
  return text;
}

}  // namespace

// The text of the module file `path`, opened once: a regular file (a FIFO or a device is refused
// before it is read, never waited on), and the file that descriptor holds is the one whose real
// path lies in the folder (same device and inode), so a link swapped in after the check is not read.
std::string Interpreter::read_in_folder(const std::string& path) const {
  ModuleFd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  struct stat opened {}, named {};
  if (f.fd < 0 || ::fstat(f.fd, &opened) != 0 || !S_ISREG(opened.st_mode)) throw ImportError("cannot read " + path);
  std::error_code ec;
  const auto root = fs::weakly_canonical(import_dir_.empty() ? "." : import_dir_, ec);
  const auto real = fs::canonical(path, ec);
  if (ec || !inside(root, real) || real == root || ::stat(real.c_str(), &named) != 0 || named.st_dev != opened.st_dev ||
      named.st_ino != opened.st_ino)
    throw ImportError("attn imports .py files from the lesson's folder only, and " + path + " leads out of it");
  return read_module_fd(f.fd, path);
}

std::vector<std::string> Interpreter::module_names() const {
  std::set<std::string> names;
  for (const auto& [name, make] : makers_) names.insert(name);
  for (const auto& [key, module] : modules_)
    if (key.rfind("<builtin>:", 0) == 0) names.insert(key.substr(10));
  return {names.begin(), names.end()};
}

// `name` from the lesson's folder (or from the folder of the package it is in), or none if that
// folder has no module of the name. Its parent package is imported first.
std::optional<Value> Interpreter::import_from_folder(const std::string& name) {
  const auto dot = name.rfind('.');
  const std::string last = dot == std::string::npos ? name : name.substr(dot + 1);
  fs::path base = import_dir_.empty() ? fs::path(".") : fs::path(import_dir_);
  Value parent;
  if (dot != std::string::npos) {
    parent = import_module(name.substr(0, dot));
    auto where = names_of(parent).names.find("__path__");
    if (where == names_of(parent).names.end() || where->second.kind != Value::Str)
      throw ModuleNotFoundError("No module named '" + name + "'; '" + name.substr(0, dot) + "' is not a package");
    base = where->second.s;
  }
  std::error_code ec;
  const fs::path dir = base / last, init = dir / "__init__.py", file = base / (last + ".py");
  Value module;
  if (fs::is_directory(dir, ec) && fs::is_regular_file(init, ec)) {
    check_in_folder(dir.string());
    module = import_file(name, init.lexically_normal().string(), dir.lexically_normal().string());
  } else if (fs::is_regular_file(file, ec)) {
    module = import_file(name, file.lexically_normal().string());
  } else if (fs::is_directory(dir, ec)) {
    check_in_folder(dir.string());
    module = namespace_package(name, dir.lexically_normal().string());
  } else {
    return std::nullopt;
  }
  if (dot != std::string::npos) names_of(parent).names[last] = module;   // `import a.b` makes b an attribute of a
  return module;
}

// A folder without __init__.py: a module with a __path__ and no file, made once.
Value Interpreter::namespace_package(const std::string& name, const std::string& dir) {
  auto cached = modules_.find(dir + "/");
  if (cached != modules_.end()) return cached->second;
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["__name__"] = Value::str(name);
  ns->names["__file__"] = Value::none();
  ns->names["__package__"] = Value::str(name);
  ns->names["__path__"] = Value::str(dir);
  Value module = module_value(name, ns);
  modules_[dir + "/"] = module;
  return module;
}

// `from .x import y` run in module M: the absolute name of `.x`, from M's __package__ (CPython's
// importlib._bootstrap._resolve_name and its errors).
std::string Interpreter::resolve_relative(const std::string& spec) const {
  size_t level = spec.find_first_not_of('.');
  if (level == std::string::npos) level = spec.size();
  auto it = globals_->names.find("__package__");
  std::string base = it != globals_->names.end() && it->second.kind == Value::Str ? it->second.s : "";
  if (base.empty()) throw ImportError("attempted relative import with no known parent package");
  for (size_t k = 1; k < level; ++k) {
    auto dot = base.rfind('.');
    if (dot == std::string::npos) throw ImportError("attempted relative import beyond top-level package");
    base.resize(dot);
  }
  return level == spec.size() ? base : base + "." + spec.substr(level);
}

}  // namespace attn::py
