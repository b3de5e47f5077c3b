// py/tensor_methods.cpp: attributes and methods of a Tensor value (`x.shape`, `x.T`,
// `x.sum(dim=1, keepdim=True)`, `x[1]`, `x.masked_fill_(...)`, ...).
//
// What it is: Python-calling-convention adapters onto core:: operations. In-place methods
// (`masked_fill_`, item assignment) mutate the shared tensor, so every name bound to it sees
// the change, as in Python. What it is not: numerics (core/) or torch.* functions (torch_api.cpp).
#include <fmt/format.h>

#include "py/interpreter.h"

namespace attn::py {

namespace {

using core::Tensor;

std::vector<core::Index> to_indices(const std::vector<Value>& idx) {
  std::vector<core::Index> out;
  for (const Value& v : idx) {
    core::Index ix;
    if (v.is_none()) {
      ix.kind = core::Index::newaxis;
    } else if (v.kind == Value::Slice) {
      auto* s = static_cast<SliceObj*>(v.obj.get());
      ix.kind = core::Index::slice;
      ix.has_start = !s->start.is_none();
      ix.has_stop = !s->stop.is_none();
      if (ix.has_start) ix.start = to_int(s->start, "slice index");
      if (ix.has_stop) ix.stop = to_int(s->stop, "slice index");
      ix.step = s->step.is_none() ? 1 : to_int(s->step, "slice step");
    } else if (v.kind == Value::Tuple) {
      for (const core::Index& inner : to_indices(as_seq(v))) out.push_back(inner);
      continue;
    } else {
      if (v.kind == Value::Tensor && as_tensor(v).numel() != 1)
        throw std::runtime_error("IndexError: attn supports integer, slice and None indices, not index tensors or masks");
      ix.value = to_int(v, "index");
    }
    out.push_back(ix);
  }
  return out;
}

core::Shape shape_args(const Tensor& t, CallArgs& a) {
  std::vector<Value> dims = a.pos;
  if (dims.size() == 1 && (dims[0].kind == Value::Tuple || dims[0].kind == Value::List || dims[0].kind == Value::Size)) dims = as_seq(dims[0]);
  core::Shape shape;
  for (const Value& d : dims) shape.push_back(to_int(d, "shape"));
  (void)t;
  return shape;
}

// x[idx] = value: index an arange of flat positions with the same idx, then write through.
void setitem(Tensor& t, const Value& value, const std::vector<Value>& idx) {
  Tensor pos = core::arange(t.numel());
  pos.shape = t.shape;
  Tensor where = core::index(pos, to_indices(idx));
  Tensor src = value.kind == Value::Tensor ? core::to_float(as_tensor(value)) : core::scalar(static_cast<float>(to_double(value, "value")));
  Tensor filled = core::binary(core::BinOp::add, core::zeros(where.shape), src);   // broadcast value to the target
  if (filled.shape != where.shape)
    throw std::runtime_error(fmt::format("RuntimeError: shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                                         core::shape_str(src.shape), core::shape_str(where.shape)));
  for (int64_t k = 0; k < where.numel(); ++k) {
    if (t.is_float()) t.f[where.i[k]] = filled.f[k];
    else t.i[where.i[k]] = static_cast<int64_t>(filled.f[k]);
  }
}

using Method = Value (*)(Interpreter&, Tensor&, CallArgs&);

Value m_sum(Interpreter&, Tensor& t, CallArgs& a) {
  const Value* d = find_arg(a, 0, "dim");
  bool keepdim = truthy(arg_or(a, 1, "keepdim", Value::boolean(false)));
  if (!d || d->is_none()) return Value::tensor(core::sum(t));
  return Value::tensor(core::sum(t, to_int(*d, "dim"), keepdim));
}

Value m_masked_fill(Interpreter&, Tensor& t, CallArgs& a) {
  return Value::tensor(core::masked_fill(t, as_tensor(arg(a, 0, "mask")), static_cast<float>(to_double(arg(a, 1, "value"), "value"))));
}

Value m_masked_fill_(Interpreter& in, Tensor& t, CallArgs& a) {
  Tensor r = as_tensor(m_masked_fill(in, t, a));
  bool param = t.is_parameter;
  if (param) throw std::runtime_error("RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.");
  t = std::move(r);
  return Value::none();   // the caller rebinds nothing; the shared tensor changed
}

Value m_size(Interpreter&, Tensor& t, CallArgs& a) {
  const Value* d = find_arg(a, 0, "dim");
  if (!d) return Value::size(t.shape);
  return Value::integer(t.shape[core::normalize_dim(to_int(*d, "dim"), t.dim())]);
}

Value m_transpose(Interpreter&, Tensor& t, CallArgs& a) {
  return Value::tensor(core::transpose(t, to_int(arg(a, 0, "dim0"), "dim0"), to_int(arg(a, 1, "dim1"), "dim1")));
}

Value m_softmax(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::softmax(t, to_int(arg(a, 0, "dim"), "dim"))); }
Value m_dot(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::dot(t, as_tensor(arg(a, 0, "other")))); }
Value m_view(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::view(t, shape_args(t, a))); }
Value m_unsqueeze(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::unsqueeze(t, to_int(arg(a, 0, "dim"), "dim"))); }
Value m_squeeze(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::squeeze(t, to_int(arg(a, 0, "dim"), "dim"))); }
Value m_mean(Interpreter&, Tensor& t, CallArgs& a) {
  const Value* d = find_arg(a, 0, "dim");
  if (!d || d->is_none()) {   // mean of all elements: sum() / numel, as a 0-d tensor
    Tensor s = core::sum(core::to_float(t));
    s.f[0] /= static_cast<float>(t.numel());
    return Value::tensor(core::with_grad(s, {&t}, "MeanBackward0"));
  }
  return Value::tensor(core::mean(t, to_int(*d, "dim"), truthy(arg_or(a, 1, "keepdim", Value::boolean(false)))));
}
Value m_bool(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::to_bool(t)); }
Value m_float(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::to_float(t)); }
Value m_detach(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::detach(t)); }
Value m_contiguous(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::contiguous(t)); }
Value m_t(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::t(t)); }
Value m_exp(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::exp(t)); }
Value m_numel(Interpreter&, Tensor& t, CallArgs&) { return Value::integer(t.numel()); }
Value m_dim(Interpreter&, Tensor& t, CallArgs&) { return Value::integer(t.dim()); }
Value m_item(Interpreter&, Tensor& t, CallArgs&) {
  double v = core::item(t);
  return t.is_float() ? Value::number(v) : t.dtype == core::DType::boolean ? Value::boolean(v != 0) : Value::integer(static_cast<int64_t>(v));
}
Value tolist(const Tensor& t) {
  if (t.dim() == 0) return t.is_float() ? Value::number(t.at(0)) : Value::integer(t.i[0]);
  std::vector<Value> rows;
  for (int64_t r = 0; r < t.shape[0]; ++r) {
    core::Index ix;
    ix.value = r;
    rows.push_back(tolist(core::index(t, {ix})));
  }
  return Value::list(rows);
}
Value m_tolist(Interpreter&, Tensor& t, CallArgs&) { return tolist(t); }

