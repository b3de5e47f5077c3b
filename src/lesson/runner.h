// lesson/runner.h: runs a lesson's cells with the learner's options and renders the walkthrough;
// compares printed outputs with the article's (verify); finds the lesson catalogue.
//
// What it is: the layer between lesson files and the command line. Options such as --seed and
// --sentence are applied by rewriting the cell's code text, so the code shown is the code run.
// What it is not: command-line parsing (cli/) or Python semantics (py/interpreter.h).
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cpu.h"
#include "core/errors.h"
#include "core/random.h"
#include "lesson/lesson_file.h"
#include "py/value.h"

namespace attn::lesson {

struct RunOptions {
  std::optional<std::string> seed;       // replaces every torch.manual_seed(...) argument
  std::optional<std::string> sentence;   // replaces the `sentence = '...'` assignment
  std::optional<std::string> inputs;     // "0.43 0.15 0.89; 0.55 0.87 0.66; ...": replaces the
                                         // `inputs = torch.tensor(...)` literal
  std::optional<core::DropoutRng> rng;   // dropout mask; default: the lesson's `rng:` (mkl)
  std::optional<core::CpuKernels> cpu;   // kernel family; default: the lesson's `cpu:` (avx2)
  bool article_inputs() const { return !seed && !sentence && !inputs; }
};

struct CellRun {
  const Cell* cell = nullptr;
  std::string code;      // after --seed / --sentence were applied: what ran and is shown
  std::string output;    // everything print() wrote
  std::vector<py::PrintedValue> printed;   // the values it printed, in order
};

struct StepRun {
  const Step* step = nullptr;
  std::vector<CellRun> cells;
};

struct LessonRun {
  const Lesson* lesson = nullptr;
  std::vector<StepRun> steps;
  core::CpuKernels cpu = core::CpuKernels::avx2;   // what the numbers were computed with
  core::DropoutRng rng = core::DropoutRng::mkl;
};

// The kernel family and dropout RNG a run uses: the option if given, else what the lesson
// declares its article was printed with.
core::CpuKernels effective_cpu(const Lesson& lesson, const RunOptions& opts);
core::DropoutRng effective_rng(const Lesson& lesson, const RunOptions& opts);

// --step ID must name one of the lesson's steps (UsageError listing them, after `prefix`).
void require_step(const Lesson& lesson, const std::string& step, const std::string& prefix = "");

// Checks --seed / --sentence against PyTorch's rules and the lesson's code (UsageError if bad).
void validate(const Lesson& lesson, const RunOptions& opts);
std::string apply_options(const std::string& code, const RunOptions& opts);

// "0.43 0.15 0.89; 0.55 0.87 0.66" -> rows of numbers (UsageError naming what is wrong).
std::vector<std::vector<double>> parse_inputs(const std::string& text);

// Runs every cell in order in one fresh interpreter. A Python error in a cell becomes
// LessonFileError "file:line: NameError: ...".
LessonRun run_lesson(const Lesson& lesson, const RunOptions& opts);

// How render() shows a run (`attn lesson --heatmap --pause --quiet`). The lesson layer does no
// terminal I/O: the command line decides `color` and supplies `on_pause`.
struct DisplayOptions {
  bool heatmap = false;   // draw attention weights under the Out: block of the cell that printed them
  bool pause = false;     // call on_pause between two shown steps
  bool quiet = false;     // the cells' outputs only (and their heatmaps with `heatmap`): no headers,
                          // prose, code or notes
  bool color = false;     // heatmaps in 256-colour blocks instead of shade characters
  // Called between two shown steps when `pause` is set, with the text rendered since the last call
  // (render() returns only what follows the last call). Returns false to stop the walkthrough:
  // render() then returns "".
  std::function<bool(const std::string& text_so_far)> on_pause;
};

// The walkthrough as the learner reads it; `only_step` empty = every step.
//
// Heatmaps (display.heatmap): every value a cell printed that print::attention_matrices()
// accepts (2-D, or 3-D with one picture per batch element; at most 32 tokens a side), labelled
// with the lesson's tokens (lesson_tokens()) where their number matches the rows or columns.
// Side by side: the pictures of one cell, consecutive ones of the same shape, as many as fit in
// 80 columns; and a masked matrix (print::mark_masks) printed alone in its cell is drawn beside
// the last unmasked attention matrix of the same shape that an earlier cell printed.
std::string render(const LessonRun& run, const std::string& only_step, int lesson_number, int lesson_count,
                   const DisplayOptions& display = {});

// The lesson's tokens, for heatmap labels: the words of its `sentence = '...'` (as run, so after
// --sentence; commas removed, split on spaces, as the article does), else of its `tokens:`
// header, else none.
std::vector<std::string> lesson_tokens(const LessonRun& run);

// ---- catalogue ----
std::string lesson_dir();                                // $ATTN_LESSON_DIR or the build's lessons/
std::vector<Lesson> load_catalog(const std::string& dir);  // sorted in course order
const Lesson& find_lesson(const std::vector<Lesson>& all, const std::string& name);  // UsageError with suggestions

// ---- verify ----
struct CellCheck {
  std::string where;     // "causal/weights"
  bool match = false;
  std::string diff;      // "-expected\n+actual" lines when it differs
  std::string remark;    // why a match needed the article's declared erratum, if it did
};

// What print() wrote, without the `grad_fn=<...>` suffixes (and the line break PyTorch puts
// before a suffix that does not fit): what the article shows where it omitted them.
std::string strip_grad_fn(const std::string& printed);
std::vector<CellCheck> verify(const LessonRun& run);

}  // namespace attn::lesson
