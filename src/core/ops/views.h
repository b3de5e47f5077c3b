// core/ops/views.h: the ops that return a view of their input, sharing its storage, as PyTorch
// 1.13's do (ATen's TensorShape.cpp), forward and backward; plus contiguous and clone, which copy.
//
// What it is: shape and stride arithmetic, no element touched, so a view costs the same whatever
// the tensor's size; each records the grad_fn PyTorch prints (ViewBackward0, TBackward0, ...).
// `a` may be any layout; dims may be negative (counted from the end).
// What it is not: indexing syntax (ops/indexing.h builds on select/slice/unsqueeze) or joins
// (cat and stack copy: ops/cat.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace attn::core {

Tensor transpose(const Tensor& a, int64_t d0, int64_t d1);       // dims d0 and d1 swapped
Tensor t(const Tensor& a);                                        // .t(): a (<= 2-D) transposed (TBackward0)
Tensor T(const Tensor& a);                                        // .T: dims reversed (PermuteBackward0)
Tensor permute(const Tensor& a, const Shape& dims);               // dims is a permutation; PermuteBackward0
// .view(shape): one -1 allowed; PyTorch's error when the strides do not allow a view.
Tensor view(const Tensor& a, const Shape& shape);
// .reshape(shape): a view when the strides allow (ReshapeAliasBackward0), else a contiguous
// copy (UnsafeViewBackward0), as PyTorch 1.13 records them.
Tensor reshape(const Tensor& a, const Shape& shape);
Tensor unsqueeze(const Tensor& a, int64_t dim);                   // a size-1 dim inserted at dim
Tensor squeeze(const Tensor& a, int64_t dim);                     // dim removed if its size is 1
Tensor squeeze(const Tensor& a);                                  // every dim of size 1 removed
Tensor expand(const Tensor& a, const Shape& shape);               // -1 keeps a dim; stride 0 where broadcast
Tensor select(const Tensor& a, int64_t dim, int64_t index);       // dim removed: a[..., index, ...]
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& a, int64_t dim, int64_t start, int64_t stop, int64_t step);  // clipped
std::vector<Tensor> unbind(const Tensor& a, int64_t dim);         // a's size along dim views, dim removed
std::vector<Tensor> split(const Tensor& a, int64_t size, int64_t dim);   // pieces of `size` (the last shorter)
std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim); // ceil(n / chunks) per piece
Tensor contiguous(const Tensor& a);                               // a itself, or a CloneBackward0 copy
Tensor clone(const Tensor& a);                                    // a contiguous copy (CloneBackward0)

}  // namespace attn::core
