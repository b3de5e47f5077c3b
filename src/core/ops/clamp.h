// core/ops/clamp.h: torch.clamp / clip with number or tensor bounds, forward and backward.
//
// What it is: ATen's clamp kernels (NaN in the input or a bound wins, then min(max(x, lo), hi),
// so lo > hi gives hi) and 1.13's ClampBackward1 (number bounds) and ClampBackward0 (tensor
// bounds: clamp_backward_min_max, the bounds' gradients where the input was cut).
// What it is not: clamp_ (torch/, which writes the result back and records the node), or the
// clamp_min / clamp_max ops (not implemented).
#pragma once

#include <optional>

#include "core/tensor.h"

namespace attn::core {

// Number bounds (at least one given). An int64 input with int64 bounds stays int64 (is_int
// says the bounds were Python ints); a float bound makes the result float32, as torch promotes.
Tensor clamp(const Tensor& a, std::optional<double> min, std::optional<double> max, bool ints);
// Tensor bounds (either may be null), broadcast together with a; float32, or the promoted
// integer dtype when a and the bounds are all integers.
Tensor clamp(const Tensor& a, const Tensor* min, const Tensor* max);

}  // namespace attn::core
