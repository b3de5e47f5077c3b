// lab/hints.cpp: the hint registry: kinds' ids, the table of families and when each is tried
// (see hints.h).
#include "lab/hints.h"

#include <algorithm>

namespace attn::lab {

std::string_view to_string(HintKind kind) {
  switch (kind) {
    case HintKind::transposed: return "transposed";
    case HintKind::shape: return "shape";
    case HintKind::batch_element: return "batch_element";
    case HintKind::softmax_dim: return "softmax_dim";
    case HintKind::missing_scale: return "missing_scale";
    case HintKind::scale: return "scale";
    case HintKind::transposed_scores: return "transposed_scores";
    case HintKind::mask_zero_fill: return "mask_zero_fill";
    case HintKind::mask_not_renormalised: return "mask_not_renormalised";
    case HintKind::mask_missing: return "mask_missing";
    case HintKind::mask_wrong_triangle: return "mask_wrong_triangle";
    case HintKind::mask_diagonal: return "mask_diagonal";
    case HintKind::transposed_weights: return "transposed_weights";
    case HintKind::other_weights: return "other_weights";
    case HintKind::scaled: return "scaled";
    case HintKind::draw_order: return "draw_order";
    case HintKind::seed: return "seed";
    case HintKind::options: return "options";
    case HintKind::cpu: return "cpu";
    case HintKind::rng: return "rng";
    case HintKind::equals_printed: return "equals_printed";
  }
  return "unknown";
}

std::string_view title(HintKind kind) {
  switch (kind) {
    case HintKind::transposed: return "the result transposed";
    case HintKind::shape: return "the right numbers in another shape";
    case HintKind::batch_element: return "one element of a batch";
    case HintKind::softmax_dim: return "softmax over the wrong axis";
    case HintKind::missing_scale: return "no 1/√d_k scaling";
    case HintKind::scale: return "another scale than 1/√d_k";
    case HintKind::transposed_scores: return "the scores transposed (keys @ queries.T)";
    case HintKind::mask_zero_fill: return "masked with 0 instead of -inf";
    case HintKind::mask_not_renormalised: return "masked after the softmax, not renormalised";
    case HintKind::mask_missing: return "no mask";
    case HintKind::mask_wrong_triangle: return "the other triangle masked";
    case HintKind::mask_diagonal: return "the diagonal hidden too: a row of NaN";
    case HintKind::transposed_weights: return "context vectors from the weights transposed";
    case HintKind::other_weights: return "context vectors from other printed weights";
    case HintKind::scaled: return "k times the lesson's tensor";
    case HintKind::draw_order: return "the random draws in another order";
    case HintKind::seed: return "a torch.manual_seed left out";
    case HintKind::options: return "the article's inputs, not the ones given";
    case HintKind::cpu: return "the other CPU kernels";
    case HintKind::rng: return "the other dropout generator";
    case HintKind::equals_printed: return "another tensor the lesson prints";
  }
  return "unknown";
}

bool Hints::has(HintKind kind) const {
  return std::any_of(list_.begin(), list_.end(), [&](const Hint& h) { return h.kind == kind; });
}

void Hints::add(HintKind kind, const std::string& message) {
  if (!has(kind)) list_.push_back({kind, message});
}

// The order of the rows is the order hints are tried and reported in. A family may report
// several of its kinds (softmax_dim and missing_scale together), always in the order listed.
const std::vector<HintFamily> kHints = {
    {{HintKind::transposed, HintKind::shape, HintKind::batch_element}, When::misshapen_or_float, shape_hints,
     "the result transposed; the right numbers in another shape; one element of a batch"},
    {{HintKind::softmax_dim, HintKind::missing_scale, HintKind::scale, HintKind::transposed_scores}, When::untransposed, softmax_hints,
     "the lesson's softmax over another dim, with another scale (none, d_k, ×√d_k, any), or of the transposed scores"},
    {{HintKind::mask_zero_fill, HintKind::mask_not_renormalised, HintKind::mask_missing, HintKind::mask_wrong_triangle},
     When::untransposed, mask_hints,
     "a causal mask filled with 0, applied after the softmax without renormalising, left out, or the other triangle"},
    {{HintKind::mask_diagonal}, When::untransposed, mask_diagonal_hint,
     "a causal mask that hides the diagonal too (triu without diagonal=1, or tril as the fill mask): a row of NaN"},
    {{HintKind::transposed_weights, HintKind::other_weights}, When::untransposed, context_hints,
     "context vectors from the transposed weights, or from other printed weights"},
    {{HintKind::scaled}, When::untransposed, scaled_copy_hint, "every element k times the lesson's (dropout without 1/(1-p), ...)"},
    {{HintKind::draw_order, HintKind::seed, HintKind::options, HintKind::cpu, HintKind::rng}, When::same_shape_float, rerun_hints,
     "the lesson re-run with its draws reordered, a seed call left out, without the options given, with the other --cpu or --rng"},
    {{HintKind::equals_printed}, When::always, equals_printed_hint, "another tensor the lesson prints, or its transpose"},
};

bool tried(When when, const HintContext& c, const Hints& h) {
  switch (when) {
    case When::always: return true;
    case When::misshapen_or_float: return !c.same_shape() || c.float_target;
    case When::same_shape_float: return c.same_shape() && c.float_target;
    case When::untransposed: return c.same_shape() && c.float_target && !h.has(HintKind::transposed);
  }
  return false;
}

}  // namespace attn::lab
