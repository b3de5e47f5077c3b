// torch/ops_shape.cpp: the rows of the op table that move, join, convert or describe tensors: view,
// reshape, flatten, expand_as, roll, transpose, t, transpose_, t_, permute, unsqueeze, squeeze, expand, unbind, chunk, split, to, cat, stack, repeat_interleave,
// contiguous, clone, detach, size, dim, numel, item, tolist, bool, float, long.
//
// What it is: signatures as PyTorch 1.13's parser writes them (the manual ones, size() and
// float(), from python_variable_methods.cpp), and adapters onto core/.
// What it is not: indexing (x[i], tensor_methods.cpp) or numerics (core/).
#include <fmt/format.h>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/select_index.h"
#include "torch/bindings.h"
#include "py/interpreter.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::Tensor;

core::Shape shape_of(Args& a, const char* name) {
  std::vector<int64_t> v = a.ints(name);
  return core::Shape(v.begin(), v.end());
}

Value view_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("self");
  if (a.overload() == 0) a.unsupported("dtype", "attn does not reinterpret a tensor's bits");
  return tensor_value(core::view(t, shape_of(a, "size")));
}

Value squeeze_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  if (a.overload() == 1) return tensor_value(core::squeeze(t, a.integer("dim")));
  return tensor_value(core::squeeze(t));   // every dim of size 1
}

Value repeat_interleave_fn(Interpreter&, Args& a) {
  if (a.overload() == 2) a.unsupported("repeats", "attn repeats by an int");
  const Tensor& t = a.tensor("input");
  if (a.overload() == 0) a.unsupported("repeats", "attn repeats by an int");
  int64_t repeats = a.integer("repeats");
  std::optional<int64_t> dim = a.opt_integer("dim");
  if (a.given("output_size")) a.unsupported("output_size");
  if (!dim) return tensor_value(core::repeat_interleave(core::reshape(t, {-1}), repeats, 0));   // flattened
  return tensor_value(core::repeat_interleave(t, repeats, *dim));
}

Value size_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("self");
  if (a.overload() == 1) return size_value(t.shape());
  return Value::integer(t.shape()[static_cast<size_t>(core::normalize_dim(a.integer("dim"), t.dim()))]);
}

// t.tolist(), looking at the time limit as it goes (an expand()ed view has 10^8 elements cheaply).
Value tolist(const Tensor& t, core::DeadlineMeter& meter) {
  meter.add(1);
  if (t.dim() == 0)
    return t.is_float() ? Value::number(t.at(0)) : t.dtype() == core::DType::boolean ? Value::boolean(t.int_at(0) != 0) : Value::integer(t.int_at(0));
  std::vector<Value> rows;
  for (int64_t r = 0; r < t.shape()[0]; ++r) {
    core::Index ix;
    ix.value = r;
    rows.push_back(tolist(core::index(t, {ix}), meter));
  }
  return Value::list(rows);
}

Value tolist(const Tensor& t) {
  core::DeadlineMeter meter;
  return tolist(t, meter);
}

Value item_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("self");
  if (t.numel() != 1) throw py::ValueError("only one element tensors can be converted to Python scalars");   // 1.13's Python binding
  double v = core::item(t);
  return t.is_float() ? Value::number(v) : t.dtype() == core::DType::boolean ? Value::boolean(v != 0) : Value::integer(t.int_at(0));
}

// .bool() / .float() / .long() / .int() / .short() / .char() / .byte(): memory_format only has
// its default here (the table checks it).
template <core::DType D>
Value convert_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("self");
  if (D == core::DType::float32) return tensor_value(core::to_float(t));
  if (D == core::DType::boolean) return tensor_value(core::to_bool(t));
  return tensor_value(cast(t, D));
}

Value tensor_list(const std::vector<Tensor>& ts) {
  std::vector<Value> out;
  for (const Tensor& t : ts) out.push_back(tensor_value(t));
  return Value::tuple(out);
}

