// core/autograd_views.cpp: views and in-place ops in the autograd graph, as PyTorch 1.13 does them
// (torch/csrc/autograd/variable.cpp, VariableTypeUtils.h, functions/tensor.cpp).
//
// What it is: record_view (as_view: a view op's result remembers its root base and how it was
// made), refresh_view (VariableHooks::grad_fn: a view whose storage was written in place since its
// grad_fn was made gets AsStridedBackward0 onto its base's current history), in_place
// (check_inplace, then rebase_history: a written view gives its base a CopySlices node wrapping
// the in-place op's backward), in_place_view (transpose_: a new layout and node, no CopySlices),
// and the two backward functions, CopySlices::apply and
// as_strided_backward, in torch's order so gradients stay bit-exact.
// What it is not: the recording of ordinary ops or the engine (autograd_engine.cpp), view replay
// (1.13's default is off), forward-mode AD, or inference mode.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/autograd.h"
#include "core/ops/inplace.h"
#include "core/ops/reduce.h"
#include "core/ops/sum_to.h"

namespace attn::core::autograd {

namespace {

// A tensor's geometry as CopySlices and AsStridedBackward0 keep it (at::TensorGeometry).
struct Geometry {
  Shape sizes, strides;
  int64_t offset = 0;
};

Geometry geometry_of(const Tensor& t) { return {t.shape(), t.strides(), t.offset()}; }

// at::native's _min_storage_size: the elements a storage needs to hold this geometry.
int64_t min_storage_size(const Shape& sizes, const Shape& strides, int64_t offset) {
  int64_t n = offset + 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return offset;
    n += (sizes[d] - 1) * strides[d];
  }
  return n;
}

// _maybe_overlapping_memory: some two elements of this geometry may share a location.
bool maybe_overlapping(const Shape& sizes, const Shape& strides) {
  std::vector<size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return strides[i] < strides[j]; });
  int64_t max_index = 0;
  for (size_t i : order) {
    if (strides[i] <= max_index) return true;
    max_index += strides[i] * (sizes[i] - 1);
  }
  return false;
}

// as_strided_backward (FunctionsManual.cpp, 1.13) for an input without overlapping memory (a
// root base): size-1 dims dropped, stride-0 dims summed (innermost first), the gradient
// scattered into a zero storage (added in row-major order where the view overlaps itself), and
// the input's geometry read back from it.
Tensor as_strided_backward(Tensor g, const Geometry& in, const Geometry& out) {   // g: [out.sizes]
  for (int64_t s : in.sizes)
    if (s == 0) return zeros(in.sizes);
  Shape out_sizes, out_strides;
  for (int64_t d = static_cast<int64_t>(out.sizes.size()) - 1; d >= 0; --d) {
    if (out.sizes[d] == 0) return zeros(in.sizes);
    if (out.sizes[d] == 1) continue;
    if (out.strides[d] == 0) {
      g = sum(g, d, true);   // [.., 1, ..]
      continue;
    }
    out_sizes.insert(out_sizes.begin(), out.sizes[d]);
    out_strides.insert(out_strides.begin(), out.strides[d]);
  }
  Shape in_sizes, in_strides;
  for (size_t d = 0; d < in.sizes.size(); ++d)
    if (in.sizes[d] != 1) in_sizes.push_back(in.sizes[d]), in_strides.push_back(in.strides[d]);
  const int64_t shared = std::min(in.offset, out.offset);
  const int64_t in_off = in.offset - shared, out_off = out.offset - shared;
  const int64_t size = std::max(min_storage_size(in_sizes, in_strides, in_off), min_storage_size(out_sizes, out_strides, out_off));
  Tensor storage = zeros({size});   // [size]
  const Tensor flat = make_view(g.contiguous(), out_sizes, contiguous_strides(out_sizes), g.contiguous().offset());
  Tensor region = make_view(storage, out_sizes, out_strides, out_off);
  if (maybe_overlapping(out_sizes, out_strides)) {   // index_add_: storage[i] += g[k], k in order
    float* s = region.data<float>();
    const float* x = flat.data<float>();
    for_each_offset(out_sizes, [&](int64_t k, int64_t off) { s[off] += x[k]; }, out_strides);
  } else {
    copy_(region, flat);
  }
  return make_view(storage, in.sizes, in.strides, in_off);
}

// The view's grad_fn after its storage was written (VariableHooks::grad_fn without view replay).
std::shared_ptr<Node> as_strided_node(const Tensor& base, const Tensor& view) {
  auto node = std::make_shared<Node>("AsStridedBackward0", new_sequence_nr());
  node->next_.push_back(gradient_edge(base));
  node->input_shapes_.push_back(base.shape());
  node->fn_ = [in = geometry_of(base), out = geometry_of(view)](const Grads& g) {
    Grads r(1);
    if (g[0]) r[0] = as_strided_backward(*g[0], in, out);
    return r;
  };
  return node;
}

