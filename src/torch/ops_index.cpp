// torch/ops_index.cpp: the op-table rows tutorials use to clip, measure and rearrange tensors:
// clamp / clip (and clamp_, clip_), norm, scatter (scatter_), index_fill (index_fill_), nonzero,
// unique, repeat, logical_or and torch.nn.functional.pad (constant mode).
//
// What it is: PyTorch 1.13's signatures (tools/torch_signatures.py; norm and unique as
// torch/functional.py writes them) and adapters onto core/ops/clamp.h, norm.h, scatter.h,
// unique.h and repeat_pad.h; the in-place forms write the result back (write_back).
// What it is not: numerics (core/), or clamp_min / clamp_max, scatter's reduce=, unique(dim=),
// and F.pad's reflect / replicate / circular modes (refused in one line).
#include <fmt/format.h>

#include <cmath>

#include "core/ops.h"
#include "core/ops/clamp.h"
#include "core/ops/norm.h"
#include "core/ops/repeat_pad.h"
#include "core/ops/scatter.h"
#include "core/ops/unique.h"
#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::Tensor;

std::optional<double> bound(Args& a, const char* name) {
  const Value& v = a.get(name);
  if (v.is_none()) return std::nullopt;
  return torch_scalar(v, name);
}

bool int_bound(Args& a, const char* name) {
  const Value& v = a.get(name);
  return v.is_none() || v.kind == Value::Int || v.kind == Value::Bool;
}

// clamp(input, min, max): overload 0 takes tensor bounds, 1 numbers.
Tensor clamp_of(Args& a, const Tensor& x) {
  if (a.overload() == 0) {
    const Tensor* lo = a.given("min") ? &a.tensor("min") : nullptr;
    const Tensor* hi = a.given("max") ? &a.tensor("max") : nullptr;
    if (!lo && !hi) throw RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None");
    return core::clamp(x, lo, hi);
  }
  const bool ints = int_bound(a, "min") && int_bound(a, "max");
  return core::clamp(x, bound(a, "min"), bound(a, "max"), ints);
}

Value clamp_fn(Interpreter&, Args& a) { return tensor_value(clamp_of(a, a.tensor("input"))); }

Value clamp_inplace_fn(Interpreter&, Args& a) {
  Value self = a.get("input");
  for (const char* bound : {"min", "max"})   // a bound that partly overlaps what is written: PyTorch's error
    if (is_tensor(a.get(bound))) core::check_inplace_operand(as_tensor(self), as_tensor(a.get(bound)));
  // one tensor bound: 1.13 runs maximum_stub (min=) or minimum_stub (max=), vectorised kernels
  // that read a bound PyTorch cannot tell overlaps self (TOO_HARD) after their own earlier writes
  if (a.overload() == 0 && a.given("min") != a.given("max")) {
    const bool lo = a.given("min");
    if (overlapping_write(self, a.get(lo ? "min" : "max"), true, [lo](const Tensor& x, const Tensor& y) {
          return core::clamp(x, lo ? &y : nullptr, lo ? nullptr : &y);
        }))
      return self;
  }
  return write_back(self, [&a](const Tensor& x) { return clamp_of(a, x); });
}

// torch.norm (torch/functional.py 1.13): p a number (a p-norm over dim, or every element) or
// 'fro' (the 2-norm; over two dims sqrt(sum(x*x)), as frobenius_norm).
Value norm_fn(Interpreter& in, Args& a) {
  const Tensor& x = a.tensor("input");
  const Value& p = a.get("p");
  const bool keepdim = a.flag("keepdim");
  if (a.given("dtype")) a.unsupported("dtype", "attn computes norms in float32");
  std::vector<int64_t> dims;
  if (a.given("dim")) dims = a.ints("dim");
  double order = 2;
  if (p.kind == Value::Str) {
    if (p.s == "nuc") a.unsupported("p", "attn computes vector norms and the Frobenius norm");
    if (p.s != "fro") throw RuntimeError("only valid string values are 'fro' and 'nuc', found " + p.s);
    if (dims.size() > 2) throw RuntimeError(fmt::format("Expected at most 2 dimensions, but got {} dimensions instead.", dims.size()));
    if (dims.size() == 2) {   // frobenius_norm over two dims: sqrt(sum(x * x, dims))
      const int64_t d0 = core::normalize_dim(dims[0], x.dim()), d1 = core::normalize_dim(dims[1], x.dim());
      if (d0 == d1) throw RuntimeError(fmt::format("Expected dims to be different, got ({}, {}) instead", dims[0], dims[1]));
      if (x.dim() != 2) a.unsupported("dim", "attn sums over two dims of a 2-D tensor only");
      const Tensor sq = core::binary(core::BinOp::mul, x, x);
      Tensor s = core::sum(sq);
      core::autograd::rename(s, "SumBackward1");
      if (keepdim) s = core::reshape(s, {1, 1});
      return tensor_value(core::unary(s, "sqrt"));
    }
  } else if (!p.is_none()) {
    order = torch_scalar(p, "p");
  }
  if (dims.size() > 1 && static_cast<int64_t>(dims.size()) != x.dim()) a.unsupported("dim", "attn takes the norm over one dim or every dim");
  const std::optional<int64_t> dim = dims.size() == 1 ? std::optional<int64_t>(dims[0]) : std::nullopt;
  return tensor_value(core::norm(x, order, dim, keepdim, state(in).cpu));
}

