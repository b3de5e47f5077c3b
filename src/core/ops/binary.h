// core/ops/binary.h: arithmetic, + - * / ** between two tensors or a tensor and a number, and
// unary minus, broadcasting as PyTorch does (ATen's BinaryOps.cpp), forward and backward.
//
// What it is: out-of-place ops over inputs of any layout, each recording PyTorch 1.13's grad_fn
// (AddBackward0, ..., RsubBackward1). A number is rounded to float32 first, as PyTorch's wrapped
// scalars are for a float32 tensor; the integer dtypes and bool promote as PyTorch 1.13
// does (core::result_type) and stay integers for + - *. The grad:: factories are public because py records in-place arithmetic with them.
// What it is not: in place (ops/inplace.h), comparisons (ops/compare.h), or tensor ** tensor
// with its backward (ops/pow.h: BinOp::pow here is the plain elementwise std::pow).
#pragma once

#include <optional>

#include "core/autograd.h"
#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

enum class BinOp { add, sub, mul, div, pow };

// a (op) b, both broadcast to broadcast_shapes(a.shape(), b.shape()); that shape out.
Tensor binary(BinOp op, const Tensor& a, const Tensor& b);
// a (op) b computed in `common` (result_type(a, b), or the caller's for a wrapped number).
Tensor binary(BinOp op, const Tensor& a, const Tensor& b, DType common);
// o[k] = x[k] (op) y[k] for k < n: binary()'s loop for float32 operands of one shape, both
// contiguous (o may be x or y: in place, as add_/mul_ run). A look at the deadline between pieces.
void binary_flat(BinOp op, const float* x, const float* y, float* o, int64_t n);
// a (op) s, or s (op) a when scalar_on_left (Python's `2 - x`); a's shape out. `number` is the
// Python number's category (bool, int64 or float32: result_type(a, number) decides the dtype);
// without it an integral s counts as an int.
Tensor binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left = false,
                     std::optional<DType> number = std::nullopt);
// a // b (torch.floor_divide, floor rounding since 1.13) or a % b (torch.remainder, the sign of
// b), computed in `common`: Python's rules for integers (a zero divisor is PyTorch's
// "ZeroDivisionError"), ATen's div_floor / remainder formulas for float32. No backward.
Tensor floor_divide_or_remainder(bool remainder, const Tensor& a, const Tensor& b, DType common);
// torch.fmod: the remainder of a / b truncated (the sign of a), in `common`: C's % for integers
// (a zero divisor is "ZeroDivisionError"), std::fmod for float32 (exact). No backward.
Tensor fmod(const Tensor& a, const Tensor& b, DType common);
// a + fl32(alpha)*b for float32 a and b (b broadcast to a's shape, a already of the result's),
// as ATen's add kernel (torch.add/sub with alpha=) rounds each element: the AVX2 family fuses it
// (vec::fmadd in the vector body, a contracted scalar lambda) except in part of the scalar tail of
// an inner loop where b is the broadcast (stride-0) operand, which rounds alpha*b first (GCC hoisted
// it; torchfuzz seed 4242, docs/pytorch-numerics.md §11); the DEFAULT family
// rounds twice everywhere. No autograd; the result laid out as TensorIterator lays it out.
Tensor add_alpha(const Tensor& a, const Tensor& b, float alpha, CpuKernels cpu);
Tensor neg(const Tensor& a);   // -a, a's shape (int64: a * -1); a bool tensor is refused as ATen does
// ATen's sub_check: a - b refused when either is bool (a Python number counts by its category).
void check_sub_dtypes(DType a, DType b);

namespace detail {
// The backward formulas' shorthand (ops/unary.cpp, ops/pow.cpp, ops/reduce.cpp).
inline Tensor mul(const Tensor& a, const Tensor& b) { return binary(BinOp::mul, a, b); }
inline Tensor div(const Tensor& a, const Tensor& b) { return binary(BinOp::div, a, b); }
inline Tensor muls(const Tensor& a, double s) { return binary_scalar(BinOp::mul, a, s); }
}  // namespace detail

namespace grad {
using autograd::Backward;
// The backward of binary(op, a, b) / binary_scalar(op, a, s, scalar_on_left): Add/Sub/Mul/
// DivBackward0, RsubBackward1, PowBackward0; an empty Backward (not implemented) for s / x and
// tensor ** tensor through BinOp::pow.
Backward binary(BinOp op, const Tensor& a, const Tensor& b);
Backward binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left);
}  // namespace grad

}  // namespace attn::core