// handle_view_on_rebase's message for a view that may not be written (or whose base was).
std::string view_rebase_error(const AutogradMeta& m, bool indirect) {
  const char* modified = indirect ? "its base or another view of its base has been" : "is being";
  std::string msg =
      m.grad_fn ? fmt::format("Output {} of {} is a view and {} modified inplace.", m.output_nr, m.grad_fn->name(), modified)
                : fmt::format("A view was created in no_grad mode and {} modified inplace with grad mode enabled.", modified);
  if (m.view->creation == CreationMeta::multi_output_node)
    return msg + " This view is the output of a function that returns multiple views. Such functions do not allow the "
                 "output views to be modified inplace. You should replace the inplace operation by an out-of-place one.";
  return msg + " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
               "both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be "
               "tracked) or both outside (if you want the inplace to be tracked).";
}

// out becomes a view of base's root base, made as `creation` says (propagate_creation_meta: a
// view of a no_grad or multi-output view keeps its base's kind).
void mark_view(Tensor& out, const Tensor& base, CreationMeta creation) {
  auto info = std::make_shared<ViewInfo>();
  const std::shared_ptr<ViewInfo>& parent = base.autograd().view;
  info->base = parent ? parent->base : base;
  if (!grad_enabled()) creation = CreationMeta::no_grad_mode;
  info->creation = parent && creation == CreationMeta::normal ? parent->creation : creation;
  info->attr_version = out.version();
  out.autograd().view = std::move(info);
}

}  // namespace

bool is_view(const Tensor& t) { return t.autograd().view != nullptr; }

Tensor view_base(const Tensor& t) {
  Tensor base = t.autograd().view->base;   // the handle kept when the view was made
  if (const auto& l = base.autograd().moved_layout) base.set_data(make_view(base, l->shape, l->strides, l->offset));
  return base;
}

bool base_requires_grad(const Tensor& view) { return view.autograd().view->base.requires_grad(); }

Tensor record_view(Tensor out, const Tensor& base, const char* name, Backward backward) {
  out = record(std::move(out), {&base}, name, std::move(backward));
  mark_view(out, base, CreationMeta::normal);
  return out;
}

std::vector<Tensor> record_multi_view(std::vector<Tensor> outs, const Tensor& base, const char* name, Backward backward) {
  outs = record_multi(std::move(outs), {&base}, name, std::move(backward));
  for (Tensor& t : outs) mark_view(t, base, CreationMeta::multi_output_node);
  return outs;
}

void refresh_view(const Tensor& t) {
  AutogradMeta& m = const_cast<AutogradMeta&>(t.autograd());   // every handle shares the record
  if (!m.view) return;
  ViewInfo& v = *m.view;
  if (!m.grad_fn && !v.base.requires_grad()) return;
  if (v.attr_version == t.version()) return;
  if (v.creation != CreationMeta::normal) throw TensorError(view_rebase_error(m, true));
  m.grad_fn = as_strided_node(view_base(t), t);
  m.output_nr = 0;
  m.requires_grad = true;
  v.attr_version = t.version();
}

