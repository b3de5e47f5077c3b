// torch/ops_shape_extra.cpp: more rows that make, reshape or select tensors, as tutorials and
// transformer code call them: new_zeros/new_ones/new_full/new_empty/new_tensor, full_like,
// empty_like, rand_like, randn_like, eye, view_as, reshape_as, is_contiguous, stride,
// storage_offset, element_size, narrow, movedim/moveaxis, swapaxes/swapdims, broadcast_to, ravel,
// unflatten, tile, hstack, vstack, torch.split, split_with_sizes, index_select, masked_select,
// tril_, triu_, is_tensor, and F.one_hot.
//
// What it is: PyTorch 1.13's signatures, each op composed of core's as ATen composes it (movedim
// is permute, ravel is contiguous().view(-1), tile is repeat, ...), so grad_fn and numbers follow.
// What it is not: numerics (core/), or the rows of ops_shape.cpp it complements.
#include <fmt/format.h>

#include "core/ops/select_index.h"
#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::DType;
using core::Tensor;

Value list_of(const std::vector<Tensor>& ts) {
  std::vector<Value> out;
  for (const Tensor& t : ts) out.push_back(tensor_value(t));
  return Value::tuple(std::move(out));
}

// dtype= (else `natural`) and requires_grad= of a factory; t is filled in float32 or its dtype.
Value finish(Args& a, const Tensor& t, DType natural) {
  Tensor r = core::to_dtype(t, a.dtype("dtype").value_or(natural));
  if (a.flag("requires_grad")) {
    if (!r.is_float()) throw RuntimeError("Only Tensors of floating point and complex dtype can require gradients");
    r.set_requires_grad(true);
  }
  return tensor_value(std::move(r));
}

// Filled with `fill` (a Python number) in the dtype asked for, as fill_ does.
Tensor filled(const core::Shape& shape, DType dtype, const Value& fill) {
  Tensor t = core::empty(shape, dtype);
  core::fill_(t, to_double(fill, "fill_value"), fill.kind != Value::Float && !(is_tensor(fill) && as_tensor(fill).is_float()));
  return t;
}

Value new_fn(Args& a, float value) {
  const Tensor& self = a.tensor("self");
  const DType d = a.dtype("dtype").value_or(self.dtype());
  return finish(a, core::to_dtype(core::full(shape_arg(a, "size"), value), d), d);
}

Value new_full_fn(Interpreter&, Args& a) {
  const Tensor& self = a.tensor("self");
  const DType d = a.dtype("dtype").value_or(self.dtype());
  return finish(a, filled(shape_arg(a, "size"), d, a.get("fill_value")), d);
}

// Tensor.new_tensor(data): torch.tensor(data) in self's dtype unless dtype= says otherwise.
Value new_tensor_fn(Interpreter& in, Args& a) {
  const Tensor& self = a.tensor("self");
  CallArgs c;
  c.pos = {a.get("data")};
  c.kw = {{"dtype", dtype_value(a.dtype("dtype").value_or(self.dtype()))}, {"requires_grad", Value::boolean(a.flag("requires_grad"))}};
  a.get("device");
  return in.call(in.getattr(in.import("torch"), "tensor"), c);
}

Value full_like_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  const DType d = a.dtype("dtype").value_or(t.dtype());
  return finish(a, filled(t.shape(), d, a.get("fill_value")), d);
}

Value rand_like_fn(Interpreter& in, Args& a, bool normal) {
  const Tensor& t = a.tensor("input");
  const DType d = a.dtype("dtype").value_or(t.dtype());
  if (d != DType::float32)
    throw RuntimeError(fmt::format("\"{}\" not implemented for '{}'", normal ? "normal_kernel_cpu" : "check_uniform_bounds", core::dtype_title(d)));
  core::Generator& g = state(in).generator;
  return finish(a, normal ? core::randn(g, t.shape()) : core::rand(g, t.shape()), d);
}

