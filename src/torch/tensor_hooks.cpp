// torch/tensor_hooks.cpp: Python's protocol for tensors and torch.Size: the native hooks
// (py/value.h's Slots) of the classes values.h registers.
//
// What it is: Tensor attributes (`x.shape`, `x.T`, `x.grad`, `x.dtype`) and methods (looked up in
// the op table: `x.sum(dim=1)`), indexing (`x[1]`, `x[0, 1] = 5`: views into the storage, and
// writes through them, CopySlices when gradients flow), the operators (+ - * / ** @ and the
// in-place forms), comparisons (elementwise, bool tensors), iteration over the first dim, len,
// bool of a one-element tensor, repr with the session's print options, format() of a 0-d tensor,
// __index__ and __float__; torch.Size's repr, slicing and concatenation.
// What it is not: the ops (core/, op_table.h) or the classes themselves (values.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops.h"
#include "print/tensor_str.h"
#include "py/exceptions.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/signature.h"
#include "torch/bindings.h"
#include "torch/op_table.h"
#include "torch/session.h"
#include "torch/values.h"

namespace attn::torch {

namespace {

using core::Tensor;

// applySlicing's refusals (python_variable_indexing.cpp): a str or bytes is a sequence, so
// torch.tensor's TypeError on its data; a float or another object without __index__ the IndexError.
void check_index_item(const Value& v) {
  const std::string type = py::type_name(v);
  if (type == "str" || type == "bytes" || type == "bytearray") throw py::TypeError(fmt::format("new(): invalid data type '{}'", type));
  switch (v.kind) {
    case Value::Float: case Value::Dict: case Value::Set: case Value::Function: case Value::Builtin:
    case Value::Class: case Value::Namespace: case Value::NotImplemented:
      throw py::IndexError(fmt::format(
          "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})", type));
    default: return;
  }
}

std::vector<core::Index> to_indices(Interpreter& in, const std::vector<Value>& idx) {
  std::vector<core::Index> out;
  for (const Value& v : idx) {
    core::Index ix;
    if (v.is_none()) {
      ix.kind = core::Index::newaxis;
    } else if (v.kind == Value::Ellipsis) {
      ix.kind = core::Index::ellipsis;
    } else if (v.kind == Value::Slice) {
      auto* s = static_cast<py::SliceObj*>(v.obj.get());
      ix.kind = core::Index::slice;
      ix.has_start = !s->start.is_none();
      ix.has_stop = !s->stop.is_none();
      if (ix.has_start) ix.start = py::to_slice_bound(s->start);   // x[0:2**64]: clamped, as PyTorch does
      if (ix.has_stop) ix.stop = py::to_slice_bound(s->stop);
      ix.step = s->step.is_none() ? 1 : py::to_int(s->step, "slice step");
    } else if (v.kind == Value::Tuple && !is_size(v)) {
      for (const core::Index& inner : to_indices(in, py::as_seq(v))) out.push_back(inner);
      continue;
    } else {
      if (is_tensor(v) && as_tensor(v).numel() != 1)
        throw py::IndexError("attn supports integer, slice and None indices, not index tensors or masks");
      check_index_item(v);
      ix.value = py::to_int(v, "index");
    }
    out.push_back(ix);
  }
  return out;
}

// treatSequenceAsTuple (python_variable_indexing.cpp, NumPy's rule): a list key shorter than 32
// that holds a tensor, a sequence, a slice, `...` or None is the tuple of its items.
bool list_as_tuple(const Value& key) {
  const std::vector<Value>& items = py::as_seq(key);
  if (items.size() >= 32) return false;
  return std::any_of(items.begin(), items.end(), [](const Value& v) {
    return is_tensor(v) || v.kind == Value::List || v.kind == Value::Tuple || v.kind == Value::Slice ||
           v.kind == Value::Ellipsis || v.is_none();
  });
}

// x[a, b] arrives as the tuple (a, b); a list among the indices is an index tensor, as PyTorch
// makes it (torch.tensor's dtype rules: ints long, bools bool; floats truncated to long, as 1.13 does).
std::vector<Value> index_list(Interpreter& in, const Value& key) {
  std::vector<Value> items;
  if ((key.kind == Value::Tuple && !is_size(key)) || (key.kind == Value::List && list_as_tuple(key))) items = py::as_seq(key);
  else items = {key};
  for (Value& v : items) {
    if (v.kind == Value::Bool) {   // a Python bool indexes as a 0-d bool tensor: a new dim of size 1 or 0
      v = tensor_value(core::from_ints({}, {v.b ? 1 : 0}, core::DType::boolean));
      continue;
    }
    if (v.kind != Value::List) continue;
    CallArgs c;
    c.pos = {v};
    v = in.call(in.getattr(in.import("torch"), "tensor"), c);
    if (as_tensor(v).is_float()) {   // 1.13 makes a list of floats a long index (truncated), and [] too
      c.kw = {{"dtype", in.getattr(in.import("torch"), "long")}};
      v = in.call(in.getattr(in.import("torch"), "tensor"), c);
    }
  }
  return items;
}

// x[idx] = value, as PyTorch's copy_to (python_variable_indexing.cpp): the indexed view is
// written in place, so x (and every other view of its storage) changes. A value of the view's
// shape is copied, a number or 0-d tensor fills, anything else has its leading 1s dropped and is
// expanded to the view's shape (expand's errors).
void write_item(Tensor dst, const Value& value) {
  if (!is_tensor(value)) return core::fill_(dst, torch_scalar(value, "value"), value.kind != Value::Float);
  const Tensor& src = as_tensor(value);
  if (dst.shape() == src.shape()) return core::copy_(dst, src);
  if (src.dim() == 0) return core::fill_(dst, src.at(0));
  core::Shape trimmed = src.shape();
  while (!trimmed.empty() && trimmed.front() == 1) trimmed.erase(trimmed.begin());
  core::copy_(dst, core::expand(core::view(src, trimmed), dst.shape()));
}

// x[idx] / x[idx] = v where the key holds index tensors or bool masks (PyTorch's advanced
// indexing), with only whole dims (`:`, `...`) besides them: per dim an int64 index tensor or
// none; a mask's dims become its nonzero() columns. Nullopt for a key of basic indices only.
// (A key that also holds integers or ranges is split by split_mixed_key before it gets here.)
std::optional<core::TensorIndices> advanced_key(const Tensor& t, const std::vector<Value>& idx) {
  bool any = false, other = false;
  for (const Value& v : idx) {
    if (is_tensor(v) && (as_tensor(v).dtype() == core::DType::boolean || as_tensor(v).numel() != 1 || as_tensor(v).dim() > 0)) any = true;
    else if (!(v.kind == Value::Slice || v.kind == Value::Ellipsis)) other = true;
  }
  if (!any) return std::nullopt;
  if (other) throw py::IndexError("attn indexes with tensors and masks beside whole dims (`:`, `...`) only, not beside integers or ranges");
  core::TensorIndices out;
  for (const Value& v : idx) {
    if (v.kind == Value::Ellipsis) {   // as many whole dims as the others leave
      int64_t used = 0;
      for (const Value& w : idx) used += is_tensor(w) ? (as_tensor(w).dtype() == core::DType::boolean ? as_tensor(w).dim() : 1) : w.kind == Value::Slice;
      for (int64_t k = 0; k < t.dim() - used; ++k) out.emplace_back();
      continue;
    }
    if (v.kind == Value::Slice) {
      auto* s = static_cast<py::SliceObj*>(v.obj.get());
      if (!s->start.is_none() || !s->stop.is_none() || !s->step.is_none())
        throw py::IndexError("attn indexes with tensors and masks beside whole dims (`:`, `...`) only, not beside integers or ranges");
      out.emplace_back();
      continue;
    }
    const Tensor& ix = as_tensor(v);
    if (ix.dtype() == core::DType::boolean) {
      for (Tensor& c : core::mask_to_indices(ix, t, static_cast<int64_t>(out.size()))) out.emplace_back(c);
    } else if (ix.dtype() == core::DType::int64) {
      out.emplace_back(ix);
    } else {
      throw py::IndexError("tensors used as indices must be long, byte or bool tensors");
    }
  }
  return out;
}

// x[mask]: IndexBackward0 saves the bool mask itself (attn indexes with the positions it holds),
// so writing the mask before backward() raises as in PyTorch.
Tensor with_masks_saved(Tensor r, const std::vector<Value>& idx) {
  if (!r.autograd().grad_fn) return r;
  for (const Value& v : idx)
    if (is_tensor(v) && as_tensor(v).dtype() == core::DType::boolean && as_tensor(v).storage()) {
      const Tensor& m = as_tensor(v);
      r.autograd().grad_fn->saved_.push_back({m.storage(), m.version_counter(), m.version(), m.shape(), "", 0});
    }
  return r;
}

bool is_advanced(const Value& v) {
  return is_tensor(v) && (as_tensor(v).dtype() == core::DType::boolean || as_tensor(v).numel() != 1 || as_tensor(v).dim() > 0);
}

// x[k] of a 0-d x with k one integer or one slice (not in a tuple: x[0, ] counts its indices):
// PyTorch's applySelect / applySlicing errors, before anything is counted.
void check_0d_key(const Tensor& t, const Value& key) {
  if (t.dim() != 0) return;
  if (key.kind == Value::Int && !key.is_big() && key.i == 0)
    throw py::IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  if (key.kind == Value::Int && !key.is_big()) throw py::IndexError(fmt::format("index {} is out of bounds for dimension 0 with size 0", key.i));
  if (key.kind == Value::Slice) throw py::IndexError("slice() cannot be applied to a 0-dim tensor.");
}

// A 0-d bool tensor in a key (x[x > 0] for a 0-d x).
bool is_scalar_mask(const Value& v) {
  return is_tensor(v) && as_tensor(v).dtype() == core::DType::boolean && as_tensor(v).dim() == 0;
}

bool whole_dim(const Value& v) {
  if (v.kind == Value::Ellipsis) return true;
  if (v.kind != Value::Slice) return false;
  auto* s = static_cast<py::SliceObj*>(v.obj.get());
  return s->start.is_none() && s->stop.is_none() && s->step.is_none();
}

// ATen's count_specified_dimensions: the dims a key names besides None and `...` (a bool or
// uint8 tensor all of its dims, a 0-d one none; a Python bool none).
int64_t specified_dims(const std::vector<Value>& idx) {
  int64_t n = 0;
  for (const Value& v : idx) {
    if (is_tensor(v)) {
      const Tensor& t = as_tensor(v);
      n += t.dtype() == core::DType::boolean || t.dtype() == core::DType::uint8 ? t.dim() : 1;
    } else if (!(v.is_none() || v.kind == Value::Ellipsis || v.kind == Value::Bool)) {
      ++n;
    }
  }
  return n;
}

// A key mixing index tensors with integers, ranges or None (x[idx, :step], x[0, idx]) as PyTorch's
// applySlicing takes it: the integers select, the ranges slice and None unsqueezes first (a view
// of x), then the index tensors index that view along the dims they now stand at. Returns the
// view and the key left for it (only tensors, `:` and `...`); nullopt when the key needs no split.
std::optional<std::pair<Tensor, std::vector<Value>>> split_mixed_key(Interpreter& in, const Tensor& t, const std::vector<Value>& idx) {
  const bool any = std::any_of(idx.begin(), idx.end(), is_advanced);
  const bool mixed = std::any_of(idx.begin(), idx.end(), [](const Value& v) { return !is_advanced(v) && !whole_dim(v); });
  const bool scalar_mask = std::any_of(idx.begin(), idx.end(), is_scalar_mask);
  if (!any) return std::nullopt;
  if (specified_dims(idx) > t.dim())   // applySlicing's first check
    throw py::IndexError(fmt::format("too many indices for tensor of dimension {}", t.dim()));
  if (!mixed && !scalar_mask) return std::nullopt;
  Value whole;   // `:`
  whole.kind = Value::Slice;
  whole.obj = std::make_shared<py::SliceObj>();
  std::vector<Value> basic, rest;
  for (const Value& v : idx) {
    if (is_scalar_mask(v)) {   // PyTorch unsqueezes a dim there and takes its index 0 (True) or none (False)
      basic.push_back(Value::none());
      const bool keep = as_tensor(v).ints()[0] != 0;
      rest.push_back(tensor_value(keep ? core::from_ints({1}, {0}) : core::from_ints({0}, {})));
    } else if (is_advanced(v)) {   // one dim, even for a mask of several (ATen's recordTensorIndex)
      basic.push_back(whole);
      rest.push_back(v);
    } else if (v.kind == Value::Ellipsis) {   // the dims the others leave, a mask counting all its dims
      for (int64_t k = 0; k < t.dim() - specified_dims(idx); ++k) {
        basic.push_back(whole);
        rest.push_back(whole);
      }
    } else {
      basic.push_back(v);
      if (v.kind == Value::Slice || v.is_none()) rest.push_back(whole);   // an integer's dim is gone
    }
  }
  return std::make_pair(core::index(t, to_indices(in, basic)), rest);
}

// The value of x[idx] = value as a tensor in x's dtype, its leading 1s dropped (copy_to).
Tensor put_value(const Tensor& t, const Value& value, bool trim = true) {
  if (!is_tensor(value)) {
    const double s = torch_scalar(value, "value");
    return t.is_float() ? core::scalar(static_cast<float>(s)) : core::from_ints({}, {static_cast<int64_t>(s)}, t.dtype());
  }
  Tensor v = as_tensor(value);
  if (!trim) return v;   // index_put_ itself: the value's shape as given
  core::Shape trimmed = v.shape();
  while (!trimmed.empty() && trimmed.front() == 1) trimmed.erase(trimmed.begin());
  return trimmed == v.shape() ? v : core::view(v, trimmed);
}

// 1.13's canDispatchToMaskedFill: a one-element value and, among the key's index tensors, one bool
// or uint8 mask alone: index_put_ is then masked_fill_(mask, value.item()), which reads the value
// first in self's dtype (x[mask] = x[0], a long 0-d value into a float x), where any other key
// refuses a value of another dtype or one sharing x's memory (core::index_put_).
bool masked_fill_key(const std::vector<Value>& idx, const Value& value, bool accumulate) {
  if (accumulate || (is_tensor(value) && as_tensor(value).numel() != 1)) return false;
  int masks = 0, others = 0;
  for (const Value& k : idx) {
    if (is_tensor(k)) {
      const core::DType d = as_tensor(k).dtype();
      (d == core::DType::boolean || d == core::DType::uint8 ? masks : others) += 1;
    } else if (k.kind == Value::List || k.kind == Value::Tuple) {
      ++others;
    }
  }
  return masks == 1 && others == 0;
}

// x[idx] = value with an advanced key: index_put_ in place; with gradients IndexPutBackward0
// over x's history (self: the written places +0; values: grad[idx]), as 1.13's index_put_; named
// CopySlices when the key also slices. Through a view (x[:, 1:][idx] = v), its base takes
// CopySlices (core::autograd::in_place). fill: masked_fill_key's case, the value read first.
// trim: x[idx] = v drops v's leading 1s (copy_to); index_put_ itself takes v's shape as given.
void put_item(Tensor& t, const Value& value, const core::TensorIndices& ix, bool sliced, bool accumulate = false, bool fill = false,
              bool trim = true) {
  Tensor v = put_value(t, value, trim);
  if (fill) {
    v = core::to_dtype(v, t.dtype());
    if (v.shares_storage(t)) v = v.clone();
  }
  core::autograd::in_place(t, v.requires_grad(), [&](const Tensor& before) {
    core::index_put_(t, ix, v, accumulate);
    return core::autograd::record(t, {&before, &v}, sliced ? "CopySlices" : "IndexPutBackward0",
                                  core::index_put_backward(ix, before.requires_grad(), v.requires_grad(), accumulate));
  });
}

// Whether setitem's applySlicing leaves x itself for this key: every entry `...` or a slice that
// is literally 0:size:1 as written (applySlice's shortcut; `:` unpacks to stop PY_SSIZE_T_MAX and
// `-3:` to start -3, so those are sliced).
bool writes_whole(const Tensor& t, const std::vector<core::Index>& ix) {
  const auto ellipses = std::count_if(ix.begin(), ix.end(), [](const core::Index& i) { return i.kind == core::Index::ellipsis; });
  if (ellipses > 1 || static_cast<int64_t>(ix.size()) - ellipses > t.dim()) return false;
  int64_t d = 0;
  for (size_t i = 0; i < ix.size(); ++i) {
    const core::Index& s = ix[i];
    if (s.kind == core::Index::ellipsis) {
      d = t.dim() - static_cast<int64_t>(ix.size() - 1 - i);
      continue;
    }
    if (s.kind != core::Index::slice || (s.has_start && s.start != 0) || !s.has_stop || s.stop != t.shape()[d] || s.step != 1)
      return false;
    ++d;
  }
  return true;
}

// x[idx] = value with a basic key, as PyTorch's setitem and copy_to: the view x[idx] (x itself
// when applySlicing leaves it: a lone `...`, x[0:n]), then copy_ into it (fill_ for a 0-d value,
// or a number, into a view of another shape), which gives x CopySlices when it is a view
// (core::autograd::in_place), else CopyBackwards.
void set_basic_item(Tensor& t, const Value& value, const std::vector<core::Index>& ix) {
  const bool whole = writes_whole(t, ix);
  Tensor view = whole ? t : core::index(t, ix);   // a view of t
  const Tensor src = is_tensor(value) ? as_tensor(value) : Tensor();
  const bool fill = view.shape() != (is_tensor(value) ? src.shape() : core::Shape{}) && (!is_tensor(value) || src.dim() == 0);
  core::autograd::in_place(view, src.requires_grad(), [&](const Tensor& before) {
    write_item(view, value);
    core::autograd::Backward backward{[](const core::autograd::Grads& g) {   // self: zeros_like(grad); value: grad
                                        return core::autograd::Grads{core::zeros(g[0]->shape()), g[0]};
                                      },
                                      false};
    const char* name = fill ? "FillBackward3" : "CopyBackwards";
    if (!is_tensor(value)) return core::autograd::record(view, {&before}, name, std::move(backward));
    return core::autograd::record(view, {&before, &src}, name, std::move(backward));
  });
}

// x[idx] = value: basic keys through a view of x, advanced ones by index_put_, each recorded as
// PyTorch records it.
void setitem(Interpreter& in, Tensor& t, const Value& value, const std::vector<Value>& idx) {
  const bool grad_mode = core::autograd::grad_enabled();
  // x[mask] = number with a bool mask of x's shape (the buffers notebook's mask[mask == 1.] = 2.):
  // PyTorch's index_put_ writes the number where the mask is True, which is masked_fill_. Only
  // where no gradient is recorded; with one, the general path below says what attn supports.
  // A uint8 mask too, with 1.13's deprecation warning.
  const bool mask_dtype = idx.size() == 1 && is_tensor(idx[0]) &&
                          (as_tensor(idx[0]).dtype() == core::DType::boolean || as_tensor(idx[0]).dtype() == core::DType::uint8);
  if (mask_dtype && as_tensor(idx[0]).shape() == t.shape() && (value.kind == Value::Int || value.kind == Value::Float) &&
      !(grad_mode && t.requires_grad())) {
    warn_uint8_mask(in, as_tensor(idx[0]));
    core::autograd::check_inplace(t, false);
    core::masked_fill_(t, as_tensor(idx[0]), static_cast<float>(torch_scalar(value, "value")), value.kind == Value::Int);
    return;
  }
  if (auto split = split_mixed_key(in, t, idx)) {   // x[idx, :k] = v: written through the basic view
    Tensor view = split->first;
    return put_item(view, value, *advanced_key(view, split->second), true, false, masked_fill_key(idx, value, false));
  }
  if (std::optional<core::TensorIndices> adv = advanced_key(t, idx)) {
    const bool sliced = std::any_of(idx.begin(), idx.end(), [](const Value& v) { return v.kind == Value::Slice; });
    return put_item(t, value, *adv, sliced, false, masked_fill_key(idx, value, false));
  }
  set_basic_item(t, value, to_indices(in, idx));
}

}  // namespace

// Tensor.index_put_(indices, values, accumulate): x[indices] = values (or += at each place,
// repeated places each time, with accumulate) for a tuple of index tensors, in place.
void index_put_method(Tensor& t, const std::vector<Value>& indices, const Tensor& values, bool accumulate) {
  if (static_cast<int64_t>(indices.size()) > t.dim())
    throw py::IndexError(fmt::format("too many indices for tensor of dimension {} (got {})", t.dim(), indices.size()));
  if (indices.empty()) throw RuntimeError("index_put_ requires at least one index tensor");
  // Every entry is an index tensor here, a 0-d one included (it broadcasts as shape []), unlike
  // x[...] where a 0-d integer tensor is a plain index.
  core::TensorIndices key;
  for (size_t k = 0; k < indices.size(); ++k) {
    const Value& v = indices[k];
    if (!is_tensor(v)) throw py::TypeError(fmt::format("expected Tensor as element {} in argument 0, but got {}", k, py::type_name(v)));
    const Tensor& ix = as_tensor(v);
    if (ix.dtype() == core::DType::boolean || ix.dtype() == core::DType::uint8) {
      for (Tensor& c : core::mask_to_indices(core::to_bool(ix), t, static_cast<int64_t>(key.size()))) key.emplace_back(c);
    } else if (ix.dtype() == core::DType::int64) {
      key.emplace_back(ix);
    } else {
      throw py::IndexError("tensors used as indices must be long, byte or bool tensors");
    }
  }
  const Value v = tensor_value(values);
  const bool fill = masked_fill_key(indices, v, accumulate);
  if (std::none_of(key.begin(), key.end(), [](const std::optional<Tensor>& k) { return k.has_value(); })) {
    // Only 0-d masks: 1.13 runs masked_fill_(mask, value.item()), the mask broadcast over self
    // (True writes every element, False none). Anything else asserts inside ATen itself.
    if (!fill || values.requires_grad() || (core::autograd::grad_enabled() && t.requires_grad()))
      throw RuntimeError("index_put_: with only 0-dimensional masks as indices attn takes a one-element value, accumulate=False and no gradient");
    const Tensor& mask = as_tensor(indices[0]);
    core::autograd::check_inplace(t, false);
    core::masked_fill_(t, core::to_bool(mask), static_cast<float>(core::item(values)), !t.is_float());
    return;
  }
  put_item(t, v, key, false, accumulate, fill, false);
}

namespace {

std::optional<Value> tensor_dunder(const Value& self, const std::string& name);   // below

// Whether a class written in Python between self's class and Tensor defines `name` itself.
bool python_override(const Value& self, const std::string& name) {
  for (const py::ClassObj* c : py::type_of(self)->mro()) {
    if (c->slots.getattr || c->native_tag) return false;   // Tensor (or Parameter) reached
    if (c->methods.count(name)) return true;
  }
  return false;
}

// ---- attributes ----

std::optional<Value> tensor_getattr(Interpreter& in, const Value& self, const std::string& name) {
  Tensor& t = as_tensor(self);
  if (name == "shape") return size_value(t.shape());
  if (name == "T") return tensor_value(core::T(t));
  if (name == "ndim") return Value::integer(t.dim());
  if (name == "requires_grad") return Value::boolean(t.requires_grad());
  if (name == "is_leaf") return Value::boolean(t.is_leaf());
  if (name == "_version") return Value::integer(static_cast<int64_t>(t.version()));   // the in-place writes its storage has seen
  if (name == "retains_grad") return Value::boolean(core::autograd::retains_grad(t));
  if (name == "grad_fn") return grad_fn_value(t);   // grad_fn.cpp
  if (name == "grad") {   // a leaf's accumulated gradient, a plain tensor; None before backward()
    std::optional<Tensor> g = core::autograd::grad(t);
    if (!g) return Value::none();
    return tensor_value(*g);
  }
  if (name == "data") {   // variable_data(): detached, with a version counter of its own
    Tensor d = core::detach(t);
    d.new_version_counter();
    return tensor_value(d);
  }
  if (name == "_base") return core::autograd::is_view(t) ? tensor_value(core::autograd::view_base(t)) : Value::none();
  if (name == "_is_view")
    return py::builtin("Tensor._is_view", [self](Interpreter&, CallArgs&) { return Value::boolean(core::autograd::is_view(as_tensor(self))); });
  if (name == "device") return cpu_device();   // every attn tensor lives on the CPU
  if (name == "is_cuda") return Value::boolean(false);
  if (name == "dtype") return dtype_value(t.dtype());
  if (name == "double" || name == "half")
    return py::builtin("Tensor." + name, [name](Interpreter&, CallArgs&) -> Value { refuse_float64("Tensor." + name + "()"); });
  if (name == "register_hook") {   // python/torch_extra.py, as torch/_tensor.py writes it
    const Value f = names_of(in.import("torch._attn_extra")).names.at("_register_hook");
    return py::builtin("Tensor.register_hook", [self, f](Interpreter& inner, CallArgs& a) {
      CallArgs c = a;
      c.pos.insert(c.pos.begin(), self);
      return inner.call(f, c);
    });
  }
  const OpTable& ops = torch_ops();
  if (const OpTable::Op* op = ops.method(name))
    return py::builtin("Tensor." + name, [self, op](Interpreter& in, CallArgs& a) { return torch_ops().call_method(in, *op, self, a); });
  if (const Value* own = static_cast<py::InstanceObj*>(self.obj.get())->find(name)) return *own;   // t.note = ...
  if (name == "_backward_hooks") return Value::none();   // until register_hook sets it
  if (!python_override(self, name))   // a Python subclass's own dunder wins
    if (std::optional<Value> d = tensor_dunder(self, name)) return d;   // t.__add__(u): the operator's code
  if (name.rfind("__", 0) == 0) return std::nullopt;   // __class__, __dict__, __array__...: the interpreter's
  throw py::AttributeError("'Tensor' object has no attribute '" + name + "' (attn implements the tensor methods the lessons use)");
}

bool tensor_setattr(Interpreter&, const Value& self, const std::string& name, const Value& v) {
  Tensor& t = as_tensor(self);
  if (name == "grad") {
    if (v.is_none()) {
      core::autograd::set_grad(t, std::nullopt);
      return true;
    }
    if (!is_tensor(v)) throw py::TypeError("assigned grad expected to be a Tensor or None but got grad of type " + py_typename(v));
    core::autograd::set_grad(t, as_tensor(v));
    return true;
  }
  if (name == "requires_grad") {
    const bool on = py::truthy(v);
    if (!t.is_leaf())
      throw core::TensorError("you can only change requires_grad flags of leaf variables." +
                              std::string(on ? "" : " If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."));
    if (on && !t.is_float()) throw core::TensorError("only Tensors of floating point dtype can require gradients");
    t.set_requires_grad(on);
    return true;
  }
  if (name == "data") {   // the same Python object (a Parameter stays one) over src's elements
    if (!is_tensor(v)) throw py::TypeError("Variable data has to be a tensor, but got " + py_typename(v));
    if (t.requires_grad() && !as_tensor(v).is_float())
      throw core::TensorError("data set to a tensor that requires gradients must be floating point or complex dtype");
    t.set_data(as_tensor(v));
    return true;
  }
  static const char* const kReadOnly[] = {"shape", "T", "ndim", "is_leaf", "retains_grad", "grad_fn", "device", "is_cuda", "dtype", "_base", "_version"};
  for (const char* r : kReadOnly)
    if (name == r) throw py::AttributeError("attribute '" + name + "' of 'torch._C._TensorBase' objects is not writable");
  return false;   // anything else: the tensor's own __dict__, as in PyTorch
}

// ---- operators ----

core::BinOp arithmetic(const std::string& op) {
  if (op == "+") return core::BinOp::add;
  if (op == "-") return core::BinOp::sub;
  if (op == "*") return core::BinOp::mul;
  if (op == "/") return core::BinOp::div;
  return core::BinOp::pow;
}

bool is_scalar(const Value& v) { return v.is_number(); }

// A Python number's category in type promotion: bool, int (int64) or float (float32). A
// one-element tensor passed where a number goes is a tensor, not a wrapped number: its dtype.
core::DType operand_category(const Value& v) {
  if (is_tensor(v)) return as_tensor(v).dtype();
  return v.kind == Value::Bool ? core::DType::boolean : v.kind == Value::Float ? core::DType::float32 : core::DType::int64;
}

// A Python number as the 0-d tensor of its category (int64 or float32) an op reads it from.
Tensor operand_tensor(const Value& v) {
  const double x = torch_scalar(v, "other");
  if (operand_category(v) == core::DType::float32) return core::scalar(static_cast<float>(x));
  return core::from_ints({}, {core::float_to_int(x, core::DType::int64)});
}

std::optional<Value> binary_result(Interpreter& in, const std::string& op, const Value& self, const Value& other, bool reflected) {
  const bool tensor_other = is_tensor(other);
  if (!tensor_other && !is_scalar(other)) return std::nullopt;
  const Tensor& t = as_tensor(self);
  const core::CpuKernels cpu = state(in).cpu;
  if (op == "@") {
    if (!tensor_other) return std::nullopt;
    return tensor_value(reflected ? core::matmul_op(as_tensor(other), t) : core::matmul_op(t, as_tensor(other)));
  }
  if (op == "**") {
    if (tensor_other) return tensor_value(reflected ? core::pow(as_tensor(other), t, cpu) : core::pow(t, as_tensor(other), cpu));
    const double s = torch_scalar(other, "other");
    if (!reflected) check_integer_power(t, other);
    if (!reflected) return tensor_value(core::pow(t, s, cpu));
    // Tensor.__rpow__ (1.13): torch.tensor(number) ** x, a tensor ** tensor (PowBackward1)
    if (t.is_float()) return tensor_value(core::pow(core::scalar(static_cast<float>(s)), t, cpu));
    if (other.kind != Value::Float)   // torch.tensor(int) ** an integer tensor: integer powers
      return tensor_value(core::pow(core::from_ints({}, {py::to_int(other, "other")}, other.kind == Value::Bool ? core::DType::boolean : core::DType::int64), t, cpu));
    return tensor_value(core::pow(s, t, cpu));
  }
  if (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>") {   // bitwise on bool/integer tensors (ops/bitwise.h)
    const Tensor o = tensor_other ? as_tensor(other)
                                  : other.kind == Value::Bool ? core::from_ints({}, {other.b ? 1 : 0}, core::DType::boolean)
                                  : other.kind == Value::Int  ? core::from_ints({}, {py::to_int(other, "other")})
                                                              : core::scalar(static_cast<float>(torch_scalar(other, "other")));
    if (op == "<<" || op == ">>") return tensor_value(reflected ? core::shift(op == "<<", o, t) : core::shift(op == "<<", t, o));
    const core::BitOp bit = op == "&" ? core::BitOp::and_ : op == "|" ? core::BitOp::or_ : core::BitOp::xor_;
    return tensor_value(core::bitwise(bit, t, o));
  }
  if (op == "//" || op == "%") {
    const Tensor o = tensor_other ? as_tensor(other) : operand_tensor(other);
    const core::DType common = tensor_other ? core::result_type(t, o) : core::result_type(t, operand_category(other));
    const Tensor& x = reflected ? o : t;
    const Tensor& y = reflected ? t : o;
    Tensor r = core::floor_divide_or_remainder(op == "%", core::detach(x), core::detach(y), common);
    return tensor_value(record_floor_op(std::move(r), x, y, op == "%", reflected && !tensor_other, !reflected && !tensor_other));
  }
  if (op != "+" && op != "-" && op != "*" && op != "/") return std::nullopt;
  const core::BinOp b = arithmetic(op);
  if (!tensor_other && other.kind == Value::Bool && t.dtype() == core::DType::boolean)   // bool_t * True stays bool
    return binary_result(in, op, self, tensor_value(core::from_ints({}, {other.b ? 1 : 0}, core::DType::boolean)), reflected);
  if (tensor_other) return tensor_value(reflected ? core::binary(b, as_tensor(other), t) : core::binary(b, t, as_tensor(other)));
  if (reflected && b == core::BinOp::div) {   // Tensor.__rdiv__ (1.13): self.reciprocal() * other
    const Tensor r = core::reciprocal(t);
    return tensor_value(core::binary_scalar(core::BinOp::mul, r, torch_scalar(other, "other"), false, operand_category(other)));
  }
  return tensor_value(core::binary_scalar(b, t, torch_scalar(other, "other"), reflected, operand_category(other)));
}

// x op= v for `**`, `//`, `%`, `&`, `|`, `^`: Tensor.__ipow__ is pow_, the others write the
// out-of-place result back into x (every view and alias sees it; autograd records it in place),
// after PyTorch's checks of a partly overlapping operand and of the result's dtype.
std::optional<Value> tensor_inplace_other(Interpreter& in, const std::string& op, const Value& self, const Value& other) {
  if (op == "**") {
    CallArgs args{{other}, {}, {}};
    return in.call(in.getattr(self, "pow_"), args);
  }
  if (is_tensor(other)) core::check_inplace_operand(as_tensor(self), as_tensor(other));
  // ATen's bitwise kernels are vectorised; floor_divide and remainder only for floats (an integer
  // divisor of 0 written by an earlier element is then the kernel's ZeroDivisionError)
  const bool vectorised = op == "&" || op == "|" || op == "^" || as_tensor(self).is_float();
  if (overlapping_write(self, other, vectorised, [&](const Tensor& x, const Tensor& y) { return as_tensor(in.binop(op, tensor_value(x), tensor_value(y))); }))
    return self;
  return write_back(self, [&](const Tensor& t) { return as_tensor(in.binop(op, tensor_value(t), other)); });
}

std::optional<Value> tensor_inplace_hook(Interpreter& in, const std::string& op, const Value& self, const Value& other) {
  if (!is_tensor(other) && !is_scalar(other)) return std::nullopt;
  if (op == "<<" || op == ">>") return shift_inplace(in, op, self, other);
  if (op == "**" || op == "//" || op == "%" || op == "&" || op == "|" || op == "^") return tensor_inplace_other(in, op, self, other);
  if (op != "+" && op != "-" && op != "*" && op != "/") return std::nullopt;
  // x[k] op= v: in place through the view x[k], then the interpreter's x[k] = result (as Python's).
  return tensor_inplace(in, arithmetic(op), self, other);
}

std::optional<Value> unary_result(const std::string& op, const Value& self) {
  if (op == "-") return tensor_value(core::neg(as_tensor(self)));
  if (op == "+") return self;
  if (op == "~") {
    if (as_tensor(self).is_float()) throw py::TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors");
    return tensor_value(core::bitwise_not(as_tensor(self)));
  }
  return std::nullopt;
}

std::optional<Value> compare_result(const std::string& op, const Value& self, const Value& other) {
  static const std::map<std::string, core::CmpOp> ops = {{"==", core::CmpOp::eq}, {"!=", core::CmpOp::ne}, {"<", core::CmpOp::lt},
                                                         {"<=", core::CmpOp::le}, {">", core::CmpOp::gt}, {">=", core::CmpOp::ge}};
  if (!is_tensor(other) && !is_scalar(other)) {
    if (op == "==" || op == "!=") return Value::boolean(op == "!=");   // Tensor.__eq__(None) is False, as PyTorch
    return std::nullopt;
  }
  if (is_tensor(other)) return tensor_value(core::compare(ops.at(op), as_tensor(self), as_tensor(other)));
  // A number is cast to the promoted dtype first (uint8 == -1 is uint8 == 255), as in PyTorch.
  const Tensor& t = as_tensor(self);
  const core::DType common = core::result_type(t, operand_category(other));
  return tensor_value(core::compare(ops.at(op), t, operand_tensor(other), common));
}

Value tensor_iter(Interpreter&, const Value& self) {
  const Tensor& t = as_tensor(self);
  if (t.dim() == 0) throw py::TypeError("iteration over a 0-d tensor");
  py::check_items("the rows of a tensor", t.shape()[0]);   // a view each, made before the first is used (as torch's unbind)
  std::vector<Value> rows;
  core::DeadlineMeter meter;   // review 28 #8: 3,000,000 rows ran 8 s past a 1 s limit
  for (int64_t k = 0; k < t.shape()[0]; ++k) {
    core::Index ix;
    ix.value = k;
    rows.push_back(tensor_value(core::index(t, {ix})));
    meter.add(1024);
  }
  return Value::list(std::move(rows));
}

std::optional<std::string> tensor_format(Interpreter& in, const Value& self, const std::string& spec) {
  const Tensor& t = as_tensor(self);
  if (t.dim() != 0 || t.is_parameter()) return std::nullopt;   // object.__format__: an empty spec only
  const double x = core::item(t);   // self.item().__format__(format_spec)
  const Value item = t.is_float() ? Value::number(x) : t.dtype() == core::DType::boolean ? Value::boolean(x != 0) : Value::integer(static_cast<int64_t>(x));
  return in.format(item, spec);
}

// copy.deepcopy(t) (torch/_tensor.py Tensor.__deepcopy__, torch/nn/parameter.py
// Parameter.__deepcopy__): a Parameter is Parameter(t.data.clone(), t.requires_grad), its grad not
// copied; a tensor a graph leaf, with its requires_grad, a copy of its grad and of its __dict__.
// The copy is kept in memo under id(t), so a tensor met twice is copied once (tied weights).
Value tensor_deepcopy(Interpreter& in, CallArgs& a) {
  static const py::Signature sig = py::Signature::parse("def Tensor.__deepcopy__(self, memo)");
  py::Args b = py::bind_args(sig, a, "Tensor.__deepcopy__");
  const Value& self = b.get("self");
  Value memo = b.get("memo");
  if (memo.kind != Value::Dict) throw py::TypeError("attn's Tensor.__deepcopy__ takes memo as a dict");
  auto& seen = *static_cast<py::DictObj*>(memo.obj.get());
  const Value key = Value::integer(static_cast<int64_t>(reinterpret_cast<uintptr_t>(self.obj.get())));
  if (Value* done = seen.find(key)) return *done;
  const Tensor& t = as_tensor(self);
  if (!t.is_parameter() && !t.is_leaf())
    throw py::RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment");
  Tensor copy = core::detach(t).clone();   // [same shape as t], own storage
  copy.set_requires_grad(t.requires_grad());
  copy.set_parameter(t.is_parameter());
  Value result = tensor_value(copy);
  if (!t.is_parameter()) {
    if (std::optional<Tensor> g = core::autograd::grad(t)) core::autograd::set_grad(copy, core::detach(*g).clone());
    Value deepcopy = in.getattr(in.import("copy"), "deepcopy");
    CallArgs c;
    c.pos = {Value::dict(), memo};
    c.pos[0].obj = static_cast<py::InstanceObj*>(self.obj.get())->dict;
    Value own = in.call(deepcopy, c);   // the tensor's own attributes (t.note = ...)
    for (const auto& [k, v] : static_cast<py::DictObj*>(own.obj.get())->items) static_cast<py::InstanceObj*>(result.obj.get())->dict->set(k, v);
  }
  seen.set(key, result);
  return result;
}

// int(t) (Tensor.__int__): a one-element tensor of any dtype as a Python int, a float truncated
// toward zero with Python's errors for NaN and infinity.
Value tensor_int(Interpreter&, CallArgs& a) {
  static const py::Signature sig = py::Signature::parse("def Tensor.__int__(self)");
  py::Args b = py::bind_args(sig, a, "Tensor.__int__");
  const Tensor& t = as_tensor(b.get("self"));
  if (t.numel() != 1) throw py::ValueError("only one element tensors can be converted to Python scalars");
  if (!t.is_float()) return Value::integer(t.int_at(0));
  const double x = t.at(0);
  if (std::isnan(x)) throw py::ValueError("cannot convert float NaN to integer");
  if (std::isinf(x)) throw py::OverflowError("cannot convert float infinity to integer");
  return Value::integer(static_cast<int64_t>(std::trunc(x)));
}

// An operator's result with the layout TensorIterator gives it (core::keep_layout): x.T + 1
// keeps x.T's memory order. The inputs in the kernel's order (the reflected operand first); a
// number operand is a wrapped 0-d tensor in ATen, save x ** 2's exponent (a kernel argument).
std::optional<Value> laid_out(std::optional<Value> r, const Value& first, const Value* second, bool wrapped = true) {
  if (!r || !is_tensor(*r)) return r;
  std::vector<const Tensor*> inputs;
  bool scalar_operand = false;
  for (const Value* v : {&first, second}) {
    if (v && is_tensor(*v)) inputs.push_back(&as_tensor(*v));
    if (v && v->is_number()) scalar_operand = wrapped;
  }
  Tensor& t = as_tensor(*r);   // the new object's payload: the same variable, laid out anew
  for (const Tensor* in : inputs)
    if (t.shares_storage(*in)) return r;   // +x is x
  t = core::keep_layout(t, inputs, scalar_operand);
  return r;
}

std::optional<Value> tensor_binary(Interpreter& in, const std::string& op, const Value& self, const Value& other, bool reflected) {
  std::optional<Value> r = binary_result(in, op, self, other, reflected);
  if (op == "@") return r;
  const bool wrapped = op != "**";
  return reflected ? laid_out(std::move(r), other, &self, wrapped) : laid_out(std::move(r), self, &other, wrapped);
}

std::optional<Value> tensor_unary(Interpreter& in, const std::string& op, const Value& self) {
  if (op == "abs") {   // abs(x) is Tensor.__abs__, Tensor.abs
    CallArgs none;
    return in.call(in.getattr(self, "abs"), none);
  }
  return laid_out(unary_result(op, self), self, nullptr);
}

std::optional<Value> tensor_compare(Interpreter&, const std::string& op, const Value& self, const Value& other) {
  return laid_out(compare_result(op, self, other), self, &other);
}

// ---- dunders by name ----

// Exactly n positional arguments (no keywords) for t.__name__(...), as the slot wrappers take them.
void dunder_args(const CallArgs& a, const std::string& name, size_t n) {
  if (!a.kw.empty()) throw py::TypeError(fmt::format("Tensor.{}() takes no keyword arguments", name));
  if (a.pos.size() != n) throw py::TypeError(fmt::format("expected {} argument{}, got {}", n, n == 1 ? "" : "s", a.pos.size()));
}

// t.__add__(u), t.__radd__(2), t.__lt__(u), t.__iadd__(u), t.__neg__(), t.__getitem__(k),
// t.__len__(), ...: the dunders of dir(torch.Tensor) that attn's operators back, bound to t and
// running the operator's own code (the slots install_tensor_hooks sets, or the interpreter's
// operator for the in-place forms, which fall back as `x += y` does). A binary or comparison
// dunder gives NotImplemented for an operand it does not take, as PyTorch's do. nullopt: not
// one of them (then AttributeError, as for __array__: attn has no NumPy).
std::optional<Value> tensor_dunder(const Value& self, const std::string& name) {
  struct Binary { const char* op; bool reflected; };
  static const std::map<std::string, Binary> binary = {
      {"__add__", {"+", false}}, {"__radd__", {"+", true}}, {"__sub__", {"-", false}}, {"__rsub__", {"-", true}},
      {"__mul__", {"*", false}}, {"__rmul__", {"*", true}}, {"__truediv__", {"/", false}}, {"__rtruediv__", {"/", true}},
      {"__div__", {"/", false}}, {"__rdiv__", {"/", true}}, {"__floordiv__", {"//", false}}, {"__rfloordiv__", {"//", true}},
      {"__mod__", {"%", false}}, {"__rmod__", {"%", true}}, {"__pow__", {"**", false}}, {"__rpow__", {"**", true}},
      {"__matmul__", {"@", false}}, {"__rmatmul__", {"@", true}}, {"__and__", {"&", false}}, {"__rand__", {"&", true}},
      {"__or__", {"|", false}}, {"__ror__", {"|", true}}, {"__xor__", {"^", false}}, {"__rxor__", {"^", true}},
      {"__lshift__", {"<<", false}}, {"__rlshift__", {"<<", true}}, {"__rshift__", {">>", false}}, {"__rrshift__", {">>", true}}};
  static const std::map<std::string, const char*> inplace = {
      {"__iadd__", "+"}, {"__isub__", "-"}, {"__imul__", "*"}, {"__itruediv__", "/"}, {"__idiv__", "/"}, {"__ifloordiv__", "//"},
      {"__imod__", "%"}, {"__ipow__", "**"}, {"__iand__", "&"}, {"__ior__", "|"}, {"__ixor__", "^"}, {"__ilshift__", "<<"},
      {"__irshift__", ">>"}};
  static const std::map<std::string, const char*> compare = {{"__eq__", "=="}, {"__ne__", "!="}, {"__lt__", "<"},
                                                             {"__le__", "<="}, {"__gt__", ">"}, {"__ge__", ">="}};
  static const std::map<std::string, const char*> unary = {{"__neg__", "-"}, {"__pos__", "+"}, {"__invert__", "~"}, {"__abs__", "abs"}};
  using Fn = std::function<Value(Interpreter&, CallArgs&)>;
  Fn fn;
  if (auto b = binary.find(name); b != binary.end()) {
    fn = [self, name, b = b->second](Interpreter& in, CallArgs& a) {
      if ((name == "__add__" || name == "__sub__") && !a.kw.empty())   // x.__add__(y, alpha=2) is x.add(y, alpha=2)
        return in.call(in.getattr(self, name == "__add__" ? "add" : "sub"), a);
      dunder_args(a, name, 1);
      std::optional<Value> r = tensor_binary(in, b.op, self, a.pos[0], b.reflected);
      return r ? *r : Value::not_implemented();
    };
  } else if (auto i = inplace.find(name); i != inplace.end()) {
    fn = [self, name, op = std::string(i->second)](Interpreter& in, CallArgs& a) {
      dunder_args(a, name, 1);   // the in-place slot, else the operator (as `x op= y`), else NotImplemented
      const Value& other = a.pos[0];
      if (std::optional<Value> r = tensor_inplace_hook(in, op, self, other)) return *r;
      std::optional<Value> r = tensor_binary(in, op, self, other, false);
      return r ? *r : Value::not_implemented();
    };
  } else if (auto c = compare.find(name); c != compare.end()) {
    fn = [self, name, op = std::string(c->second)](Interpreter& in, CallArgs& a) {
      dunder_args(a, name, 1);
      if (!is_tensor(a.pos[0]) && !is_scalar(a.pos[0])) return Value::not_implemented();   // `x == None` is then identity
      std::optional<Value> r = tensor_compare(in, op, self, a.pos[0]);
      return r ? *r : Value::not_implemented();
    };
  } else if (auto u = unary.find(name); u != unary.end()) {
    fn = [self, name, op = std::string(u->second)](Interpreter& in, CallArgs& a) {
      dunder_args(a, name, 0);
      return in.unary(op, self);
    };
  } else if (name == "__getitem__") {
    fn = [self](Interpreter& in, CallArgs& a) { dunder_args(a, "__getitem__", 1); return in.getitem(self, a.pos[0]); };
  } else if (name == "__setitem__") {
    fn = [self](Interpreter& in, CallArgs& a) {
      dunder_args(a, "__setitem__", 2);
      in.setitem(self, a.pos[0], a.pos[1]);
      return Value::none();
    };
  } else if (name == "__len__") {
    fn = [self](Interpreter& in, CallArgs& a) { dunder_args(a, "__len__", 0); return Value::integer(in.len(self)); };
  } else if (name == "__bool__" || name == "__nonzero__") {
    fn = [self, name](Interpreter& in, CallArgs& a) { dunder_args(a, name, 0); return Value::boolean(in.truth(self)); };
  } else if (name == "__contains__") {
    fn = [self](Interpreter& in, CallArgs& a) {   // a Python method in torch/_tensor.py: its signature's messages
      if (a.pos.size() > 1) throw py::TypeError(fmt::format("Tensor.__contains__() takes 2 positional arguments but {} were given", a.pos.size() + 1));
      const Value* element = py::find_arg(a, 0, "element");
      if (!element) throw py::TypeError("Tensor.__contains__() missing 1 required positional argument: 'element'");
      return Value::boolean(in.contains(self, *element));
    };
  } else if (name == "__iter__") {
    fn = [self](Interpreter& in, CallArgs& a) { dunder_args(a, "__iter__", 0); return in.iter(self); };
  } else if (name == "__index__") {
    fn = [self](Interpreter& in, CallArgs& a) { dunder_args(a, "__index__", 0); return Value::integer(*in.index(self)); };
  } else if (name == "__float__") {
    fn = [self](Interpreter&, CallArgs& a) {
      dunder_args(a, "__float__", 0);
      const Tensor& t = as_tensor(self);   // float(t), as the to_float slot
      if (t.numel() != 1) throw py::ValueError("only one element tensors can be converted to Python scalars");
      return Value::number(core::item(t));
    };
  } else if (name == "__long__") {
    fn = [self](Interpreter& in, CallArgs& a) {
      dunder_args(a, "__long__", 0);
      CallArgs c{{self}, {}, {}};
      return tensor_int(in, c);
    };
  } else if (name == "__repr__" || name == "__str__") {
    fn = [self, name](Interpreter& in, CallArgs& a) { dunder_args(a, name, 0); return Value::str(in.repr_of(self)); };
  } else if (name == "__format__") {
    fn = [self](Interpreter& in, CallArgs& a) {
      dunder_args(a, "__format__", 1);
      if (a.pos[0].kind != Value::Str) throw py::TypeError("__format__() argument must be str, not " + py::type_name(a.pos[0]));
      return Value::str(in.format(self, a.pos[0].s));
    };
  } else if (name == "__hash__") {
    fn = [self](Interpreter& in, CallArgs& a) { dunder_args(a, "__hash__", 0); return Value::integer(in.hash(self)); };
  } else {
    return std::nullopt;
  }
  return py::builtin("Tensor." + name, std::move(fn));
}


}  // namespace

// The operators' arithmetic for the named forms (ops_elem.cpp): x.add(y) is x + y.
Value shift_inplace(Interpreter& in, const std::string& op, const Value& self, const Value& other) {
  const Tensor& t = as_tensor(self);
  const bool float_other = is_tensor(other) ? as_tensor(other).is_float() : other.kind == Value::Float;
  if (float_other && !t.is_float())   // TensorIterator's cast check comes before the kernel's dtype check
    throw core::TensorError(fmt::format("result type Float can't be cast to the desired output type {}", core::dtype_title(t.dtype())));
  if (is_tensor(other)) core::check_inplace_operand(t, as_tensor(other));
  if (overlapping_write(self, other, false, [&](const Tensor& x, const Tensor& y) { return as_tensor(tensor_operator(in, op, tensor_value(x), tensor_value(y))); }))
    return self;   // ATen 1.13's shift kernels run one element at a time (cpu_kernel)
  return write_back(self, [&](const Tensor& x) { return as_tensor(tensor_operator(in, op, tensor_value(x), other)); });
}

Value tensor_operator(Interpreter& in, const std::string& op, const Value& self, const Value& other, bool reflected) {
  std::optional<Value> r = op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">="
                               ? tensor_compare(in, op, self, other)
                               : tensor_binary(in, op, self, other, reflected);
  if (!r) throw py::TypeError(fmt::format("unsupported operand type(s) for {}: 'Tensor' and '{}'", op, py_typename(other)));
  return *r;
}

void install_tensor_hooks(py::ClassObj& cls) {
  cls.methods["__deepcopy__"] = py::method("Tensor.__deepcopy__", tensor_deepcopy);
  cls.methods["__int__"] = py::method("Tensor.__int__", tensor_int);
  // torch.Tensor.add(t, u), map(torch.Tensor.sum, ts): the op table's methods, unbound on the class
  // (an instance finds them through getattr first; the operators' dunders stay the slots')
  for (const std::string& name : torch_ops().method_names()) {
    if (name.rfind("__", 0) == 0 || cls.methods.count(name)) continue;
    cls.methods[name] = py::method("Tensor." + name, [name](Interpreter& in, CallArgs& a) {
      CallArgs rest = a;
      const Value self = rest.pos.front();   // unbound_checked made sure it is a tensor
      rest.pos.erase(rest.pos.begin());
      return torch_ops().call_method(in, *torch_ops().method(name), self, rest);
    });
  }
  py::Slots& s = cls.slots;
  s.make = [](Interpreter&, const ClassPtr&, CallArgs&) -> Value {
    throw py::NotImplementedError("attn does not implement the torch.Tensor(...) constructor: use torch.tensor(...)");
  };
  s.getattr = tensor_getattr;
  s.setattr = tensor_setattr;
  s.getitem = [](Interpreter& in, const Value& self, const Value& key) {
    check_0d_key(as_tensor(self), key);
    const std::vector<Value> idx = index_list(in, key);
    if (auto split = split_mixed_key(in, as_tensor(self), idx))
      return tensor_value(with_masks_saved(core::index(split->first, *advanced_key(split->first, split->second)), split->second));
    if (std::optional<core::TensorIndices> adv = advanced_key(as_tensor(self), idx))
      return tensor_value(with_masks_saved(core::index(as_tensor(self), *adv), idx));
    return tensor_value(core::index(as_tensor(self), to_indices(in, idx)));
  };
  s.setitem = [](Interpreter& in, const Value& self, const Value& key, const Value& v) {
    check_0d_key(as_tensor(self), key);
    setitem(in, as_tensor(self), v, index_list(in, key));
  };
  s.binary = tensor_binary;
  s.inplace = tensor_inplace_hook;
  s.unary = tensor_unary;
  s.compare = tensor_compare;
  s.iter = tensor_iter;
  s.contains = [](Interpreter& in, const Value& self, const Value& item) {   // Tensor.__contains__: (element == self).any()
    if (!is_tensor(item) && !is_scalar(item))
      throw py::RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a " + py::class_repr(*py::type_of(item)) + ".");
    CallArgs none;
    return in.truth(in.call(in.getattr(in.compare("==", item, self), "any"), none));
  };
  s.len = [](Interpreter&, const Value& self) -> int64_t {
    const Tensor& t = as_tensor(self);
    if (t.dim() == 0) throw py::TypeError("len() of a 0-d tensor");
    return t.shape()[0];
  };
  s.truth = [](Interpreter&, const Value& self) {
    const Tensor& t = as_tensor(self);
    if (t.numel() == 0) throw py::RuntimeError("Boolean value of Tensor with no values is ambiguous");
    if (t.numel() != 1) throw py::RuntimeError("Boolean value of Tensor with more than one value is ambiguous");
    return core::item(t) != 0.0;
  };
  s.hash = [](const Value& self) { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(self.obj.get()) >> 4); };   // Tensor.__hash__ is id()
  s.repr = [](Interpreter& in, const Value& self) {
    try {
      return print::tensor_repr(as_tensor(self), state(in).print_options);
    } catch (const fmt::format_error&) {   // set_printoptions(precision=-1): Python's format() refuses '{:.-1f}'
      throw py::ValueError("Format specifier missing precision");
    }
  };
  s.format = tensor_format;
  s.index = [](const Value& self) -> std::optional<int64_t> {   // only integer tensors of a single element
    const Tensor& t = as_tensor(self);
    if (t.numel() != 1 || t.is_float())
      throw py::TypeError("only integer tensors of a single element can be converted to an index");
    return static_cast<int64_t>(core::item(t));
  };
  s.to_float = [](const Value& self) -> std::optional<double> {
    const Tensor& t = as_tensor(self);
    if (t.numel() != 1) throw py::ValueError("only one element tensors can be converted to Python scalars");
    return core::item(t);
  };
}