Value scatter_of(Args& a, const Tensor& x) {
  if (a.overload() % 2 == 1) a.unsupported("reduce", "attn scatters by assignment");   // the reduce= overloads
  const int64_t dim = a.integer("dim");
  const Tensor& index = a.tensor("index");
  if (a.overload() < 2) return tensor_value(core::scatter(x, dim, index, a.tensor("src")));
  return tensor_value(core::scatter(x, dim, index, torch_scalar(a.get("value"), "value")));
}

double index_fill_value(Args& a) {
  const Value& v = a.get("value");
  if (!is_tensor(v)) return torch_scalar(v, "value");
  const Tensor& t = as_tensor(v);
  if (t.dim() != 0) throw RuntimeError(fmt::format("index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).", t.dim()));
  if (t.requires_grad()) a.unsupported("value", "attn does not differentiate index_fill with respect to a tensor value");
  return core::item(t);
}

Value nonzero_fn(Interpreter&, Args& a) {
  const Tensor& x = a.tensor("input");
  const Tensor nz = core::nonzero(x);
  if (!a.flag("as_tuple")) return tensor_value(nz);
  std::vector<Value> cols;
  if (x.dim() == 0) return Value::tuple({tensor_value(core::select(core::nonzero(core::reshape(x, {1})), 1, 0).contiguous())});
  for (int64_t d = 0; d < x.dim(); ++d) cols.push_back(tensor_value(core::select(nz, 1, d).contiguous()));
  return Value::tuple(std::move(cols));
}

Value unique_fn(Interpreter&, Args& a) {
  const Tensor& x = a.tensor("input");
  if (!a.flag("sorted")) a.unsupported("sorted", "attn returns unique values sorted");
  if (a.given("dim")) a.unsupported("dim", "attn finds the unique elements, not unique slices");
  const bool inverse = a.flag("return_inverse"), counts = a.flag("return_counts");
  core::Unique u = core::unique(x);
  if (!inverse && !counts) return tensor_value(u.values);
  std::vector<Value> out = {tensor_value(u.values)};
  if (inverse) out.push_back(tensor_value(u.inverse));
  if (counts) out.push_back(tensor_value(u.counts));
  return Value::tuple(std::move(out));
}

// F.pad (torch._C._nn.pad, 1.13): constant mode; the others are refused.
Value pad_fn(Interpreter&, Args& a) {
  const Tensor& x = a.tensor("input");
  const std::vector<int64_t> pad = a.ints("pad");
  const std::string mode = a.string("mode");
  if (mode != "constant") {
    if (a.given("value")) throw RuntimeError("Padding mode \"" + mode + "\" doesn't take in value argument");
    if (mode != "reflect" && mode != "replicate" && mode != "circular")
      throw NotImplementedError("Unrecognised padding mode " + mode);
    a.unsupported("mode", "attn pads with a constant (mode='constant')");
  }
  const double value = a.given("value") ? a.number("value") : 0.0;
  return tensor_value(core::constant_pad(x, pad, value));
}

}  // namespace

