// core/ops/bitwise.h: ~x, x & y, x | y, x ^ y on bool and integer tensors (ATen's BinaryOps.cpp
// bitwise_* and UnaryOps.cpp bitwise_not), as the operators and torch.bitwise_* compute them.
//
// What it is: elementwise, broadcasting, the result of the operands' dtype (promoted as
// core::result_type does: bool & bool is bool, uint8 | int8 is int16). A float operand raises PyTorch's error.
// a << b, a >> b (BinaryOpsKernel.cpp's lshift/rshift, their scalar loop) on integer tensors.
// What it is not: logical_and/or (which accept floats).
#pragma once

#include "core/tensor.h"

namespace attn::core {

enum class BitOp { and_, or_, xor_ };

Tensor bitwise(BitOp op, const Tensor& a, const Tensor& b);
Tensor bitwise_not(const Tensor& a);
// a << b (left) or a >> b in the promoted integer dtype; the shift count as x86 takes it from
// 1.13's scalar kernel (masked to 5 bits below int64, to 6 bits for int64), so a negative or
// oversized count shifts by its low bits. A float or bool dtype raises PyTorch's error.
Tensor shift(bool left, const Tensor& a, const Tensor& b);

}  // namespace attn::core
