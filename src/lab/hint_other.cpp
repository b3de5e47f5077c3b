// lab/hint_other.cpp: the hint families that need no recognised computation: the wrong shape (or
// the result transposed, or one batch element), a scaled copy, another printed tensor (see hints.h).
#include "lab/hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "lab/report.h"

namespace attn::lab {

void shape_hints(const HintContext& c, Hints& h) {
  const Arr& ans = c.answer;
  const Arr& e = c.expected;
  const Tolerance& tol = c.tol;
  if (ndim(ans) >= 2 && ndim(ans) == ndim(e) && close_all(transposed(ans), e, tol))
    h.add(HintKind::transposed, "Your answer is the lesson's tensor transposed (rows and columns swapped). Check the order of the "
                                "matrix products and any .T, .t() or transpose().");
  if (ans.v.size() == e.v.size() && !ans.v.empty()) {
    Arr r{e.shape, ans.v};
    if (close_all(r, e, tol)) {
      auto squeezed = [](core::Shape s) {
        s.erase(std::remove(s.begin(), s.end(), 1), s.end());
        return s;
      };
      h.add(HintKind::shape, squeezed(ans.shape) == squeezed(e.shape)
                                 ? "Your numbers are right, but the shape has an extra or a missing dimension of size 1: squeeze() or "
                                   "unsqueeze() it (or save the tensor the step prints, not a view of it)."
                                 : "Your numbers are right, in the right order, but in another shape: reshape it to the lesson's shape.");
    }
  }
  if (ndim(e) >= 1 && core::Shape(e.shape.begin() + 1, e.shape.end()) == ans.shape) {
    size_t chunk = ans.v.size();
    for (int64_t b = 0; b < e.shape[0] && chunk; ++b) {
      Arr part{ans.shape, std::vector<double>(e.v.begin() + static_cast<std::ptrdiff_t>(b * chunk),
                                              e.v.begin() + static_cast<std::ptrdiff_t>((b + 1) * chunk))};
      if (close_all(ans, part, tol)) {
        h.add(HintKind::batch_element, fmt::format("Your answer is element [{}] of the step's tensor, which holds {} of them (shape {}): "
                                                   "save the whole tensor.",
                                                   b, e.shape[0], core::shape_str(e.shape)));
        break;
      }
    }
  }
}

void scaled_copy_hint(const HintContext& c, Hints& h) {
  const Arr& ans = c.answer;
  const Arr& e = c.expected;
  double sxy = 0, sxx = 0;
  for (size_t k = 0; k < e.v.size(); ++k)
    if (std::isfinite(e.v[k]) && std::isfinite(ans.v[k])) sxy += e.v[k] * ans.v[k], sxx += e.v[k] * e.v[k];
  if (sxx == 0) return;
  double k = sxy / sxx;
  if (std::fabs(k - 1) < 1e-3 || k == 0) return;
  Arr y = e;
  for (double& x : y.v) x *= k;
  if (close_all(ans, y, c.tol))
    h.add(HintKind::scaled, fmt::format("Every element of your answer is {:.4g} times the lesson's (1/{:.4g}): a scale factor is "
                                        "missing or applied once too often.",
                                        k, 1 / k));
}

void equals_printed_hint(const HintContext& c, Hints& h) {
  const Arr& ans = c.answer;
  const Arr& e = c.expected;
  const Tolerance& tol = c.tol;
  const std::string& step = c.run.steps.at(c.target.step).step->id;
  const std::string& expected_name = c.target.value.name;
  for (const Printed& p : c.printed) {
    if (p.a.shape == e.shape && close_all(p.a, e, tol)) continue;
    bool same = close_all(ans, p.a, tol);
    bool same_t = !same && ndim(p.a) >= 2 && close_all(ans, transposed(p.a), tol);
    if (!same && !same_t) continue;
    std::string shows = fmt::format("(`attn lesson {} --step {}` shows it)", c.run.lesson->name(), p.step);
    if (p.name == expected_name)
      h.add(HintKind::equals_printed, fmt::format("Your answer equals the {} that step '{}' prints {}{}, not the one this step prints.",
                                                  code(p.name), p.step, shows, same_t ? ", transposed" : ""));
    else
      h.add(HintKind::equals_printed,
            fmt::format("Your answer equals {}{}, which step '{}' prints {}; the tensor graded is {}.{}", code(p.name),
                        same_t ? " transposed" : "", p.step, shows, code(expected_name),
                        p.step == step && !same_t && !p.name.empty() ? fmt::format(" To grade {} instead, add --name '{}'.", code(p.name), p.name)
                                                                     : ""));
    return;
  }
}

}  // namespace attn::lab
