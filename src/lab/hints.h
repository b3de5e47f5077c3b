// lab/hints.h: the hints of `attn check` (internal to lab/).
//
// What it is: the list a grade collects hints in, and the hint families, one file each:
// hint_softmax.cpp, hint_mask.cpp, hint_context_vectors.cpp, hint_rerun.cpp, hint_other.cpp.
// Every hint follows one pattern: rebuild a wrong answer from what the run knows (the tensors
// its steps printed, transformed with core ops; or the lesson run again with one change) and
// report the mistake only if that rebuilt tensor matches the student's within the tolerance.
// What it is not: the comparison itself or the reports (grade.cpp, report.cpp).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "lab/arrays.h"
#include "lab/weights.h"

namespace attn::lab {

class Hints {
 public:
  bool has(const std::string& kind) const {
    return std::any_of(list.begin(), list.end(), [&](const Hint& h) { return h.kind == kind; });
  }
  void add(const std::string& kind, const std::string& message) {
    if (!has(kind)) list.push_back({kind, message});
  }
  std::vector<Hint> list;
};

// ---- the hint families ----

void softmax_hints(const Arr& ans, const std::vector<Source>& sources, const Tolerance& tol, Hints& h);
void mask_hints(const Arr& ans, const Arr& e, const std::vector<Source>& sources, const Tolerance& tol, Hints& h);
void context_hints(const Arr& ans, const Arr& e, const std::vector<Printed>& printed, const Tolerance& tol, Hints& h);
void rerun_hints(const Arr& ans, const lesson::LessonRun& run, const Target& t, const lesson::RunOptions& opts, const Tolerance& tol,
                 Hints& h);
void scaled_copy_hint(const Arr& ans, const Arr& e, const Tolerance& tol, Hints& h);
void equals_printed_hint(const Arr& ans, const Arr& e, const std::vector<Printed>& printed, const std::string& lesson,
                         const std::string& step, const std::string& expected_name, const Tolerance& tol, Hints& h);
void shape_hints(const Arr& ans, const Arr& e, const Tolerance& tol, Hints& h);

}  // namespace attn::lab
