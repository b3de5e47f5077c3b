// torch/ops_autograd.cpp: the op-table rows of autograd: Tensor.backward, Tensor.requires_grad_,
// Tensor.retain_grad, the in-place arithmetic add_/sub_/mul_/div_ (also what `x += y`, `-=`,
// `*=`, `/=` do to a tensor: Python's __iadd__ & co.), and torch.nn.functional.mse_loss (the
// loss the tutorials differentiate).
//
// What it is: argument handling and PyTorch's messages around core/autograd.h, which records
// the graph and runs the engine. Attributes (`x.grad`, `x.is_leaf`) are in tensor_methods.cpp.
// What it is not: grad mode (core::autograd::grad_enabled()), create_graph or autograd.grad().
#include <fmt/format.h>

#include "core/autograd.h"
#include "core/ops.h"
#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::Tensor;

// tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)
Value backward_fn(Interpreter&, Args& a) {
  const Tensor& self = a.tensor("self");
  if (a.flag("create_graph")) a.unsupported("create_graph", "attn computes first derivatives only");
  if (!a.get("inputs").is_none()) a.unsupported("inputs", "attn accumulates into every leaf");
  std::optional<Tensor> gradient;
  if (!a.get("gradient").is_none()) gradient = a.tensor("gradient");
  const bool retain = !a.get("retain_graph").is_none() && a.flag("retain_graph");
  core::autograd::backward(self, gradient, retain);
  return Value::none();
}

// tensor.requires_grad_(requires_grad=True): only a leaf's flag may change; returns self.
Value requires_grad_fn(Interpreter&, Args& a) {
  Tensor& self = a.tensor("self");
  const bool on = a.flag("requires_grad");
  if (on && !self.is_float())
    throw core::TensorError("only Tensors of floating point dtype can require gradients");
  if (!self.is_leaf() && !on)
    throw core::TensorError("you can only change requires_grad flags of leaf variables. If you want to use a computed "
                            "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  if (self.is_leaf()) self.set_requires_grad(on);
  return a.get("self");
}

// tensor.retain_grad(): a non-leaf's .grad is filled by the next backward(); a leaf's always is.
Value retain_grad_fn(Interpreter&, Args& a) {
  const Tensor& self = a.tensor("self");
  if (!self.requires_grad()) throw core::TensorError("can't retain_grad on Tensor that has requires_grad=False");
  core::autograd::retain_grad(self);
  return Value::none();
}

const char* inplace_grad_name(core::BinOp op) {
  switch (op) {
    case core::BinOp::add: return "AddBackward0";
    case core::BinOp::sub: return "SubBackward0";
    case core::BinOp::mul: return "MulBackward0";
    case core::BinOp::div: return "DivBackward0";
    case core::BinOp::pow: return "PowBackward0";
  }
  return "";
}

// self.add_(other, alpha=s) / self.sub_(other, alpha=s): self + fl32(±s)*other (one FMA in the
// AVX2 family, as ATen's add kernel), when no graph is recorded (an optimizer's step under
// torch.no_grad()); alpha=1 is the ordinary in-place op.
Value add_sub_(Interpreter& in, Args& a, core::BinOp op) {
  const double alpha = a.number("alpha");
  if (alpha == 1.0) return tensor_inplace(in, op, a.get("self"), a.get("other"));
  core::autograd::check_inplace(as_tensor(a.get("self")), false);
  const Value& other = a.get("other");
  Tensor& self = as_tensor(a.get("self"));
  if (is_tensor(other)) {
    const core::Shape shape = core::broadcast_shapes(self.shape(), as_tensor(other).shape());
    if (shape != self.shape())   // TensorIterator's in-place rule, before any arithmetic
      throw core::TensorError(fmt::format("output with shape {} doesn't match the broadcast shape {}", core::shape_str(self.shape()),
                                          core::shape_str(shape)));
    core::check_inplace_operand(self, as_tensor(other));
  }
  const bool other_grad = is_tensor(other) && as_tensor(other).requires_grad();
  if (core::autograd::grad_enabled() && (self.requires_grad() || other_grad))
    a.unsupported("alpha", "attn records no graph for an in-place add with alpha= (use it under torch.no_grad()); multiply `other` first");
  const double s = op == core::BinOp::sub ? -alpha : alpha;
  const core::CpuKernels cpu = state(in).cpu;
  if (self.is_float() && overlapping_write(a.get("self"), other, true, [s, cpu](const Tensor& x, const Tensor& y) { return add_scaled(x, y, s, cpu); }))
    return a.get("self");   // ATen's add kernel, vectorised (vec::fmadd)
  if (!self.is_float() && self.dtype() != core::DType::boolean && a.get("alpha").kind != Value::Float &&
      overlapping_write(a.get("self"), other, true, [s](const Tensor& x, const Tensor& y) {
        return core::binary(core::BinOp::add, x, core::binary_scalar(core::BinOp::mul, y, s, false, core::DType::int64));
      }))
    return a.get("self");
  if (!is_tensor(other) || !self.is_float() || !as_tensor(other).is_float()) {   // integers, bool, a number: the out-of-place result
    core::write_result_(self, as_tensor(add_sub(in, a, op == core::BinOp::sub)));
    return a.get("self");
  }
  core::copy_(self, add_scaled(self, as_tensor(other), op == core::BinOp::sub ? -alpha : alpha, state(in).cpu));
  return a.get("self");
}

Value mse_loss_fn(Interpreter&, Args& a) {
  const std::string reduction = a.string("reduction");
  if (!a.get("size_average").is_none()) a.unsupported("size_average", "use reduction=");
  if (!a.get("reduce").is_none()) a.unsupported("reduce", "use reduction=");
  return tensor_value(core::mse_loss(a.tensor("input"), a.tensor("target"), reduction));
}

}  // namespace

