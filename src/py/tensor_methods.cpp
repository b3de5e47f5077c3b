// py/tensor_methods.cpp: attributes of a Tensor value (`x.shape`, `x.T`, `x.dtype`), indexing
// (`x[1]`, `x[0, 1] = 5`) and the lookup of its methods (`x.sum(dim=1)`) in the op table.
//
// What it is: item assignment writes into the shared tensor, so every name bound to it sees the
// change, as in Python. What it is not: the methods themselves (op_table.h: ops_*.cpp rows) or
// numerics (core/).
#include <fmt/format.h>

#include "py/interpreter.h"
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
  const OpTable& ops = torch_ops();
  const OpTable::Op* op = ops.method(name);
  if (!op)
    throw std::runtime_error("AttributeError: 'Tensor' object has no attribute '" + name + "' (attn implements the tensor methods the lessons use)");
  return builtin("Tensor." + name, [self, op](Interpreter& in, CallArgs& a) { return torch_ops().call_method(in, *op, self, a); });
}

}  // namespace attn::py
