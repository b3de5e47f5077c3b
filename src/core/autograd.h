// core/autograd.h: the graph PyTorch's autograd records, and backward() over it, bit for bit.
//
// What it is: as torch/csrc/autograd. A forward op whose input requires grad gives its result a
// Node (with_grad): the grad_fn name PyTorch prints, one Edge per input to the node that made
// that input (or to the input's AccumulateGrad when it is a leaf), the inputs' shapes, and a
// backward function computing the inputs' gradients from the outputs' (each op's, beside its
// forward in core/ops/, in PyTorch 1.13's formulas and kernel order). backward()
// (autograd_engine.cpp) runs the nodes as PyTorch's engine does: latest-created first; a
// gradient for a broadcast input reduced by sum_to (ops/sum_to.h) before it is added; the
// gradients of an input used k times added in arrival order (`old + new`); a leaf's .grad set
// to the first gradient, then `+=`.
// docs/pytorch-numerics.md §12 gives the evidence.
// Grad mode (torch.no_grad, set_grad_enabled): a per-thread switch; while it is off, record()
// records nothing. py's interpreter keeps its own flag for `with torch.no_grad():` (RunState)
// and detaches results itself; it does not switch this one (yet).
// run_backward serves torch.autograd.backward and torch.autograd.grad (first order).
// Views and in-place ops (autograd_views.cpp) as PyTorch 1.13: a view op's result records its base
// (record_view: PyTorch's as_view); an in-place op goes through in_place(), which refuses what
// check_inplace refuses and then gives self the op's history, or, for a view, gives its base a
// CopySlices node and the view an AsStridedBackward0 onto it (rebase_history).
// Tensor hooks (register_hook) and retain_grad are the nodes' pre-hooks, in 1.13's order.
// What it is not: higher-order gradients (create_graph), module hooks, or view replay (view_fn: 1.13's
// default is off, so every remade view grad_fn is AsStridedBackward0).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace attn::core::autograd {

// One gradient per slot; nullopt where none flowed (PyTorch's undefined tensor: "zeros").
using Grads = std::vector<std::optional<Tensor>>;
// From the gradients of a node's outputs to those of its inputs (one per input, in order).
using BackwardFn = std::function<Grads(const Grads& grad_outputs)>;

// What a forward op hands with_grad: its backward, and whether that keeps tensors of the
// forward (then a second backward() without retain_graph=True raises, as PyTorch does).
// `saved` and `saves_result` name the tensors whose values fn reads (PyTorch's SavedVariables):
// backward() refuses to run fn when one was modified in place since (its version moved on).
struct Backward {
  BackwardFn fn;
  bool saves_tensors = true;
  std::vector<Tensor> saved = {};   // inputs (or other tensors) fn reads
  bool saves_result = false;      // fn reads the op's own result
};

namespace detail {
// b, naming the tensors its function reads (and whether it reads the op's result), so backward()
// can refuse to run it after an in-place change to one of them: the ops' backward factories'
// shorthand for filling Backward::saved and saves_result.
inline Backward reads(Backward b, std::vector<Tensor> saved, bool result = false) {
  b.saved = std::move(saved);
  b.saves_result = result;
  return b;
}
}  // namespace detail

// How a view was made (PyTorch's CreationMeta): what an in-place write through it may do.
enum class CreationMeta { normal, no_grad_mode, multi_output_node };

// A differentiable view's record (PyTorch's ViewInfo + DifferentiableViewMeta): `base` is a
// handle onto the root base (a view of a view records the first one's base) sharing the base's
// autograd record; `attr_version` the version at which the view's grad_fn was made.
struct ViewInfo {
  Tensor base;
  CreationMeta creation = CreationMeta::normal;
  uint64_t attr_version = 0;
};

// One saved tensor's version at the time the node was recorded (SavedVariable::saved_version_).
struct SavedVersion {
  std::shared_ptr<Storage> storage;
  std::shared_ptr<const uint64_t> counter;   // the saved handle's version counter (Tensor::version_counter)
  uint64_t version = 0;
  Shape shape;
  std::string grad_fn;            // the node that made it ("" for a leaf), for the message
  uint32_t output_nr = 0;
  // A saved input's variable: the message names its grad_fn at backward() time, as PyTorch's
  // SavedVariable does with the original tensor (an in-place write gave it a new one). Empty for
  // the op's own result, named by the node that saved it.
  std::weak_ptr<AutogradMeta> variable = {};
};

struct Edge {
  std::shared_ptr<Node> fn;   // null: that input needs no gradient
  uint32_t input_nr = 0;      // which of fn's outputs the gradient belongs to
};

