// lab/hint_softmax.cpp: hints from the softmax that made the expected weights (see hints.h).
#include "lab/hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "lab/report.h"

namespace attn::lab {

void softmax_hints(const HintContext& c, Hints& h) {
  const Arr& ans = c.answer;
  const Tolerance& tol = c.tol;
  for (const Source& src : c.sources) {
    const core::Tensor& s = src.scores->t;
    int64_t nd = s.dim();
    bool can_transpose = nd >= 2 && s.shape[nd - 1] == s.shape[nd - 2] && !close_all(transposed(src.scores->a), src.scores->a, kExact);
    enum Variant { same, unscaled, squared, inverted, fitted };
    std::vector<std::pair<Variant, Scale>> scales = {{same, src.scale}};
    if (src.scale.divisor != 1) {
      scales.push_back({unscaled, Scale{}});
      scales.push_back({squared, snap(src.scale.divisor * src.scale.divisor)});
      scales.push_back({inverted, snap(1 / src.scale.divisor)});
    }
    struct Trial {
      bool transpose;
      int64_t dim;
      Variant variant;
      Scale scale;
      int deviations;
    };
    std::vector<Trial> trials;
    for (bool tr : {false, true}) {
      if (tr && !can_transpose) continue;
      for (int64_t d = 0; d < nd; ++d) {
        if (s.shape[static_cast<size_t>(d)] < 2) continue;
        for (auto [v, sc] : scales) {
          int dev = tr + (d != src.dim) + (v != same);
          if (dev) trials.push_back({tr, d, v, sc, dev});
        }
      }
    }
    std::stable_sort(trials.begin(), trials.end(), [](const Trial& a, const Trial& b) { return a.deviations < b.deviations; });
    std::optional<Trial> found;
    for (const Trial& t : trials)
      if (close_all(ans, softmax_of(s, t.transpose, t.scale, t.dim), tol)) {
        found = t;
        break;
      }
    if (!found) {   // any other scale, fitted to the answer itself
      for (bool tr : {false, true}) {
        if ((tr && !can_transpose) || found) continue;
        for (int64_t d = 0; d < nd && !found; ++d) {
          if (!is_distribution(ans, d)) continue;
          Arr sa = tr ? transposed(src.scores->a) : src.scores->a;
          auto c = fit_inverse_scale(ans, sa, d);
          if (!c) continue;
          Scale sc = snap(1 / *c);
          if (same_scale(sc, src.scale) && !tr && d == src.dim) continue;
          if (close_all(ans, softmax_of(s, tr, sc, d), tol)) found = Trial{tr, d, same_scale(sc, src.scale) ? same : fitted, sc, 0};
        }
      }
    }
    if (!found) continue;
    const std::string& name = src.scores->name;
    std::string formulas = fmt::format(
        "Your answer is softmax({}, dim={}); the lesson computes softmax({}, dim={}), with {} as step '{}' prints it.",
        scaled(name + (found->transpose ? ".T" : ""), found->scale), found->dim, scaled(name, src.scale), src.dim, code(name),
        src.scores->step);
    bool first = true;
    auto add = [&](HintKind kind, const std::string& msg) {
      h.add(kind, msg + (first ? " " + formulas : ""));
      first = false;
    };
    if (found->dim != src.dim)
      add(HintKind::softmax_dim, fmt::format("Softmax over the wrong axis: in your answer {}; in the lesson's {}{}.", axis_words(found->dim, nd),
                                             axis_words(src.dim, nd),
                                             src.dim == nd - 1 && nd >= 2 ? ": one row per query, holding its weights over all the keys" : ""));
    switch (found->variant) {
      case same: break;
      case unscaled:
        add(HintKind::missing_scale, fmt::format("Missing 1/√d_k scaling: the lesson divides the scores by {} before the softmax (scaled "
                                                 "dot-product attention); your answer is the softmax of the unscaled scores.",
                                                 scale_words(src.scale)));
        break;
      case squared:
        add(HintKind::scale, src.scale.text.rfind("√", 0) == 0
                                 ? fmt::format("Divided by d_k instead of √d_k: your scores were divided by {}, the lesson's by {}.",
                                               found->scale.text, scale_words(src.scale))
                                 : fmt::format("Your scores were divided by {}, the lesson's by {}.", found->scale.text, scale_words(src.scale)));
        break;
      case inverted:
        add(HintKind::scale, fmt::format("The scores were multiplied by {} instead of divided by it.", scale_words(src.scale)));
        break;
      case fitted: {
        auto words = [](const Scale& sc) { return sc.divisor == 1 ? std::string("unscaled") : "divided by " + scale_words(sc); };
        add(HintKind::scale, fmt::format("Your softmax used the scores {}; the lesson's uses them {}.", words(found->scale), words(src.scale)));
        break;
      }
    }
    if (found->transpose)
      add(HintKind::transposed_scores, fmt::format("The scores are transposed: your weights come from {}.T, as if computed as keys @ queries.T "
                                                   "instead of queries @ keys.T. Drawing W_key before W_query has the same effect: the two "
                                                   "matrices swap their numbers.",
                                                   code(name)));
    return;
  }
}

}  // namespace attn::lab
