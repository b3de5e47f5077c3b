// torch/grad_fn.cpp: `tensor.grad_fn` as a Python object: its repr `<MulBackward0 object at 0x...>`,
// `<torch.autograd.function.MyReLUBackward object at 0x...>` for a custom Function's node),
// `type(fn).__name__` and `fn.name()` (the node's name; "torch::autograd::AccumulateGrad" for a
// leaf's), `fn.next_functions` (a tuple of
// `(node or None, input_nr)` pairs, AccumulateGrad for leaves), as PyTorch 1.13 shows them.
//
// What it is: a read-only view of core/autograd.h's graph, built when `.grad_fn` is read (the
// reachable nodes once each, so a shared subgraph is one object). The address in the repr is made
// up and deterministic: 0x7f0000000000 + 0x40 * the node's creation number (AccumulateGrad: from
// 0x7f8000000000, in the order met); PyTorch prints a heap address that changes every run, so no
// lesson or test compares it.
// What it is not: hooks (register_hook), saved tensors (_saved_self), or calling a node.
#include <fmt/format.h>

#include <map>

#include "core/autograd.h"
#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::torch {

namespace {

using core::autograd::Node;

Value instance_value(std::shared_ptr<InstanceObj> o) { return Value::of_instance(std::move(o)); }

struct Builder {
  std::map<const Node*, Value> made;
  uint64_t accumulators = 0;

  Value of(const std::shared_ptr<Node>& n) {
    if (!n) return Value::none();
    auto it = made.find(n.get());
    if (it != made.end()) return it->second;
    const bool acc = n->name() == "AccumulateGrad";
    const uint64_t address = acc ? 0x7f8000000000ULL + 0x40 * accumulators++ : 0x7f0000000000ULL + 0x40 * n->sequence_nr();
    py::ClassPtr cls = py::make_native_class(n->name(), n->custom_ ? "torch.autograd.function" : "torch.autograd.graph");
    const std::string repr = fmt::format("<{}{} object at 0x{:x}>", n->custom_ ? "torch.autograd.function." : "", n->name(), address);
    cls->slots.repr = [repr](Interpreter&, const Value&) { return repr; };
    auto o = std::make_shared<InstanceObj>();
    o->cls = cls;
    const std::string name = acc ? "torch::autograd::AccumulateGrad"   // 1.13's name() of these three
                             : n->name() == "CopySlices" || n->name() == "CopyBackwards" ? "torch::autograd::" + n->name() : n->name();
    o->set("name", builtin(name + ".name", [name](Interpreter&, CallArgs& a) {
             if (!a.pos.empty() || !a.kw.empty()) throw TypeError("name() takes no arguments");
             return Value::str(name);
           }));
    Value v = instance_value(o);
    made.emplace(n.get(), v);
    std::vector<Value> next;
    for (const core::autograd::Edge& e : n->next_edges())
      next.push_back(Value::tuple({of(e.fn), Value::integer(e.input_nr)}));
    // `x * 2`, `x / 2`, `x + 1`, `x - 1` (and dropout's `x * noise`): PyTorch wraps the number (or
    // the mask) as a second input that needs no gradient.
    static const char* const kTwoInputs[] = {"MulBackward0", "DivBackward0", "AddBackward0", "SubBackward0"};
    for (const char* two : kTwoInputs)
      if (name == two && next.size() == 1) next.push_back(Value::tuple({Value::none(), Value::integer(0)}));
    o->set("next_functions", Value::tuple(next));
    return v;
  }
};

}  // namespace

Value grad_fn_value(const core::Tensor& t) {
  core::autograd::refresh_view(t);   // a view written through since: AsStridedBackward0, as PyTorch's
  const core::AutogradMeta& m = t.autograd();
  if (!m.grad_fn) return Value::none();
  Builder b;
  return b.of(m.grad_fn);
}

}  // namespace attn::torch
