// torch/ops_select.cpp: the rows of the op table that select by value or work on bool/int
// tensors: max and min (with dim: values and indices as torch.return_types; with a tensor:
// maximum/minimum), argmin, sort, topk,
// flip, all, any, nelement, bmm, type_as, logical_not, bitwise_not, and the torch.return_types
// classes their results belong to.
//
// What it is: signatures as PyTorch 1.13's parser writes them (tools/torch_signatures.py) and
// adapters onto core/ops/sort.h and bitwise.h. What it is not: numerics (core/), or the
// operators ~ & | ^ (tensor_hooks.cpp calls core's bitwise ops for those).
#include <fmt/format.h>

#include <map>

#include "core/ops.h"
#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::Tensor;

// torch.return_types.NAME: a tuple of (values, indices) with those two attributes and
// PyTorch's structseq repr ("torch.return_types.max(\nvalues=...,\nindices=...)").
const ClassPtr& return_type(const std::string& name) {
  static std::map<std::string, ClassPtr> classes;
  ClassPtr& c = classes[name];
  if (c) return c;
  c = py::make_native_class(name, "torch.return_types", {py::builtin_class("tuple")});
  c->qualified_name = true;
  c->slots.getattr = [](Interpreter&, const Value& self, const std::string& attr) -> std::optional<Value> {
    if (attr == "values") return py::as_seq(self)[0];
    if (attr == "indices") return py::as_seq(self)[1];
    return std::nullopt;
  };
  c->slots.repr = [name](Interpreter& in, const Value& self) {
    const std::vector<Value>& items = py::as_seq(self);
    return fmt::format("torch.return_types.{}(\nvalues={},\nindices={})", name, in.repr_of(items[0]), in.repr_of(items[1]));
  };
  return c;
}

Value return_value(const std::string& name, const std::pair<Tensor, Tensor>& r) {
  Value v = Value::tuple({tensor_value(r.first), tensor_value(r.second)});
  static_cast<py::SeqObj*>(v.obj.get())->cls = return_type(name);
  return v;
}

// max/min: over every element (overload 0), elementwise with other (1), along a dim (2).
Value extreme_fn(Interpreter& in, Args& a, bool is_min) {
  const Tensor& t = a.tensor("input");
  if (a.overload() == 1) return tensor_value(core::keep_layout(core::maximum(t, a.tensor("other"), is_min), {&t, &a.tensor("other")}));
  if (a.overload() == 0) return tensor_value(is_min ? core::min(t, state(in).cpu) : core::max(t, state(in).cpu));
  return return_value(is_min ? "min" : "max", core::max_dim(t, a.integer("dim"), a.flag("keepdim"), is_min));
}

Value argmin_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  if (t.dtype() == core::DType::boolean && t.numel() > 0) throw RuntimeError("\"argmin_cpu\" not implemented for 'Bool'");
  std::optional<int64_t> dim = a.opt_integer("dim");
  bool keepdim = a.flag("keepdim");
  if (dim) return tensor_value(core::argmin(t, *dim, keepdim));
  Tensor r = core::argmin(t);
  if (!keepdim) return tensor_value(r);
  return tensor_value(core::reshape(r, core::Shape(t.shape().size(), 1)));
}

Value sort_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  const bool stable = a.overload() == 0 && a.given("stable") && a.flag("stable");
  // values and indices laid out as the input (sort's meta function: its strides when dense, else
  // dense strides in its memory order), as TensorIterator lays out a unary op's result.
  const std::pair<Tensor, Tensor> r = core::sort(t, a.integer("dim"), a.flag("descending"), stable);
  return return_value("sort", {core::keep_layout(r.first, {&t}), core::keep_layout(r.second, {&t})});
}

Value topk_fn(Interpreter&, Args& a) {
  if (a.tensor("input").dtype() == core::DType::boolean && a.tensor("input").numel() > 1) throw RuntimeError("\"topk_cpu\" not implemented for 'Bool'");
  return return_value("topk", core::topk(a.tensor("input"), a.integer("k"), a.integer("dim"), a.flag("largest"), a.flag("sorted")));
}

Value all_any_fn(Args& a, bool is_any) {
  const Tensor& t = a.tensor("input");
  if (a.overload() == 0) return tensor_value(core::all_any(t, std::nullopt, false, is_any));
  return tensor_value(core::all_any(t, a.integer("dim"), a.flag("keepdim"), is_any));
}

