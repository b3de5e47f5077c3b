// lesson/options.h: the learner's options for a lesson run (--seed, --sentence, --inputs, --rng,
// --cpu, --step): their checks against PyTorch's rules and the lesson's code, and how they
// rewrite a cell's code.
//
// What it is: options are applied by rewriting the cell's code text, so the code shown is the
// code run. Every bad option is a UsageError (core/errors.h) saying what would be right.
// What it is not: command-line parsing (cli/) or running the cells (run.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/cpu.h"
#include "core/errors.h"
#include "core/random.h"
#include "lesson/lesson_file.h"

namespace attn::lesson {

struct RunOptions {
  std::optional<std::string> seed;       // replaces every torch.manual_seed(...) argument
  std::optional<std::string> sentence;   // replaces the `sentence = '...'` assignment
  std::optional<std::string> inputs;     // "0.43 0.15 0.89; 0.55 0.87 0.66; ...": replaces the
                                         // `inputs = torch.tensor(...)` literal
  std::optional<core::DropoutRng> rng;   // dropout mask; default: the lesson's `rng:` (mkl)
  std::optional<core::CpuKernels> cpu;   // kernel family; default: the lesson's `cpu:` (avx2)
  std::optional<double> time_limit;      // seconds each cell may run; default py::limits::kDefaultTimeLimit
  std::optional<std::string> last_step;  // run no step after this one (`--step`: what follows is not shown)
  bool article_inputs() const { return !seed && !sentence && !inputs; }
};

// The kernel family and dropout RNG a run uses: the option if given, else what the lesson
// declares its article was printed with.
core::CpuKernels effective_cpu(const Lesson& lesson, const RunOptions& opts);
core::DropoutRng effective_rng(const Lesson& lesson, const RunOptions& opts);

// The step `id` names: a step's id, else a number 1..N counting the steps as each heading does
// ("4/8": `--step 4`; an id that is a number wins). If none, the one message for it everywhere
// (UsageError, after `prefix`): "lesson 'causal' has no step 'tirl'; did you mean 'tril'? (its
// steps: setup, scores, ...)", the id quoted as Python's repr() would, so a newline or an escape
// character in it keeps the message on one line; an empty id and a number out of range are named
// as such. Callers use the returned Step's id from then on.
const Step& require_step(const Lesson& lesson, const std::string& id, const std::string& prefix = "");

// Checks --seed / --sentence against PyTorch's rules and the lesson's code (UsageError if bad).
void validate(const Lesson& lesson, const RunOptions& opts);

// For a run of many lessons (`attn verify` with no names): the options checked on their own
// (UsageError if bad), then without those the lesson has nothing for (--seed for a lesson that
// sets no seed, ...), whose names ("seed", "sentence", "inputs") go to `not_applied`.
RunOptions applicable_options(const Lesson& lesson, const RunOptions& opts, std::vector<std::string>& not_applied);

// A cell's code with the options applied: what is shown and run. With --inputs of another shape
// than `own` (the lesson's own inputs, Lesson::inputs_shape), the literals that hard-code it are
// adapted too (code_scan.h, rewrite_for_shape); without `own`, only the matrix is replaced.
std::string apply_options(const std::string& code, const RunOptions& opts, std::optional<InputsShape> own = std::nullopt);

// "0.43 0.15 0.89; 0.55 0.87 0.66" -> rows of numbers: at least two rows (the lessons take the
// second token as the query), all of the same length (UsageError naming what is wrong).
std::vector<std::vector<double>> parse_inputs(const std::string& text);

// What the user typed, for a message: quoted as Python's repr() does (a newline or an escape
// character stays on one line), and cut after 60 characters with the length said. Not named
// quoted(): with <filesystem> (<iomanip>) in sight, an unqualified quoted(s) on a non-const string
// would pick std::quoted by ADL (silently in a stream), as it did in a unity build.
std::string quoted_input(const std::string& text);

}  // namespace attn::lesson
