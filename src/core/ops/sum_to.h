// core/ops/sum_to.h: at::sum_to (ATen/ExpandUtils.h), the reduction autograd undoes a broadcast
// with: a gradient summed down to an input's shape, in the order ATen's TensorIterator and
// cascade_sum add (a Linear bias over B*T rows, a causal mask over heads, a keepdim mean).
//
// What it is: the engine (autograd_engine.cpp) calls it for every gradient of a broadcast shape,
// and backward formulas call it where PyTorch's do. In namespace autograd, as the engine's.
// What it is not: torch.sum over one dim of a contiguous input (ops/reduce.h; same kernel).
#pragma once

#include <functional>
#include <vector>

#include "core/tensor.h"

namespace attn::core::autograd {

// g summed down to `shape` in one reduction over the leading dims and the dims where shape has
// 1, with the cascade order of a TensorIterator sum. `shape` must broadcast to g's shape.
Tensor sum_to(const Tensor& g, const Shape& shape);

// g.sum(dims, keepdim) (all dims when `dims` is empty) for any strides of g, in the order
// TensorIterator's reduction adds: memory order for a permuted input, stride 0 of an expanded
// one iterated as a dim. torch.sum/mean of a non-contiguous input use it (ops/reduce.cpp).
Tensor sum_dims(const Tensor& g, const std::vector<int64_t>& dims, bool keepdim);

// A reduction kernel's 2-D loop over a (size0, size1) block at x with input strides si and
// output strides so (elements; 0 where a dim is reduced), combining into out.
using ReduceLoop2d = void (*)(const float* x, int64_t size0, int64_t size1, int64_t si0, int64_t si1, int64_t so0,
                              int64_t so1, float* out);
// The reduction sum_dims makes, with another kernel (prod's, ops/reduce.cpp): TensorIterator's
// dim order and coalescing, the output filled with `init` first. float32 in and out.
Tensor reduce_dims(const Tensor& g, const std::vector<int64_t>& dims, bool keepdim, float init, ReduceLoop2d loop);

// For the reductions that walk each output's elements one by one (binary_kernel_reduce: norm):
// calls row(out, x, n, si, so) for each run of the iterator's dim 0 in TensorIterator's order
// (memory order for a permuted input): element i is x[i * si], bound for output out + i * so
// (row-major output index; so is 0 when dim 0 is reduced). reduction_lastdim: whether ATen's
// binary_kernel_reduce_lastdim applies instead (one contiguous reduced dim left after coalescing:
// then each row is one output's elements, si 1).
using ReduceRow = std::function<void(int64_t out, const float* x, int64_t n, int64_t si, int64_t so)>;
void reduction_rows(const Tensor& g, const std::vector<int64_t>& dims, const ReduceRow& row);
bool reduction_lastdim(const Tensor& g, const std::vector<int64_t>& dims);

}  // namespace attn::core::autograd