Value m_var(Interpreter&, Tensor& t, CallArgs& a) { return var_method(t, a, false); }
Value m_std(Interpreter&, Tensor& t, CallArgs& a) { return var_method(t, a, true); }
Value m_repeat_interleave(Interpreter&, Tensor& t, CallArgs& a) {   // no dim: repeat the flattened elements
  int64_t repeats = to_int(arg(a, 0, "repeats"), "repeats");
  const Value* d = find_arg(a, 1, "dim");
  if (!d || d->is_none()) return Value::tensor(core::repeat_interleave(core::view(t, {-1}), repeats, 0));
  return Value::tensor(core::repeat_interleave(t, repeats, to_int(*d, "dim")));
}
Value m_expand(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::expand(t, shape_args(t, a))); }
Value m_argmax(Interpreter&, Tensor& t, CallArgs& a) {
  return Value::tensor(core::argmax(t, to_int(arg(a, 0, "dim"), "dim"), truthy(arg_or(a, 1, "keepdim", Value::boolean(false)))));
}
Value m_clone(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::with_grad(t, {&t}, "CloneBackward0")); }
Value m_abs(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::unary(t, "abs")); }
Value m_sqrt(Interpreter&, Tensor& t, CallArgs&) { return Value::tensor(core::unary(t, "sqrt")); }
Value m_max(Interpreter&, Tensor& t, CallArgs& a) {
  if (find_arg(a, 0, "dim")) throw std::runtime_error("TypeError: attn supports max() over all elements; use argmax(dim) for positions");
  return Value::tensor(core::max(t));
}
Value m_permute(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::permute(t, shape_args(t, a))); }
Value m_amax(Interpreter&, Tensor& t, CallArgs& a) {
  return Value::tensor(core::amax(t, to_int(arg(a, 0, "dim"), "dim"), truthy(arg_or(a, 1, "keepdim", Value::boolean(false)))));
}
Value m_triu(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::triu(t, to_int(arg_or(a, 0, "diagonal", Value::integer(0)), "diagonal"))); }
Value m_tril(Interpreter&, Tensor& t, CallArgs& a) { return Value::tensor(core::tril(t, to_int(arg_or(a, 0, "diagonal", Value::integer(0)), "diagonal"))); }
Value m_equal(Interpreter&, Tensor& t, CallArgs& a) { return Value::boolean(core::equal(t, as_tensor(arg(a, 0, "other")))); }
Value m_long(Interpreter&, Tensor& t, CallArgs&) {
  std::vector<int64_t> v;
  for (int64_t k = 0; k < t.numel(); ++k) v.push_back(static_cast<int64_t>(t.at(k)));
  return Value::tensor(core::from_ints(t.shape, v));
}