Value bmm_fn(Interpreter&, Args& a) {
  const Tensor &x = a.tensor("input"), &y = a.tensor("mat2");
  if (x.dim() != 3) throw RuntimeError(fmt::format("batch1 must be a 3D tensor"));
  if (y.dim() != 3) throw RuntimeError(fmt::format("batch2 must be a 3D tensor"));
  if (x.shape()[0] != y.shape()[0] || x.shape()[2] != y.shape()[1])
    throw RuntimeError(fmt::format("Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
                                   x.shape()[0], x.shape()[2], y.shape()[0], y.shape()[1]));
  Tensor r = core::matmul(x, y);   // 3-D @ 3-D: ATen's matmul runs bmm on the same operands
  core::autograd::rename(r, "BmmBackward0");
  return tensor_value(r);
}

}  // namespace

void add_select_ops(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  for (const char* n : {"max", "min"}) {
    const std::string name = n;
    rows.push_back({name, both,
                    {name + "(Tensor input)", name + "(Tensor input, Tensor other, *, Tensor out=None)",
                     name + "(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)",
                     name + "(Tensor input, Dimname dim, bool keepdim=False, *, TensorList[2] out=None)"},
                    name == "max" ? OpFn([](Interpreter& in, Args& a) { return extreme_fn(in, a, false); })
                                  : OpFn([](Interpreter& in, Args& a) { return extreme_fn(in, a, true); })});
  }
  rows.push_back({"maximum", both, {"maximum(Tensor input, Tensor other, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::maximum(a.tensor("input"), a.tensor("other"), false)); }});
  rows.push_back({"minimum", both, {"minimum(Tensor input, Tensor other, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::maximum(a.tensor("input"), a.tensor("other"), true)); }});
  rows.push_back({"argmin", both, {"argmin(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)"}, argmin_fn});
  rows.push_back({"sort", both,
                  {"sort(Tensor input, *, bool? stable, int64_t dim=-1, bool descending=False, TensorList[2] out=None)",
                   "sort(Tensor input, int64_t dim=-1, bool descending=False, *, TensorList[2] out=None)",
                   "sort(Tensor input, *, bool? stable, Dimname dim, bool descending=False, TensorList[2] out=None)",
                   "sort(Tensor input, Dimname dim, bool descending=False, *, TensorList[2] out=None)"},
                  sort_fn});
  rows.push_back({"topk", both, {"topk(Tensor input, int64_t k, int64_t dim=-1, bool largest=True, bool sorted=True)"}, topk_fn});
  rows.push_back({"flip", both, {"flip(Tensor input, IntArrayRef dims, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::flip(a.tensor("input"), a.ints("dims"))); }});
  for (const char* n : {"all", "any"}) {
    const std::string name = n;
    rows.push_back({name, both,
                    {name + "(Tensor input, *, Tensor out=None)", name + "(Tensor input, int64_t dim, bool keepdim=False, *, Tensor out=None)",
                     name + "(Tensor input, Dimname dim, bool keepdim=False, *, Tensor out=None)"},
                    name == "all" ? OpFn([](Interpreter&, Args& a) { return all_any_fn(a, false); })
                                  : OpFn([](Interpreter&, Args& a) { return all_any_fn(a, true); })});
  }
  rows.push_back({"nelement", kMethod, {"nelement(Tensor self)"}, [](Interpreter&, Args& a) { return Value::integer(a.tensor("self").numel()); }});
  rows.push_back({"bmm", both, {"bmm(Tensor input, Tensor mat2, *, Tensor out=None)"}, bmm_fn});
  rows.push_back({"type_as", kMethod, {"type_as(Tensor self, Tensor other)"},
                  [](Interpreter&, Args& a) { return tensor_value(cast(a.tensor("self"), a.tensor("other").dtype())); }});
  rows.push_back({"logical_not", both, {"logical_not(Tensor input, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::bitwise_not(core::to_bool(a.tensor("input")))); }});
  rows.push_back({"bitwise_not", both, {"bitwise_not(Tensor input, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::bitwise_not(a.tensor("input"))); }});
  // In place, and outside autograd: logical_not and bitwise_not have no derivative, so PyTorch
  // writes self (a float self holds 0./1.) with no in-place check and keeps its grad_fn.
  rows.push_back({"logical_not_", kMethod, {"logical_not_(Tensor self)"}, [](Interpreter&, Args& a) {
                    Tensor& t = as_tensor(a.get("self"));
                    core::copy_(t, core::bitwise_not(core::to_bool(core::detach(t))));
                    return a.get("self");
                  }});
  rows.push_back({"bitwise_not_", kMethod, {"bitwise_not_(Tensor self)"}, [](Interpreter&, Args& a) {
                    Tensor& t = as_tensor(a.get("self"));
                    core::copy_(t, core::bitwise_not(core::detach(t)));
                    return a.get("self");
                  }});
}

}  // namespace attn::torch