Value eye_fn(Interpreter&, Args& a) {
  const int64_t n = a.integer("n");
  const int64_t m = a.overload() == 1 ? a.integer("m") : n;
  if (n < 0) throw RuntimeError(fmt::format("n must be greater or equal to 0, got {}", n));
  if (m < 0) throw RuntimeError(fmt::format("m must be greater or equal to 0, got {}", m));
  if (n > 0 && m > 50'000'000 / n) throw RuntimeError("tensor too large for a lesson (over 50 million elements)");
  Tensor t = core::zeros({n, m});
  float* p = t.data<float>();
  for (int64_t k = 0; k < std::min(n, m); ++k) p[k * m + k] = 1.0f;
  return finish(a, t, DType::float32);
}

Value stride_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("self");
  if (a.overload() == 2) a.unsupported("dim", "attn has no named dimensions");
  if (a.overload() == 0) return Value::integer(t.strides()[static_cast<size_t>(core::normalize_dim(a.integer("dim"), t.dim()))]);
  std::vector<Value> out;
  for (int64_t s : t.strides()) out.push_back(Value::integer(s));
  return Value::tuple(std::move(out));
}

// movedim (ATen's): the other dims keep their order in the places source/destination leave free.
Value movedim_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  const int64_t n = t.dim();
  std::vector<int64_t> src = a.ints("source"), dst = a.ints("destination");
  const auto show = [](const std::vector<int64_t>& v) {
    std::string s;
    for (int64_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return "[" + s + "]";
  };
  if (src.size() != dst.size())
    throw RuntimeError("movedim: Invalid source or destination dims: source (" + show(src) +
                       " dims) should contain the same number of dims as destination (" + show(dst) + " dims)");
  std::vector<int64_t> order(static_cast<size_t>(n), -1), src_n, dst_n;
  std::vector<bool> src_used(static_cast<size_t>(n), false);
  for (size_t k = 0; k < src.size(); ++k) {
    src_n.push_back(core::normalize_dim(src[k], std::max<int64_t>(n, 1)));
    dst_n.push_back(core::normalize_dim(dst[k], std::max<int64_t>(n, 1)));
  }
  for (size_t k = 0; k < src_n.size(); ++k)
    for (size_t j = 0; j < k; ++j) {
      if (src_n[j] == src_n[k]) throw RuntimeError("movedim: repeated dim in `source` (" + show(src) + ")");
      if (dst_n[j] == dst_n[k]) throw RuntimeError("movedim: repeated dim in `destination` (" + show(dst) + ")");
    }
  if (n == 0) {   // ATen: a 0-d tensor's movedim is self.alias() (AliasBackward0), as x[...] is
    core::Index all;
    all.kind = core::Index::ellipsis;
    return tensor_value(core::index(t, {all}));
  }
  for (size_t k = 0; k < src_n.size(); ++k) {
    order[static_cast<size_t>(dst_n[k])] = src_n[k];
    src_used[static_cast<size_t>(src_n[k])] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o >= 0) continue;
    while (src_used[static_cast<size_t>(next)]) ++next;
    o = next++;
  }
  return tensor_value(core::permute(t, core::Shape(order.begin(), order.end())));
}

Value unflatten_fn(Interpreter&, Args& a) {
  if (a.overload() == 0) a.unsupported("dim", "attn has no named dimensions");
  const Tensor& t = a.tensor("input");
  if (t.dim() == 0)   // ATen wraps without a scalar's extra dim
    throw core::TensorError(fmt::format("Dimension specified as {} but tensor has no dimensions", a.integer("dim")), "IndexError");
  const int64_t dim = core::normalize_dim(a.integer("dim"), t.dim());
  std::vector<int64_t> sizes = a.ints("sizes");
  if (sizes.empty()) throw RuntimeError("unflatten: sizes must be non-empty");
  int64_t product = 1, infer = -1;
  std::string list;
  for (size_t k = 0; k < sizes.size(); ++k) {
    list += (list.empty() ? "" : ", ") + std::to_string(sizes[k]);
    if (sizes[k] == -1 && infer < 0) infer = static_cast<int64_t>(k);
    else product *= sizes[k];
  }
  const int64_t size = t.shape()[static_cast<size_t>(dim)];
  if (infer < 0 ? product != size : (product == 0 || size % product != 0))
    throw RuntimeError(fmt::format("unflatten: Provided sizes [{}] don't multiply up to the size of dim {} ({}) in the input tensor", list, dim, size));
  core::Shape shape(t.shape().begin(), t.shape().begin() + dim);
  shape.insert(shape.end(), sizes.begin(), sizes.end());
  shape.insert(shape.end(), t.shape().begin() + dim + 1, t.shape().end());
  return tensor_value(core::view(t, shape));
}

