// core/ops/repeat_pad.h: Tensor.repeat and F.pad's constant mode (ATen's repeat and
// constant_pad_nd), forward and backward.
//
// What it is: ops that copy a tensor's elements into a larger (or, for negative padding, smaller)
// one, with PyTorch 1.13's checks and messages.
// What it is not: repeat_interleave (ops/indexing.h) or the reflect / replicate / circular pads.
#pragma once

#include <vector>

#include "core/tensor.h"

namespace attn::core {

Tensor repeat(const Tensor& a, const std::vector<int64_t>& repeats);                  // RepeatBackward0
// pad = (left of the last dim, right of it, left of the one before, ...); negative crops.
Tensor constant_pad(const Tensor& a, const std::vector<int64_t>& pad, double value);   // ConstantPadNdBackward0

}  // namespace attn::core
