// torch/autograd_natives.cpp: the native half of torch.autograd (python/autograd.py is the other):
// the engine calls behind torch.autograd.backward and torch.autograd.grad, the node a custom
// torch.autograd.Function records (its backward calls the class's Python backward), the legacy
// Variable class, and the anomaly-detection flag (torch.is_anomaly_enabled).
//
// What it is: argument checks and PyTorch 1.13's messages around core::autograd::run_backward
// (autograd_engine.cpp), which runs the graph. Anomaly detection is a flag only: it changes no
// number and adds no forward traceback to a backward error.
// torch._attn_hook_slot is the engine's side of Tensor.register_hook (python/torch_extra.py).
// What it is not: create_graph (higher-order gradients), forward-mode AD, module hooks, mark_dirty.
#include <fmt/format.h>

#include "core/autograd.h"
#include "torch/bindings.h"

namespace attn::torch {

namespace {

using core::Tensor;
using core::autograd::Grads;

thread_local bool t_anomaly = false;   // torch.is_anomaly_enabled(), per thread as in PyTorch

std::vector<Tensor> tensors_of(const Value& seq, const char* what) {
  std::vector<Tensor> out;
  for (const Value& v : as_seq(seq)) {
    if (!is_tensor(v)) throw TypeError(fmt::format("{}: expected a Tensor, got {}", what, py_typename(v)));
    out.push_back(as_tensor(v));
  }
  return out;
}

// The gradients given per root: a tensor or None each (PyTorch's _make_grads).
Grads gradients_of(const Value& seq, size_t roots) {
  Grads out;
  for (const Value& v : as_seq(seq)) {
    if (v.is_none()) out.emplace_back();
    else if (is_tensor(v)) out.emplace_back(as_tensor(v));
    else throw TypeError("gradients can be either Tensors or None, but got " + py_typename(v));
  }
  if (out.size() != roots)
    throw core::TensorError(fmt::format("got {} tensors and {} gradients", roots, out.size()));
  return out;
}

// torch._attn_run_backward(tensors, grad_tensors, retain_graph, inputs, allow_unused): the
// engine; with inputs, the tuple of their gradients (autograd.grad), else None.
Value run_backward_fn(Interpreter&, CallArgs& a) {
  const std::vector<Tensor> roots = tensors_of(arg(a, 0, "tensors"), "backward");
  const Grads gradients = gradients_of(arg(a, 1, "grad_tensors"), roots.size());
  const bool retain = truthy(arg(a, 2, "retain_graph"));
  const Value inputs_v = arg(a, 3, "inputs");
  if (inputs_v.is_none()) {
    core::autograd::run_backward(roots, gradients, retain, {});
    return Value::none();
  }
  const std::vector<Tensor> inputs = tensors_of(inputs_v, "grad");
  const Grads got = core::autograd::run_backward(roots, gradients, retain, inputs);
  const bool allow_unused = truthy(arg(a, 4, "allow_unused"));
  std::vector<Value> out;
  for (const auto& g : got) {
    if (!g && !allow_unused)
      throw core::TensorError("One of the differentiated Tensors appears to not have been used in the graph. "
                              "Set allow_unused=True if this is the desired behavior.");
    out.push_back(g ? tensor_value(core::detach(*g)) : Value::none());
  }
  return Value::tuple(out);
}

// What one custom Function's node needs to call its Python backward.
struct FunctionCall {
  Interpreter* in;
  std::string name;              // "MyReLUBackward"
  Value backward, ctx;           // cls.backward and the ctx forward filled
  std::vector<Value> outputs;    // forward's outputs (their shapes for zeros, None for non-tensors)
  std::vector<int> slot;         // output k's slot in the node, -1: not recorded (non-tensor, non-differentiable)
  std::vector<int> arg_input;    // forward argument i's input of the node, -1: not a tensor
  std::vector<core::Shape> input_shapes;
  bool materialize = true;
};

// at::is_expandable_to: `shape` broadcasts to `to` (then the engine sums the gradient back).
bool expandable_to(const core::Shape& shape, const core::Shape& to) {
  if (shape.size() > to.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t s = shape[shape.size() - 1 - i], t = to[to.size() - 1 - i];
    if (s != t && s != 1) return false;
  }
  return true;
}

// The grads backward returned, one per forward argument, as the node's input gradients.
Grads function_grads(const FunctionCall& f, const Value& result) {
  std::vector<Value> got = result.kind == Value::Tuple ? as_seq(result) : std::vector<Value>{result};
  if (got.size() != f.arg_input.size())
    throw core::TensorError(fmt::format("function {} returned an incorrect number of gradients (expected {}, got {})",
                                        f.name, f.arg_input.size(), got.size()));
  Grads out(f.input_shapes.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].is_none()) continue;
    if (f.arg_input[i] < 0)
      throw core::TensorError(fmt::format("function {} returned a gradient different than None at position {}, but the "
                                          "corresponding forward input was not a Variable", f.name, i + 1));
    if (!is_tensor(got[i])) throw TypeError(fmt::format("expected Tensor or None (got {})", py_typename(got[i])));
    const Tensor& g = as_tensor(got[i]);
    const core::Shape& want = f.input_shapes[static_cast<size_t>(f.arg_input[i])];
    if (g.shape() != want && !expandable_to(want, g.shape()))
      throw core::TensorError(fmt::format("Function {} returned an invalid gradient at index {} - got {} but expected "
                                          "shape compatible with {}", f.name, f.arg_input[i], core::shape_str(g.shape()),
                                          core::shape_str(want)));
    out[static_cast<size_t>(f.arg_input[i])] = g;
  }
  return out;
}