Value tile_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  std::vector<int64_t> reps = a.ints("dims");
  if (static_cast<int64_t>(reps.size()) < t.dim()) reps.insert(reps.begin(), static_cast<size_t>(t.dim()) - reps.size(), 1);
  return tensor_value(core::repeat(t, reps));
}

// hstack / vstack: atleast_1d / atleast_2d of each, then cat (dim 0, or 1 for hstack of >= 2-D).
Value stack_fn(Args& a, bool horizontal) {
  std::vector<Tensor> ts = a.tensors("tensors");
  if (ts.empty()) throw RuntimeError(std::string(horizontal ? "hstack" : "vstack") + " expects a non-empty TensorList");
  for (Tensor& t : ts) {
    if (t.dim() == 0) t = core::reshape(t, horizontal ? core::Shape{1} : core::Shape{1, 1});
    else if (!horizontal && t.dim() == 1) t = core::unsqueeze(t, 0);
  }
  return tensor_value(core::cat(ts, horizontal && ts[0].dim() > 1 ? 1 : 0));
}

// torch.split(tensor, split_size_or_sections, dim=0): torch/functional.py, as Tensor.split.
Value split_fn(Interpreter&, Args& a) {
  const Value& sizes = a.get("split_size_or_sections");
  const Tensor& t = a.tensor("tensor");
  const int64_t dim = a.integer("dim");
  if (sizes.kind == Value::Int) return list_of(core::split(t, sizes.i, dim));
  return list_of(core::split_with_sizes(t, a.ints("split_size_or_sections"), dim));
}

// F.one_hot (Onehot.cpp): int64 in, int64 out with a last dim of num_classes (-1: max + 1).
Value one_hot_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("tensor");
  int64_t classes = a.integer("num_classes");
  if (t.dtype() != DType::int64) throw RuntimeError("one_hot is only applicable to index tensor.");
  const std::vector<int64_t> v = t.ints();
  if (v.empty() && classes <= 0) throw RuntimeError("Can not infer total number of classes from empty tensor.");
  int64_t lo = 0, hi = -1;
  for (int64_t x : v) lo = std::min(lo, x), hi = std::max(hi, x);
  if (lo < 0) throw RuntimeError("Class values must be non-negative.");
  if (classes == -1) classes = hi + 1;
  else if (hi >= classes) throw RuntimeError("Class values must be smaller than num_classes.");
  core::Shape shape = t.shape();
  shape.push_back(classes);
  if (core::numel_of(shape) > 50'000'000) throw RuntimeError("tensor too large for a lesson (over 50 million elements)");
  std::vector<int64_t> out(static_cast<size_t>(core::numel_of(shape)), 0);
  for (size_t k = 0; k < v.size(); ++k) out[k * static_cast<size_t>(classes) + static_cast<size_t>(v[k])] = 1;
  return tensor_value(core::from_ints(shape, out));
}

