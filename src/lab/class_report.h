// lab/class_report.h: `attn check --answers DIR`: every file of a class folder graded against one
// run of the lesson, and the report an instructor reads first: one line per student, how many
// passed, and each mistake kind with its count and students.
//
// What it is: the folder read safely (only regular files are opened, without following a symbolic
// link and without blocking on a FIFO; a file too large for the graded tensor is not read; every
// other entry is a line of the report, not a stop), each file graded as `attn check --answer`
// grades it, and the report as text, one JSON document or CSV (one row per student). Names are
// made printable (control characters and bytes that are not UTF-8 escaped as Python's repr()
// does), so the JSON and CSV are valid whatever the folder holds.
// What it is not: the comparison or the hints (grade.h), the file reader (answer.h), the command
// line (cli/cmd_check.cpp), or the runner of a learner's Python file (CodeAnswer is its hook).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lab/grade.h"

namespace attn::lab {

// One entry of the class folder, as found (nothing is opened yet).
struct ClassFile {
  enum class Type { regular, folder, symlink, fifo, socket, device, other };
  std::string path;      // DIR/name, to open
  std::string file;      // the name, printable
  std::string student;   // the name without its extension, printable (the whole name if two files share a stem)
  Type type = Type::other;
};

// The entries of `dir` but hidden ones (names starting with '.'), sorted by name bytewise.
// UsageError if `dir` is not a readable folder or holds no such entry.
std::vector<ClassFile> list_class_folder(const std::string& dir);

// Runs a learner's Python file and returns the value it computes (`attn check --code`'s runner).
// Every .py file of the folder goes through it; without one (empty), a .py file is reported as
// not graded.
using CodeAnswer = std::function<Answer(const lesson::Lesson& lesson, const std::string& step, const lesson::RunOptions& opts,
                                        const std::string& path)>;

struct StudentResult {
  enum class Status { pass, fail, cannot_grade, not_graded };
  std::string student, file;   // printable
  Status status = Status::cannot_grade;
  std::string kind;            // the first hint's kind (HintKind's id), "other", "cannot_grade" or "not_graded"; empty on pass
  std::vector<std::string> kinds;   // every hint's kind, in the order reported
  std::string message;         // the first hint's message, the error, or what differs (printable); empty on pass
  std::string title;           // fail: the first hint's title (grade.h), or what differs
  Grade grade;                 // pass and fail only
};

struct ClassReport {
  std::string lesson, step, name, folder;   // folder: printable
  core::Shape shape;                        // the graded tensor's
  lesson::RunOptions opts;
  core::CpuKernels cpu{};
  core::DropoutRng rng{};
  Tolerance tol;
  std::vector<StudentResult> students;
};

// Grades every file of `files` against `target` of `run` (made with `opts`).
ClassReport grade_class(const lesson::LessonRun& run, const Target& target, const std::vector<ClassFile>& files, const std::string& folder,
                        const Tolerance& tol, const lesson::RunOptions& opts, const CodeAnswer& code_answer = {});

// "pass", "fail", "cannot_grade", "not_graded"
std::string_view to_string(StudentResult::Status s);

// The kinds of the class, in the order the summary lists them (kHints' order, then other,
// cannot_grade, not_graded), each with its students in report order.
struct KindCount {
  std::string kind;
  std::vector<std::string> students;
};
std::vector<KindCount> kind_counts(const ClassReport& r);

// One line per student fitted to `width` columns (a message cut at a word, with "..."), then the
// summary; one JSON document (one line); CSV with a header row and one row per student.
std::string format_class_text(const ClassReport& r, size_t width);
std::string format_class_json(const ClassReport& r);
std::string format_class_csv(const ClassReport& r);

}  // namespace attn::lab
