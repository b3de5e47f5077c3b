// lab/hint_mask.cpp: the mask family (mask_zero_fill, mask_not_renormalised, mask_missing,
// mask_wrong_triangle): the expected weights have exact zeros where a causal mask hides the future;
// the answer is what a mask applied wrongly, or not at all, gives; and mask_diagonal, a mask that
// hides the diagonal too, whose all-masked row is NaN (see hints.h).
#include "lab/hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "lab/report.h"

namespace attn::lab {

namespace {

// Expected is not a distribution (e.g. weights * mask): right everywhere but where the lesson's tensor is 0.
void product_hint(const HintContext& c, const std::vector<bool>& hidden, Hints& h) {
  const Arr& ans = c.answer;
  const Arr& e = c.expected;
  bool rest = true, weight_hidden = false;
  for (size_t k = 0; k < e.v.size(); ++k) {
    if (!hidden[k]) rest &= close(e.v[k], ans.v[k], c.tol);
    else weight_hidden |= !close(0, ans.v[k], c.tol);
  }
  if (rest && weight_hidden)
    h.add(HintKind::mask_missing, "Your answer agrees with the lesson's tensor except where the lesson's is exactly 0 (the positions "
                                  "the mask hides, the future tokens): the mask was not applied.");
}

// 1. The scores masked with 0 instead of -inf.
bool zero_fill_hint(const HintContext& c, const std::vector<bool>& hidden, int64_t dim, Hints& h) {
  for (const Source& src : c.sources) {
    if (src.dim != dim) continue;
    const core::Tensor& s = src.scores->t;
    bool inf_at_hidden = true;
    const std::vector<float> values = s.floats();
    for (size_t k = 0; k < values.size(); ++k) inf_at_hidden &= std::isinf(values[k]) == hidden[k];
    if (!inf_at_hidden) continue;
    core::Tensor zero_filled = s.clone();   // a copy: s is the lesson's printed tensor
    float* z = zero_filled.data<float>();
    for (int64_t k = 0; k < zero_filled.numel(); ++k)
      if (std::isinf(z[k])) z[k] = 0;
    if (close_all(c.answer, softmax_of(zero_filled, false, src.scale, dim, c.run.cpu), c.tol)) {
      h.add(HintKind::mask_zero_fill, fmt::format("The mask filled the scores with 0 instead of -inf: exp(0) = 1, so the hidden (future) "
                                                  "positions still get weight. Fill them with -torch.inf, as in step '{}' ({} there), so "
                                                  "that the softmax gives them exactly 0.",
                                                  src.scores->step, code(src.scores->name)));
      return true;
    }
  }
  return false;
}

// The answer with each slice along `dim` divided by its sum (after zeroing the hidden positions
// if `zero_hidden`); lo and hi: the smallest and largest of those sums.
Arr renormalised(const Arr& ans, const std::vector<bool>& hidden, int64_t dim, bool zero_hidden, double& lo, double& hi) {
  Arr out = ans;
  lo = INFINITY, hi = -INFINITY;
  for_each_slice(ans.shape, dim, [&](int64_t base, int64_t stride, int64_t n) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j) {
      size_t k = static_cast<size_t>(base + j * stride);
      if (zero_hidden && hidden[k]) out.v[k] = 0;
      s += out.v[k];
    }
    lo = std::min(lo, s), hi = std::max(hi, s);
    for (int64_t j = 0; j < n && s != 0; ++j) out.v[static_cast<size_t>(base + j * stride)] /= s;
  });
  return out;
}

