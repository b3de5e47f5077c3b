// core/ops/binary.h: arithmetic, + - * / ** between two tensors or a tensor and a number, and
// unary minus, broadcasting as PyTorch does (ATen's BinaryOps.cpp), forward and backward.
//
// What it is: out-of-place ops over inputs of any layout, each recording PyTorch 1.13's grad_fn
// (AddBackward0, ..., RsubBackward1). A number is rounded to float32 first, as PyTorch's wrapped
// scalars are for a float32 tensor; int64 with int64 (or an integer number) stays int64 for
// + - *. The grad:: factories are public because py records in-place arithmetic with them.
// What it is not: in place (ops/inplace.h), comparisons (ops/compare.h), or tensor ** tensor
// with its backward (ops/pow.h: BinOp::pow here is the plain elementwise std::pow).
#pragma once

#include "core/autograd.h"
#include "core/tensor.h"

namespace attn::core {

enum class BinOp { add, sub, mul, div, pow };

// a (op) b, both broadcast to broadcast_shapes(a.shape(), b.shape()); that shape out.
Tensor binary(BinOp op, const Tensor& a, const Tensor& b);
// a (op) s, or s (op) a when scalar_on_left (Python's `2 - x`); a's shape out.
Tensor binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left = false);
Tensor neg(const Tensor& a);   // -a, a's shape (int64: a * -1)

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