namespace {

// check_inplace (VariableTypeUtils.h), once some input of the op requires grad in grad mode.
void refuse_inplace(const Tensor& self) {
  if (const std::shared_ptr<ViewInfo>& v = self.autograd().view) {
    if (v->creation != CreationMeta::normal) throw TensorError(view_rebase_error(self.autograd(), false));
    if (self.requires_grad() && v->base.is_leaf())
      throw TensorError("a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
  if (self.requires_grad() && self.is_leaf())
    throw TensorError("a leaf Variable that requires grad is being used in an in-place operation.");
}

// CopySlices::apply: the base's gradient copied, the view's part of it replaced by what the
// in-place op's backward makes of that part; the op's other inputs get theirs as it gives them.
// need_base: the base had a history to send its part to (should_compute_output(0)).
BackwardFn copy_slices_fn(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn, bool need_base) {
  return [b = geometry_of(base), v = geometry_of(view), fn = std::move(fn), need_base](const Grads& in) {
    Grads out(fn->next_.size());
    if (!in[0]) return out;
    if (!fn->fn_)
      throw TensorError(fmt::format("attn does not implement the derivative of {} (its forward op is supported, its backward "
                                    "is not yet)", fn->name()));
    Tensor storage = empty({min_storage_size(b.sizes, b.strides, 0)});   // new_empty_strided(base)
    Tensor result = make_view(storage, b.sizes, b.strides, 0);          // [base]
    copy_(result, *in[0]);
    Tensor slice = make_view(storage, v.sizes, v.strides, v.offset - b.offset);   // [view]
    Grads res = fn->fn_({slice.clone()});
    res.resize(out.size());
    for (size_t i = 0; i < res.size(); ++i) {
      if (!res[i] || (i == 0 && !need_base)) continue;
      if (i > 0) {
        out[i] = res[i];
        continue;
      }
      copy_(slice, res[0]->shape() == v.sizes ? *res[0] : sum_to(*res[0], v.sizes));
      out[0] = result;
    }
    return out;
  };
}

// rebase_history: self's record takes the op's node; for a view its base takes CopySlices over
// that node, and the view's grad_fn is remade onto it at once (as self.grad_fn() does there).
void rebase_history(Tensor& self, const Tensor& recorded) {
  const std::shared_ptr<Node>& fn = recorded.autograd().grad_fn;
  const bool view = is_view(self);
  Tensor target = view ? view_base(self) : self;
  std::shared_ptr<Node> node = fn;
  if (view) {
    node = std::make_shared<Node>("CopySlices", new_sequence_nr());
    node->next_.push_back(gradient_edge(target));
    node->input_shapes_.push_back(target.shape());
    for (size_t i = 1; i < fn->next_.size(); ++i) {
      node->next_.push_back(fn->next_[i]);
      node->input_shapes_.push_back(fn->input_shapes_[i]);
    }
    node->saves_tensors_ = fn->saves_tensors_;
    node->saved_ = fn->saved_;
    node->fn_ = copy_slices_fn(target, self, fn, node->next_[0].fn != nullptr);
  }
  AutogradMeta& m = target.autograd();
  // retain_grad() stays: moved to the new node (update_tensor_hooks_on_new_gradfn), but for a
  // base written through a view, where 1.13 leaves it on the old one
  const std::shared_ptr<LeafGrad> retained = m.grad_fn ? m.leaf : nullptr;
  if (retained && !view) {
    auto& old = m.grad_fn->pre_hooks_;   // register_hook's slot stays on the old node, as in 1.13
    old.erase(std::remove_if(old.begin(), old.end(), [&](const Node::PreHook& h) { return !h.hook && h.retain.lock() == retained; }),
              old.end());
  }
  m.grad_fn = node;
  m.output_nr = view ? 0 : recorded.autograd().output_nr;
  m.requires_grad = true;
  m.leaf = retained;
  if (retained && !view) node->pre_hooks_.push_back({m.output_nr, {}, retained});
  if (view) refresh_view(self);
}

}  // namespace

void check_inplace(const Tensor& self, bool others_require_grad) {
  if (grad_enabled() && (self.requires_grad() || others_require_grad)) refuse_inplace(self);
}

void in_place(Tensor& self, bool others_require_grad, const std::function<Tensor(const Tensor& before)>& write) {
  const bool grad = grad_enabled() && (self.requires_grad() || others_require_grad);
  if (grad) {
    refuse_inplace(self);
    refresh_view(self);
  }
  Tensor before = self;   // self's history now, apart from self's record: the write must not move it
  AutogradMeta snapshot = self.autograd();
  snapshot.view.reset();
  snapshot.owner.reset();
  before.new_variable(std::move(snapshot));
  const uint64_t version = self.version();
  const Tensor result = write(before);
  if (self.version() == version) self.mark_written();   // every in-place op moves the version on
  if (grad && result.autograd().grad_fn) rebase_history(self, result);
}

void in_place_view(Tensor& self, const std::function<Tensor(const Tensor& before)>& op, const char* name) {
  const bool grad = grad_enabled() && self.requires_grad();
  if (grad) {
    refuse_inplace(self);
    refresh_view(self);
  }
  Tensor before = self;   // self's history now, in a record of its own (as in_place's)
  AutogradMeta snapshot = self.autograd();
  snapshot.view.reset();
  snapshot.owner.reset();
  before.new_variable(std::move(snapshot));
  const Tensor moved = op(before);   // the same storage, the new layout; its node over before's history
  self.mark_written();
  self.set_data(moved);
  self.autograd().moved_layout = AutogradMeta::Layout{moved.shape(), moved.strides(), moved.offset()};
  if (!grad) return;
  rename(moved, name);
  AutogradMeta& m = self.autograd();
  m.grad_fn = moved.autograd().grad_fn;
  m.output_nr = 0;
  m.requires_grad = true;
  if (m.view) m.view->attr_version = self.version();   // its grad_fn is current: no AsStridedBackward0 remake
}

}  // namespace attn::core::autograd
