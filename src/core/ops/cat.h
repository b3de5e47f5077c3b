// core/ops/cat.h: torch.cat, torch.stack (ATen's TensorShape.cpp) and torch.roll
// (TensorTransformations.cpp), forward and backward.
//
// What it is: joins that copy their inputs into one new tensor (CatBackward0, StackBackward0:
// the gradient cut back into the inputs' parts).
// What it is not: views (ops/views.h; split and chunk are cat's inverse there).
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace attn::core {

// ts: the same shape except along dim (cat) or exactly the same (stack, which adds dim).
Tensor cat(const std::vector<Tensor>& ts, int64_t dim);
Tensor stack(const std::vector<Tensor>& ts, int64_t dim);
// torch.roll: each dims[k] rolled by shifts[k] (roll_cpu: the two narrowed parts joined by cat);
// dims empty: a flattened, with one shift. RollBackward0 rolls the gradient back. PyTorch's checks.
Tensor roll(const Tensor& a, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims);

}  // namespace attn::core
