// core/grad_fns.h: the backward of each forward op, as the ops in core/*.cpp hand it to
// autograd::record (core/autograd.h). Internal to core.
//
// What it is: one factory per op (or family), returning the function PyTorch 1.13's
// derivatives.yaml formula computes, in its kernel order, over tensors saved detached from the
// graph (a saved tensor must not hold its own node). Each formula is written with core ops on
// tensors that do not require grad, so computing a gradient records nothing.
// docs/pytorch-numerics.md §12 gives each formula and the evidence that it is bit-exact.
// What it is not: the engine (autograd_engine.cpp), which also reduces broadcast gradients with
// sum_to, so a formula may return its gradient at the broadcast (output) shape.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/autograd.h"

namespace attn::core::grad {

using autograd::Backward;

// b, naming the tensors its function reads (and whether it reads the op's result), so backward()
// can refuse to run it after an in-place change to one of them (autograd.h, Backward).
inline Backward reads(Backward b, std::vector<Tensor> saved, bool result = false) {
  b.saved = std::move(saved);
  b.saves_result = result;
  return b;
}

// ---- grad_basic.cpp: arithmetic, sums, matrix products ----
Backward binary(BinOp op, const Tensor& a, const Tensor& b);                 // Add/Sub/Mul/DivBackward0
Backward binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left);
Backward neg();                                                              // NegBackward0
Backward exp(const Tensor& result);                                          // ExpBackward0
Backward tanh(const Tensor& result, CpuKernels cpu);                         // TanhBackward0
Backward sum_all(const Shape& input_shape);                                  // SumBackward0
Backward sum_dim(const Shape& input_shape, int64_t dim, bool keepdim);       // SumBackward1
Backward mean_dim(const Shape& input_shape, int64_t dim, bool keepdim);      // MeanBackward1
Backward mean_all(const Shape& input_shape);                                 // MeanBackward0
Backward matmul(const Tensor& a, const Tensor& b);                           // every `@` shape

// ---- grad_softmax.cpp ----
Backward softmax(const Tensor& result, int64_t dim, CpuKernels cpu);         // SoftmaxBackward0 (dim >= 0)
Backward masked_fill(const Tensor& mask);                                    // MaskedFillBackward0
// NativeLayerNormBackward0 from the forward's per-row mean and rstd (activations.cpp computes
// them); gradients for input, then weight and bias when given (weight and bias come together).
Backward layer_norm(const Tensor& input, const Tensor* weight, std::vector<float> mean, std::vector<float> rstd,
                    CpuKernels cpu);

// ---- activations.cpp ----
// GeluBackward0: oneDNN's erf GELU ('none', contiguous, more than one element) or ATen's 'tanh';
// an empty Backward (not implemented) for ATen's erf fallback.
Backward gelu(const Tensor& input, bool tanh_approximation, CpuKernels cpu);

// ---- grad_views.cpp: no arithmetic ----
Backward reshape_to(const Shape& input_shape);      // View/ReshapeAlias/UnsafeView/Squeeze
Backward identity();                                // Clone, Alias, Expand (the engine sums)
Backward transpose(int64_t d0, int64_t d1);         // TransposeBackward0, TBackward0
Backward permute(const Shape& dims);                // PermuteBackward0
Backward unsqueeze(int64_t dim);                    // UnsqueezeBackward0 (dim normalised)
Backward select(const Shape& input_shape, int64_t dim, int64_t index);
Backward slice(const Shape& input_shape, int64_t dim, int64_t start, int64_t stop, int64_t step);
Backward split(const Shape& input_shape, int64_t dim, std::vector<int64_t> sizes);   // several outputs
Backward unbind(const Shape& input_shape, int64_t dim);                             // several outputs
Backward cat(std::vector<int64_t> sizes, int64_t dim);   // each input's size along dim
Backward stack(size_t n, int64_t dim);
// EmbeddingBackward0 (the only one here that adds: repeated ids); padding_idx -1 = none.
Backward embedding(const Tensor& ids, int64_t num_weights, int64_t padding_idx);

// ---- grad_math.cpp: pointwise math, variance, selections, triangles ----
Backward sqrt(const Tensor& result);                                         // SqrtBackward0
Backward rsqrt(const Tensor& result);                                        // RsqrtBackward0
Backward log(const Tensor& input);                                           // LogBackward0
Backward abs(const Tensor& input);                                           // AbsBackward0
Backward erf(const Tensor& input, CpuKernels cpu);                           // ErfBackward0
// VarBackward0 / StdBackward0 over one dim (or every element: dim nullopt), divisor n - correction.
Backward var_std(const Tensor& input, const Tensor& result, std::optional<int64_t> dim, int64_t correction,
                 bool keepdim, bool take_sqrt);
Backward pow_tensor(const Tensor& base, const Tensor& exponent, const Tensor& result, CpuKernels cpu);  // PowBackward1
Backward pow_scalar_base(double base, const Tensor& exponent, const Tensor& result);                   // PowBackward2
Backward where(const Tensor& cond, bool need_a, bool need_b);                // WhereBackward0
Backward triangle(int64_t diagonal, bool lower);                             // TrilBackward0 / TriuBackward0
Backward amax(const Tensor& input, const Tensor& result, std::optional<int64_t> dim, bool keepdim);   // AmaxBackward0
Backward max_all(const Tensor& input, const Tensor& result);                 // MaxBackward1
// IndexSelectBackward0 (also repeat_interleave, which 1.13 computes as index_select).
Backward index_select(const Shape& input_shape, int64_t dim, std::vector<int64_t> index);
Backward baddbmm(const Tensor& batch1, const Tensor& batch2, bool need_self);  // BaddbmmBackward0 (beta = alpha = 1)

// ---- grad_einsum.cpp ----
// torch.einsum of two operands with a contraction (BmmBackward0's products) or a one-operand
// permute; other equations get an empty Backward (not implemented).
Backward einsum(const std::vector<std::string>& inputs, const std::string& output, const std::vector<Tensor>& operands);

}  // namespace attn::core::grad
