// lesson/catalog.cpp: finding, ordering and naming lessons (see catalog.h).
#include "lesson/catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "lesson/options.h"
#include "lesson/suggest.h"

namespace attn::lesson {

namespace {

namespace fs = std::filesystem;

// The running executable, symlinks resolved (empty where /proc/self/exe is not available).
fs::path self_exe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

// Is `p` inside folder `dir` (both absolute)? Compared component by component, after resolving
// the folder's symlinks as /proc/self/exe resolves the executable's.
bool is_inside(const fs::path& p, const fs::path& dir) {
  std::error_code ec;
  fs::path d = fs::weakly_canonical(dir, ec);
  if (ec || d.empty()) return false;
  auto [end_d, end_p] = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
  return end_d == d.end();
}

}  // namespace

// The course's folder (docs/development.md, "Installing and packaging"): the lessons installed beside the executable, <exe dir>/../share/attn/lessons, wherever the prefix
// was installed or moved to; then, for a binary of the build tree (attn, tests/attn_tests), the
// source tree's lessons/, so an edited lesson shows without installing. An installed binary
// never reads the source tree: without its lessons, the error names where they should be.
std::string lesson_dir() {
  fs::path exe = self_exe();
  if (exe.empty()) return ATTN_SOURCE_LESSON_DIR;
  fs::path installed = (exe.parent_path() / ATTN_INSTALLED_LESSON_DIR).lexically_normal();
  std::error_code ec;
  if (fs::is_directory(installed, ec) || !is_inside(exe, ATTN_BUILD_DIR)) return installed.string();
  return ATTN_SOURCE_LESSON_DIR;
}

std::vector<Lesson> load_catalog(const std::string& dir, Reading reading) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw std::runtime_error("lesson directory '" + dir + "' is a file, not a folder (set ATTN_LESSON_DIR to a folder of .lesson files, such as lessons/)");
  if (!fs::is_directory(dir, ec)) throw std::runtime_error("lesson directory '" + dir + "' does not exist (set ATTN_LESSON_DIR to the lessons/ folder)");
  std::vector<std::string> paths;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".lesson") continue;
    std::error_code tec;
    // A named pipe or device called *.lesson: refused by name, never opened (an open would wait).
    if (!e.is_regular_file(tec) && !e.is_directory(tec))
      throw LessonFileError(e.path().string() + ": is not a regular file (a named pipe or a device?); a lesson folder holds .lesson files");
    paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Lesson> out;
  for (const std::string& p : paths) {
    Lesson l = reading == Reading::whole ? read_lesson(p) : read_lesson_header(p);
    for (const Lesson& other : out)
      if (other.name() == l.name())
        throw LessonFileError(fmt::format("{}:{}: name: '{}' is already the name of {}:{}; give each lesson its own name", l.path,
                                          l.header.name_line, l.name(), other.path, other.header.name_line));
    out.push_back(std::move(l));
  }
  auto rank = [](const Lesson& l) { return std::make_pair(l.header.group, l.header.order); };
  std::stable_sort(out.begin(), out.end(), [&](const Lesson& a, const Lesson& b) { return rank(a) < rank(b); });
  return out;
}

std::string added_lesson_dir() {
  const char* env = std::getenv("ATTN_LESSON_DIR");
  return env ? env : "";
}

// The folder's lessons are read first (their errors name the folder), then the course's; a
// course lesson whose name a folder lesson has is left out, and the folder's lesson says so.
std::vector<Lesson> load_lessons(Reading reading) {
  const std::string added = added_lesson_dir(), course_dir = lesson_dir();
  if (added.empty()) return load_catalog(course_dir, reading);
  std::vector<Lesson> out = load_catalog(added, reading);
  for (Lesson& l : out) l.added = true;
  std::error_code ec;
  if (!fs::is_directory(course_dir, ec)) return out;   // an attn without its course: the folder alone
  if (fs::equivalent(course_dir, added, ec)) {         // the course's own folder, named again: the course
    for (Lesson& l : out) l.added = false;
    return out;
  }
  for (Lesson& l : load_catalog(course_dir, reading)) {
    auto mine = std::find_if(out.begin(), out.end(), [&](const Lesson& m) { return m.added && m.name() == l.name(); });
    if (mine != out.end()) mine->replaces = l.path;
    else out.push_back(std::move(l));
  }
  auto rank = [](const Lesson& l) { return std::make_pair(l.header.group, l.header.order); };
  std::stable_sort(out.begin(), out.end(), [&](const Lesson& a, const Lesson& b) { return rank(a) < rank(b); });
  return out;
}

const Lesson& find_lesson(const std::vector<Lesson>& all, const std::string& name) {
  std::vector<std::string> names;
  for (const Lesson& l : all) {
    if (l.name() == name) return l;
    names.push_back(l.name());
  }
  std::string msg = "no lesson named " + quoted_input(name);
  if (auto near = suggest(name, names)) msg += "; did you mean '" + *near + "'?";
  throw UsageError(msg + " (`attn list` shows all lessons)");
}

// The whole file replaces the header-only entry; where it came from (added, replaces) stays.
const Lesson& read_whole_lesson(std::vector<Lesson>& all, const std::string& name) {
  Lesson& entry = all[static_cast<size_t>(&find_lesson(all, name) - all.data())];
  Lesson whole = read_lesson(entry.path);
  whole.added = entry.added;
  whole.replaces = std::move(entry.replaces);
  entry = std::move(whole);
  return entry;
}

}  // namespace attn::lesson
