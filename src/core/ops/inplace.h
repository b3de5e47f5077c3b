// core/ops/inplace.h: the ops that write into an existing tensor (a tensor or a view) through its
// strides into its storage: copy_, fill_, masked_fill_, and add_/sub_/mul_/div_.
//
// What it is: as PyTorch's in-place ops: values converted to self's dtype, the storage's version
// bumped (autograd's in-place check), and PyTorch's refusals first: copy_ and the arithmetic
// refuse a self whose elements overlap (an expanded dim), fill_ and masked_fill_ allow it, and a
// source that partly overlaps self is refused.
// What it is not: autograd's in-place rules (a leaf that requires grad, CopySlices:
// core/autograd_views.cpp's in_place, which the torch bindings wrap these in), or recorded.
#pragma once

#include <functional>

#include "core/ops/binary.h"
#include "core/tensor.h"

namespace attn::core {

void copy_(Tensor& self, const Tensor& src);                      // src broadcast to self
// Every element of self (any shape). Into an integer dtype the value must fit, as c10's
// checked_convert decides (PyTorch's "value cannot be converted to type uint8_t without
// overflow"); `integral` says it was a Python int (uint8 then takes -1 as 255).
void fill_(Tensor& self, double value, bool integral = false);
// The same where mask broadcast to self is true: a bool mask, or one of another dtype read as
// 1.13's kernel reads it (each element's low byte, which must be 0 or 1: a float 1.0 fills nothing).
void masked_fill_(Tensor& self, const Tensor& mask, float value, bool integral = false);
void binary_(BinOp op, Tensor& self, const Tensor& other);        // self (op)= other: add_, mul_, ...
// TensorIterator's refusals before an in-place op writes self from `other`: self's elements
// overlap (an expand()ed view), or other shares some, not all, of self's memory (y.add_(x[:3])).
void check_inplace_operand(const Tensor& self, const Tensor& other);
// at::assert_no_overlap: other shares any of self's memory PyTorch can tell about (a part, or all of
// it: x[idx] = x[:3], x.index_put_((idx,), x)), PyTorch's "some elements ... single memory location".
void check_no_overlap(const Tensor& self, const Tensor& other);
// An in-place op's out-of-place result r written into self, unless r's dtype cannot be cast into
// self's (PyTorch's "result type Float can't be cast to the desired output type Long").
// Whether PyTorch's get_overlap_status calls self and src (one dtype, sharing storage) TOO_HARD
// (neither is dense: a[:, 1:] and a[:, :-1]): ATen then neither refuses nor copies, and its loop
// reads src after its own earlier writes. overlapping_apply runs that loop for an elementwise op:
// op(x, y) computes a block of self's and src's elements ([n] each, contiguous; its result is
// stored in self's dtype), vectorised: the kernel is cpu_kernel_vec (blocks of 2 vectors, 64
// bytes: 16 floats, 8 int64s; each run's tail one by one), else cpu_kernel (every element alone).
bool inplace_too_hard(const Tensor& self, const Tensor& src);
void overlapping_apply(Tensor& self, const Tensor& src, bool vectorised,
                       const std::function<Tensor(const Tensor&, const Tensor&)>& op);
void write_result_(Tensor& self, const Tensor& r);
void binary_scalar_(BinOp op, Tensor& self, double s, std::optional<DType> number = std::nullopt);   // number: binary_scalar's

}  // namespace attn::core