// A tensor's gradient hook (Tensor.register_hook's slot): called with the gradient arriving for
// the tensor (nullopt: None), returns its replacement, or nullopt to keep it.
using TensorHook = std::function<std::optional<Tensor>(const std::optional<Tensor>&)>;

// A leaf's gradient, shared by every handle onto the leaf (AutogradMeta::leaf).
struct LeafGrad {
  std::optional<Tensor> grad;        // .grad; nullopt prints None
  std::vector<TensorHook> hooks;     // a leaf's hooks, run in order on its gradient before it is accumulated
  Shape strides;                     // the leaf's, when dense but not contiguous: .grad's layout
  std::weak_ptr<Node> accumulator;   // its AccumulateGrad while some graph holds it
};

class Node {
 public:
  Node(std::string name, uint64_t sequence_nr) : name_(std::move(name)), sequence_nr_(sequence_nr) {}
  // Frees the graph behind it without recursion (PyTorch's deleteNode): the nodes it alone holds,
  // through its edges or the tensors its backward saved, are freed one at a time by the outermost
  // ~Node, so a graph of any depth (a loss summed over 200,000 steps) frees in constant stack.
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const std::string& name() const { return name_; }   // "MmBackward0", "AccumulateGrad"
  void set_name(std::string name) { name_ = std::move(name); }
  uint64_t sequence_nr() const { return sequence_nr_; }   // creation order (engine priority)
  const std::vector<Edge>& next_edges() const { return next_; }

  std::vector<Edge> next_;                 // one per forward input
  std::vector<Shape> input_shapes_;        // the shape each input's gradient must have
  uint32_t num_outputs_ = 1;               // forward outputs (unbind, split: several)
  BackwardFn fn_;                          // empty: recorded for its name only
  bool saves_tensors_ = false;
  bool released_ = false;                  // its saved tensors were freed by a backward()
  std::vector<SavedVersion> saved_;        // checked before fn_ runs
  std::weak_ptr<LeafGrad> leaf_;           // AccumulateGrad: the leaf it writes to
  bool custom_ = false;                    // a torch.autograd.Function's (grad_fn class in torch.autograd.function)
  // PyTorch's pre_hooks, run in order on the gradient of output `output_nr` before fn_: a tensor's
  // register_hook slot (`hook`, which may replace the gradient), or retain_grad()'s copy of it into
  // the tensor's .grad (`retain`). 1.13 orders them by when each was first asked for.
  struct PreHook {
    uint32_t output_nr = 0;
    TensorHook hook;
    std::weak_ptr<LeafGrad> retain;
  };
  std::vector<PreHook> pre_hooks_;
  // The Python object a binding made for this node (PyTorch's pyobj_), so `t.grad_fn is t.grad_fn`;
  // not owned here (the object owns the node), and opaque to core.
  std::weak_ptr<void> py_object_;

 private:
  std::string name_;
  uint64_t sequence_nr_;
};

// The creation numbers of one session's nodes (PyTorch's thread-local sequence_nr): the engine
// runs nodes latest-created first, so only their order inside one graph matters. A session (py's
// Interpreter) owns one and installs it with SequenceScope while its code runs; ops recorded
// outside any scope (core's unit tests) count on a per-thread fallback, as PyTorch does.
struct SequenceCounter {
  uint64_t next = 0;
  uint64_t accumulators_shown = 0;   // AccumulateGrad objects given to Python so far (their made-up address)
};
// The next number of that count, from the session's counter (or this thread's fallback).
uint64_t next_accumulator_shown();
class SequenceScope {
 public:
  explicit SequenceScope(SequenceCounter& counter);
  ~SequenceScope();
  SequenceScope(const SequenceScope&) = delete;
  SequenceScope& operator=(const SequenceScope&) = delete;

 private:
  SequenceCounter* saved_;
};

// ---- grad mode: torch.is_grad_enabled / set_grad_enabled / no_grad ----
// On by default, per thread (as PyTorch's GradMode). While off, record() and record_multi()
// (and so with_grad and every op) return their results as plain tensors, no grad_fn and
// requires_grad false, as PyTorch's ops do under torch.no_grad(); backward() still runs.
bool grad_enabled();
void set_grad_enabled(bool enabled);   // the function form: stays until set again

// The mode for one scope, then the mode it found: `GradModeGuard no_grad(false);` is
// `with torch.no_grad():`, `GradModeGuard on(true)` is `with torch.enable_grad():`. Nests.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled);
  ~GradModeGuard();
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

// The edge a gradient for t follows (PyTorch's impl::gradient_edge): its grad_fn (a view's remade
// first), its leaf's AccumulateGrad, or none.
Edge gradient_edge(const Tensor& t);
uint64_t new_sequence_nr();   // the next creation number of the session recording now