// Tensor.to(device, dtype) / to(dtype) / to(other): the device was checked by the binder (the
// CPU only); a dtype converts; copy=True always copies. non_blocking has no effect on the CPU.
Value to_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("self");
  a.get("non_blocking");
  std::optional<core::DType> dtype;
  if (a.overload() == 2) dtype = a.tensor("tensor").dtype();
  else dtype = a.dtype("dtype");
  Tensor r = dtype ? cast(t, *dtype) : t;
  if (a.flag("copy") && r.shares_storage(t)) r = r.clone();
  return tensor_value(r);
}

// Tensor.flatten(start_dim, end_dim): ATen's flatten: a 0-dim tensor reshaped to [1], self itself
// when start_dim == end_dim, else reshape with dims start_dim..end_dim multiplied into one.
Value flatten_fn(Interpreter&, Args& a) {
  if (a.overload() != 1) a.unsupported("dims", "attn has no named dimensions");
  const Value self = a.get("input");
  const Tensor& t = as_tensor(self);
  const int64_t start = core::normalize_dim(a.integer("start_dim"), t.dim());
  const int64_t end = core::normalize_dim(a.integer("end_dim"), t.dim());
  if (start > end) throw RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim");
  if (t.dim() == 0) return tensor_value(core::reshape(t, {1}));
  if (start == end) return self;
  core::Shape shape(t.shape().begin(), t.shape().begin() + start);
  int64_t slice = 1;
  for (int64_t d = start; d <= end; ++d) slice *= t.shape()[static_cast<size_t>(d)];
  shape.push_back(slice);
  shape.insert(shape.end(), t.shape().begin() + end + 1, t.shape().end());
  return tensor_value(core::reshape(t, shape));
}

}  // namespace

