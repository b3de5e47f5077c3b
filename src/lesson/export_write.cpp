// lesson/export_write.cpp: the all-or-nothing writer of `attn export` (see export_write.h).
//
// POSIX calls on purpose: std::filesystem cannot open relative to a directory descriptor or
// refuse to follow a symlink, and both are what keeps a planted link from redirecting a write.
// Temporary files are not fsync'ed: the guarantee is about failures attn sees (a full disk, a
// read-only directory, a refusal), not about power loss.
#include "lesson/export_write.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "core/errors.h"

namespace attn::lesson {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxRead = size_t{64} << 20;   // an index.json or notebook attn wrote is far smaller

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }
std::string why() { return std::strerror(errno); }

// `path` without trailing slashes ("a/b/" -> "a/b"; "/" stays): with one, lstat and O_NOFOLLOW
// would follow a symlink named by the last component.
std::string strip_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string joined(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

bool plain_npy_name(const std::string& n) {
  if (n.empty() || n.size() > 255 || n[0] == '.' || !n.ends_with(".npy")) return false;
  return std::all_of(n.begin(), n.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-' || c == '.'; });
}

void write_all(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::system_error(errno ? errno : EIO, std::generic_category());
    done += static_cast<size_t>(n);
  }
}

// The bytes of regular file `name` in `dirfd` (not through a symlink), if it is one and small.
std::optional<std::string> read_regular(int dirfd, const std::string& name) {
  int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) <= kMaxRead) {
    std::string bytes(static_cast<size_t>(st.st_size), '\0');
    size_t got = 0;
    for (ssize_t n; got < bytes.size() && (n = ::read(fd, bytes.data() + got, bytes.size() - got)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      got += static_cast<size_t>(n);
    }
    if (got == bytes.size()) out = std::move(bytes);
  }
  ::close(fd);
  return out;
}

// What is at an output name now.
enum class Existing { none, regular, link, directory, special };

Existing existing_at(int dirfd, const std::string& name, const std::string& path) {
  struct stat st;
  if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return Existing::none;
    fail(fmt::format("cannot write '{}': {}", path, why()));
  }
  if (S_ISREG(st.st_mode)) return Existing::regular;
  if (S_ISLNK(st.st_mode)) return Existing::link;
  if (S_ISDIR(st.st_mode)) return Existing::directory;
  return Existing::special;
}

// Refuses to replace what is at `path` unless it is attn's (`owned`) or --force allows it.
// `foreign` says why a regular file is not attn's.
void may_replace(Existing e, bool owned, bool force, const std::string& path, const std::string& foreign) {
  switch (e) {
    case Existing::none: return;
    case Existing::directory: fail(fmt::format("cannot write '{}': it is a directory", path));
    case Existing::special: fail(fmt::format("refusing to overwrite '{}': it is not a regular file", path));
    case Existing::link:
      if (!force)
        fail(fmt::format("refusing to overwrite '{}': it is a symbolic link, and attn never writes through one; --force replaces "
                         "the link itself",
                         path));
      return;
    case Existing::regular:
      if (!owned && !force) fail(fmt::format("refusing to overwrite '{}': {}; --force replaces it", path, foreign));
      return;
  }
}

// Creates `dir` and its missing parents; returns those it created, outermost first.
std::vector<std::string> make_dirs(const std::string& dir, const std::string& shown) {
  std::vector<std::string> missing;
  for (fs::path p(dir); !p.empty(); p = p.parent_path()) {
    struct stat st;
    if (::lstat(p.c_str(), &st) == 0) break;
    if (errno != ENOENT) fail(fmt::format("cannot create directory '{}': {}", shown, why()));
    missing.push_back(p.string());
    if (p == p.parent_path()) break;
  }
  std::reverse(missing.begin(), missing.end());
  std::vector<std::string> made;
  for (const std::string& m : missing) {
    if (::mkdir(m.c_str(), 0777) != 0) {
      int err = errno;
      for (auto it = made.rbegin(); it != made.rend(); ++it) ::rmdir(it->c_str());
      errno = err;
      fail(fmt::format("cannot create directory '{}': {}", shown, why()));
    }
    made.push_back(m);
  }
  return made;
}

}  // namespace

// ---- recognising attn's own files ----

