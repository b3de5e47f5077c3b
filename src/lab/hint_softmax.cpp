// lab/hint_softmax.cpp: the softmax family (softmax_dim, missing_scale, scale, transposed_scores):
// the lesson's weights are softmax(S / c, dim) of a printed S; the answer is the same softmax with
// another dim, another scale or S.T (see hints.h). What it is not: finding S, dim and c (weights.cpp).
#include "lab/hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "lab/report.h"

namespace attn::lab {

namespace {

enum Variant { same, unscaled, squared, inverted, fitted };

// One candidate mistake: softmax((scores or scores.T) / scale, dim).
struct Trial {
  bool transpose;
  int64_t dim;
  Variant variant;
  Scale scale;
  int deviations;   // how many of transpose, dim and scale differ from the lesson's
};

// Square scores that are not symmetric: their transpose is another candidate.
bool can_transpose(const Source& src) {
  const core::Tensor& s = src.scores->t;
  int64_t nd = s.dim();
  return nd >= 2 && s.shape()[nd - 1] == s.shape()[nd - 2] && !close_all(transposed(src.scores->a), src.scores->a, kExact);
}

// The lesson's scale, none, its square and its inverse, along each dim, of the scores and their
// transpose: every combination that is not the lesson's own, fewest deviations first.
std::vector<Trial> trials_for(const Source& src) {
  const core::Tensor& s = src.scores->t;
  int64_t nd = s.dim();
  std::vector<std::pair<Variant, Scale>> scales = {{same, src.scale}};
  if (src.scale.divisor != 1) {
    scales.push_back({unscaled, Scale{}});
    scales.push_back({squared, snap(src.scale.divisor * src.scale.divisor)});
    scales.push_back({inverted, snap(1 / src.scale.divisor)});
  }
  std::vector<Trial> trials;
  for (bool tr : {false, true}) {
    if (tr && !can_transpose(src)) continue;
    for (int64_t d = 0; d < nd; ++d) {
      if (s.shape()[static_cast<size_t>(d)] < 2) continue;
      for (auto [v, sc] : scales) {
        int dev = tr + (d != src.dim) + (v != same);
        if (dev) trials.push_back({tr, d, v, sc, dev});
      }
    }
  }
  std::stable_sort(trials.begin(), trials.end(), [](const Trial& a, const Trial& b) { return a.deviations < b.deviations; });
  return trials;
}

// The first trial that reproduces the answer; else any other scale, fitted to the answer itself.
std::optional<Trial> find_trial(const HintContext& c, const Source& src) {
  const core::Tensor& s = src.scores->t;
  for (const Trial& t : trials_for(src))
    if (close_all(c.answer, softmax_of(s, t.transpose, t.scale, t.dim, c.run.cpu), c.tol)) return t;
  for (bool tr : {false, true}) {
    if (tr && !can_transpose(src)) continue;
    for (int64_t d = 0; d < s.dim(); ++d) {
      if (!is_distribution(c.answer, d)) continue;
      Arr sa = tr ? transposed(src.scores->a) : src.scores->a;
      auto inv = fit_inverse_scale(c.answer, sa, d);
      if (!inv) continue;
      Scale sc = snap(1 / *inv);
      if (same_scale(sc, src.scale) && !tr && d == src.dim) continue;
      if (close_all(c.answer, softmax_of(s, tr, sc, d, c.run.cpu), c.tol)) return Trial{tr, d, same_scale(sc, src.scale) ? same : fitted, sc, 0};
    }
  }
  return std::nullopt;
}

// What is wrong with the scale of `found`, if anything: missing_scale or scale, and the message.
std::optional<std::pair<HintKind, std::string>> scale_mistake(const Source& src, const Trial& found) {
  switch (found.variant) {
    case same: return std::nullopt;
    case unscaled:
      return std::pair{HintKind::missing_scale,
                       fmt::format("Missing 1/√d_k scaling: the lesson divides the scores by {} before the softmax (scaled "
                                   "dot-product attention); your answer is the softmax of the unscaled scores.",
                                   scale_words(src.scale))};
    case squared:
      return std::pair{HintKind::scale,
                       src.scale.text.rfind("√", 0) == 0
                           ? fmt::format("Divided by d_k instead of √d_k: your scores were divided by {}, the lesson's by {}.",
                                         found.scale.text, scale_words(src.scale))
                           : fmt::format("Your scores were divided by {}, the lesson's by {}.", found.scale.text, scale_words(src.scale))};
    case inverted:
      return std::pair{HintKind::scale, fmt::format("The scores were multiplied by {} instead of divided by it.", scale_words(src.scale))};
    case fitted: {
      auto words = [](const Scale& sc) { return sc.divisor == 1 ? std::string("unscaled") : "divided by " + scale_words(sc); };
      return std::pair{HintKind::scale,
                       fmt::format("Your softmax used the scores {}; the lesson's uses them {}.", words(found.scale), words(src.scale))};
    }
  }
  return std::nullopt;
}

// The hints `found` proves, in HintKind's order; the first ends with both formulas.
void report(const Source& src, const Trial& found, Hints& h) {
  const std::string& name = src.scores->name;
  int64_t nd = src.scores->t.dim();
  std::string formulas = fmt::format(
      "Your answer is softmax({}, dim={}); the lesson computes softmax({}, dim={}), with {} as step '{}' prints it.",
      scaled(name + (found.transpose ? ".T" : ""), found.scale), found.dim, scaled(name, src.scale), src.dim, code(name),
      src.scores->step);
  bool first = true;
  auto add = [&](HintKind kind, const std::string& msg) {
    h.add(kind, msg + (first ? " " + formulas : ""));
    first = false;
  };
  if (found.dim != src.dim)
    add(HintKind::softmax_dim, fmt::format("Softmax over the wrong axis: in your answer {}; in the lesson's {}{}.", axis_words(found.dim, nd),
                                           axis_words(src.dim, nd),
                                           src.dim == nd - 1 && nd >= 2 ? ": one row per query, holding its weights over all the keys" : ""));
  if (auto m = scale_mistake(src, found)) add(m->first, m->second);
  if (found.transpose)
    add(HintKind::transposed_scores, fmt::format("The scores are transposed: your weights come from {}.T, as if computed as keys @ "
                                                 "queries.T instead of queries @ keys.T. Drawing W_key before W_query has the same "
                                                 "effect: the two matrices swap their numbers.",
                                                 code(name)));
}

// keys @ queries.T, then masked as the lesson masks: the softmax of the masked scores' source
// (the printed scores before the mask) transposed, with the lesson's mask, scale and dim.
// Transposing the masked scores themselves would move the mask too, so this needs its own trial.
bool masked_transpose_hint(const HintContext& c, const Source& src, Hints& h) {
  const Printed* s = unmasked_scores(src, c.printed);
  if (!s || s->t.dim() < 2 || s->a.shape.back() != s->a.shape[s->a.shape.size() - 2] || close_all(transposed(s->a), s->a, kExact))
    return false;
  Arr r = softmax_of(masked_scores(s->t, true, neg_inf_positions(src)), false, src.scale, src.dim, c.run.cpu);
  if (!close_all(c.answer, r, c.tol)) return false;
  h.add(HintKind::transposed_scores,
        fmt::format("The scores are transposed: your weights are the lesson's masked softmax of {}.T (step '{}' prints {}), as "
                    "if computed as keys @ queries.T instead of queries @ keys.T. Drawing W_key before W_query has the same "
                    "effect: the two matrices swap their numbers.",
                    code(s->name), s->step, code(s->name)));
  return true;
}

}  // namespace

// The first source (a printed tensor the weights are the softmax of) for which a trial fits;
// else the transposed scores of a masked source.
void softmax_hints(const HintContext& c, Hints& h) {
  for (const Source& src : c.sources)
    if (std::optional<Trial> found = find_trial(c, src)) {
      report(src, *found, h);
      return;
    }
  for (const Source& src : c.sources)
    if (masked_transpose_hint(c, src, h)) return;
}

}  // namespace attn::lab
