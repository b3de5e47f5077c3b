// torch/grad_fn.cpp: `tensor.grad_fn` as a Python object: its repr `<MulBackward0 object at 0x...>`,
// `<torch.autograd.function.MyReLUBackward object at 0x...>` for a custom Function's node),
// `type(fn).__name__` and `fn.name()` (the node's name; "torch::autograd::AccumulateGrad" for a
// leaf's), `fn.next_functions` (a tuple of
// `(node or None, input_nr)` pairs, AccumulateGrad for leaves), as PyTorch 1.13 shows them.
//
// What it is: a read-only view of core/autograd.h's graph. A node's object is made when it is first
// read and kept with the node (Node::py_object_, weakly), so `t.grad_fn is t.grad_fn` and a shared
// subgraph is one object, as in PyTorch; `next_functions` is made when it is read, one level at a
// time, so reading `.grad_fn` of the end of a 100,000-op graph costs one object, not the graph (and
// no recursion). The address in the repr is made up and deterministic: 0x7f0000000000 + 0x40 * the
// node's creation number (AccumulateGrad: from 0x7f8000000000, in the order the session first shows them); PyTorch prints a
// heap address that changes every run, so no lesson or test compares it.
// What it is not: hooks (register_hook), saved tensors (_saved_self), or calling a node.
#include <fmt/format.h>


#include "core/autograd.h"
#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::torch {

namespace {

using core::autograd::Node;

Value instance_value(std::shared_ptr<InstanceObj> o) { return Value::of_instance(std::move(o)); }

Value node_value(const std::shared_ptr<Node>& n);

// `fn.next_functions`: one (node or None, input_nr) pair per input of n.
Value next_functions(const Node& n, const std::string& name) {
  std::vector<Value> next;
  for (const core::autograd::Edge& e : n.next_edges()) next.push_back(Value::tuple({node_value(e.fn), Value::integer(e.input_nr)}));
  // `x * 2`, `x / 2`, `x + 1`, `x - 1` (and dropout's `x * noise`): PyTorch wraps the number (or
  // the mask) as a second input that needs no gradient.
  static const char* const kTwoInputs[] = {"MulBackward0", "DivBackward0", "AddBackward0", "SubBackward0"};
  for (const char* two : kTwoInputs)
    if (name == two && next.size() == 1) next.push_back(Value::tuple({Value::none(), Value::integer(0)}));
  return Value::tuple(next);
}

// The node's object: the one already made for it, or a new one, kept with the node (weakly).
Value node_value(const std::shared_ptr<Node>& n) {
  if (!n) return Value::none();
  if (auto made = std::static_pointer_cast<InstanceObj>(n->py_object_.lock())) return instance_value(made);
  const bool acc = n->name() == "AccumulateGrad";
  const uint64_t address = acc ? 0x7f8000000000ULL + 0x40 * core::autograd::next_accumulator_shown() : 0x7f0000000000ULL + 0x40 * n->sequence_nr();
  py::ClassPtr cls = py::make_native_class(n->name(), n->custom_ ? "torch.autograd.function" : "torch.autograd.graph");
  const std::string repr = fmt::format("<{}{} object at 0x{:x}>", n->custom_ ? "torch.autograd.function." : "", n->name(), address);
  cls->slots.repr = [repr](Interpreter&, const Value&) { return repr; };
  const std::string name = acc ? "torch::autograd::AccumulateGrad"   // 1.13's name() of these three
                           : n->name() == "CopySlices" || n->name() == "CopyBackwards" ? "torch::autograd::" + n->name() : n->name();
  // The object owns its node (as PyTorch's does); the node knows the object only weakly.
  cls->slots.getattr = [n, name](Interpreter&, const Value&, const std::string& attr) -> std::optional<Value> {
    if (attr == "next_functions") return next_functions(*n, name);
    return std::nullopt;
  };
  auto o = std::make_shared<InstanceObj>();
  o->cls = cls;
  o->set("name", builtin(name + ".name", [name](Interpreter&, CallArgs& a) {
           if (!a.pos.empty() || !a.kw.empty()) throw TypeError("name() takes no arguments");
           return Value::str(name);
         }));
  n->py_object_ = o;
  return instance_value(o);
}

}  // namespace

Value grad_fn_value(const core::Tensor& t) {
  core::autograd::refresh_view(t);   // a view written through since: AsStridedBackward0, as PyTorch's
  const core::AutogradMeta& m = t.autograd();
  if (!m.grad_fn) return Value::none();
  return node_value(m.grad_fn);
}

}  // namespace attn::torch