// 2. Masked after the softmax, rows not renormalised; 3. no mask at all: weight where the lesson
// has none, right ratios elsewhere. The answer is finite and non-negative.
bool renormalise_hints(const HintContext& c, const std::vector<bool>& hidden, int64_t dim, Hints& h) {
  bool zero_where_hidden = true;
  for (size_t k = 0; k < c.answer.v.size(); ++k)
    if (hidden[k] && std::fabs(c.answer.v[k]) > c.tol.atol) zero_where_hidden = false;
  double lo = 0, hi = 0;
  Arr n = renormalised(c.answer, hidden, dim, !zero_where_hidden, lo, hi);
  if (zero_where_hidden && close_all(n, c.expected, c.tol) && (std::fabs(lo - 1) > 1e-3 || std::fabs(hi - 1) > 1e-3)) {
    h.add(HintKind::mask_not_renormalised,
          fmt::format("The mask was applied after the softmax without renormalising: the hidden positions are 0, but the rows of "
                      "your answer sum to between {:.4f} and {:.4f}, not 1; each is the lesson's row times its sum. Divide each row "
                      "by its sum (w / w.sum(dim=-1, keepdim=True)), or mask the scores with -inf before the softmax, which "
                      "needs no second pass.",
                      lo, hi));
    return true;
  }
  if (!zero_where_hidden && close_all(n, c.expected, c.tol)) {
    h.add(HintKind::mask_missing, "Your answer gives weight to positions the lesson's mask hides (where its weights are exactly 0: "
                                  "the future tokens): the mask was not applied. Fill the hidden scores with -inf (masked_fill) "
                                  "before the softmax, or zero the weights and renormalise each row.");
    return true;
  }
  return false;
}

// The positions of `hidden` mirrored across the diagonal of each n x n matrix.
std::vector<bool> mirrored(const std::vector<bool>& hidden, int64_t n) {
  std::vector<bool> out(hidden.size());
  for (size_t k = 0; k < hidden.size(); ++k) {
    size_t b = k / static_cast<size_t>(n * n) * static_cast<size_t>(n * n);
    int64_t i = static_cast<int64_t>(k) / n % n, j = static_cast<int64_t>(k) % n;
    out[k] = hidden[b + static_cast<size_t>(j * n + i)];
  }
  return out;
}

// True if the answer is the lesson's masked softmax with `hide` as the mask: softmax of the
// unmasked scores with -inf where `hide` is true, over the lesson's dim, with its scale. Only
// sources whose unmasked scores the run printed can be rebuilt.
bool rebuilt_with_mask(const HintContext& c, const std::vector<bool>& hide) {
  for (const Source& src : c.sources)
    if (const Printed* s = unmasked_scores(src, c.printed))
      if (close_all(c.answer, softmax_of(masked_scores(s->t, false, hide), false, src.scale, src.dim, c.run.cpu), c.tol)) return true;
  return false;
}

// 4. The other triangle: the lesson's softmax with the mask mirrored reproduces the answer, or
// the answer's exact zeros are the lesson's mirrored across the diagonal. (Exact: a true weight
// of 6e-8 is not a masked one; a copy rounded to 4 decimals is found by the rebuilt softmax.)
void wrong_triangle_hint(const HintContext& c, const std::vector<bool>& hidden, Hints& h) {
  const Arr& e = c.expected;
  int64_t nd = ndim(e);
  if (nd < 2 || e.shape[nd - 1] != e.shape[nd - 2]) return;
  int64_t n = e.shape[nd - 1];
  bool upper = true, lower = true;
  for (size_t k = 0; k < hidden.size(); ++k) {
    int64_t i = static_cast<int64_t>(k) / n % n, j = static_cast<int64_t>(k) % n;
    if (hidden[k]) upper &= j > i, lower &= j < i;
  }
  if (!upper && !lower) return;
  std::vector<bool> mirror = mirrored(hidden, n);
  bool zeros_mirrored = true;
  for (size_t k = 0; k < hidden.size(); ++k) zeros_mirrored &= (c.answer.v[k] == 0) == mirror[k];
  if (zeros_mirrored || rebuilt_with_mask(c, mirror))
    h.add(HintKind::mask_wrong_triangle,
          fmt::format("Your zeros are on the wrong side of the diagonal: the lesson hides the positions {} it (token i may not see "
                      "{} tokens), your answer those {} it. torch.triu(torch.ones(n, n), diagonal=1) marks the future positions "
                      "to fill with -inf; torch.tril(torch.ones(n, n)) marks the ones to keep.",
                      upper ? "above" : "below", upper ? "later" : "earlier", upper ? "below" : "above"));
}

bool finite_nonnegative(const Arr& a) {
  return std::all_of(a.v.begin(), a.v.end(), [](double x) { return x >= 0 && !std::isinf(x); });
}