std::optional<std::vector<std::string>> attn_index_files(std::string_view bytes) {
  if (!bytes.starts_with("{\n  \"lesson\": \"")) return std::nullopt;
  size_t arrays = bytes.find("\n  \"arrays\": [");
  if (arrays == std::string_view::npos) return std::nullopt;
  std::vector<std::string> files;
  const std::string_view key = "{\"file\": \"";
  for (size_t k = bytes.find(key, arrays); k != std::string_view::npos; k = bytes.find(key, k + 1)) {
    size_t b = k + key.size(), e = bytes.find('"', b);
    if (e == std::string_view::npos) return std::nullopt;
    std::string name(bytes.substr(b, e - b));
    if (!plain_npy_name(name)) return std::nullopt;
    files.push_back(name);
  }
  return files;
}

bool is_attn_notebook(std::string_view bytes) {
  if (bytes.find("\"nbformat\": 4") == std::string_view::npos) return false;
  size_t attn = bytes.find("\"attn\": {");
  if (attn == std::string_view::npos) return false;
  size_t lesson = bytes.find("\"lesson\": \"", attn);
  return lesson != std::string_view::npos && lesson < bytes.find('}', attn);
}

// ---- the writer ----

// A temporary file of an export that died (SIGKILL, a power cut): `.attn-PID-N.tmp` whose PID
// no longer runs. Called with the folder's lock held, so no live export of this folder is staging.
void remove_dead_temporaries(int dirfd) {
  int scan = ::dup(dirfd);
  if (scan < 0) return;
  DIR* dir = ::fdopendir(scan);
  if (!dir) {
    ::close(scan);
    return;
  }
  ::rewinddir(dir);
  std::vector<std::string> dead;
  while (const dirent* e = ::readdir(dir)) {
    long pid = 0, n = 0;
    int used = 0;
    if (std::sscanf(e->d_name, ".attn-%ld-%ld.tmp%n", &pid, &n, &used) != 2 || e->d_name[used] != '\0' || pid <= 0) continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) dead.emplace_back(e->d_name);
  }
  ::closedir(dir);
  for (const std::string& name : dead) ::unlinkat(dirfd, name.c_str(), 0);
}

struct ExportWriter::Dir {
  std::string shown;   // the directory as the user named it, for messages
  int fd = -1;
  struct stat st {};
  struct Staged {
    std::string tmp, name;
    bool last = false;      // renamed after the stale files are gone (index.json)
    bool renamed = false;
  };
  std::vector<Staged> staged;
  std::vector<std::string> stale;   // the previous export's files this one does not write

  ~Dir() {
    if (fd < 0) return;
    for (const Staged& s : staged)
      if (!s.renamed) ::unlinkat(fd, s.tmp.c_str(), 0);
    ::close(fd);
  }

  std::string path(const std::string& name) const { return joined(shown, name); }

  // Writes `bytes` under a fresh temporary name, never through a link (O_EXCL | O_NOFOLLOW).
  void stage(const std::string& name, const std::string& bytes, bool last) {
    std::string tmp;
    int fd_out = -1;
    for (int k = 0; fd_out < 0; ++k) {
      tmp = fmt::format(".attn-{}-{}.tmp", ::getpid(), staged.size() * 1000 + static_cast<size_t>(k));
      fd_out = ::openat(fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd_out < 0 && (errno != EEXIST || k >= 999)) fail(fmt::format("cannot write '{}': {}", path(name), why()));
    }
    staged.push_back({tmp, name, last, false});
    try {
      write_all(fd_out, bytes);
    } catch (const std::system_error& e) {
      ::close(fd_out);
      fail(fmt::format("cannot write '{}': {}", path(name), std::strerror(e.code().value())));
    }
    if (::close(fd_out) != 0) fail(fmt::format("cannot write '{}': {}", path(name), why()));
  }

  void rename_staged(Staged& s) {
    if (::renameat(fd, s.tmp.c_str(), fd, s.name.c_str()) != 0) fail(fmt::format("cannot write '{}': {}", path(s.name), why()));
    s.renamed = true;
  }
};

ExportWriter::ExportWriter(bool force) : force_(force) {}

ExportWriter::~ExportWriter() {
  dirs_.clear();   // removes the temporary files first
  if (!committed_)
    for (auto it = created_.rbegin(); it != created_.rend(); ++it) ::rmdir(it->c_str());
}