// self (op)= other written into self's storage (every view sees it), the version bumped; self
// stays the same object. Recorded as PyTorch's in-place ops are (core::autograd::in_place: its
// leaf and view checks, CopySlices for a view): the op's node over self's previous history
// (mul_/div_ keep self's old values).
Value tensor_inplace(Interpreter&, core::BinOp op, const Value& self, const Value& other) {
  Tensor& t = as_tensor(self);
  const bool grad = core::autograd::grad_enabled();
  if (is_tensor(other)) {
    const Tensor o = as_tensor(other);
    core::autograd::in_place(t, o.requires_grad(), [&](const Tensor& before) {
      Tensor saved = before;   // mul_/div_ need self's values before the write (original_self)
      if (grad && (op == core::BinOp::mul || op == core::BinOp::div)) {
        saved = core::detach(t).clone();
        saved.set_requires_grad(before.requires_grad());   // which gradients the formula computes
      }
      // recorded before the write, so `other` is saved at its version now (x.mul_(x), y[1].mul_(y[0])
      // then refuse backward, as PyTorch's SavedVariable does)
      Tensor r = core::autograd::record(t, {&before, &o}, inplace_grad_name(op), core::grad::binary(op, saved, o));
      core::binary_(op, t, o);
      return r;
    });
    return self;
  }
  const double s = torch_scalar(other, "other");
  const core::DType number = other.kind == Value::Bool ? core::DType::boolean
                             : other.kind == Value::Float ? core::DType::float32 : core::DType::int64;
  core::autograd::in_place(t, false, [&](const Tensor& before) {
    const Tensor old = grad && before.requires_grad() ? core::detach(t).clone() : Tensor();   // values before the write
    core::binary_scalar_(op, t, s, number);
    return core::autograd::record(t, {&before}, inplace_grad_name(op), core::grad::binary_scalar(op, old, s, false));
  });
  return self;
}