// The positions of the diagonal of each n x n matrix, added to `hidden`.
std::vector<bool> with_diagonal(std::vector<bool> hidden, int64_t n) {
  for (size_t k = 0; k < hidden.size(); ++k)
    if (static_cast<int64_t>(k) / n % n == static_cast<int64_t>(k) % n) hidden[k] = true;
  return hidden;
}

// What the numbers prove, and not how the code got there: a mask filled with -inf before the
// softmax and weights multiplied by a mask and renormalised give the same numbers (the kept
// future: tril(ones).bool() filled with -inf, or the weights times triu(ones, diagonal=1)
// renormalised), so the hint names the positions kept and hidden, and both right ways.
std::string diagonal_message(bool past) {
  std::string seen = past ? "Your weights keep only the positions above the diagonal (the future) and hide the diagonal and the "
                            "past: the last token is left nothing to see, so its row is NaN (0/0)."
                          : "Your weights hide the diagonal as well as the future: the first token is left nothing to see, not "
                            "even itself, so its row is NaN (0/0).";
  return seen + " The lesson hides what torch.triu(torch.ones(n, n), diagonal=1) marks (the future) and keeps what "
                "torch.tril(torch.ones(n, n)) marks (the diagonal and the past): fill the first with -inf before the "
                "softmax, or multiply the weights by the second and renormalise each row.";
}

}  // namespace

// The hidden positions are where the expected tensor is exactly 0; at most one mask hint is reported.
void mask_hints(const HintContext& c, Hints& h) {
  const Arr& e = c.expected;
  if (!c.same_shape()) return;
  std::vector<bool> hidden(e.v.size());
  bool any = false, all = true;
  for (size_t k = 0; k < e.v.size(); ++k) any |= (hidden[k] = e.v[k] == 0), all &= hidden[k];
  if (!any || all) return;
  std::vector<int64_t> dims = distribution_dims(e);
  if (dims.empty()) return product_hint(c, hidden, h);
  int64_t dim = dims.back();
  if (zero_fill_hint(c, hidden, dim, h) || !finite_nonnegative(c.answer)) return;
  if (renormalise_hints(c, hidden, dim, h)) return;
  wrong_triangle_hint(c, hidden, h);
}

// A mask that hides the diagonal too: a row with nothing left, whose softmax (or renormalisation)
// is 0/0 = NaN. The lesson's mask hides the future (j > i); hiding the diagonal as well leaves the
// first row empty (the future and the diagonal hidden: torch.triu(ones) without diagonal=1), or
// the last (the past and the diagonal hidden: tril(ones).bool() filled with -inf, or the weights
// times triu(ones, diagonal=1) renormalised). The message says which, not which code did it.
void mask_diagonal_hint(const HintContext& c, Hints& h) {
  const Arr& e = c.expected;
  int64_t nd = ndim(e);
  if (!c.same_shape() || nd < 2 || e.shape[nd - 1] != e.shape[nd - 2]) return;
  if (std::none_of(c.answer.v.begin(), c.answer.v.end(), [](double x) { return std::isnan(x); })) return;
  int64_t n = e.shape[nd - 1];
  std::vector<bool> hidden(e.v.size());
  for (size_t k = 0; k < e.v.size(); ++k) {
    hidden[k] = e.v[k] == 0;
    if (hidden[k] != (static_cast<int64_t>(k) % n > static_cast<int64_t>(k) / n % n)) return;   // not the causal mask
  }
  const std::vector<bool> future = with_diagonal(hidden, n), past = with_diagonal(mirrored(hidden, n), n);
  for (const Source& src : c.sources) {
    if (src.dim != nd - 1) continue;
    const Printed* full = unmasked_scores(src, c.printed);
    const core::Tensor& scores = full ? full->t : src.scores->t;   // the future+diagonal mask needs only what was not masked
    for (bool is_past : {false, true}) {
      if (is_past && !full) continue;
      Arr r = softmax_of(masked_scores(scores, false, is_past ? past : future), false, src.scale, src.dim, c.run.cpu);
      if (!close_all(c.answer, r, c.tol)) continue;
      h.add(HintKind::mask_diagonal, diagonal_message(is_past));
      return;
    }
  }
}

}  // namespace attn::lab