void add_factories(std::vector<OpRow>& rows) {
  rows.push_back({"new_zeros", kMethod, {factory("new_zeros(Tensor self, SymIntArrayRef size, *, ")}, [](Interpreter&, Args& a) { return new_fn(a, 0.0f); }});
  rows.push_back({"new_ones", kMethod, {factory("new_ones(Tensor self, SymIntArrayRef size, *, ")}, [](Interpreter&, Args& a) { return new_fn(a, 1.0f); }});
  rows.push_back({"new_empty", kMethod, {factory("new_empty(Tensor self, SymIntArrayRef size, *, ")},
                  [](Interpreter&, Args& a) { return new_fn(a, 0.0f); }});   // zero-filled: no RNG, as printed
  rows.push_back({"new_full", kMethod, {factory("new_full(Tensor self, SymIntArrayRef size, Scalar fill_value, *, ")}, new_full_fn});
  rows.push_back({"new_tensor", kMethod,
                  {"new_tensor(Tensor self, PyObject* data, *, ScalarType dtype=None, Device? device=None, bool requires_grad=False)"}, new_tensor_fn});
  rows.push_back({"full_like", kFunction, {factory("full_like(Tensor input, Scalar fill_value, *, MemoryFormat? memory_format=None, ")}, full_like_fn});
  rows.push_back({"empty_like", kFunction, {factory("empty_like(Tensor input, *, MemoryFormat? memory_format=None, ")}, [](Interpreter&, Args& a) {
                    const Tensor& t = a.tensor("input");
                    const DType d = a.dtype("dtype").value_or(t.dtype());
                    return finish(a, core::empty(t.shape(), d), d);
                  }});
  rows.push_back({"rand_like", kFunction, {factory("rand_like(Tensor input, *, MemoryFormat? memory_format=None, ")},
                  [](Interpreter& in, Args& a) { return rand_like_fn(in, a, false); }});
  rows.push_back({"randn_like", kFunction, {factory("randn_like(Tensor input, *, MemoryFormat? memory_format=None, ")},
                  [](Interpreter& in, Args& a) { return rand_like_fn(in, a, true); }});
  rows.push_back({"eye", kFunction, {factory("eye(int64_t n, *, Tensor out=None, "), factory("eye(int64_t n, int64_t m, *, Tensor out=None, ")}, eye_fn});
}

