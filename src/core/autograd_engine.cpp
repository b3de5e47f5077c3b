// core/autograd_engine.cpp: recording nodes (with_grad, record), grad mode, and running backward().
//
// What it is: torch/csrc/autograd/engine.cpp's order on one thread. Nodes run in decreasing
// sequence_nr (creation order; AccumulateGrad first as soon as it is ready), a node runs when
// every consumer inside this backward has delivered, a gradient whose shape is the broadcast
// one is reduced with sum_to before it is stored (validate_outputs), the first gradient for a
// slot is stored as is and each later one is added as `old + new` (InputBuffer::add), and a
// leaf's .grad is the (contiguous) first gradient, then `.grad += new` (AccumulateGrad).
// Checked against torch in docs/pytorch-numerics.md §12 (order of accumulation).
// What it is not: the backward formulas (each op's, in core/ops/) or the reduction (ops/sum_to.cpp).
#include <fmt/format.h>

#include <map>
#include <queue>
#include <set>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/binary.h"
#include "core/ops/inplace.h"
#include "core/ops/sum_to.h"

namespace attn::core {

namespace {

// The counter of the session recording now (SequenceScope), else this thread's own.
thread_local autograd::SequenceCounter* t_counter = nullptr;

thread_local bool t_grad_enabled = true;   // grad mode (autograd.h), per thread as in PyTorch

autograd::SequenceCounter& current_counter() {
  thread_local autograd::SequenceCounter fallback;
  return t_counter ? *t_counter : fallback;
}

uint64_t next_sequence_nr() { return current_counter().next++; }

constexpr uint64_t kAccumulateSeq = UINT64_MAX;   // AccumulateGrad runs as soon as it is ready

// The edge a gradient for `t` follows: its grad_fn, its leaf's AccumulateGrad, or none.
autograd::Edge edge_of(const Tensor& t) {
  autograd::refresh_view(t);   // a view written through since: its grad_fn remade first
  const AutogradMeta& m = t.autograd();
  if (!m.requires_grad) return {};
  if (m.grad_fn) return {m.grad_fn, m.output_nr};
  if (!m.leaf) return {};   // requires_grad without a slot cannot happen through set_requires_grad
  std::shared_ptr<autograd::Node> acc = m.leaf->accumulator.lock();
  if (!acc) {
    acc = std::make_shared<autograd::Node>("AccumulateGrad", kAccumulateSeq);
    acc->leaf_ = m.leaf;
    m.leaf->accumulator = acc;
  }
  return {acc, 0};
}

std::shared_ptr<autograd::Node> make_node(const char* name, const std::vector<const Tensor*>& inputs,
                                          autograd::Backward backward) {
  auto node = std::make_shared<autograd::Node>(name, next_sequence_nr());
  for (const Tensor* in : inputs) {
    node->next_.push_back(edge_of(*in));
    node->input_shapes_.push_back(in->shape());
  }
  node->fn_ = std::move(backward.fn);
  node->saves_tensors_ = backward.saves_tensors;
  for (const Tensor& t : backward.saved) {
    if (!t.storage()) continue;
    // A view that requires grad has its grad_fn remade (AsStridedBackward0) by the write that moves
    // its version, as PyTorch's does when the message asks for it; any other tensor: its grad_fn then.
    const AutogradMeta& m = t.autograd();
    const bool view = m.view && m.view->creation == autograd::CreationMeta::normal && t.requires_grad();
    node->saved_.push_back({t.storage(), t.version_counter(), t.version(), t.shape(), view ? "AsStridedBackward0" : t.grad_fn(), m.output_nr,
                            view ? std::weak_ptr<AutogradMeta>() : t.autograd_ptr()});
  }
  return node;
}

bool any_requires_grad(const std::vector<const Tensor*>& inputs) {
  for (const Tensor* in : inputs)
    if (in->requires_grad()) return true;
  return false;
}

}  // namespace

const std::string& Tensor::grad_fn() const {
  static const std::string none;
  autograd::refresh_view(*this);
  return autograd_->grad_fn ? autograd_->grad_fn->name() : none;
}

void autograd::result_moved(const Tensor& t, const std::shared_ptr<Storage>& from) {
  if (!t.autograd().grad_fn) return;
  for (autograd::SavedVersion& s : t.autograd().grad_fn->saved_)
    if (s.storage == from) {
      s.storage = t.storage();
      s.counter = t.version_counter();
      s.version = t.version();
    }
}

void Tensor::set_requires_grad(bool on) {
  AutogradMeta& m = *autograd_;
  m.requires_grad = on;
  if (on && !m.grad_fn && !m.leaf) {
    m.leaf = std::make_shared<autograd::LeafGrad>();
    if (!contiguous_ && dense_layout(shape_, strides_)) m.leaf->strides = strides_;   // .grad follows (AccumulateGrad)
  }
  if (!on) m.leaf.reset();
}

Tensor with_grad(Tensor out, const std::vector<const Tensor*>& inputs, const char* grad_fn) {
  return autograd::record(std::move(out), inputs, grad_fn, {});
}

namespace autograd {

namespace {
// What the outermost ~Node still has to free: the edges and backward functions (whose saved
// tensors hold further nodes) of the nodes freed inside it. Null while no ~Node runs.
struct PendingFrees {
  std::vector<std::shared_ptr<Node>> nodes;
  std::vector<BackwardFn> fns;
};
thread_local PendingFrees* t_pending = nullptr;
}  // namespace

Node::~Node() {
  const bool outermost = t_pending == nullptr;
  PendingFrees local;
  if (outermost) t_pending = &local;
  for (Edge& e : next_)
    if (e.fn) t_pending->nodes.push_back(std::move(e.fn));
  if (fn_) t_pending->fns.push_back(std::move(fn_));
  if (!outermost) return;   // the outermost ~Node's loop frees what this one held
  while (!local.nodes.empty() || !local.fns.empty()) {
    if (!local.fns.empty()) {
      BackwardFn f = std::move(local.fns.back());
      local.fns.pop_back();
      f = nullptr;   // its saved tensors' nodes queue themselves here
    } else {
      std::shared_ptr<Node> n = std::move(local.nodes.back());
      local.nodes.pop_back();
      n.reset();
    }
  }
  t_pending = nullptr;
}

uint64_t next_accumulator_shown() { return current_counter().accumulators_shown++; }

Edge gradient_edge(const Tensor& t) { return edge_of(t); }
uint64_t new_sequence_nr() { return next_sequence_nr(); }

SequenceScope::SequenceScope(SequenceCounter& counter) : saved_(t_counter) { t_counter = &counter; }
SequenceScope::~SequenceScope() { t_counter = saved_; }

bool grad_enabled() { return t_grad_enabled; }
void set_grad_enabled(bool enabled) { t_grad_enabled = enabled; }

GradModeGuard::GradModeGuard(bool enabled) : previous_(t_grad_enabled) { t_grad_enabled = enabled; }
GradModeGuard::~GradModeGuard() { t_grad_enabled = previous_; }

Tensor record(Tensor out, const std::vector<const Tensor*>& inputs, const char* name, Backward backward) {
  out.new_variable();   // the result is a new variable, whatever handle it was made from
  AutogradMeta& m = out.autograd();
  if (!t_grad_enabled || !out.is_float() || !any_requires_grad(inputs)) return out;
  m.requires_grad = true;
  const bool saves_result = backward.saves_result;
  m.grad_fn = make_node(name, inputs, std::move(backward));
  if (saves_result && out.storage()) m.grad_fn->saved_.push_back({out.storage(), out.version_counter(), out.version(), out.shape(), name, 0});
  return out;
}

std::vector<Tensor> record_multi(std::vector<Tensor> outs, const std::vector<const Tensor*>& inputs,
                                 const char* name, Backward backward) {
  const bool grad = t_grad_enabled && !outs.empty() && outs.front().is_float() && any_requires_grad(inputs);
  std::shared_ptr<Node> node;
  if (grad) {
    node = make_node(name, inputs, std::move(backward));
    node->num_outputs_ = static_cast<uint32_t>(outs.size());
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    outs[k].new_variable();
    AutogradMeta& m = outs[k].autograd();
    if (!grad) continue;
    m.requires_grad = true;
    m.grad_fn = node;
    m.output_nr = static_cast<uint32_t>(k);
  }
  return outs;
}

void rename(const Tensor& t, const char* name) {
  if (t.autograd().grad_fn) t.autograd().grad_fn->set_name(name);
}

void retain_grad(const Tensor& t) {
  AutogradMeta& m = const_cast<Tensor&>(t).autograd();   // a handle copy shares the slot it makes
  if (!m.grad_fn || m.leaf) return;                       // a leaf, or already retained
  m.leaf = std::make_shared<LeafGrad>();
  m.grad_fn->pre_hooks_.push_back({m.output_nr, {}, m.leaf});
}

void add_hook(const Tensor& t, TensorHook hook) {
  AutogradMeta& m = const_cast<Tensor&>(t).autograd();
  if (m.grad_fn) m.grad_fn->pre_hooks_.push_back({m.output_nr, std::move(hook), {}});
  else if (m.leaf) m.leaf->hooks.push_back(std::move(hook));
}

bool retains_grad(const Tensor& t) {
  const AutogradMeta& m = t.autograd();
  return m.grad_fn && m.leaf;
}

std::optional<Tensor> grad(const Tensor& t) {
  const AutogradMeta& m = t.autograd();
  if (!m.leaf) return std::nullopt;
  return m.leaf->grad;
}

void set_grad(const Tensor& t, std::optional<Tensor> g) {
  const AutogradMeta& m = t.autograd();
  if (g && g->dtype() != t.dtype()) throw TensorError("assigned grad has data of a different type");
  if (g && g->shape() != t.shape())
    throw TensorError(fmt::format("assigned grad has data of a different size"));
  if (m.leaf) m.leaf->grad = std::move(g);
}

}  // namespace autograd

namespace {

using autograd::Edge;
using autograd::Grads;
using autograd::Node;

std::string size_repr(const Shape& s) {
  return s.size() == 1 ? fmt::format("torch.Size([{}])", s[0]) : fmt::format("torch.Size([{}])", fmt::join(s, ", "));
}

// A gradient node n returned for its input `index`, which has `shape` (validate_outputs): summed
// down to it when the input broadcasts to the gradient's shape, else PyTorch's error.
Tensor fit(Tensor g, const Shape& shape, const Node& n, size_t index) {
  if (g.shape() == shape) return g;
  bool expandable = shape.size() <= g.shape().size();
  for (size_t d = 0; expandable && d < shape.size(); ++d) {
    const int64_t have = shape[shape.size() - 1 - d], want = g.shape()[g.shape().size() - 1 - d];
    expandable = have == want || have == 1;
  }
  if (!expandable)
    throw TensorError(fmt::format("Function {} returned an invalid gradient at index {} - got {} but expected shape compatible with {}",
                                  n.name(), index, shape_str(g.shape()), shape_str(shape)));
  return autograd::sum_to(g, shape);
}

void accumulate_into(const std::shared_ptr<autograd::LeafGrad>& leaf, const Tensor& g) {
  if (!leaf->grad) {
    leaf->grad = detach(g).clone();   // an owned, contiguous copy: later `+=` must not alias
    // clone_obey_contract: the gradient of a dense non-contiguous leaf takes the leaf's strides.
    if (!leaf->strides.empty() && leaf->strides.size() == g.shape().size()) leaf->grad = relayout(*leaf->grad, leaf->strides);
    return;
  }
  binary_(BinOp::add, *leaf->grad, g);   // variable_grad += new_grad
}

// AccumulateGrad's steal (torch/csrc/autograd/functions/accumulate_grad.h): a first gradient
// that is dense, contiguous in the leaf's layout and held by nothing else (only this reference
// to its storage) becomes .grad itself instead of being copied (a GPT-2 block's 7 million
// weight gradients, 28 MB a step). A later `+=` writes into it, which no one else can see.
bool can_steal(const autograd::LeafGrad& leaf, const Tensor& g) {
  const std::shared_ptr<Storage>& s = g.storage();
  return !leaf.grad && s && s.use_count() == 1 && g.is_contiguous() && g.offset() == 0 && s->size() == g.numel() &&
         (leaf.strides.empty() || leaf.strides == g.strides());
}

// AccumulateGrad: the leaf's hooks in order (each may replace the gradient), then .grad, stolen
// when nothing else holds the gradient (a hook that kept it makes a copy, as in PyTorch).
void accumulate_leaf(Node& acc, Tensor g) {
  std::shared_ptr<autograd::LeafGrad> leaf = acc.leaf_.lock();
  if (!leaf) return;   // the leaf is gone: nobody can read its gradient
  const std::vector<autograd::TensorHook> hooks = leaf->hooks;   // a hook may register another
  for (const autograd::TensorHook& hook : hooks)
    if (std::optional<Tensor> r = hook(g)) g = *r;
  if (can_steal(*leaf, g)) leaf->grad = detach(g);
  else accumulate_into(leaf, g);
}

// The node's pre-hooks on its incoming gradients, before it runs: register_hook's slots (which may
// replace a gradient) and retain_grad's copies, in the order they were asked for.
void run_pre_hooks(const Node& n, Grads& in) {
  const std::vector<Node::PreHook> hooks = n.pre_hooks_;   // a hook may register another
  for (const Node::PreHook& h : hooks) {
    if (h.output_nr >= in.size()) continue;
    std::optional<Tensor>& g = in[h.output_nr];
    if (h.hook) {
      if (std::optional<Tensor> r = h.hook(g)) g = std::move(r);
    } else if (std::shared_ptr<autograd::LeafGrad> leaf = h.retain.lock(); leaf && g) {
      accumulate_into(leaf, *g);
    }
  }
}

// The consumers of each node reachable from `root`, counted per node (engine's dependencies),
// added to `deps`; `seen` holds the nodes already walked (from this or an earlier root).
void count_dependencies(const std::shared_ptr<Node>& root, std::map<const Node*, int>& deps,
                        std::set<const Node*>& seen) {
  std::vector<const Node*> stack{root.get()};
  seen.insert(root.get());
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    for (const autograd::Edge& e : n->next_) {
      if (!e.fn) continue;
      ++deps[e.fn.get()];
      if (seen.insert(e.fn.get()).second) stack.push_back(e.fn.get());
    }
  }
}

const char* const kSecondTime =
    "Trying to backward through the graph a second time (or directly access saved tensors after they have already "
    "been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). "
    "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access "
    "saved tensors after calling backward.";

// SavedVariable::unpack's check: a tensor the node reads was modified in place after it was saved.
void check_saved(const Node& n) {
  for (const autograd::SavedVersion& s : n.saved_) {
    if (*s.counter == s.version) continue;
    std::string name = s.grad_fn;
    if (std::shared_ptr<AutogradMeta> v = s.variable.lock()) name = v->grad_fn ? v->grad_fn->name() : "";   // its grad_fn now
    const std::string type = s.storage->dtype() == DType::boolean ? "CPUBoolType" : tensor_type_name(s.storage->dtype());
    throw TensorError(fmt::format(
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        "[{} {}]{} is at version {}; expected version {} instead. Hint: enable anomaly detection to "
        "find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).",
        type, shape_str(s.shape),
        name.empty() ? "" : fmt::format(", which is output {} of {},", s.output_nr, name == "CopySlices" ? "torch::autograd::CopySlices" : name),
        *s.counter, s.version));
  }
}

// Runs one node: its output gradients in, its inputs' gradients out.
Grads run_node(Node& n, const Grads& in, bool retain_graph) {
  if (n.released_) throw TensorError(kSecondTime);
  check_saved(n);
  if (!n.fn_)
    throw TensorError(fmt::format("attn does not implement the derivative of {} (its forward op is supported, "
                                  "its backward is not yet)", n.name()));
  Grads out = n.fn_(in);
  if (!retain_graph && n.saves_tensors_) {
    n.fn_ = nullptr;   // frees the saved tensors, as release_variables() does
    n.saved_.clear();
    n.released_ = true;
  }
  return out;
}

}  // namespace

