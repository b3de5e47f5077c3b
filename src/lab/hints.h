// lab/hints.h: the hints of `attn check` as a registry (internal to lab/).
//
// What it is: one HintContext (everything a hint may use), the list a grade collects hints in,
// and kHints: one row per hint family (its kinds, when it is tried, its function, what it
// finds), in the order the families are tried and their hints reported. The families live in
// hint_softmax.cpp, hint_mask.cpp, hint_context_vectors.cpp, hint_rerun.cpp and hint_other.cpp
// (the small ones: shape, scaled copy, another printed tensor); the table in hints.cpp.
//
// Every hint follows one pattern: rebuild a wrong answer from what the run knows (the tensors
// its steps printed, transformed with core ops; or the lesson run again with one change) and
// report the mistake only if that rebuilt tensor matches the student's within the tolerance.
// A new hint: a HintKind (grade.h), a row here or a kind added to a row, its function, a
// fixture in tests/ that proves it, a line in docs/instructors.md's hint table (docs/development.md, "How to add a hint").
// What it is not: the comparison or the reports (grade.cpp, report.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lab/arrays.h"
#include "lab/weights.h"

namespace attn::lab {

// Everything a hint may use; it lives for one grade() call.
struct HintContext {
  const Arr& answer;                     // the student's tensor as compared (shape: Grade::got_shape)
  const Arr& expected;                   // the graded value (shape: Grade::expected_shape)
  bool float_target;                     // the graded value is a float tensor (not int64, bool or a printed int)
  const std::vector<Printed>& printed;   // every float tensor the run printed, once each
  const std::vector<Source>& sources;    // how the run made `expected` as a softmax (empty unless same shape and float)
  const lesson::LessonRun& run;
  const Target& target;
  const lesson::RunOptions& opts;        // the options `run` was made with (re-runs change one)
  const Tolerance& tol;

  bool same_shape() const { return answer.shape == expected.shape; }
};

// The hints found so far, at most one of each kind, in the order they were found.
class Hints {
 public:
  bool has(HintKind kind) const;
  void add(HintKind kind, const std::string& message);   // ignored if `kind` is already there
  const std::vector<Hint>& list() const { return list_; }

 private:
  std::vector<Hint> list_;
};

// When a family is tried; beyond that each family tests its own preconditions.
enum class When {
  always,               // every failing answer: any shape, any dtype
  misshapen_or_float,   // an answer of another shape, or a float target
  same_shape_float,     // an answer of the expected shape and a float target
  untransposed,         // as same_shape_float, and no `transposed` hint: a transposed answer explains what these would find
};

struct HintFamily {
  std::vector<HintKind> kinds;               // what it may report, in the order it tests them
  When when;
  void (*find)(const HintContext&, Hints&);
  std::string_view about;                    // one line: the mistakes it recognises
};

// The hint families, in the order they are tried (and their hints reported).
extern const std::vector<HintFamily> kHints;

bool tried(When when, const HintContext& c, const Hints& h);

// ---- the hint families, one file each ----

void shape_hints(const HintContext& c, Hints& h);            // hint_other.cpp
void softmax_hints(const HintContext& c, Hints& h);          // hint_softmax.cpp
void mask_hints(const HintContext& c, Hints& h);             // hint_mask.cpp
void mask_diagonal_hint(const HintContext& c, Hints& h);     // hint_mask.cpp
void context_hints(const HintContext& c, Hints& h);          // hint_context_vectors.cpp
void scaled_copy_hint(const HintContext& c, Hints& h);       // hint_other.cpp
void rerun_hints(const HintContext& c, Hints& h);            // hint_rerun.cpp
void equals_printed_hint(const HintContext& c, Hints& h);    // hint_other.cpp

}  // namespace attn::lab
