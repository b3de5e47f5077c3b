// torch/tensor_types.cpp: the dtype names of the torch module (torch.uint8, torch.int, ...), the
// legacy tensor types (torch.FloatTensor, LongTensor, IntTensor, ShortTensor, CharTensor,
// ByteTensor, BoolTensor) and Tensor.type(), as PyTorch 1.13 keeps them.
//
// What it is: one native class per dtype in module torch. Calling it makes a tensor of its dtype
// from a list (torch.LongTensor([1, 2]): torch.tensor(data, dtype=torch.int64)), from sizes
// (torch.LongTensor(2, 3): zero-filled, as attn's torch.empty is, where PyTorch leaves whatever
// the memory held) or from nothing (an empty tensor); isinstance(x, torch.LongTensor) holds for
// an int64 tensor, as torch's metaclass decides. x.type() is the name ('torch.ByteTensor');
// x.type(t) converts to a torch.dtype, a name ('torch.IntTensor') or one of these classes.
// What it is not: CUDA types (torch.cuda.LongTensor), storages, or float64 / float16 (torch.float64,
// .double(), torch.DoubleTensor are refused in one line: attn's tensors are float32).
#include <fmt/format.h>

#include <array>
#include <utility>

#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

using core::DType;

namespace {

constexpr std::array<DType, 7> kDtypes = {DType::float32, DType::int64, DType::boolean, DType::uint8,
                                          DType::int8,    DType::int16, DType::int32};

// torch.LongTensor(...) of dtype d: a list or tuple of numbers, sizes, a torch.Size, or nothing.
Value legacy_new(Interpreter& in, DType d, CallArgs& a) {
  const std::string name = core::tensor_type_name(d);
  if (!a.kw.empty()) throw TypeError(fmt::format("attn's {}() takes a list or sizes, not keyword arguments", name));
  if (a.pos.empty()) return tensor_value(core::empty({0}, d));
  const Value& first = a.pos[0];
  if (a.pos.size() == 1 && !is_size(first) && (first.kind == Value::List || first.kind == Value::Tuple || first.kind == Value::Range)) {
    CallArgs c;
    c.pos = {first};
    c.kw = {{"dtype", dtype_value(d)}};
    return torch_ops().call_function(in, *torch_ops().function("tensor"), c);
  }
  core::Shape shape;
  for (const Value& v : a.pos.size() == 1 && is_size(first) ? as_seq(first) : a.pos) {
    if (v.kind != Value::Int) throw TypeError(fmt::format("attn's {}() takes a list of numbers or sizes (ints), not {}", name, py_typename(v)));
    shape.push_back(v.i);
  }
  return tensor_value(core::empty(shape, d));   // zero-filled (attn's torch.empty)
}

const ClassPtr& legacy_class(DType d) {
  static const std::array<ClassPtr, 7> classes = [] {
    std::array<ClassPtr, 7> out;
    for (DType t : kDtypes) {
      const std::string full = core::tensor_type_name(t);   // "torch.LongTensor"
      ClassPtr cls = make_native_class(full.substr(6), "torch");
      cls->qualified_name = true;
      cls->slots.make = [t](Interpreter& in, const ClassPtr&, CallArgs& a) { return legacy_new(in, t, a); };
      cls->slots.instancecheck = [t](const Value& v) { return is_tensor(v) && as_tensor(v).dtype() == t; };
      out[static_cast<size_t>(t)] = cls;
    }
    return out;
  }();
  return classes.at(static_cast<size_t>(d));
}

// The dtype a Tensor.type() argument names: a torch.dtype, 'torch.IntTensor' or torch.IntTensor.
DType type_target(const Value& v) {
  if (is_dtype(v)) return dtype_of(v);
  if (v.kind == Value::Str) {
    for (DType d : kDtypes)
      if (v.s == core::tensor_type_name(d)) return d;
    if (v.s == "torch.DoubleTensor" || v.s == "torch.HalfTensor") refuse_float64(v.s);
    throw ValueError(fmt::format("invalid type: '{}'", v.s));
  }
  if (v.kind == Value::Class)
    for (DType d : kDtypes)
      if (v.obj.get() == legacy_class(d).get()) return d;
  throw TypeError(fmt::format("dtype must be a type, str, or dtype object, not {}", py_typename(v)));
}

Value type_fn(Interpreter&, Args& a) {
  const core::Tensor& t = a.tensor("self");
  a.flag("non_blocking");   // no device to copy to: nothing to wait for
  const Value& target = a.get("dtype");
  if (target.is_none()) return Value::str(core::tensor_type_name(t.dtype()));
  return tensor_value(cast(t, type_target(target)));
}

}  // namespace

void add_tensor_types(NamespaceObj& torch) {
  torch.names["uint8"] = dtype_value(DType::uint8);
  torch.names["int8"] = dtype_value(DType::int8);
  torch.names["int16"] = torch.names["short"] = dtype_value(DType::int16);
  torch.names["int32"] = torch.names["int"] = dtype_value(DType::int32);
  for (DType d : kDtypes) torch.names[core::tensor_type_name(d).substr(6)] = Value::of_class(legacy_class(d));
}

void refuse_float64(const std::string& what) {
  throw NotImplementedError(what + " is not implemented: attn's floating point tensors are float32 (no float64 or float16)");
}

void warn_uint8_mask(Interpreter& in, const core::Tensor& mask) {
  if (mask.dtype() != DType::uint8) return;
  const std::string msg =
      "masked_fill_ received a mask with dtype torch.uint8, this behavior is now deprecated,please use a mask with dtype "
      "torch.bool instead. (Triggered internally at  ./aten/src/ATen/native/TensorAdvancedIndexing.cpp:1646.)";
  user_warning(in, msg);
}

void check_where_condition(Interpreter& in, const core::Tensor& cond) {
  if (cond.dtype() == DType::boolean) return;
  if (cond.dtype() != DType::uint8)
    throw RuntimeError(std::string("where expected condition to be a boolean tensor, but got a tensor with dtype ") + core::dtype_title(cond.dtype()));
  if (std::exchange(state(in).warned_uint8_where, true)) return;
  user_warning(in, "where received a uint8 condition tensor. This behavior is deprecated and will be removed in a future version of "
                   "PyTorch. Use a boolean condition instead. (Triggered internally at  ./aten/src/ATen/native/TensorCompare.cpp:413.)");
}

void user_warning(Interpreter& in, const std::string& msg) {
  CallArgs c;
  c.pos = {Value::str(msg), Value::of_class(exception_class("UserWarning"))};
  in.call(in.getattr(in.import("warnings"), "warn"), c);
}

void add_type_ops(std::vector<OpRow>& rows) {
  rows.push_back({"type", kMethod, {"type(Tensor self, PyObject* dtype=None, bool non_blocking=False)"}, type_fn});
}

}  // namespace attn::torch