void add_layout(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  rows.push_back({"view_as", kMethod, {"view_as(Tensor self, Tensor other)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::view(a.tensor("self"), a.tensor("other").shape())); }});
  rows.push_back({"reshape_as", kMethod, {"reshape_as(Tensor self, Tensor other)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::reshape(a.tensor("self"), a.tensor("other").shape())); }});
  rows.push_back({"is_contiguous", kMethod, {"is_contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format)"},
                  [](Interpreter&, Args& a) { return Value::boolean(a.tensor("self").is_contiguous()); }});
  rows.push_back({"stride", kMethod, {"stride(Tensor self, int64_t dim)", "stride(Tensor self)", "stride(Tensor self, Dimname dim)"}, stride_fn});
  rows.push_back({"storage_offset", kMethod, {"storage_offset(Tensor self)"}, [](Interpreter&, Args& a) { return Value::integer(a.tensor("self").offset()); }});
  rows.push_back({"element_size", kMethod, {"element_size(Tensor self)"},
                  [](Interpreter&, Args& a) { return Value::integer(core::element_size(a.tensor("self").dtype())); }});
  rows.push_back({"narrow", both,
                  {"narrow(Tensor input, int64_t dim, Tensor start, int64_t length)", "narrow(Tensor input, int64_t dim, int64_t start, int64_t length)"},
                  [](Interpreter&, Args& a) {
                    const int64_t start = a.overload() == 0 ? to_int(a.get("start"), "start") : a.integer("start");
                    return tensor_value(core::narrow(a.tensor("input"), a.integer("dim"), start, a.integer("length")));
                  }});
  rows.push_back({"select", kFunction | kMethod, {"select(Tensor input, int64_t dim, int64_t index)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::select(a.tensor("input"), a.integer("dim"), a.integer("index"))); }});
  for (const char* name : {"movedim", "moveaxis"}) {
    const std::string n = name;
    rows.push_back({n, both,
                    {n + "(Tensor input, int64_t source, int64_t destination)", n + "(Tensor input, IntArrayRef source, IntArrayRef destination)"}, movedim_fn});
  }
  rows.push_back({"swapaxes", both, {"swapaxes(Tensor input, int64_t axis0, int64_t axis1)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::transpose(a.tensor("input"), a.integer("axis0"), a.integer("axis1"))); }});
  rows.push_back({"swapdims", both, {"swapdims(Tensor input, int64_t dim0, int64_t dim1)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::transpose(a.tensor("input"), a.integer("dim0"), a.integer("dim1"))); }});
  rows.push_back({"broadcast_to", both, {"broadcast_to(Tensor input, IntArrayRef size)"}, [](Interpreter&, Args& a) {
                    std::vector<int64_t> s = a.ints("size");
                    return tensor_value(core::expand(a.tensor("input"), core::Shape(s.begin(), s.end())));
                  }});
  rows.push_back({"ravel", both, {"ravel(Tensor input)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::view(core::contiguous(a.tensor("input")), {-1})); }});
  rows.push_back({"unflatten", both,
                  {"unflatten(Tensor input, Dimname dim, IntArrayRef sizes, DimnameList names)", "unflatten(Tensor input, int64_t dim, IntArrayRef sizes)"},
                  unflatten_fn});
  rows.push_back({"tile", both, {"tile(Tensor input, IntArrayRef dims)"}, tile_fn});
}

// tril_ / triu_: an expanded view is written through its strides, as ATen's apply_triu_tril walks
// them, also when it requires grad (then the record is tril(self) over self's history, the view's
// base taking CopySlices, as 1.13 gives an expanded non-leaf view AsStridedBackward0); else the
// out-of-place result written back.
Value triangle_(Args& a, bool lower) {
  const int64_t k = a.integer("diagonal");
  Tensor& self = as_tensor(a.get("self"));
  if (!(core::autograd::grad_enabled() && self.requires_grad())) {
    if (core::triangle_through_strides_(self, k, lower)) return a.get("self");
    return write_back(a.get("self"), [k, lower](const Tensor& t) { return lower ? core::tril(t, k) : core::triu(t, k); });
  }
  core::autograd::in_place(self, false, [&](const Tensor& before) {
    const Tensor r = lower ? core::tril(before.clone(), k) : core::triu(before.clone(), k);
    if (!core::triangle_through_strides_(self, k, lower)) core::copy_(self, r);
    return r;
  });
  return a.get("self");
}

void add_selection(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  rows.push_back({"hstack", kFunction, {"hstack(TensorList tensors, *, Tensor out=None)"}, [](Interpreter&, Args& a) { return stack_fn(a, true); }});
  rows.push_back({"vstack", kFunction, {"vstack(TensorList tensors, *, Tensor out=None)"}, [](Interpreter&, Args& a) { return stack_fn(a, false); }});
  rows.push_back({"split", kFunction, {"def split(tensor, split_size_or_sections, dim=0)"}, split_fn});
  rows.push_back({"split_with_sizes", both, {"split_with_sizes(Tensor input, IntArrayRef split_sizes, int64_t dim=0)"}, [](Interpreter&, Args& a) {
                    return list_of(core::split_with_sizes(a.tensor("input"), a.ints("split_sizes"), a.integer("dim")));
                  }});
  rows.push_back({"index_select", both,
                  {"index_select(Tensor input, int64_t dim, Tensor index, *, Tensor out=None)",
                   "index_select(Tensor input, Dimname dim, Tensor index, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) {
                    if (a.overload() == 1) a.unsupported("dim", "attn has no named dimensions");
                    return tensor_value(core::index_select(a.tensor("input"), a.integer("dim"), a.tensor("index")));
                  }});
  rows.push_back({"masked_select", both, {"masked_select(Tensor input, Tensor mask, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) {
                    if (a.tensor("mask").dtype() == core::DType::uint8)
                      user_warning(in, "masked_select received a mask with dtype torch.uint8, this behavior is now deprecated,please use a "
                                       "mask with dtype torch.bool instead. (Triggered internally at  ./aten/src/ATen/native/TensorAdvancedIndexing.cpp:1729.)");
                    return tensor_value(core::masked_select(a.tensor("input"), a.tensor("mask")));
                  }});
  rows.push_back({"tril_", kMethod, {"tril_(Tensor self, int64_t diagonal=0)"},
                  [](Interpreter&, Args& a) { return triangle_(a, true); }});
  rows.push_back({"triu_", kMethod, {"triu_(Tensor self, int64_t diagonal=0)"},
                  [](Interpreter&, Args& a) { return triangle_(a, false); }});
  rows.push_back({"is_tensor", kFunction, {"def is_tensor(obj)"}, [](Interpreter&, Args& a) { return Value::boolean(is_tensor(a.get("obj"))); }});
  rows.push_back({"nn.functional.one_hot", kFunction, {"one_hot(Tensor tensor, int64_t num_classes=-1)"}, one_hot_fn});
}

}  // namespace

void add_shape_extra_ops(std::vector<OpRow>& rows) {
  add_factories(rows);
  add_layout(rows);
  add_selection(rows);
}

}  // namespace attn::torch
