// core/ops/bitwise.h: ~x, x & y, x | y, x ^ y on bool and integer tensors (ATen's BinaryOps.cpp
// bitwise_* and UnaryOps.cpp bitwise_not), as the operators and torch.bitwise_* compute them.
//
// What it is: elementwise, broadcasting, the result of the operands' dtype (promoted as
// core::result_type does: bool & bool is bool, uint8 | int8 is int16). A float operand raises PyTorch's error.
// What it is not: logical_and/or (which accept floats), or shifts.
#pragma once

#include "core/tensor.h"

namespace attn::core {

enum class BitOp { and_, or_, xor_ };

Tensor bitwise(BitOp op, const Tensor& a, const Tensor& b);
Tensor bitwise_not(const Tensor& a);

}  // namespace attn::core