// The node's backward: ctx and one gradient per forward output (zeros where none flowed, as
// materialize_grads does) into cls.backward, with grad mode off as PyTorch's engine runs it.
Grads call_backward(const std::shared_ptr<FunctionCall>& f, const Grads& grads) {
  CallArgs c;
  c.pos.push_back(f->ctx);
  for (size_t k = 0; k < f->outputs.size(); ++k) {
    const int s = f->slot[k];
    if (s >= 0 && static_cast<size_t>(s) < grads.size() && grads[static_cast<size_t>(s)])
      c.pos.push_back(tensor_value(*grads[static_cast<size_t>(s)]));
    else if (is_tensor(f->outputs[k]) && f->materialize)
      c.pos.push_back(tensor_value(core::empty(as_tensor(f->outputs[k]).shape(), as_tensor(f->outputs[k]).dtype())));
    else
      c.pos.push_back(Value::none());
  }
  const core::autograd::GradModeGuard off(false);
  return function_grads(*f, f->in->call(f->backward, c));
}

std::vector<int> index_outputs(const std::vector<Value>& outs, const Value& non_diff, std::vector<Tensor>& recorded) {
  std::vector<int> slot;
  for (const Value& o : outs) {
    bool skip = !is_tensor(o) || !as_tensor(o).is_float();
    for (const Value& n : as_seq(non_diff)) skip = skip || (is_tensor(o) && n.obj == o.obj);
    slot.push_back(skip ? -1 : static_cast<int>(recorded.size()));
    if (!skip) recorded.push_back(as_tensor(o));
  }
  return slot;
}

// torch._attn_record_function(name, outputs, args, ctx, backward, saved, non_differentiable,
// materialize_grads): forward's outputs (a tuple) with the node recorded on them, as a tuple.
Value record_function_fn(Interpreter& in, CallArgs& a) {
  auto f = std::make_shared<FunctionCall>();
  f->in = &in;
  f->name = str(arg(a, 0, "name"));
  f->outputs = as_seq(arg(a, 1, "outputs"));
  std::vector<const Tensor*> inputs;
  for (const Value& v : as_seq(arg(a, 2, "args"))) {
    f->arg_input.push_back(is_tensor(v) ? static_cast<int>(inputs.size()) : -1);
    if (!is_tensor(v)) continue;
    inputs.push_back(&as_tensor(v));
    f->input_shapes.push_back(as_tensor(v).shape());
  }
  f->ctx = arg(a, 3, "ctx");
  f->backward = arg(a, 4, "backward");
  const std::vector<Tensor> saved = tensors_of(arg(a, 5, "saved"), "save_for_backward");
  f->materialize = truthy(arg(a, 7, "materialize_grads"));
  std::vector<Tensor> recorded;
  f->slot = index_outputs(f->outputs, arg(a, 6, "non_differentiable"), recorded);
  core::autograd::Backward b{[f](const Grads& g) { return call_backward(f, g); }, !saved.empty(), saved};
  std::vector<Tensor> made = core::autograd::record_multi(recorded, inputs, f->name.c_str(), std::move(b));
  if (!made.empty() && made.front().autograd().grad_fn) made.front().autograd().grad_fn->custom_ = true;
  std::vector<Value> out;
  for (size_t k = 0; k < f->outputs.size(); ++k) {
    const int s = f->slot[k];
    out.push_back(s >= 0 ? tensor_value(made[static_cast<size_t>(s)]) : f->outputs[k]);
  }
  return Value::tuple(out);
}