const std::map<std::string, Method>& methods() {
  static const std::map<std::string, Method> m = {
      {"sum", m_sum}, {"masked_fill", m_masked_fill}, {"masked_fill_", m_masked_fill_}, {"size", m_size},
      {"transpose", m_transpose}, {"softmax", m_softmax}, {"dot", m_dot}, {"view", m_view}, {"reshape", m_view},
      {"unsqueeze", m_unsqueeze}, {"squeeze", m_squeeze}, {"mean", m_mean}, {"bool", m_bool}, {"float", m_float},
      {"detach", m_detach}, {"contiguous", m_contiguous}, {"t", m_t}, {"exp", m_exp}, {"numel", m_numel},
      {"dim", m_dim}, {"item", m_item}, {"tolist", m_tolist}, {"var", m_var}, {"std", m_std},
      {"repeat_interleave", m_repeat_interleave}, {"expand", m_expand}, {"argmax", m_argmax}, {"clone", m_clone},
      {"abs", m_abs}, {"sqrt", m_sqrt}, {"max", m_max}, {"long", m_long}, {"permute", m_permute}, {"amax", m_amax},
      {"triu", m_triu}, {"tril", m_tril}, {"equal", m_equal}};
  return m;
}

}  // namespace

Value tensor_attribute(Interpreter&, const Value& self, const std::string& name) {
  Tensor& t = as_tensor(self);
  if (name == "shape") return Value::size(t.shape);
  if (name == "T") return Value::tensor(core::T(t));
  if (name == "ndim") return Value::integer(t.dim());
  if (name == "requires_grad") return Value::boolean(t.requires_grad);
  if (name == "data") return Value::tensor(core::detach(t));
  if (name == "dtype")
    return Value::dtype(t.dtype == core::DType::float32 ? "torch.float32" : t.dtype == core::DType::int64 ? "torch.int64" : "torch.bool");
  if (name == "__getitem__")
    return builtin("Tensor.__getitem__", [self](Interpreter&, CallArgs& a) {
      return Value::tensor(core::index(as_tensor(self), to_indices(a.pos)));
    });
  if (name == "__setitem__")
    return builtin("Tensor.__setitem__", [self](Interpreter&, CallArgs& a) {
      std::vector<Value> idx(a.pos.begin() + 1, a.pos.end());
      setitem(as_tensor(self), a.pos.at(0), idx);
      return Value::none();
    });
  auto it = methods().find(name);
  if (it == methods().end())
    throw std::runtime_error("AttributeError: 'Tensor' object has no attribute '" + name + "' (attn implements the tensor methods the lessons use)");
  Method m = it->second;
  return builtin("Tensor." + name, [self, m](Interpreter& in, CallArgs& a) { return m(in, as_tensor(self), a); });
}

}  // namespace attn::py
