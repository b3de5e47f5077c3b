// lab/grade.h: `attn check`: compares a student's tensor with the one a lesson step printed,
// and names the classic mistake when it recognises one.
//
// What it is: an elementwise comparison (numpy.isclose's rule: |got - expected| <= atol +
// rtol * |expected|, inf equal to inf of the same sign) and hints found by TESTING candidate
// mistakes against the run: every value any step printed is known, so a hint is reported only
// when a wrong computation rebuilt from the lesson's own intermediates (with core ops, or by
// re-running the lesson with its random draws reordered) reproduces the answer within the
// tolerance. A hint is a finding, not a guess. What it is not: the command line (cli/), or a
// reader of answer files (answer.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lab/answer.h"
#include "lesson/run.h"

namespace attn::lab {

// Defaults: PyTorch prints 4 decimals (or 4 significant decimals in scientific notation), so a
// copy of the printed numbers is off by at most 5e-5 absolute (5e-5 relative): it passes. The
// other CPU kernel family or another BLAS changes float32 results by about 1e-6: it passes.
// A real mistake (wrong axis, missing scale, a mask) moves weights by 1e-2 or more: it fails.
struct Tolerance {
  double atol = 1e-4, rtol = 1e-4;
};

// The printed value a check grades.
struct Target {
  size_t step = 0;                      // index into run.steps
  size_t index = 0;                     // position among every value the step printed (all its cells)
  torch::Printed value;                 // name: its source text, e.g. "attn_weights"; a number as a 0-d tensor
  std::vector<std::string> float_names; // every float tensor the step printed, in order
};

// The last float tensor step `step_id` printed, or with `name` the last value printed from
// that source text (any tensor, or a number), or with `index` > 0 the index-th tensor the step
// printed (1-based, any dtype: the N of `attn export`'s STEP__N__NAME.npy; `name`, if also
// given, must match it). UsageError for an unknown step, name or index, or a step that prints
// nothing to grade.
Target select_target(const lesson::LessonRun& run, const std::string& step_id, const std::string& name, int index = 0);

struct Difference {
  std::vector<int64_t> index;
  double expected = 0, got = 0;
};

// The mistakes `attn check` can prove, in the order it tries them and reports them: the families of
// lab/hints.h's kHints, each family's kinds in the order it tests them (a test checks that the
// table lists exactly these, in this order, and that docs/instructors.md's hint table does too).
enum class HintKind {
  transposed, shape, batch_element,                                           // shape family
  softmax_dim, missing_scale, scale, transposed_scores,                      // softmax
  mask_zero_fill, mask_not_renormalised, mask_missing, mask_wrong_triangle,  // mask
  mask_diagonal,                                                             // a mask over the diagonal too (NaN rows)
  transposed_weights, other_weights,                                         // context vectors
  scaled,                                                                    // scaled copy
  draw_order, seed, options, cpu, rng,                                       // re-runs
  equals_printed,                                                            // another printed tensor
};
inline constexpr int kHintKindCount = static_cast<int>(HintKind::equals_printed) + 1;

// The stable id graders see as the JSON's "kind": "softmax_dim", "missing_scale", ...
std::string_view to_string(HintKind kind);
// The mistake in a few words, for a class report's line: "softmax over the wrong axis".
std::string_view title(HintKind kind);

struct Hint {
  HintKind kind;
  std::string message;   // one paragraph for the student
};

struct Grade {
  std::string lesson, step, name;
  core::Shape expected_shape, got_shape;   // got_shape: as compared (a text table may be reshaped)
  std::string read_as;                     // how a text table was read into got_shape, if it was
  bool shape_match = false, pass = false;
  int64_t n_elements = 0, n_differ = 0;    // n_differ: elements outside the tolerance
  int64_t n_nan = 0;                       // NaN in the answer where the lesson's tensor has a number (counted in n_differ)
  double max_abs_diff = 0;                 // inf when an infinity is not matched
  std::vector<int64_t> max_index;
  std::vector<Difference> first;           // the first differing elements in row-major order (up to 5)
  std::vector<Hint> hints;                 // only when it fails
};

// Grades `answer` against target.value. A NaN or an infinity in the answer (read with allow_nan)
// where the expected tensor has a number is a difference like any other: the answer fails, and a
// hint may say where the NaN came from. `opts` are the options `run` was made with: some hints
// re-run the lesson with a change (draw order, a seed call removed, the other --cpu or --rng).
Grade grade(const lesson::LessonRun& run, const Target& target, const Answer& answer, const Tolerance& tol, const lesson::RunOptions& opts);

// What `attn check` was asked: for the report of a check that cannot grade (a malformed answer
// file, an unknown step), which goes to stdout like any other report.
struct Request {
  std::string lesson, step, name, answer_file;   // name: --name, or empty
  lesson::RunOptions opts;
  Tolerance tol;
};
// "ERROR  causal/softmax-masked" and the message; one JSON object with "pass": false and "error".
// The text is word-wrapped at `width` columns (the terminal's, or 80 when piped: cli's output_width()).
std::string format_error_text(const Request& r, const std::string& message, size_t width = 80);
std::string format_error_json(const Request& r, const std::string& message);

// For the terminal: PASS/FAIL line, the differences, the hints, word-wrapped at `width` columns.
std::string format_text(const Grade& g, const Target& target, const Answer& answer, const Tolerance& tol, const lesson::RunOptions& opts,
                        size_t width = 80);
// For graders: one JSON object (schema in docs/scripting.md, "check").
std::string format_json(const Grade& g, const Answer& answer, const Tolerance& tol, const lesson::LessonRun& run, const lesson::RunOptions& opts);

}  // namespace attn::lab