namespace {

// The nodes from which some capture target can be reached (PyTorch's exec_info for
// autograd.grad): only they run; the targets themselves are in it when they lead to another.
std::set<const Node*> needed_nodes(const std::vector<Edge>& roots, const std::vector<Edge>& capture) {
  std::set<const Node*> targets;
  for (const Edge& c : capture)
    if (c.fn) targets.insert(c.fn.get());
  std::map<const Node*, bool> memo;   // iterative post-order: does n reach a target through an edge?
  std::vector<std::pair<const Node*, size_t>> stack;
  for (const Edge& r : roots) {
    if (!r.fn || memo.count(r.fn.get())) continue;
    memo[r.fn.get()] = false;
    stack.emplace_back(r.fn.get(), 0);
    while (!stack.empty()) {
      auto& top = stack.back();
      const Node* n = top.first;
      if (top.second < n->next_.size()) {
        const Node* m = n->next_[top.second++].fn.get();
        if (m && !memo.count(m)) {
          memo[m] = false;
          stack.emplace_back(m, 0);
        }
        continue;
      }
      bool reaches = false;
      for (const Edge& e : n->next_)
        if (e.fn && (targets.count(e.fn.get()) || memo[e.fn.get()])) reaches = true;
      memo[n] = reaches;
      stack.pop_back();
    }
  }
  std::set<const Node*> out;
  for (const auto& [n, reaches] : memo)
    if (reaches) out.insert(n);
  return out;
}

// The gradient each capture edge's node holds in its slot when the node is ready (a copy
// of its input buffer before it runs: the engine's captured_vars_).
void capture_from(const Node* n, const Grads& in, const std::vector<Edge>& capture, Grads& captured) {
  for (size_t i = 0; i < capture.size(); ++i)
    if (capture[i].fn.get() == n && capture[i].input_nr < in.size() && in[capture[i].input_nr])
      captured[i] = in[capture[i].input_nr];
}

// The seed of root k (PyTorch's _make_grads): the given gradient, checked against the root's
// shape, or ones for a scalar that requires grad; nullopt for a root that does not (the engine
// then names it).
std::optional<Tensor> root_gradient(const Tensor& root, const std::optional<Tensor>& gradient, size_t k) {
  if (gradient) {
    if (gradient->shape() != root.shape())
      throw TensorError(fmt::format("Mismatch in shape: grad_output[{}] has a shape of {} and output[{}] has a shape of {}.",
                                    k, size_repr(gradient->shape()), k, size_repr(root.shape())));
    return to_float(*gradient);
  }
  if (!root.requires_grad()) return std::nullopt;
  if (root.numel() != 1) throw TensorError("grad can be implicitly created only for scalar outputs");
  return ones(root.shape());
}

}  // namespace