void add_index_ops(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  for (const char* n : {"clamp", "clip"}) {
    const std::string name = n;
    rows.push_back({name, both,
                    {name + "(Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor out=None)",
                     name + "(Tensor input, Scalar? min=None, Scalar? max=None, *, Tensor out=None)"},
                    clamp_fn});
  }
  for (const char* n : {"clamp_", "clip_"}) {
    const std::string name = n;
    rows.push_back({name, both, {name + "(Tensor input, Tensor? min=None, Tensor? max=None)", name + "(Tensor input, Scalar? min=None, Scalar? max=None)"},
                    clamp_inplace_fn});
  }
  rows.push_back({"norm", both,
                  {"norm(Tensor input, PyObject* p=\"fro\", PyObject* dim=None, bool keepdim=False, Tensor out=None, ScalarType? dtype=None)"},
                  norm_fn});
  rows.push_back({"scatter", both,
                  {"scatter(Tensor input, int64_t dim, Tensor index, Tensor src, *, Tensor out=None)",
                   "scatter(Tensor input, int64_t dim, Tensor index, Tensor src, *, std::string reduce, Tensor out=None)",
                   "scatter(Tensor input, int64_t dim, Tensor index, Scalar value, *, Tensor out=None)",
                   "scatter(Tensor input, int64_t dim, Tensor index, Scalar value, *, std::string reduce, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return scatter_of(a, a.tensor("input")); }});
  rows.push_back({"scatter_", kMethod,
                  {"scatter_(Tensor self, int64_t dim, Tensor index, Tensor src)",
                   "scatter_(Tensor self, int64_t dim, Tensor index, Tensor src, *, std::string reduce)",
                   "scatter_(Tensor self, int64_t dim, Tensor index, Scalar value)",
                   "scatter_(Tensor self, int64_t dim, Tensor index, Scalar value, *, std::string reduce)"},
                  [](Interpreter&, Args& a) {
                    Value self = a.get("self");
                    return write_back(self, [&a, &self](const Tensor& x) {
                      Tensor r = as_tensor(scatter_of(a, x));   // its shape checks first, then 1.13's overlap ones
                      if (a.tensor("index").numel() == 0) return r;
                      core::check_no_overlap(as_tensor(self), a.tensor("index"));
                      if (a.overload() < 2) core::check_no_overlap(as_tensor(self), a.tensor("src"));
                      return r;
                    });
                  }});
  rows.push_back({"gather", both,
                  {"gather(Tensor input, int64_t dim, Tensor index, *, bool sparse_grad=False, Tensor out=None)",
                   "gather(Tensor input, Dimname dim, Tensor index, *, bool sparse_grad=False, Tensor out=None)"},
                  [](Interpreter&, Args& a) {
                    if (a.overload() == 1) a.unsupported("dim", "attn has no named dimensions");
                    if (a.flag("sparse_grad")) a.unsupported("sparse_grad", "attn has no sparse gradients");
                    return tensor_value(core::gather(a.tensor("input"), a.integer("dim"), a.tensor("index")));
                  }});
  rows.push_back({"index_fill", both,
                  {"index_fill(Tensor input, int64_t dim, Tensor index, Tensor value)", "index_fill(Tensor input, int64_t dim, Tensor index, Scalar value)"},
                  [](Interpreter&, Args& a) {
                    return tensor_value(core::index_fill(a.tensor("input"), a.integer("dim"), a.tensor("index"), index_fill_value(a)));
                  }});
  rows.push_back({"index_fill_", kMethod,
                  {"index_fill_(Tensor self, int64_t dim, Tensor index, Tensor value)", "index_fill_(Tensor self, int64_t dim, Tensor index, Scalar value)"},
                  [](Interpreter& in, Args& a) {
                    Value self = a.get("self");
                    Tensor& t = as_tensor(self);
                    bool overlapping = false;
                    for (int64_t d = 0; d < t.dim(); ++d) overlapping = overlapping || (t.strides()[d] == 0 && t.shape()[d] > 1);
                    if (t.numel() == 0 && !t.requires_grad()) {   // checked against its own storage (an empty slice is a view)
                      core::index_fill_overlapping_(t, a.integer("dim"), a.tensor("index"), index_fill_value(a));
                      return self;
                    }
                    if (overlapping && !t.requires_grad()) {   // an expanded tensor: written through its strides, as ATen does
                      user_warning(in, "Use of index_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar");
                      core::index_fill_overlapping_(t, a.integer("dim"), a.tensor("index"), index_fill_value(a));
                      return self;
                    }
                    return write_back(self, [&a](const Tensor& x) { return core::index_fill(x, a.integer("dim"), a.tensor("index"), index_fill_value(a)); });
                  }});
  rows.push_back({"index_put_", kMethod, {"index_put_(Tensor self, PyObject* indices, Tensor values, bool accumulate=False)"},
                  [](Interpreter&, Args& a) {
                    Value self = a.get("self");
                    const Value& indices = a.get("indices");
                    if (indices.kind != Value::Tuple && indices.kind != Value::List)
                      throw py::TypeError("index_put_(): argument 'indices' (position 1) must be tuple of Tensors, not " + py::type_name(indices));
                    index_put_method(as_tensor(self), py::as_seq(indices), a.tensor("values"), a.flag("accumulate"));
                    return self;
                  }});
  rows.push_back({"logical_or", both, {"logical_or(Tensor input, Tensor other, *, Tensor out=None)"}, [](Interpreter&, Args& a) {
                    const Tensor x = core::to_bool(a.tensor("input"));
                    const Tensor y = core::to_bool(a.tensor("other"));
                    return tensor_value(core::bitwise(core::BitOp::or_, x, y));
                  }});
  rows.push_back({"nonzero", both, {"nonzero(Tensor input, *, Tensor out=None, bool as_tuple=False)"}, nonzero_fn});
  rows.push_back({"unique", both,
                  {"unique(Tensor input, bool sorted=True, bool return_inverse=False, bool return_counts=False, int64_t? dim=None)"}, unique_fn});
  rows.push_back({"repeat", kMethod, {"repeat(Tensor self, IntArrayRef repeats)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::repeat(a.tensor("self"), a.ints("repeats"))); }});
  rows.push_back({"nn.functional.pad", kFunction,
                  {"pad(Tensor input, IntArrayRef pad, std::string mode=\"constant\", double? value=None)"}, pad_fn});
}

}  // namespace attn::torch
