// py/tensor_methods.cpp: attributes of a Tensor value (`x.shape`, `x.T`, `x.dtype`), indexing
// (`x[1]`, `x[0, 1] = 5`) and the lookup of its methods (`x.sum(dim=1)`) in the op table.
//
// What it is: indexing gives views (core/indexing.cpp) and item assignment writes through them
// into the tensor's storage, so every name bound to it, and every view of it, sees the change. What it is not: the methods themselves (op_table.h: ops_*.cpp rows) or
// numerics (core/).
#include <fmt/format.h>

#include "core/autograd.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/op_table.h"

namespace attn::py {

namespace {

using core::Tensor;

std::vector<core::Index> to_indices(const std::vector<Value>& idx) {
  std::vector<core::Index> out;
  for (const Value& v : idx) {
    core::Index ix;
    if (v.is_none()) {
      ix.kind = core::Index::newaxis;
    } else if (v.kind == Value::Ellipsis) {
      ix.kind = core::Index::ellipsis;
    } else if (v.kind == Value::Slice) {
      auto* s = static_cast<SliceObj*>(v.obj.get());
      ix.kind = core::Index::slice;
      ix.has_start = !s->start.is_none();
      ix.has_stop = !s->stop.is_none();
      if (ix.has_start) ix.start = to_slice_bound(s->start);   // x[0:2**64]: clamped, as PyTorch does
      if (ix.has_stop) ix.stop = to_slice_bound(s->stop);
      ix.step = s->step.is_none() ? 1 : to_int(s->step, "slice step");
    } else if (v.kind == Value::Tuple) {
      for (const core::Index& inner : to_indices(as_seq(v))) out.push_back(inner);
      continue;
    } else {
      if (v.kind == Value::Tensor && as_tensor(v).numel() != 1)
        throw IndexError("attn supports integer, slice and None indices, not index tensors or masks");
      ix.value = to_int(v, "index");
    }
    out.push_back(ix);
  }
  return out;
}

// x[idx] = value, as PyTorch's copy_to (python_variable_indexing.cpp): the indexed view is
// written in place, so x (and every other view of its storage) changes. A value of the view's
// shape is copied, a number or 0-d tensor fills, anything else has its leading 1s dropped and is
// expanded to the view's shape (expand's errors).
void write_item(const Tensor& t, const Value& value, const std::vector<core::Index>& idx) {
  Tensor dst = core::index(t, idx);
  if (value.kind != Value::Tensor) return core::fill_(dst, torch_scalar(value, "value"));
  const Tensor& src = as_tensor(value);
  if (dst.shape() == src.shape()) return core::copy_(dst, src);
  if (src.dim() == 0) return core::fill_(dst, src.at(0));
  core::Shape trimmed = src.shape();
  while (!trimmed.empty() && trimmed.front() == 1) trimmed.erase(trimmed.begin());
  core::copy_(dst, core::expand(core::view(src, trimmed), dst.shape()));
}

// With grad mode on and t or the value requiring grad, t's grad_fn becomes PyTorch's CopySlices:
// t's previous history gets the gradient with the written part +0, the value gets that part
// (copied contiguous, then reduced to its shape by the engine's sum_to), as CopySlices::apply.
void setitem(Interpreter& in, Tensor& t, const Value& value, const std::vector<Value>& idx) {
  // x[mask] = number with a bool mask of x's shape (the buffers notebook's mask[mask == 1.] = 2.):
  // PyTorch's index_put_ writes the number where the mask is True, which is masked_fill_. Only
  // where no gradient is recorded; with one, the general path below says what attn supports.
  if (idx.size() == 1 && idx[0].kind == Value::Tensor && as_tensor(idx[0]).dtype() == core::DType::boolean &&
      as_tensor(idx[0]).shape() == t.shape() && t.is_float() && (value.kind == Value::Int || value.kind == Value::Float) &&
      !(in.state.grad_enabled && t.requires_grad())) {
    core::masked_fill_(t, as_tensor(idx[0]), torch_scalar(value, "value"));
    return;
  }
  const std::vector<core::Index> ix = to_indices(idx);
  const bool src_grad = value.kind == Value::Tensor && as_tensor(value).requires_grad();
  const bool record = in.state.grad_enabled && (t.requires_grad() || src_grad);
  if (record && t.requires_grad() && t.is_leaf())
    throw core::TensorError("a view of a leaf Variable that requires grad is being used in an in-place operation.");
  const Tensor before = t;
  write_item(t, value, ix);
  if (!record || !t.is_float()) return;
  const Tensor src = value.kind == Value::Tensor ? as_tensor(value) : Tensor();
  const bool need_base = before.requires_grad();
  core::autograd::Backward backward{[ix, need_base, src_grad](const core::autograd::Grads& g) {
                                      core::autograd::Grads out(2);
                                      if (need_base) {
                                        Tensor base = core::detach(*g[0]).clone();
                                        Tensor part = core::index(base, ix);
                                        core::fill_(part, 0.0);
                                        out[0] = base;
                                      }
                                      if (src_grad) out[1] = core::index(*g[0], ix).contiguous();
                                      return out;
                                    },
                                    false};
  t = src_grad ? core::autograd::record(t, {&before, &src}, "CopySlices", std::move(backward))
               : core::autograd::record(t, {&before}, "CopySlices", std::move(backward));
}

}  // namespace

Value tensor_attribute(Interpreter&, const Value& self, const std::string& name) {
  Tensor& t = as_tensor(self);
  if (name == "shape") return Value::size(t.shape());
  if (name == "T") return Value::tensor(core::T(t));
  if (name == "ndim") return Value::integer(t.dim());
  if (name == "requires_grad") return Value::boolean(t.requires_grad());
  if (name == "is_leaf") return Value::boolean(t.is_leaf());
  if (name == "grad_fn") return grad_fn_value(t);   // grad_fn.cpp
  if (name == "grad") {   // a leaf's accumulated gradient, a plain tensor; None before backward()
    std::optional<Tensor> g = core::autograd::grad(t);
    return g ? Value::tensor(*g) : Value::none();
  }
  if (name == "data") return Value::tensor(core::detach(t));
  if (name == "device") return cpu_device();   // every attn tensor lives on the CPU
  if (name == "is_cuda") return Value::boolean(false);
  if (name == "dtype")
    return Value::dtype(t.dtype() == core::DType::float32 ? "torch.float32" : t.dtype() == core::DType::int64 ? "torch.int64" : "torch.bool");
  if (name == "__getitem__")
    return builtin("Tensor.__getitem__", [self](Interpreter&, CallArgs& a) {
      return Value::tensor(core::index(as_tensor(self), to_indices(a.pos)));
    });
  if (name == "__setitem__")
    return builtin("Tensor.__setitem__", [self](Interpreter& in, CallArgs& a) {
      std::vector<Value> idx(a.pos.begin() + 1, a.pos.end());
      setitem(in, as_tensor(self), a.pos.at(0), idx);
      return Value::none();
    });
  const OpTable& ops = torch_ops();
  const OpTable::Op* op = ops.method(name);
  if (!op)
    throw AttributeError("'Tensor' object has no attribute '" + name + "' (attn implements the tensor methods the lessons use)");
  return builtin("Tensor." + name, [self, op](Interpreter& in, CallArgs& a) { return torch_ops().call_method(in, *op, self, a); });
}

void set_tensor_attribute(const Value& self, const std::string& name, const Value& v) {
  Tensor& t = as_tensor(self);
  if (name == "grad") {
    if (v.is_none()) return core::autograd::set_grad(t, std::nullopt);
    if (v.kind != Value::Tensor) throw TypeError("assigned grad expected to be a Tensor or None but got grad of type " + type_name(v));
    return core::autograd::set_grad(t, as_tensor(v));
  }
  if (name == "requires_grad") {
    const bool on = truthy(v);
    if (!t.is_leaf())
      throw core::TensorError("you can only change requires_grad flags of leaf variables." +
                              std::string(on ? "" : " If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."));
    if (on && !t.is_float()) throw core::TensorError("only Tensors of floating point dtype can require gradients");
    return t.set_requires_grad(on);
  }
  throw AttributeError("attribute '" + name + "' of 'torch._C._TensorBase' objects is not writable");
}

}  // namespace attn::py
