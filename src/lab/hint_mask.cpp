// lab/hint_mask.cpp: hints from a causal mask: the expected weights have exact zeros (see hints.h).
#include "lab/hints.h"

#include <fmt/format.h>

#include <cmath>

#include "lab/report.h"

namespace attn::lab {

void mask_hints(const HintContext& c, Hints& h) {
  const Arr& ans = c.answer;
  const Arr& e = c.expected;
  const std::vector<Source>& sources = c.sources;
  const Tolerance& tol = c.tol;
  if (ans.shape != e.shape) return;
  std::vector<bool> hidden(e.v.size());
  bool any = false, all = true;
  for (size_t k = 0; k < e.v.size(); ++k) any |= (hidden[k] = e.v[k] == 0), all &= hidden[k];
  if (!any || all) return;
  auto dims = distribution_dims(e);
  if (dims.empty()) {   // e.g. weights * mask: right everywhere but where the lesson's tensor is 0
    bool rest = true, weight_hidden = false;
    for (size_t k = 0; k < e.v.size(); ++k) {
      if (!hidden[k]) rest &= close(e.v[k], ans.v[k], tol);
      else weight_hidden |= !close(0, ans.v[k], tol);
    }
    if (rest && weight_hidden)
      h.add(HintKind::mask_missing, "Your answer agrees with the lesson's tensor except where the lesson's is exactly 0 (the positions "
                                    "the mask hides, the future tokens): the mask was not applied.");
    return;
  }
  int64_t dim = dims.back();

  // 1. The scores masked with 0 instead of -inf.
  for (const Source& src : sources) {
    if (src.dim != dim) continue;
    const core::Tensor& s = src.scores->t;
    bool inf_at_hidden = true;
    for (size_t k = 0; k < s.f.size(); ++k) inf_at_hidden &= std::isinf(s.f[k]) == hidden[k];
    if (!inf_at_hidden) continue;
    core::Tensor zero_filled = s;
    for (float& x : zero_filled.f)
      if (std::isinf(x)) x = 0;
    if (close_all(ans, softmax_of(zero_filled, false, src.scale, dim), tol)) {
      h.add(HintKind::mask_zero_fill, fmt::format("The mask filled the scores with 0 instead of -inf: exp(0) = 1, so the hidden (future) "
                                                  "positions still get weight. Fill them with -torch.inf, as in step '{}' ({} there), so "
                                                  "that the softmax gives them exactly 0.",
                                                  src.scores->step, code(src.scores->name)));
      return;
    }
  }

  // Row sums of the answer along `dim`, and the answer renormalised (optionally zeroed where hidden).
  auto renormalised = [&](bool zero_hidden, double& lo, double& hi) {
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
  };
  bool zero_where_hidden = true, nonnegative = true;
  for (size_t k = 0; k < ans.v.size(); ++k) {
    if (hidden[k] && std::fabs(ans.v[k]) > tol.atol) zero_where_hidden = false;
    if (!(ans.v[k] >= 0) || std::isinf(ans.v[k])) nonnegative = false;
  }
  if (!nonnegative) return;
  double lo = 0, hi = 0;
  // 2. Masked after the softmax, rows not renormalised.
  if (zero_where_hidden) {
    Arr n = renormalised(false, lo, hi);
    if (close_all(n, e, tol) && (std::fabs(lo - 1) > 1e-3 || std::fabs(hi - 1) > 1e-3)) {
      h.add(HintKind::mask_not_renormalised,
            fmt::format("The mask was applied after the softmax without renormalising: the hidden positions are 0, but the rows of "
                        "your answer sum to between {:.4f} and {:.4f}, not 1; each is the lesson's row times its sum. Divide each row "
                        "by its sum (w / w.sum(dim=-1, keepdim=True)), or mask the scores with -inf before the softmax, which "
                        "needs no second pass.",
                        lo, hi));
      return;
    }
  }
  // 3. No mask at all: weight where the lesson has none, right ratios elsewhere.
  if (!zero_where_hidden) {
    Arr n = renormalised(true, lo, hi);
    if (close_all(n, e, tol)) {
      h.add(HintKind::mask_missing, "Your answer gives weight to positions the lesson's mask hides (where its weights are exactly 0: "
                                    "the future tokens): the mask was not applied. Fill the hidden scores with -inf (masked_fill) "
                                    "before the softmax, or zero the weights and renormalise each row.");
      return;
    }
  }
  // 4. The other triangle.
  int64_t nd = ndim(e);
  if (nd >= 2 && e.shape[nd - 1] == e.shape[nd - 2]) {
    int64_t n = e.shape[nd - 1];
    bool upper = true, lower = true;
    for (size_t k = 0; k < hidden.size(); ++k) {
      int64_t i = static_cast<int64_t>(k) / n % n, j = static_cast<int64_t>(k) % n;
      if (hidden[k]) upper &= j > i, lower &= j < i;
    }
    if (!upper && !lower) return;
    bool match = true;
    for (size_t k = 0; k < hidden.size(); ++k) {
      size_t b = k / static_cast<size_t>(n * n) * static_cast<size_t>(n * n);
      int64_t i = static_cast<int64_t>(k) / n % n, j = static_cast<int64_t>(k) % n;
      bool mirrored = hidden[b + static_cast<size_t>(j * n + i)];
      match &= (std::fabs(ans.v[k]) <= tol.atol) == mirrored;
    }
    if (match)
      h.add(HintKind::mask_wrong_triangle,
            fmt::format("Your zeros are on the wrong side of the diagonal: the lesson hides the positions {} it (token i may not see "
                        "{} tokens), your answer those {} it. torch.triu(torch.ones(n, n), diagonal=1) marks the future positions "
                        "to fill with -inf; torch.tril(torch.ones(n, n)) marks the ones to keep.",
                        upper ? "above" : "below", upper ? "later" : "earlier", upper ? "below" : "above"));
  }
}

}  // namespace attn::lab