// with_grad with a backward function: the result of an op on `inputs` (see tensor.h).
Tensor record(Tensor out, const std::vector<const Tensor*>& inputs, const char* name, Backward backward);
// Several outputs of one node (unbind, split, chunk): output k gets output_nr k.
std::vector<Tensor> record_multi(std::vector<Tensor> outs, const std::vector<const Tensor*>& inputs,
                                 const char* name, Backward backward);

// record() for a view op: `out` shares `base`'s storage and becomes a view of base's root base
// (`_base`, `_is_view()`), also under no_grad (then an in-place write through it with grad mode on
// is refused, as PyTorch's NO_GRAD_MODE views are).
Tensor record_view(Tensor out, const Tensor& base, const char* name, Backward backward);
// record_multi() for ops returning several views (unbind, split, chunk): in-place writes through
// them are refused (MULTI_OUTPUT_NODE).
std::vector<Tensor> record_multi_view(std::vector<Tensor> outs, const Tensor& base, const char* name, Backward backward);
// Whether t was made by a view op (PyTorch's _is_view()); its root base is view_base(t), in the
// layout the base has now (after a t_() or transpose_() on it, that one).
bool is_view(const Tensor& t);
Tensor view_base(const Tensor& t);

// An in-place op on self: PyTorch's check_inplace (a leaf, or a view of a leaf, that requires grad;
// a view made under no_grad or by a multi-output op), then `write` writes into self and returns
// the op's result as an out-of-place op records it, over `before` (a handle on self's history
// before the write: pass it to record() as self's input); self (or, for a view, its base through
// CopySlices) then takes that history. `others_require_grad`: an operand besides self does.
void in_place(Tensor& self, bool others_require_grad, const std::function<Tensor(const Tensor& before)>& write);
// A view op in place (transpose_, t_): self takes the layout `op` gives a handle on its history
// (an out-of-place view op over the same storage) and, in grad mode, that op's node renamed `name`
// (TransposeBackward1) over its previous history: PyTorch's in-place view ops, no CopySlices (the
// base is not written), the version moved on, check_inplace's refusals, a retained .grad left on
// the previous node as 1.13 leaves it.
void in_place_view(Tensor& self, const std::function<Tensor(const Tensor& before)>& op, const char* name);
// The leaf checks of in_place alone, for writes autograd cannot record (uniform_, normal_).
void check_inplace(const Tensor& self, bool others_require_grad);

// Gives t's grad_fn the name PyTorch prints when attn records the same gradient as a chain of
// other nodes (nn.Linear: matmul and add, printed as AddmmBackward0). Nothing when t is a leaf.
void rename(const Tensor& t, const char* name);


// tensor.backward(gradient=None, retain_graph=None): PyTorch's checks and messages
// (TensorError), then the gradients flow into the leaves' .grad.
void backward(const Tensor& root, const std::optional<Tensor>& gradient, bool retain_graph);

// torch.autograd.backward / torch.autograd.grad: the engine from several roots, each seeded with
// its gradient (nullopt: ones, for a scalar), with PyTorch's checks and messages. With `inputs`
// (autograd.grad) only the nodes leading to them run, no .grad changes, and the result holds the
// gradient arriving at each input (a leaf's would-be .grad; a non-leaf's grad_fn slot), nullopt
// where none arrived; without, the leaves' .grad accumulate and the result is empty.
Grads run_backward(const std::vector<Tensor>& roots, const Grads& gradients, bool retain_graph,
                   const std::vector<Tensor>& inputs);
// The engine itself over edges: seeds[k] flows into starts[k]; capture as above.
Grads run_graph(const std::vector<Edge>& starts, const std::vector<Tensor>& seeds, bool retain_graph,
                const std::vector<Edge>& capture);

// tensor.register_hook's slot: `hook` sees (and may replace) every gradient computed for t from
// now on: a non-leaf's as a pre-hook of its grad_fn (after the hooks and retain_grad asked for
// before), a leaf's before it is accumulated into .grad. t requires grad (the caller checks).
void add_hook(const Tensor& t, TensorHook hook);

// tensor.retain_grad(): a non-leaf's .grad is filled by backward() (its node's incoming gradient,
// then `.grad + new` on later calls), a pre-hook after the hooks registered before it; nothing for
// a leaf, whose .grad always is.
void retain_grad(const Tensor& t);
bool retains_grad(const Tensor& t);   // tensor.retains_grad: a non-leaf retain_grad() was called on

// A leaf's .grad (nullopt: None). For a non-leaf nullopt unless retain_grad() was called.
std::optional<Tensor> grad(const Tensor& t);
void set_grad(const Tensor& t, std::optional<Tensor> g);   // x.grad = None / a tensor

}  // namespace attn::core::autograd