autograd::Grads autograd::run_backward(const std::vector<Tensor>& roots, const Grads& gradients, bool retain_graph,
                                        const std::vector<Tensor>& inputs) {
  std::vector<std::optional<Tensor>> given;
  for (size_t k = 0; k < roots.size(); ++k) given.push_back(root_gradient(roots[k], k < gradients.size() ? gradients[k] : std::nullopt, k));
  std::vector<Edge> starts;
  std::vector<Tensor> seeds;
  for (size_t k = 0; k < roots.size(); ++k) {
    if (!roots[k].requires_grad())
      throw TensorError(fmt::format("element {} of tensors does not require grad and does not have a grad_fn", k));
    starts.push_back(edge_of(roots[k]));
    seeds.push_back(*given[k]);
  }
  std::vector<Edge> capture;
  for (const Tensor& t : inputs) {
    if (!t.requires_grad()) throw TensorError("One of the differentiated Tensors does not require grad");
    capture.push_back(edge_of(t));
  }
  return run_graph(starts, seeds, retain_graph, capture);
}

void autograd::backward(const Tensor& root, const std::optional<Tensor>& gradient, bool retain_graph) {
  run_backward({root}, {gradient}, retain_graph, {});
}

namespace {

// The engine: the roots' gradients into their nodes' buffers (GraphRoot), then nodes latest-created
// first. With capture edges (autograd.grad) only the nodes leading to them run, no leaf's .grad
// changes, and the gradients arriving at those edges are returned.
Grads run_graph_impl(const std::vector<Edge>& starts, const std::vector<Tensor>& seeds, bool retain_graph,
                     const std::vector<Edge>& capture) {
  const bool capturing = !capture.empty();
  const std::set<const Node*> needed = capturing ? needed_nodes(starts, capture) : std::set<const Node*>{};
  std::map<const Node*, int> deps;
  std::set<const Node*> counted;
  for (const Edge& s : starts)
    if (counted.insert(s.fn.get()).second) count_dependencies(s.fn, deps, counted);
  std::map<const Node*, Grads> buffers;
  auto cmp = [](const std::shared_ptr<Node>& a, const std::shared_ptr<Node>& b) { return a->sequence_nr() < b->sequence_nr(); };
  std::priority_queue<std::shared_ptr<Node>, std::vector<std::shared_ptr<Node>>, decltype(cmp)> ready(cmp);
  std::set<const Node*> pushed;
  for (size_t k = 0; k < starts.size(); ++k) {
    Grads& buf = buffers[starts[k].fn.get()];
    buf.resize(starts[k].fn->num_outputs_);
    std::optional<Tensor>& slot = buf[starts[k].input_nr];
    slot = slot ? binary(BinOp::add, *slot, seeds[k]) : seeds[k];
  }
  for (const Edge& s : starts)
    if (deps[s.fn.get()] == 0 && pushed.insert(s.fn.get()).second) ready.push(s.fn);
  Grads captured(capture.size());
  while (!ready.empty()) {
    check_deadline();
    std::shared_ptr<Node> n = ready.top();
    ready.pop();
    Grads in = std::move(buffers[n.get()]);
    buffers.erase(n.get());
    in.resize(n->num_outputs_);
    if (capturing) {
      capture_from(n.get(), in, capture, captured);
      if (!needed.count(n.get())) continue;
    }
    if (n->name() == "AccumulateGrad") {
      if (in[0]) accumulate_leaf(*n, std::move(*in[0]));   // moved: the steal sees one owner
      continue;
    }
    run_pre_hooks(*n, in);
    bool any = false;
    for (const auto& x : in) any = any || x.has_value();
    Grads out = any ? run_node(*n, in, retain_graph) : Grads(n->next_.size());
    out.resize(n->next_.size());
    for (size_t i = 0; i < n->next_.size(); ++i) {
      const Edge& e = n->next_[i];
      if (!e.fn) continue;
      if (out[i]) {
        Grads& buf = buffers[e.fn.get()];
        buf.resize(e.fn->num_outputs_);
        Tensor gi = fit(*out[i], n->input_shapes_[i], *n, i);
        std::optional<Tensor>& slot = buf[e.input_nr];
        slot = slot ? binary(BinOp::add, *slot, gi) : gi;   // InputBuffer::add: old + new
      }
      if (--deps[e.fn.get()] == 0) ready.push(e.fn);
    }
  }
  return captured;
}

}  // namespace

autograd::Grads autograd::run_graph(const std::vector<Edge>& starts, const std::vector<Tensor>& seeds,
                                     bool retain_graph, const std::vector<Edge>& capture) {
  return run_graph_impl(starts, seeds, retain_graph, capture);
}

}  // namespace attn::core