void install_size_hooks(py::ClassObj& cls) {
  py::Slots& s = cls.slots;
  s.repr = [](Interpreter&, const Value& self) {
    core::Shape shape;
    for (const Value& d : py::as_seq(self)) shape.push_back(d.i);
    return print::size_repr(shape);
  };
  s.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) {   // torch.Size([2, 3]), torch.Size()
    core::Shape shape;
    if (a.pos.size() > 1 || !a.kw.empty()) throw py::TypeError("Size() takes at most 1 argument");
    if (!a.pos.empty())
      for (const Value& d : in.iterate(a.pos[0])) shape.push_back(py::to_int(d, "torch.Size() element"));
    return size_value(shape);
  };
  s.init = [](Interpreter&, const Value&, CallArgs&) {};
  s.getitem = [](Interpreter&, const Value& self, const Value& key) {   // a slice of a Size is a Size
    Value r = py::getitem_builtin(self, key);
    if (key.kind == Value::Slice) static_cast<py::SeqObj*>(r.obj.get())->cls = size_class();
    return r;
  };
  s.binary = [](Interpreter&, const std::string& op, const Value& self, const Value& other, bool reflected) -> std::optional<Value> {
    // Size + tuple and Size * n are a Size; tuple + Size is a tuple (tuple's own __add__ runs first).
    if (reflected || (op != "+" && op != "*")) return std::nullopt;
    if (op == "+" && other.kind != Value::Tuple) return std::nullopt;
    if (op == "*" && !py::is_int(other)) return std::nullopt;
    std::vector<Value> items = py::as_seq(self);
    if (op == "+") items.insert(items.end(), py::as_seq(other).begin(), py::as_seq(other).end());
    else {
      std::vector<Value> once = items;
      items.clear();
      for (int64_t k = 0; k < py::small_of(other); ++k) items.insert(items.end(), once.begin(), once.end());
    }
    Value r = Value::tuple(std::move(items));
    static_cast<py::SeqObj*>(r.obj.get())->cls = size_class();
    return r;
  };
  s.getattr = [](Interpreter&, const Value& self, const std::string& name) -> std::optional<Value> {
    if (name != "numel") return std::nullopt;
    return py::builtin("torch.Size.numel", [self](Interpreter&, CallArgs& a) {
      if (!a.pos.empty() || !a.kw.empty()) throw py::TypeError("numel() takes no arguments");
      int64_t n = 1;
      for (const Value& d : py::as_seq(self)) n *= d.i;
      return Value::integer(n);
    });
  };
  s.setattr = [](Interpreter&, const Value& self, const std::string& name, const Value&) -> bool {
    throw py::AttributeError("'" + py::type_name(self) + "' object has no attribute '" + name + "'");
  };
}

}  // namespace attn::torch