void add_shape_ops(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  rows.push_back({"view", kMethod, {"view(Tensor self, ScalarType dtype)", "view(Tensor self, SymIntArrayRef size)"}, view_fn});
  rows.push_back({"reshape", both, {"reshape(Tensor input, SymIntArrayRef shape)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::reshape(a.tensor("input"), shape_of(a, "shape"))); }});
  rows.push_back({"expand", kMethod, {"expand(Tensor self, SymIntArrayRef size, *, bool implicit=False)"}, [](Interpreter&, Args& a) {
                    a.get("implicit");   // only a note for PyTorch's tracer
                    return tensor_value(core::expand(a.tensor("self"), shape_of(a, "size")));
                  }});
  rows.push_back({"expand_as", kMethod, {"expand_as(Tensor self, Tensor other)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::expand(a.tensor("self"), a.tensor("other").shape())); }});
  rows.push_back({"flatten", both,
                  {"flatten(Tensor input, int64_t start_dim, int64_t end_dim, Dimname out_dim)",
                   "flatten(Tensor input, int64_t start_dim=0, int64_t end_dim=-1)",
                   "flatten(Tensor input, Dimname start_dim, Dimname end_dim, Dimname out_dim)",
                   "flatten(Tensor input, DimnameList dims, Dimname out_dim)"},
                  flatten_fn});
  rows.push_back({"roll", both, {"roll(Tensor input, IntArrayRef[1] shifts, IntArrayRef[1] dims=None, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) {
                    const std::vector<int64_t> dims = a.get("dims").is_none() ? std::vector<int64_t>{} : a.ints("dims");
                    return tensor_value(core::roll(a.tensor("input"), a.ints("shifts"), dims));
                  }});
  rows.push_back({"permute", both, {"permute(Tensor input, IntArrayRef dims)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::permute(a.tensor("input"), shape_of(a, "dims"))); }});
  rows.push_back({"transpose", both, {"transpose(Tensor input, int64_t dim0, int64_t dim1)", "transpose(Tensor input, Dimname dim0, Dimname dim1)"}, [](Interpreter&, Args& a) {
                    return tensor_value(core::transpose(a.tensor("input"), a.integer("dim0"), a.integer("dim1")));
                  }});
  rows.push_back({"t", both, {"t(Tensor input)"}, [](Interpreter&, Args& a) { return tensor_value(core::t(a.tensor("input"))); }});
  // In place: the tensor itself takes the new layout (and TransposeBackward1 / TBackward1).
  rows.push_back({"transpose_", kMethod, {"transpose_(Tensor self, int64_t dim0, int64_t dim1)"}, [](Interpreter&, Args& a) {
                    const int64_t d0 = a.integer("dim0"), d1 = a.integer("dim1");
                    core::autograd::in_place_view(as_tensor(a.get("self")), [&](const Tensor& t) { return core::transpose(t, d0, d1); },
                                                  "TransposeBackward1");
                    return a.get("self");
                  }});
  rows.push_back({"t_", kMethod, {"t_(Tensor self)"}, [](Interpreter&, Args& a) {
                    if (const int64_t nd = as_tensor(a.get("self")).dim(); nd > 2)
                      throw core::TensorError(fmt::format("t_() expects a tensor with <= 2 dimensions, but self is {}D", nd));
                    core::autograd::in_place_view(as_tensor(a.get("self")), [](const Tensor& t) { return core::t(t); }, "TBackward1");
                    return a.get("self");
                  }});
  rows.push_back({"unsqueeze", both, {"unsqueeze(Tensor input, int64_t dim)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::unsqueeze(a.tensor("input"), a.integer("dim"))); }});
  rows.push_back({"squeeze", both, {"squeeze(Tensor input)", "squeeze(Tensor input, int64_t dim)", "squeeze(Tensor input, Dimname dim)"}, squeeze_fn});
  rows.push_back({"unbind", both, {"unbind(Tensor input, int64_t dim=0)", "unbind(Tensor input, Dimname dim)"},
                  [](Interpreter&, Args& a) { return tensor_list(core::unbind(a.tensor("input"), a.integer("dim"))); }});
  rows.push_back({"chunk", both, {"chunk(Tensor input, int64_t chunks, int64_t dim=0)"},
                  [](Interpreter&, Args& a) { return tensor_list(core::chunk(a.tensor("input"), a.integer("chunks"), a.integer("dim"))); }});
  rows.push_back({"split", kMethod, {"split(Tensor self, int64_t split_size, int64_t dim=0)", "split(Tensor self, IntArrayRef split_size, int64_t dim=0)"},
                  [](Interpreter&, Args& a) {
                    if (a.overload() == 1) return tensor_list(core::split_with_sizes(a.tensor("self"), a.ints("split_size"), a.integer("dim")));
                    return tensor_list(core::split(a.tensor("self"), a.integer("split_size"), a.integer("dim")));
                  }});
  rows.push_back({"to", kMethod,
                  {"to(Tensor self, Device? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
                   "to(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
                   "to(Tensor self, Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)"},
                  to_fn});
  // attn's tensors live on the CPU: .cpu() is the tensor itself, .cuda() PyTorch's error on a
  // build without CUDA, .numpy() refused (attn has no NumPy).
  rows.push_back({"cpu", kMethod, {"cpu(Tensor self, *, MemoryFormat? memory_format=None)"}, [](Interpreter&, Args& a) { return a.get("self"); }});
  rows.push_back({"cuda", kMethod, {"cuda(Tensor self, Device? device=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)"},
                  [](Interpreter&, Args& a) -> Value {
                    a.get("self");
                    a.get("device");
                    a.get("non_blocking");
                    throw AssertionError("Torch not compiled with CUDA enabled");
                  }});
  rows.push_back({"numpy", kMethod, {"numpy(Tensor self, *, bool force=False)"}, [](Interpreter&, Args& a) -> Value {
                    a.get("self");
                    a.get("force");
                    throw NotImplementedError("attn has no NumPy: Tensor.numpy() is not available (use .tolist() or .item())");
                  }});
  rows.push_back({"cat", kFunction, {"cat(TensorList tensors, int64_t dim=0, *, Tensor out=None)", "cat(TensorList tensors, Dimname dim, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::cat(a.tensors("tensors"), a.integer("dim"))); }});
  rows.push_back({"stack", kFunction, {"stack(TensorList tensors, int64_t dim=0, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::stack(a.tensors("tensors"), a.integer("dim"))); }});
  rows.push_back({"repeat_interleave", both,
                  {"repeat_interleave(Tensor input, Tensor repeats, int64_t? dim=None, *, int64_t? output_size=None)",
                   "repeat_interleave(Tensor input, int64_t repeats, int64_t? dim=None, *, int64_t? output_size=None)",
                   "repeat_interleave(Tensor repeats, *, int64_t? output_size=None)"},
                  repeat_interleave_fn});
  rows.push_back({"contiguous", kMethod, {"contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format)"},
                  [](Interpreter&, Args& a) {   // ATen: a contiguous tensor is returned itself (`x.contiguous() is x`)
                    const Value self = a.get("self");
                    const Tensor& t = as_tensor(self);
                    return t.is_contiguous() ? self : tensor_value(core::contiguous(t));
                  }});
  rows.push_back({"clone", both, {"clone(Tensor input, *, MemoryFormat? memory_format=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::clone(a.tensor("input"))); }});
  rows.push_back({"detach", both, {"detach(Tensor input)"}, [](Interpreter&, Args& a) { return tensor_value(core::detach(a.tensor("input"))); }});
  rows.push_back({"size", kMethod, {"size(Tensor self, int64_t dim)", "size(Tensor self)", "size(Tensor self, Dimname dim)"}, size_fn});
  rows.push_back({"dim", kMethod, {"dim(Tensor self)"}, [](Interpreter&, Args& a) { return Value::integer(a.tensor("self").dim()); }});
  rows.push_back({"ndimension", kMethod, {"ndimension(Tensor self)"}, [](Interpreter&, Args& a) { return Value::integer(a.tensor("self").dim()); }});
  rows.push_back({"numel", both, {"numel(Tensor input)"}, [](Interpreter&, Args& a) { return Value::integer(a.tensor("input").numel()); }});
  rows.push_back({"is_floating_point", both, {"is_floating_point(Tensor input)"},
                  [](Interpreter&, Args& a) { return Value::boolean(a.tensor("input").dtype() == core::DType::float32); }});
  rows.push_back({"item", kMethod, {"item(Tensor self)"}, item_fn});
  rows.push_back({"tolist", kMethod, {"tolist(Tensor self)"}, [](Interpreter&, Args& a) { return tolist(a.tensor("self")); }});
  rows.push_back({"bool", kMethod, {"bool(Tensor self, *, MemoryFormat? memory_format=None)"}, convert_fn<core::DType::boolean>});
  rows.push_back({"float", kMethod, {"float(Tensor self, *, MemoryFormat? memory_format=None)"}, convert_fn<core::DType::float32>});
  rows.push_back({"long", kMethod, {"long(Tensor self, *, MemoryFormat? memory_format=None)"}, convert_fn<core::DType::int64>});
  rows.push_back({"int", kMethod, {"int(Tensor self, *, MemoryFormat? memory_format=None)"}, convert_fn<core::DType::int32>});
  rows.push_back({"short", kMethod, {"short(Tensor self, *, MemoryFormat? memory_format=None)"}, convert_fn<core::DType::int16>});
  rows.push_back({"char", kMethod, {"char(Tensor self, *, MemoryFormat? memory_format=None)"}, convert_fn<core::DType::int8>});
  rows.push_back({"byte", kMethod, {"byte(Tensor self, *, MemoryFormat? memory_format=None)"}, convert_fn<core::DType::uint8>});
}

}  // namespace attn::torch
