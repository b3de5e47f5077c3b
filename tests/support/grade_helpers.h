// tests/support/grade_helpers.h: lessons run in the test process and answers built from what they
// printed, graded with lab::grade: shared by tests/lab/test_grade.cpp, tests/lab/test_hints.cpp and
// tests/cli/test_handout.cpp (a binary that links attn_lab).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/ops.h"
#include "core/tensor.h"
#include "lab/answer.h"
#include "lab/grade.h"
#include "lesson/catalog.h"
#include "lesson/run.h"

namespace grade_helpers {

namespace lesson = attn::lesson;
namespace core = attn::core;
namespace lab = attn::lab;

inline const lesson::Lesson& lesson_named(const std::string& name) {
  static const std::vector<lesson::Lesson> all = lesson::load_catalog(lesson::lesson_dir());
  return lesson::find_lesson(all, name);
}

// The tensor printed from `name` in step `step` (the last one of that name).
inline core::Tensor printed(const lesson::LessonRun& run, const std::string& step, const std::string& name) {
  core::Tensor out;
  bool found = false;
  for (const auto& s : run.steps)
    if (s.step->id == step)
      for (const auto& c : s.cells)
        for (const auto& p : c.printed)
          if (p.name == name) {
            out = p.tensor();
            found = true;
          }
  REQUIRE((found && !out.shape().empty()));
  return out;
}

inline lab::Answer answer_of(const core::Tensor& t) {
  lab::Answer a;
  a.file = "answer.npy";
  a.dtype = "<f4";
  a.shape = t.shape();
  for (int64_t k = 0; k < t.numel(); ++k) a.data.push_back(t.at(k));
  return a;
}

struct Checked {
  lab::Grade g;
  std::string kinds;     // "softmax_dim,equals_printed"
  std::string messages;  // every hint's message
};

inline Checked check(const lesson::LessonRun& run, const std::string& step, const lab::Answer& a, const lesson::RunOptions& opts = {},
                     const std::string& name = "", lab::Tolerance tol = {}) {
  lab::Target t = lab::select_target(run, step, name);
  Checked c{lab::grade(run, t, a, tol, opts), "", ""};
  for (const auto& h : c.g.hints) {
    c.kinds += c.kinds.empty() ? "" : ",";
    c.kinds += lab::to_string(h.kind);
    c.messages += h.message + "\n";
  }
  return c;
}

inline core::Tensor div(const core::Tensor& t, double s) { return core::binary_scalar(core::BinOp::div, t, s); }

}  // namespace grade_helpers
