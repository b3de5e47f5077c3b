// lab/progress.cpp: the learner's progress file (see progress.h).
#include "lab/progress.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace attn::lab {

namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxFileBytes = size_t{1} << 20;   // the course makes a few hundred bytes

std::function<void(const std::string&)>& sink() {
  static std::function<void(const std::string&)> s = [](const std::string& text) { std::cerr << "attn: " << text << "\n"; };
  return s;
}

// The first problem of the process is said; later ones would only repeat it.
void warn(const std::string& text) {
  static bool warned = false;
  if (warned) return;
  warned = true;
  sink()(text);
}

// Names as lessons and steps spell them (lowercase letters, digits, '-'), and a little more.
bool is_name(const std::string& s) {
  if (s.empty() || s.size() > 100) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

// One line of the file into `p`; false if it is not one attn writes.
bool parse_line(const std::string& line, Progress& p) {
  std::istringstream in(line);
  std::string kind, a, b, extra;
  in >> kind >> a >> b >> extra;
  if (!extra.empty() || !is_name(a)) return false;
  if (kind == "finished" && b.empty()) return p.finished.insert(a), true;
  if (!is_name(b)) return false;
  if (kind == "exercise") return p.exercises.emplace(a, b), true;
  if (kind == "at") return p.at = Position{a, b}, true;
  return false;
}

std::string reason() { return std::strerror(errno); }

std::string serialise(const Progress& p) {
  std::string out = "# attn progress: lessons finished, exercises passed, where you stopped (`attn progress --reset` clears it)\n";
  for (const std::string& l : p.finished) out += "finished " + l + "\n";
  for (const auto& e : p.exercises) out += "exercise " + e.first + " " + e.second + "\n";
  if (p.at) out += "at " + p.at->lesson + " " + p.at->step + "\n";
  return out;
}

}  // namespace

std::string progress_path() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state && state[0] == '/') return (fs::path(state) / "attn" / "progress").string();
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return (fs::path(home) / ".local" / "state" / "attn" / "progress").string();
  return "";
}

Progress load_progress() {
  Progress p;
  std::string path = progress_path();
  if (path.empty()) return warn("progress is not kept: neither XDG_STATE_HOME nor HOME is an absolute folder"), p;
  std::error_code ec;
  // A first run (or a folder that cannot hold it, which saving will name); a folder that may not
  // be looked into is said now.
  if (!fs::exists(path, ec) && ec != std::errc::permission_denied) return p;
  if (fs::is_directory(path, ec)) return warn("progress could not be read from " + path + ": it is a folder"), p;
  // a FIFO would block the open, a device never end: only a file (or a link to one) is read
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
    return warn("progress could not be read from " + path + ": it is not a regular file"), p;
  std::ifstream in(path, std::ios::binary);
  if (!in) return warn("progress could not be read from " + path + ": " + reason()), p;
  // Read in chunks up to one byte past the limit: a progress file of a hundred bytes costs a
  // hundred bytes, not the limit's MiB zero-filled (twice for every `attn lesson`).
  std::string text;
  char chunk[1 << 12];
  while (text.size() <= kMaxFileBytes && in.read(chunk, sizeof chunk).gcount() > 0) text.append(chunk, static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxFileBytes) return warn("progress could not be read from " + path + ": larger than 1 MiB, not attn's"), p;
  std::istringstream lines(text);
  int n = 0, bad = 0;
  for (std::string line; std::getline(lines, line);) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    if (!parse_line(line, p) && bad++ == 0)
      warn("progress in " + path + ": line " + std::to_string(n) + " is not attn's and was ignored");
  }
  return p;
}

bool save_progress(const Progress& p) {
  std::string path = progress_path();
  if (path.empty()) return warn("progress is not kept: neither XDG_STATE_HOME nor HOME is an absolute folder"), false;
  fs::path dir = fs::path(path).parent_path();
  std::error_code ec;
  bool made = fs::create_directories(dir, ec);
  if (ec) return warn("progress could not be saved: cannot make the folder " + dir.string() + ": " + ec.message()), false;
  if (made) fs::permissions(dir, fs::perms::owner_all, ec);   // 0700, as the XDG spec asks of what it makes
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << serialise(p);
    out.close();
    if (!out) {
      std::string why = reason();
      fs::remove(tmp, ec);
      return warn("progress could not be saved to " + path + ": " + why), false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = reason();
    fs::remove(tmp, ec);
    return warn("progress could not be saved to " + path + ": " + why), false;
  }
  return true;
}

bool reset_progress() {
  std::string path = progress_path();
  std::error_code ec;
  if (path.empty() || (!fs::remove(path, ec) && !ec)) return true;   // nothing to clear
  if (ec) return warn("progress could not be cleared: " + path + ": " + ec.message()), false;
  return true;
}

namespace {

// Holds an advisory lock on the progress folder's `progress.lock` while one process loads,
// changes and saves the file, so two attn processes recording at once (an `attn watch` and an
// `attn lesson`) both land. Without a lock file (no folder yet, read-only) it records unlocked.
class ProgressLock {
 public:
  ProgressLock() {
    const std::string path = progress_path();
    if (path.empty()) return;
    std::error_code ec;
    fs::path dir = fs::path(path).parent_path();
    if (fs::create_directories(dir, ec)) fs::permissions(dir, fs::perms::owner_all, ec);
    fd_ = ::open((dir / "progress.lock").c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~ProgressLock() {
    if (fd_ >= 0) ::close(fd_);   // releases the lock
  }
  ProgressLock(const ProgressLock&) = delete;
  ProgressLock& operator=(const ProgressLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

void record_exercise_passed(const std::string& lesson, const std::string& step) {
  if (!is_name(lesson) || !is_name(step)) return;
  ProgressLock lock;
  Progress p = load_progress();
  if (p.exercises.emplace(lesson, step).second) save_progress(p);
}

void record_position(const std::string& lesson, const std::string& step) {
  if (!is_name(lesson) || !is_name(step)) return;
  ProgressLock lock;
  Progress p = load_progress();
  p.at = Position{lesson, step};
  save_progress(p);
}

void record_finished(const std::string& lesson) {
  if (!is_name(lesson)) return;
  ProgressLock lock;
  Progress p = load_progress();
  p.finished.insert(lesson);
  if (p.at && p.at->lesson == lesson) p.at.reset();
  save_progress(p);
}

void set_progress_warning(std::function<void(const std::string&)> s) { sink() = std::move(s); }

ProgressMarks progress_marks(bool utf8) { return utf8 ? ProgressMarks{"✓", "▸"} : ProgressMarks{"x", ">"}; }

}  // namespace attn::lab
