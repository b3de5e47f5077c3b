// core/ops/sort.h: the ops that select elements by value and return where they were (ATen's
// TensorCompare.cpp, Sorting.cpp, ReduceOps.cpp): max/min along a dim with their indices,
// argmin, min over every element, sort, topk; and flip, all and any. Forward and backward.
//
// What it is: a (any layout; float32, or int64/bool where PyTorch allows) worked along one dim in
// PyTorch 1.13's CPU order: max/min take the first extreme element and the first NaN (NaN wins);
// sort is std::sort (not stable) with ATen's comparators, NaN greatest; topk is ATen's
// topk_impl_loop (std::partial_sort when k * 64 <= n, else std::nth_element then std::sort).
// Since the same libstdc++ algorithms run on the same comparisons, ties come out as in torch.
// Backward: the gradient written back at the indices (value_selecting_reduction_backward),
// flip's gradient flipped; nothing is rounded.
// What it is not: amax/argmax (ops/reduce.h), or stable sort beyond what std::stable_sort gives.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

// torch.max(x, dim) / torch.min(x, dim): (values, int64 indices); MaxBackward0 / MinBackward0.
std::pair<Tensor, Tensor> max_dim(const Tensor& a, int64_t dim, bool keepdim, bool is_min);
Tensor min(const Tensor& a, CpuKernels cpu);                              // all elements -> 0-d (MinBackward1)
Tensor argmin(const Tensor& a, int64_t dim, bool keepdim);    // first minimum; NaN wins
Tensor argmin(const Tensor& a);                               // into the flattened tensor
// torch.sort: (values, int64 indices) along dim; SortBackward0.
std::pair<Tensor, Tensor> sort(const Tensor& a, int64_t dim, bool descending, bool stable);
// torch.topk: the k largest (or smallest) along dim; TopkBackward0.
std::pair<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest, bool sorted);
Tensor flip(const Tensor& a, const std::vector<int64_t>& dims);   // FlipBackward0
// torch.maximum / torch.minimum (and max(a, b), min(a, b)): broadcast, NaN wins, b on a tie
// (Vectorized maximum's order); MaximumBackward0 / MinimumBackward0 halve the gradient on ties.
Tensor maximum(const Tensor& a, const Tensor& b, bool is_min);
// torch.all / torch.any: bool; over every element (dim nullopt) or one dim.
Tensor all_any(const Tensor& a, std::optional<int64_t> dim, bool keepdim, bool is_any);

}  // namespace attn::core
