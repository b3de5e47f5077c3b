// lesson/run.h: runs a lesson's cells in order, in one fresh interpreter, with the learner's
// options applied (options.h), and keeps what each cell ran, wrote and printed.
//
// What it is: the LessonRun every output is made from: the walkthrough (render.h), verify
// (verify.h), JSON (json_run.h), export (export.h) and grading (lab/). A run that a Python error
// stopped is a LessonRun too (run_until_error): what ran, up to and with the failing cell.
// What it is not: Python semantics (py/interpreter.h) or how a run is shown (render.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/cpu.h"
#include "core/random.h"
#include "lesson/lesson_file.h"
#include "lesson/options.h"
#include "torch/printed.h"

namespace attn::lesson {

// Who owns what. A LessonRun points into the Lesson it ran (`lesson`, each `step` and `cell`):
// the caller keeps that Lesson alive, unmoved, as long as it reads the run (run_lesson refuses a
// temporary Lesson). Everything else is the run's own: the code, the output and the printed
// values, which are plain records (torch/printed.h: copies made when printed), so they outlive
// the session that made them.
// The Python error that stopped a cell, and with it the run.
struct CellError {
  std::string file;      // the lesson file
  int line = 0;          // the file line the error is on
  std::string message;   // as Python words it: "NameError: name 'z' is not defined"
  std::string what() const;   // "file:line: message", the line attn prints on stderr
};

struct CellRun {
  const Cell* cell = nullptr;
  std::string code;      // after --seed / --sentence were applied: what ran and is shown
  std::string output;    // everything print() wrote (up to the error, if it failed)
  std::vector<torch::Printed> printed;     // the values it printed, in order
  std::string note;      // the cell's note with its placeholders filled from this run (prose.h)
  std::optional<CellError> error;          // set if this cell failed: the last cell of the run
};

struct StepRun {
  const Step* step = nullptr;
  std::vector<CellRun> cells;
  std::string prose;     // the step's prose with its placeholders filled from this run: each
                         // {{EXPR}} evaluated after the step's last cell, {{seed}} from its code
  std::string handout_prose;   // the same with each {{EXPR}} shown as `EXPR`, not its value: for a
                               // handout's steps the student writes, whose values are the answers
};

struct LessonRun {
  const Lesson* lesson = nullptr;
  std::vector<StepRun> steps;
  core::CpuKernels cpu = core::CpuKernels::avx2;   // what the numbers were computed with (the run's own)
  core::DropoutRng rng = core::DropoutRng::mkl;
  std::optional<std::string> sentence;   // --sentence as the learner gave it (nullopt: the lesson's own)
  std::string intro;     // the lesson's intro with its markers filled
  // The cell whose error stopped the run (the last cell of the last step), or nullptr when every
  // cell of the lesson ran.
  const CellRun* failed_cell() const;
};

// The text every view of a run shows (walkthrough, JSON, notebook): the step's prose, a cell's
// note and the intro, with their `{{...}}` placeholders filled from this run (lessons/README.md,
// "Numbers in prose"). Never the lesson file's raw text, whose numbers are the article's.
inline const std::string& filled_prose(const LessonRun&, const StepRun& step) { return step.prose; }
inline const std::string& filled_note(const LessonRun&, const CellRun& cell) { return cell.note; }
inline const std::string& filled_intro(const LessonRun& run) { return run.intro; }

// Runs every cell in order in one fresh interpreter. A Python error in a cell becomes
// LessonFileError "file:line: NameError: ..." (what `attn check` and `attn export` need: a whole run).
LessonRun run_lesson(const Lesson& lesson, const RunOptions& opts);
LessonRun run_lesson(Lesson&& lesson, const RunOptions& opts) = delete;   // the run would dangle

// The same, but a Python error (or running out of memory) in a cell ends the run instead of
// throwing: the run holds every step up to that cell, the failing cell last, with what it
// printed before the error and `error` set (failed_cell()). No later cell runs. What the
// walkthrough, `attn run`/`lesson` and `attn verify` show a failing lesson with. Bad options
// are still a UsageError, before any cell runs.
LessonRun run_until_error(const Lesson& lesson, const RunOptions& opts);
LessonRun run_until_error(Lesson&& lesson, const RunOptions& opts) = delete;

}  // namespace attn::lesson
