// core/ops/reduce.h: reductions (ATen's ReduceOps.cpp): sum, mean, prod, max, amax, argmax, var
// and std, forward and backward, in ATen's order (kernels/reduce.h; §12, §19, §24).
//
// What it is: a (any shape and layout) reduced over one dim (a's shape without it, or with size
// 1 there with keepdim; sum and mean also over several) or over every element (a 0-d result);
// dims may be negative. Each records
// PyTorch 1.13's grad_fn.
// What it is not: the reduction loops over several dims and strides (ops/sum_to.h), or
// softmax (ops/softmax.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

Tensor sum(const Tensor& a);                                      // all elements -> 0-d (integers and bool: int64)
Tensor sum(const Tensor& a, int64_t dim, bool keepdim);           // float32; integers and bool: int64
Tensor mean(const Tensor& a, int64_t dim, bool keepdim);
Tensor mean(const Tensor& a);                                     // all elements -> 0-d
// sum / mean over several dims at once (SumBackward1 / MeanBackward1), one reduction in
// TensorIterator's order (ops/sum_to.h); a dim given twice is PyTorch's error.
Tensor sum(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
Tensor mean(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
// prod of every element (ProdBackward0) or along dim (ProdBackward1) in binary_kernel_reduce_vec's
// order; integers and bool give int64.
Tensor prod(const Tensor& a);
Tensor prod(const Tensor& a, int64_t dim, bool keepdim);
Tensor max(const Tensor& a, CpuKernels cpu);                      // all elements -> 0-d (MaxBackward1)
// max() / min() of float32 values in ATen's reduce_all order (NaN wins; which zero wins depends on it).
// x: float32, any strides, read in place in row-major order.
float reduce_all_extreme(const Tensor& x, bool is_min, CpuKernels cpu);
Tensor amax(const Tensor& a, int64_t dim, bool keepdim);          // max along dim (NaN wins); AmaxBackward0
Tensor amax(const Tensor& a);                                     // over every element
Tensor amin(const Tensor& a, int64_t dim, bool keepdim);          // min along dim (NaN wins); AminBackward0
Tensor amin(const Tensor& a);                                     // over every element
// amax / amin over a list of dims (torch.amax(x, (0, 2))): each wrapped, none twice; () is every
// dim; ties share the gradient evenly (AmaxBackward0 / AminBackward0's scale_grad_by_count).
Tensor amax(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
Tensor amin(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim);
Tensor argmax(const Tensor& a, int64_t dim, bool keepdim);        // int64 index along dim (first max; NaN wins)
Tensor argmax(const Tensor& a);                                   // into the flattened tensor
// x.var / x.std over one dim (or every element when dim is nullopt), divisor max(0, n - correction):
// Welford in double per output, or two passes when the result has one element (§19).
Tensor var_std(const Tensor& a, std::optional<int64_t> dim, int64_t correction, bool keepdim, bool take_sqrt);
// The same over several dims at once (x.var((0, 1))): Welford in double per output over the reduced
// elements in memory order, or the two passes when the result has one element; backward as var_backward.
Tensor var_std(const Tensor& a, const std::vector<int64_t>& dims, int64_t correction, bool keepdim, bool take_sqrt);

}  // namespace attn::core
