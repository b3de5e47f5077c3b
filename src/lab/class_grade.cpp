// lab/class_grade.cpp: `attn check --answers DIR`: the class folder listed and read safely, and
// every file graded against one run of the lesson (see class_report.h). The report's three
// formats are in class_format.cpp. What it is not: the comparison or the hints (grade.cpp).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>

#include "core/errors.h"
#include "lab/class_report.h"
#include "lab/report.h"

namespace attn::lab {

using lesson::LessonRun;
using lesson::RunOptions;

// ---- the folder ----

namespace {

ClassFile::Type type_of(mode_t m) {
  if (S_ISREG(m)) return ClassFile::Type::regular;
  if (S_ISDIR(m)) return ClassFile::Type::folder;
  if (S_ISLNK(m)) return ClassFile::Type::symlink;
  if (S_ISFIFO(m)) return ClassFile::Type::fifo;
  if (S_ISSOCK(m)) return ClassFile::Type::socket;
  if (S_ISCHR(m) || S_ISBLK(m)) return ClassFile::Type::device;
  return ClassFile::Type::other;
}

// "alice.npy" -> "alice"; "alice" -> "alice"; "a.b.csv" -> "a.b"
std::string stem_of(const std::string& name) {
  size_t dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// The student of each file: its stem, or its whole name when two files share the stem.
void name_students(std::vector<ClassFile>& files, const std::vector<std::string>& names) {
  std::map<std::string, int> stems;
  for (const std::string& n : names) ++stems[stem_of(n)];
  for (size_t k = 0; k < files.size(); ++k) files[k].student = printable(stems[stem_of(names[k])] > 1 ? names[k] : stem_of(names[k]));
}

}  // namespace

std::vector<ClassFile> list_class_folder(const std::string& dir) {
  const std::string shown = printable(dir);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) throw UsageError(shown + ": no such folder");
  if (!S_ISDIR(st.st_mode)) throw UsageError(shown + ": is not a folder (--answers takes a folder of answer files; --answer takes one file)");
  std::unique_ptr<DIR, int (*)(DIR*)> d(opendir(dir.c_str()), closedir);
  if (!d) throw UsageError(shown + ": cannot be read (permission denied?)");
  std::vector<std::string> names;
  while (const dirent* e = readdir(d.get()))
    if (e->d_name[0] != '.') names.emplace_back(e->d_name);   // ., .. and hidden files (.DS_Store, .gitkeep)
  if (names.empty()) throw UsageError(shown + ": holds no answer files (hidden files, whose names start with '.', are not graded)");
  std::sort(names.begin(), names.end());   // bytewise: std::string compares char_traits<char>, i.e. as unsigned char
  std::vector<ClassFile> files;
  for (const std::string& n : names) {
    ClassFile f;
    f.path = dir + (dir.back() == '/' ? "" : "/") + n;
    f.file = printable(n);
    struct stat s {};
    f.type = fstatat(dirfd(d.get()), n.c_str(), &s, AT_SYMLINK_NOFOLLOW) == 0 ? type_of(s.st_mode) : ClassFile::Type::other;
    files.push_back(std::move(f));
  }
  name_students(files, names);
  return files;
}

// ---- reading one file ----

namespace {

[[noreturn]] void refuse(const ClassFile& f, const std::string& why) { throw UsageError(f.file + ": " + why); }

std::string not_a_file(ClassFile::Type t) {
  switch (t) {
    case ClassFile::Type::folder: return "is a folder, not an answer file";
    case ClassFile::Type::symlink: return "is a symbolic link, which --answers does not follow (copy the file into the folder)";
    case ClassFile::Type::fifo: return "is a FIFO (named pipe), not an answer file";
    case ClassFile::Type::socket: return "is a socket, not an answer file";
    case ClassFile::Type::device: return "is a device, not an answer file";
    default: return "is not a regular file";
  }
}

// The bytes of a regular file of at most `limit` bytes. Opened without following a symbolic link
// and without blocking, then checked again: an entry replaced by a FIFO after the folder was
// listed is refused, not waited on.
std::string read_regular(const ClassFile& f, size_t limit, const std::string& limit_why) {
  int fd = open(f.path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) refuse(f, errno == ELOOP ? not_a_file(ClassFile::Type::symlink) : errno == EACCES ? "cannot be read (permission denied)" : "cannot be opened");
  std::unique_ptr<int, void (*)(int*)> guard(&fd, [](int* p) { ::close(*p); });
  struct stat st {};
  bool known = fstat(fd, &st) == 0;
  if (!known || !S_ISREG(st.st_mode)) refuse(f, not_a_file(known ? type_of(st.st_mode) : ClassFile::Type::other));
  if (static_cast<uint64_t>(st.st_size) > limit) refuse(f, fmt::format("is {} bytes, too large for {} (at most {} bytes are read)", st.st_size, limit_why, limit));
  std::string bytes;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse(f, "cannot be read");
    if (n == 0) break;
    bytes.append(buf, static_cast<size_t>(n));
    if (bytes.size() > limit) refuse(f, fmt::format("grew past {} bytes while it was read", limit));
  }
  return bytes;
}

bool is_code(const std::string& name) {
  if (name.size() < 3) return false;
  std::string ext = name.substr(name.size() - 3);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".py";
}

struct NotGraded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Context {
  const LessonRun& run;
  const Target& target;
  const Tolerance& tol;
  const RunOptions& opts;
  const CodeAnswer& code_answer;
};

// The one dispatch point from a file to an answer: a .py file is a learner's code, run by
// `code_answer` (`attn check --code`'s runner); any other file is read by its bytes, as
// `attn check --answer` reads it, at most 64 bytes per element of the graded tensor (1 MB at least).
Answer answer_of(const Context& c, const ClassFile& f) {
  if (f.type != ClassFile::Type::regular) refuse(f, not_a_file(f.type));
  if (is_code(f.file)) {
    if (!c.code_answer) throw NotGraded("code answers need `attn check --code` (integrated later)");
    Answer a = c.code_answer(*c.run.lesson, c.run.steps.at(c.target.step).step->id, c.opts, f.path);
    a.file = f.file;
    return a;
  }
  size_t numel = static_cast<size_t>(std::max<int64_t>(c.target.value.tensor().numel(), 1));
  size_t limit = std::clamp<size_t>(numel * 64, size_t{1} << 20, size_t{256} << 20);
  std::string bytes = read_regular(f, limit, "a " + core::shape_str(c.target.value.tensor().shape()) + " tensor");
  return parse_answer(bytes, f.file, /*allow_nan=*/true);
}

}  // namespace

