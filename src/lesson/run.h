// lesson/run.h: runs a lesson's cells in order, in one fresh interpreter, with the learner's
// options applied (options.h), and keeps what each cell ran, wrote and printed.
//
// What it is: the LessonRun every output is made from: the walkthrough (render.h), verify
// (verify.h), JSON (json_run.h), export (export.h) and grading (lab/).
// What it is not: Python semantics (py/interpreter.h) or how a run is shown (render.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/cpu.h"
#include "core/random.h"
#include "lesson/lesson_file.h"
#include "lesson/options.h"
#include "py/value.h"

namespace attn::lesson {

// Who owns what. A LessonRun points into the Lesson it ran (`lesson`, each `step` and `cell`):
// the caller keeps that Lesson alive, unmoved, as long as it reads the run (run_lesson refuses a
// temporary Lesson). Everything else is the run's own: the code, the output and the printed
// values, which are deep snapshots (py::snapshot) and own what they refer to, functions'
// syntax trees included, so they outlive the Interpreter that made them.
struct CellRun {
  const Cell* cell = nullptr;
  std::string code;      // after --seed / --sentence were applied: what ran and is shown
  std::string output;    // everything print() wrote
  std::vector<py::PrintedValue> printed;   // the values it printed, in order
  std::string note;      // the cell's note with its placeholders filled from this run (prose.h)
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
};

// The text every view of a run shows (walkthrough, JSON, notebook): the step's prose, a cell's
// note and the intro, with their `{{...}}` placeholders filled from this run (lessons/README.md,
// "Numbers in prose"). Never the lesson file's raw text, whose numbers are the article's.
inline const std::string& filled_prose(const LessonRun&, const StepRun& step) { return step.prose; }
inline const std::string& filled_note(const LessonRun&, const CellRun& cell) { return cell.note; }
inline const std::string& filled_intro(const LessonRun& run) { return run.intro; }

// Runs every cell in order in one fresh interpreter. A Python error in a cell becomes
// LessonFileError "file:line: NameError: ...".
LessonRun run_lesson(const Lesson& lesson, const RunOptions& opts);
LessonRun run_lesson(Lesson&& lesson, const RunOptions& opts) = delete;   // the run would dangle

}  // namespace attn::lesson