// Variable(data, requires_grad=False, volatile=False): in 1.13 a Tensor sharing data's storage,
// detached, with the given requires_grad; isinstance(x, Variable) holds for every tensor.
Value variable_new(Interpreter& in, CallArgs& a) {
  const Value* data = find_arg(a, 0, "data");
  const Value* rg = find_arg(a, 1, "requires_grad");
  const Value* volatile_ = find_arg(a, 2, "volatile");
  if (!data) return tensor_value(core::empty({0}, core::DType::float32));
  if (!is_tensor(*data)) throw TypeError("Variable data has to be a tensor, but got " + py_typename(*data));
  const bool want_grad = rg && truthy(*rg);
  if (volatile_ && truthy(*volatile_)) {
    user_warning(in, "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.");
    if (want_grad) throw ValueError("Variable can't be volatile and require_grad at the same time!");
  }
  Tensor t = core::detach(as_tensor(*data));
  if (want_grad && !t.is_float())
    throw core::TensorError("Only Tensors of floating point and complex dtype can require gradients");
  t.set_requires_grad(want_grad);
  return tensor_value(t);
}

ClassPtr variable_class() {
  static const ClassPtr cls = [] {
    ClassPtr c = make_native_class("Variable", "torch.autograd.variable");
    c->slots.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) { return variable_new(in, a); };
    c->slots.instancecheck = [](const Value& v) { return is_tensor(v); };
    return c;
  }();
  return cls;
}

// torch._attn_hook_slot(tensor, fn): the engine calls fn(grad) on every gradient computed for the
// tensor (a non-leaf's grad_fn pre-hook, a leaf's before accumulation), with grad mode off; a
// tensor returned replaces the gradient (Tensor.register_hook in python/torch_extra.py).
Value hook_slot_fn(Interpreter& in, CallArgs& a) {
  const Tensor& t = as_tensor(arg(a, 0, "tensor"));
  const Value fn = arg(a, 1, "fn");
  Interpreter* session = &in;
  core::autograd::add_hook(t, [session, fn](const std::optional<Tensor>& g) -> std::optional<Tensor> {
    CallArgs c;
    c.pos.push_back(g ? tensor_value(*g) : Value::none());
    const core::autograd::GradModeGuard off(false);
    const Value r = session->call(fn, c);
    if (!is_tensor(r)) return std::nullopt;
    return as_tensor(r);
  });
  return Value::none();
}

}  // namespace

void add_autograd_natives(NamespaceObj& torch) {
  torch.names["_attn_hook_slot"] = builtin("torch._attn_hook_slot", hook_slot_fn);
  torch.names["_attn_run_backward"] = builtin("torch._attn_run_backward", run_backward_fn);
  torch.names["_attn_record_function"] = builtin("torch._attn_record_function", record_function_fn);
  torch.names["_attn_Variable"] = Value::of_class(variable_class());
  torch.names["is_anomaly_enabled"] = builtin("torch.is_anomaly_enabled", [](Interpreter&, CallArgs&) {
    return Value::boolean(t_anomaly);
  });
  torch.names["is_anomaly_check_nan_enabled"] = builtin("torch.is_anomaly_check_nan_enabled", [](Interpreter&, CallArgs&) {
    return Value::boolean(true);
  });
  torch.names["set_anomaly_enabled"] = builtin("torch.set_anomaly_enabled", [](Interpreter&, CallArgs& a) {
    t_anomaly = truthy(arg(a, 0, "enabled"));
    return Value::none();
  });
}

}  // namespace attn::torch