// ---- grading ----

namespace {

// What differs, for a FAIL that no hint explains.
std::string difference_words(const Grade& g) {
  if (!g.shape_match)
    return fmt::format("shape {}, the lesson's {}", core::shape_str(g.got_shape), core::shape_str(g.expected_shape));
  return fmt::format("{} of {} elements differ, by up to {}", g.n_differ, g.n_elements, num(g.max_abs_diff));
}

StudentResult graded(const Context& c, const ClassFile& f) {
  StudentResult r;
  r.student = f.student, r.file = f.file;
  Answer a = answer_of(c, f);
  r.grade = grade(c.run, c.target, a, c.tol, c.opts);
  if (r.grade.pass) {
    r.status = StudentResult::Status::pass;
    return r;
  }
  if (!a.data.empty() && a.nans.size() == a.data.size())
    throw UsageError(fmt::format("{}: every number is NaN ({} of {}), nothing to compare; a NaN usually comes from a softmax over a "
                                 "row that is all -inf, or from 0/0",
                                 f.file, a.nans.size(), a.data.size()));
  r.status = StudentResult::Status::fail;
  for (const Hint& h : r.grade.hints) r.kinds.emplace_back(to_string(h.kind));
  r.kind = r.kinds.empty() ? "other" : r.kinds.front();
  r.message = printable(r.grade.hints.empty() ? difference_words(r.grade) : r.grade.hints.front().message);
  r.title = r.grade.hints.empty() ? r.message : std::string(title(r.grade.hints.front().kind));
  return r;
}

StudentResult unable(const ClassFile& f, StudentResult::Status status, const std::string& message) {
  StudentResult r;
  r.student = f.student, r.file = f.file;
  r.status = status;
  r.kind = status == StudentResult::Status::not_graded ? "not_graded" : "cannot_grade";
  r.message = printable(message);
  return r;
}

// Every problem with one file is a line of the report, never a stop.
StudentResult grade_file(const Context& c, const ClassFile& f) {
  using Status = StudentResult::Status;
  try {
    return graded(c, f);
  } catch (const NotGraded& e) {
    return unable(f, Status::not_graded, e.what());
  } catch (const UsageError& e) {
    return unable(f, Status::cannot_grade, e.message());
  } catch (const LessonFileError& e) {
    return unable(f, Status::cannot_grade, e.message());
  } catch (const std::bad_alloc&) {
    return unable(f, Status::cannot_grade, f.file + ": out of memory while grading it");
  } catch (const std::exception& e) {
    return unable(f, Status::cannot_grade, e.what());
  }
}

}  // namespace

ClassReport grade_class(const LessonRun& run, const Target& target, const std::vector<ClassFile>& files, const std::string& folder,
                        const Tolerance& tol, const RunOptions& opts, const CodeAnswer& code_answer) {
  ClassReport r;
  r.lesson = run.lesson->name();
  r.step = run.steps.at(target.step).step->id;
  r.name = target.value.name;
  r.folder = printable(folder);
  r.shape = target.value.tensor().shape();
  r.opts = opts, r.cpu = run.cpu, r.rng = run.rng, r.tol = tol;
  Context c{run, target, tol, opts, code_answer};
  for (const ClassFile& f : files) r.students.push_back(grade_file(c, f));
  return r;
}

}  // namespace attn::lab