namespace {

// self's values and history in a new buffer at self's own strides (new_empty_strided, copy_), so
// an op run on it walks them in the order, and with the runs, PyTorch's in-place kernel walks
// self (its TensorIterator's output; x.T.pow_(e) is one run of Sleef, as x.pow_(e)). A self whose
// elements overlap (an expand()ed view) is copied row-major. The buffer is no larger than self's
// storage (the span of self's elements in it).
Tensor strided_clone(const Tensor& self) {
  Tensor c = self.clone();   // row-major; the history kept
  if (self.numel() <= 1 || self.is_contiguous()) return c;
  int64_t extent = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.strides()[d] <= 0 && self.shape()[d] > 1) return c;
    extent += (self.shape()[d] - 1) * self.strides()[d];
  }
  Tensor laid = core::make_view(core::empty({extent}, self.dtype()), self.shape(), self.strides(), 0);   // [self's shape]
  core::copy_(laid, c);   // refuses overlapping places
  c.set_data(laid);
  return c;
}

}  // namespace

Value write_back(const Value& self, const std::function<Tensor(const Tensor&)>& op, bool result_saved, bool others_require_grad) {
  Tensor& t = as_tensor(self);
  core::autograd::in_place(t, others_require_grad, [&](const Tensor& before) {
    const Tensor r = op(strided_clone(before));   // self's values and history, apart from the write
    const bool narrower = (r.is_float() && !t.is_float()) || (t.dtype() == core::DType::boolean && r.dtype() != t.dtype());
    if (narrower)   // ATen's canCast: no float into an integer, nothing but bool into bool
      throw core::TensorError(fmt::format("result type {} can't be cast to the desired output type {}", core::dtype_title(r.dtype()),
                                          core::dtype_title(t.dtype())));
    core::copy_(t, r);
    if (result_saved && r.autograd().grad_fn && t.storage())   // the saved result is self, at the version this write left
      r.autograd().grad_fn->saved_.push_back({t.storage(), t.version_counter(), t.version(), t.shape(), r.grad_fn(), 0});
    return r;
  });
  return self;
}

bool overlapping_write(const Value& self, const Value& other, bool vectorised,
                       const std::function<Tensor(const Tensor&, const Tensor&)>& op) {
  if (!is_tensor(other)) return false;
  Tensor& t = as_tensor(self);
  const Tensor& o = as_tensor(other);
  if (!core::inplace_too_hard(t, o)) return false;
  if (core::autograd::grad_enabled() && (t.requires_grad() || o.requires_grad())) return false;
  core::overlapping_apply(t, o, vectorised, op);
  return true;
}

void add_autograd_ops(std::vector<OpRow>& rows) {
  rows.push_back({"backward", kMethod, {"backward(Tensor self, Tensor? gradient=None, bool? retain_graph=None, bool create_graph=False, TensorList? inputs=None)"},
                  backward_fn});
  rows.push_back({"retain_grad", kMethod, {"retain_grad(Tensor self)"}, retain_grad_fn});
  rows.push_back({"add_", kMethod, {"add_(Tensor self, Tensor other, *, Scalar alpha=1)", "add_(Tensor self, Scalar other, Scalar alpha=1)"},
                  [](Interpreter& in, Args& a) { return add_sub_(in, a, core::BinOp::add); }});
  rows.push_back({"sub_", kMethod, {"sub_(Tensor self, Tensor other, *, Scalar alpha=1)", "sub_(Tensor self, Scalar other, Scalar alpha=1)"},
                  [](Interpreter& in, Args& a) { return add_sub_(in, a, core::BinOp::sub); }});
  rows.push_back({"mul_", kMethod, {"mul_(Tensor self, Tensor other)", "mul_(Tensor self, Scalar other)"},
                  [](Interpreter& in, Args& a) { return tensor_inplace(in, core::BinOp::mul, a.get("self"), a.get("other")); }});
  rows.push_back({"div_", kMethod, {"div_(Tensor self, Tensor other)", "div_(Tensor self, Scalar other)"},
                  [](Interpreter& in, Args& a) { return tensor_inplace(in, core::BinOp::div, a.get("self"), a.get("other")); }});
  rows.push_back({"requires_grad_", kMethod, {"requires_grad_(Tensor self, bool requires_grad=True)"}, requires_grad_fn});
  rows.push_back({"nn.functional.mse_loss", kFunction,
                  {"def mse_loss(input, target, size_average=None, reduce=None, reduction='mean')"}, mse_loss_fn});
}

}  // namespace attn::torch
