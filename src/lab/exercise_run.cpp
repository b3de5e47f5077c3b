// lab/exercise_run.cpp: runs a learner's exercise file in attn's sandbox and takes the variable the
// exercise asks for as an Answer (answer_from_code, exercise.h).
//
// What it is: one fresh torch::Session per file, with the kernels and dropout RNG of the lesson
// run it is graded against and the limits of lesson cells (time, steps, memory, no files, no
// network, no subprocesses: the interpreter has none of them); the file runs as one program named
// after its path, so an error says FILE:LINE. What it is not: the grading (grade.h) or the
// exercise file's layout (exercise.cpp).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <new>

#include "core/errors.h"
#include "lab/arrays.h"
#include "lab/exercise.h"
#include "torch/session.h"
#include "torch/values.h"

namespace attn::lab {

using namespace attn::lesson;

namespace {

// A learner's file: a few KB of Python; 1 MiB at most (a mistyped path to a data file fails fast).
// Opened once, without blocking, not through a link, and checked on that descriptor: a FIFO
// swapped in after a check by name would block the read (and a class folder is a student's archive).
std::string read_code(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) throw UsageError(path + ": no such file");
    if (errno == ELOOP)   // a student's link, graded in an instructor's loop, could quote any file in the feedback
      throw UsageError(path + ": is a symbolic link; attn checks only the .py file itself, not what a link points to");
    if (errno == EISDIR) throw UsageError(path + ": is a directory, not a Python file");
    throw UsageError(path + ": cannot be read (" + std::string(errno == EACCES ? "permission denied" : "cannot open it") + ")");
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw UsageError(path + ": cannot be read");
  if (S_ISDIR(st.st_mode)) throw UsageError(path + ": is a directory, not a Python file");
  if (!S_ISREG(st.st_mode)) throw UsageError(path + ": is not a regular file; an exercise is a .py file");
  if (static_cast<uint64_t>(st.st_size) > kMaxLessonFileBytes)
    throw UsageError(path + ": is larger than 1 MiB; an exercise is a few KB of Python");
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError(path + ": cannot be read");
    if (n == 0) break;
    text.append(chunk, static_cast<size_t>(n));
    if (text.size() > kMaxLessonFileBytes) throw UsageError(path + ": is larger than 1 MiB; an exercise is a few KB of Python");
  }
  return text;
}

// The line of `var = ...  # TODO` in the file, or 0.
int todo_line(const std::string& code, const std::string& var) {
  int line = 1;
  for (size_t at = 0; at < code.size(); ++line) {
    size_t nl = code.find('\n', at);
    std::string l = code.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (l.rfind(var + " = ...", 0) == 0) return line;
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return 0;
}

std::string still_todo(const std::string& path, const std::string& code, const std::string& var) {
  int line = todo_line(code, var);
  if (line == 0) return fmt::format("{}: `{}` is still `...`: compute it where the exercise's TODO is", path, var);
  return fmt::format("{}:{}: `{}` is still `...`: write the code the TODO on line {} asks for", path, line, var, line);
}

const char* numpy_descr(core::DType d) {
  switch (d) {
    case core::DType::float32: return "<f4";
    case core::DType::int64: return "<i8";
    case core::DType::int32: return "<i4";
    case core::DType::int16: return "<i2";
    case core::DType::int8: return "|i1";
    case core::DType::uint8: return "|u1";
    case core::DType::boolean: return "|b1";
  }
  return "?";
}

Answer tensor_answer(const core::Tensor& t, const std::string& path, const std::string& var) {
  Answer a;
  a.file = path;
  a.format = Answer::Format::code;
  a.dtype = numpy_descr(t.dtype());
  a.shape = t.shape();
  a.data.reserve(static_cast<size_t>(t.numel()));
  for (int64_t k = 0; k < t.numel(); ++k) {
    double v = t.at(k);
    if (std::isnan(v))
      a.nans.push_back({k, 0, fmt::format("{}: element {} of `{}` is NaN", path, index_str(unravel(k, a.shape)), var)});
    a.data.push_back(v);
  }
  return a;
}

}  // namespace

Answer answer_from_code(const LessonRun& run, const std::string& step_id, const RunOptions& opts, const std::string& path) {
  std::string var = require_exercise(run, step_id);
  std::string code = read_code(path);
  torch::Session in(run.cpu, run.rng);
  in.set_import_dir(std::filesystem::path(run.lesson->path).parent_path().string());   // as the lesson's cells import
  in.set_main_file(path);
  in.set_code_name("your code");
  std::ostream discard(nullptr);    // what the file writes to sys.stderr (or warns) is not the grader's to print
  in.python().err = &discard;
  if (opts.time_limit) in.set_time_limit(*opts.time_limit);
  std::string failure;
  try {
    in.run_cell(code, false, 1);
  } catch (const py::ScriptError& e) {
    failure = fmt::format("{}:{}: {}", e.file.empty() ? path : e.file, e.line, e.text());
  } catch (const std::bad_alloc&) {
    failure = path + ": out of memory while running this file";
  }
  in.take_output();   // what it printed is the learner's to read when running it; the report is the check's
  in.take_printed();
  const auto& names = in.python().main_module()->names;
  auto it = names.find(var);
  // An untouched TODO is named as such, even when the code after it then failed on the `...`.
  if (it != names.end() && it->second.kind == py::Value::Ellipsis) throw CodeError(still_todo(path, code, var));
  if (!failure.empty()) throw CodeError(failure);
  if (it == names.end())
    throw CodeError(fmt::format("{}: your code never assigns `{}`, the variable the exercise of step '{}' asks for", path, var, step_id));
  if (!torch::is_tensor(it->second))
    throw CodeError(fmt::format("{}: `{}` is a value of type {}, not a tensor; the exercise asks for the tensor step '{}' prints",
                                path, var, py::type_name(it->second), step_id));
  return tensor_answer(torch::as_tensor(it->second), path, var);
}

}  // namespace attn::lab