void ExportWriter::stage_dir(const std::string& dir_shown, const std::vector<OutputFile>& files, const std::string& index) {
  std::string dir = strip_slashes(dir_shown);
  auto d = std::make_unique<Dir>();
  d->shown = dir_shown;
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) fail(fmt::format("cannot create directory '{}': {}", dir_shown, why()));
    for (std::string& m : make_dirs(dir, dir_shown)) created_.push_back(std::move(m));
  } else if (S_ISLNK(st.st_mode)) {
    fail(fmt::format("refusing to write into '{}': it is a symbolic link, and attn never writes through one (name the directory "
                     "it points to)",
                     dir_shown));
  } else if (!S_ISDIR(st.st_mode)) {
    fail(fmt::format("cannot write .npy files into '{}': it exists and is not a directory", dir_shown));
  }
  d->fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (d->fd < 0) fail(fmt::format("cannot open directory '{}': {}", dir_shown, why()));
  ::fstat(d->fd, &d->st);
  // One export into a folder at a time (an advisory lock, released when the folder is closed):
  // two at once would each rename their own files, leaving an index.json beside another run's
  // arrays. The next one then reads the index the first one wrote.
  while (::flock(d->fd, LOCK_EX) != 0)
    if (errno != EINTR) fail(fmt::format("cannot lock directory '{}': {}", dir_shown, why()));
  remove_dead_temporaries(d->fd);

  // What attn wrote here before: the files its index.json lists.
  Existing index_now = existing_at(d->fd, "index.json", d->path("index.json"));
  std::optional<std::vector<std::string>> previous;
  if (index_now == Existing::regular)
    if (auto bytes = read_regular(d->fd, "index.json")) previous = attn_index_files(*bytes);
  may_replace(index_now, previous.has_value(), force_, d->path("index.json"), "attn did not write it");
  std::vector<std::string> names;
  for (const OutputFile& f : files) {
    bool listed = previous && std::find(previous->begin(), previous->end(), f.name) != previous->end();
    may_replace(existing_at(d->fd, f.name, d->path(f.name)), listed, force_, d->path(f.name),
                previous ? "attn did not write it (" + d->path("index.json") + " does not list it)"
                         : "attn did not write it (no index.json of attn's beside it lists it)");
    names.push_back(f.name);
  }
  if (previous)
    for (const std::string& old : *previous)
      if (std::find(names.begin(), names.end(), old) == names.end() && existing_at(d->fd, old, d->path(old)) == Existing::regular &&
          std::find(d->stale.begin(), d->stale.end(), old) == d->stale.end())
        d->stale.push_back(old);

  dirs_.push_back(std::move(d));
  Dir& staged = *dirs_.back();
  for (const OutputFile& f : files) staged.stage(f.name, f.bytes, false);
  staged.stage("index.json", index, true);
}

void ExportWriter::stage_file(const std::string& path_shown, const std::string& bytes, bool (*owned)(std::string_view),
                              const std::string& what) {
  if (path_shown.ends_with('/')) fail(fmt::format("cannot write '{}': Is a directory", path_shown));
  fs::path p(path_shown);
  std::string name = p.filename().string(), parent = p.parent_path().string();
  if (name.empty() || name == "." || name == "..") fail(fmt::format("cannot write '{}': Is a directory", path_shown));
  auto d = std::make_unique<Dir>();
  d->shown = parent;
  d->fd = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d->fd < 0) fail(fmt::format("cannot write '{}': {}", path_shown, why()));
  ::fstat(d->fd, &d->st);
  // The same directory as an --npy export of this run: the names must not collide.
  for (const auto& other : dirs_) {
    if (other->st.st_dev != d->st.st_dev || other->st.st_ino != d->st.st_ino) continue;
    for (const Dir::Staged& s : other->staged)
      if (s.name == name) throw UsageError(fmt::format("--notebook '{}' is also a file --npy writes", path_shown));
    other->stale.erase(std::remove(other->stale.begin(), other->stale.end(), name), other->stale.end());
  }
  Existing now = existing_at(d->fd, name, path_shown);
  if (now == Existing::directory) fail(fmt::format("cannot write '{}': Is a directory", path_shown));
  bool mine = false;
  if (now == Existing::regular)
    if (auto old = read_regular(d->fd, name)) mine = owned(*old);
  may_replace(now, mine, force_, path_shown, "it is not " + what + " attn wrote");
  dirs_.push_back(std::move(d));
  dirs_.back()->stage(name, bytes, false);   // its messages name parent/name: the path as given
}

size_t ExportWriter::commit() {
  size_t removed = 0;
  for (const auto& d : dirs_) {
    for (Dir::Staged& s : d->staged)
      if (!s.last) d->rename_staged(s);
    for (const std::string& old : d->stale)
      if (existing_at(d->fd, old, d->path(old)) == Existing::regular && ::unlinkat(d->fd, old.c_str(), 0) == 0) ++removed;
    for (Dir::Staged& s : d->staged)
      if (s.last) d->rename_staged(s);
  }
  committed_ = true;
  return removed;
}

}  // namespace attn::lesson
