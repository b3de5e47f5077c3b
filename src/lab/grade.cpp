// lab/grade.cpp: selecting the graded value, the comparison, and the order hints are tried in
// (see grade.h). The hints themselves are in hints.h and its hint_*.cpp files; the reports in
// report.cpp.
//
// The lesson's own computation is identified first and exactly (e.g. "these weights are
// softmax(attn_scores / √2, dim=1)"), so a hint can name the tensor and the step it came from.
#include "lab/grade.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "core/cpu.h"
#include "lab/hints.h"
#include "lab/report.h"

namespace attn::lab {

using lesson::Lesson;
using lesson::LessonRun;
using lesson::RunOptions;
using lesson::Step;
using lesson::StepRun;
using torch::PlainValue;
using PrintedValue = torch::Printed;

namespace {

// A text table (rows x columns) read as the expected shape when the numbers fit it unambiguously.
Arr conform(const Answer& a, const core::Shape& expected, std::string& read_as) {
  Arr out{a.shape, a.data};
  if (a.format != Answer::Format::text || a.shape == expected) return out;
  int64_t rows = a.shape[0], cols = a.shape[1];
  int64_t numel = core::numel_of(expected);
  if (numel != rows * cols) return out;
  if (expected.empty()) {
    read_as = "one number, read as a 0-d tensor";
  } else if (expected.size() == 1) {
    if (rows != 1 && cols != 1) return out;
    read_as = rows == 1 ? "one row of numbers, read as a vector" : "one number per line, read as a vector";
  } else if (expected.back() == cols) {
    read_as = fmt::format("{} rows of {} numbers, read as shape {} (the rows of its {} matrices, one after the other)", rows, cols,
                          core::shape_str(expected), numel / (expected[expected.size() - 2] * cols));
  } else {
    return out;
  }
  out.shape = expected;
  return out;
}

std::string without_spaces(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
  return s;
}

// The index-th tensor (1-based) among a step's printed values, as `attn export --npy` numbers
// them; `name`, if given, must be what it was printed from. UsageError if not.
size_t pick_by_index(const std::vector<const PrintedValue*>& vals, int index, const std::string& name, const std::string& step_id,
                     const std::string& lesson) {
  std::optional<size_t> pick;
  int n = 0;
  for (size_t k = 0; k < vals.size() && !pick; ++k)
    if (vals[k]->is_tensor() && ++n == index) pick = k;
  if (!pick)
    throw UsageError(fmt::format("step '{}' of lesson '{}' prints {} tensor{}, so --index {} does not exist", step_id, lesson, n,
                                 n == 1 ? "" : "s", index));
  if (!name.empty() && without_spaces(vals[*pick]->name) != without_spaces(name))
    throw UsageError(fmt::format("tensor {} of step '{}' of lesson '{}' is printed from '{}', not '{}'", index, step_id, lesson,
                                 vals[*pick]->name, name));
  return *pick;
}

// The last float tensor among a step's printed values, or with `name` the last tensor or number
// printed from that source text (spaces ignored).
std::optional<size_t> pick_by_name(const std::vector<const PrintedValue*>& vals, const std::string& name) {
  std::optional<size_t> pick;
  for (size_t k = 0; k < vals.size(); ++k) {
    const PrintedValue& v = *vals[k];
    if (name.empty() ? v.is_float_tensor() : (v.is_tensor() || v.value.is_number()) && without_spaces(vals[k]->name) == without_spaces(name))
      pick = k;
  }
  return pick;
}

// UsageError: the step prints no value `name` selects; says what it prints, or which steps print a float tensor.
[[noreturn]] void nothing_to_grade(const LessonRun& run, const std::string& step_id, const std::string& name,
                                   const std::vector<std::string>& all_names) {
  const std::string lesson = run.lesson->name();
  if (!name.empty())
    throw UsageError(fmt::format("step '{}' of lesson '{}' prints no tensor or number named '{}'{}", step_id, lesson, name,
                                 all_names.empty() ? " (it prints none)" : " (it prints: " + join_names(all_names) + ")"));
  std::vector<std::string> steps;
  for (const StepRun& s : run.steps) {
    auto v = printed_in(s);
    if (std::any_of(v.begin(), v.end(), [](const PrintedValue* p) { return p->is_float_tensor(); })) steps.push_back(s.step->id);
  }
  throw UsageError(fmt::format("step '{}' of lesson '{}' prints no float tensor to grade{}", step_id, lesson,
                               !all_names.empty() ? "; --name selects one of the values it prints: " + join_names(all_names)
                               : steps.empty() ? ""
                                               : "; steps that print one: " + join_names(steps)));
}

// A printed number (float, int or bool) as the 0-d float tensor it is graded as.
PlainValue as_0d_tensor(const PlainValue& v) {
  PlainValue t;
  t.kind = PlainValue::tensor;
  t.type = "Tensor";
  t.t = core::from_floats({}, {static_cast<float>(v.number())});
  return t;
}

// The element counts, the largest difference and the first differences (answer and expected of one shape).
void compare(const Arr& ans, const Arr& e, const Tolerance& tol, Grade& g) {
  for (size_t k = 0; k < e.v.size(); ++k) {
    double d = std::fabs(ans.v[k] - e.v[k]);
    if (!std::isfinite(e.v[k]) || !std::isfinite(ans.v[k])) d = close(e.v[k], ans.v[k], tol) ? 0 : INFINITY;
    if (d > g.max_abs_diff || (k == 0 && g.max_index.empty())) g.max_abs_diff = d, g.max_index = unravel(static_cast<int64_t>(k), e.shape);
    if (std::isnan(ans.v[k]) && !std::isnan(e.v[k])) ++g.n_nan;
    if (close(e.v[k], ans.v[k], tol)) continue;
    if (++g.n_differ <= 5) g.first.push_back({unravel(static_cast<int64_t>(k), e.shape), e.v[k], ans.v[k]});
  }
  g.pass = g.n_differ == 0;
}

// Every family of kHints that applies, in the table's order. A family may report only the kinds
// its row lists, so that the table (and docs/instructors.md's, which a test ties to it) stays true.
std::vector<Hint> find_hints(const HintContext& c) {
  Hints h;
  for (const HintFamily& f : kHints) {
    if (!tried(f.when, c, h)) continue;
    size_t before = h.list().size();
    f.find(c, h);
    for (size_t k = before; k < h.list().size(); ++k)
      if (std::find(f.kinds.begin(), f.kinds.end(), h.list()[k].kind) == f.kinds.end())
        throw std::logic_error("hint '" + std::string(to_string(h.list()[k].kind)) + "' comes from a family whose row in kHints does not list it");
  }
  return h.list();
}

}  // namespace

// ---- selecting the graded value ----

Target select_target(const LessonRun& run, const std::string& step_id, const std::string& name, int index) {
  const Lesson& l = *run.lesson;
  lesson::require_step(l, step_id);   // UsageError listing the steps
  auto it = std::find_if(run.steps.begin(), run.steps.end(), [&](const StepRun& s) { return s.step->id == step_id; });
  Target t;
  t.step = static_cast<size_t>(it - run.steps.begin());
  auto vals = printed_in(*it);
  std::vector<std::string> all_names;
  for (const PrintedValue* p : vals) {
    if (p->is_float_tensor()) t.float_names.push_back(p->name);
    if (p->is_tensor() || p->value.is_number()) all_names.push_back(p->name.empty() ? "(unnamed)" : p->name);
  }
  std::optional<size_t> pick = index > 0 ? pick_by_index(vals, index, name, step_id, l.name()) : pick_by_name(vals, name);
  if (!pick) nothing_to_grade(run, step_id, name, all_names);
  t.index = *pick;
  t.value = *vals[*pick];
  if (!t.value.is_tensor()) t.value.value = as_0d_tensor(t.value.value);   // a printed number
  return t;
}

// ---- grading ----

Grade grade(const LessonRun& run, const Target& target, const Answer& answer, const Tolerance& tol, const RunOptions& opts) {
  Grade g;
  g.lesson = run.lesson->name();
  g.step = run.steps.at(target.step).step->id;
  g.name = target.value.name;
  const core::Tensor& et = target.value.tensor();
  Arr e = to_arr(et);
  Arr ans = conform(answer, e.shape, g.read_as);
  g.expected_shape = e.shape;
  g.got_shape = ans.shape;
  g.shape_match = ans.shape == e.shape;
  g.n_elements = static_cast<int64_t>(e.v.size());
  std::vector<Printed> printed = printed_tensors(run);
  if (g.shape_match) {
    compare(ans, e, tol, g);   // a NaN where the lesson's tensor has a number differs, as an inf does
    if (g.pass) return g;
  }
  bool float_target = et.is_float();
  std::vector<Source> sources = g.shape_match && float_target ? softmax_sources(e, printed, run.cpu) : std::vector<Source>{};
  g.hints = find_hints({ans, e, float_target, printed, sources, run, target, opts, tol});
  return g;
}

}  // namespace attn::lab
