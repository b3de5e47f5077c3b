// core/ops/compare.h: comparisons and selection (ATen's TensorCompare.cpp): x < y and the other
// five, torch.where, torch.equal.
//
// What it is: compare() gives a bool tensor, both sides promoted to their common type
// (core::result_type) and broadcast; where() picks from two broadcast tensors and records
// WhereBackward0; equal() is one bool for the whole tensors.
// What it is not: isnan / isinf (ops/unary.h), masks built from comparisons (ops/triangular.h,
// ops/indexing.h masked_fill), or arithmetic (ops/binary.h).
#pragma once

#include "core/tensor.h"

namespace attn::core {

enum class CmpOp { eq, ne, lt, le, gt, ge };
// a (op) b -> bool, of broadcast_shapes(a.shape(), b.shape()).
Tensor compare(CmpOp op, const Tensor& a, const Tensor& b);
// The same with both sides cast to `common` first (a Python number's result_type, uint8 == -1).
Tensor compare(CmpOp op, const Tensor& a, const Tensor& b, DType common);
// cond ? a : b per element, cond (any dtype, nonzero = true), a and b broadcast together, in
// their promoted dtype (result_type(a, b), or `common` when a Python number takes part).
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b, DType common);
bool equal(const Tensor& a, const Tensor& b);   // torch.equal: same shape, same values (NaN never equal)

}  // namespace attn::core
