// torch/grad_mode.cpp: torch's grad mode in lesson code: torch.no_grad, torch.enable_grad and
// torch.set_grad_enabled (context managers, and no_grad/enable_grad as decorators:
// `@torch.no_grad()`), torch.is_grad_enabled().
//
// What it is: the switch, as torch/autograd/grad_mode.py 1.13 flips it: no_grad() keeps `prev`
// (False until entered), __enter__ saves is_grad_enabled() into it and disables, __exit__
// restores it, also when the block raises; set_grad_enabled(mode) switches when it is made and
// restores on __exit__. The flag is core's (core::autograd::grad_enabled(), thread-local, held
// for the session while its cell runs: session.h): under no_grad an op records nothing. A
// decorated function stays a method when it is one (`@torch.no_grad()` on `def step(self)`).
// inference_mode(mode) sets grad mode to `not mode` and the inference flag to `mode`, as
// c10::InferenceMode does, and restores both on __exit__.
// What it is not: inference tensors (a tensor made under inference_mode is an ordinary one
// here), or the recording itself.
#include <memory>
#include <string>

#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::torch {

namespace {

// no_grad (mode false) or enable_grad (mode true): a class whose instances are context managers
// and decorators.
// torch.is_inference_mode_enabled(): set by inference_mode's __enter__ (this thread's cell).
thread_local bool inference_enabled = false;

// Enters the mode a switch class names: grad mode `mode`, and, for inference_mode, the inference
// flag `inference`; returns what to restore.
struct SwitchState {
  bool grad, inference;
};
SwitchState enter_switch(bool mode, bool is_inference, bool inference) {
  const SwitchState prev{core::autograd::grad_enabled(), inference_enabled};
  core::autograd::set_grad_enabled(mode);
  if (is_inference) inference_enabled = inference;
  return prev;
}
void leave_switch(const SwitchState& prev) {
  core::autograd::set_grad_enabled(prev.grad);
  inference_enabled = prev.inference;
}

// inference_mode(mode=True): the modes it enters (grad off and inference on, or the reverse).
Value inference_mode_class() {
  py::ClassPtr c = py::make_native_class("inference_mode", "torch.autograd.grad_mode");
  c->immutable = false;
  c->slots.init = [](Interpreter&, const Value& self, CallArgs& a) {
    const Value* mode = find_arg(a, 0, "mode");
    if (a.pos.size() + a.kw.size() > (mode ? 1u : 0u))
      throw TypeError("inference_mode.__init__() takes from 1 to 2 positional arguments but " +
                      std::to_string(a.pos.size() + 1) + " were given");
    inst(self).set("mode", Value::boolean(!mode || truthy(*mode)));
  };
  c->methods["__enter__"] = py::method("inference_mode.__enter__", [](Interpreter&, CallArgs& a) {
    InstanceObj& self = inst(a.pos.at(0));
    const bool mode = truthy(*self.find("mode"));
    const SwitchState prev = enter_switch(!mode, true, mode);
    self.set("prev", Value::boolean(prev.grad));
    self.set("prev_inference", Value::boolean(prev.inference));
    return Value::none();
  });
  c->methods["__exit__"] = py::method("inference_mode.__exit__", [](Interpreter&, CallArgs& a) {
    InstanceObj& self = inst(a.pos.at(0));
    const Value* prev = self.find("prev");
    const Value* prev_inference = self.find("prev_inference");
    leave_switch({prev && truthy(*prev), prev_inference && truthy(*prev_inference)});
    return Value::none();
  });
  c->methods["__call__"] = py::method("inference_mode.__call__", [](Interpreter&, CallArgs& a) {
    if (a.pos.size() != 2 || !a.kw.empty()) throw TypeError("inference_mode() as a decorator takes one function");
    Value fn = a.pos[1];
    const bool mode = truthy(*inst(a.pos[0]).find("mode"));
    std::string fname = fn.kind == Value::Function ? static_cast<py::FunctionObj*>(fn.obj.get())->def->name : "inference_mode function";
    return py::method(fname, [fn, mode](Interpreter& inner, CallArgs& args) {
      const SwitchState prev = enter_switch(!mode, true, mode);
      try {
        Value r = inner.call(fn, args);
        leave_switch(prev);
        return r;
      } catch (...) {
        leave_switch(prev);
        throw;
      }
    });
  });
  return Value::of_class(c);
}

Value switch_class(const std::string& name, bool mode) {
  py::ClassPtr c = py::make_native_class(name, "torch.autograd.grad_mode");
  c->immutable = false;   // a Python class in PyTorch
  c->slots.init = [name](Interpreter&, const Value& self, CallArgs& a) {
    if (!a.pos.empty() || !a.kw.empty()) throw TypeError(name + "() takes no arguments");
    inst(self).set("prev", Value::boolean(false));
  };
  c->methods["__enter__"] = py::method(name + ".__enter__", [mode](Interpreter&, CallArgs& a) {
    inst(a.pos.at(0)).set("prev", Value::boolean(core::autograd::grad_enabled()));
    core::autograd::set_grad_enabled(mode);
    return Value::none();
  });
  c->methods["__exit__"] = py::method(name + ".__exit__", [](Interpreter&, CallArgs& a) {
    const Value* prev = inst(a.pos.at(0)).find("prev");
    core::autograd::set_grad_enabled(prev && truthy(*prev));
    return Value::none();   // never suppresses the exception
  });
  c->methods["__call__"] = py::method(name + ".__call__", [name, mode](Interpreter&, CallArgs& a) {
    if (a.pos.size() != 2 || !a.kw.empty()) throw TypeError(name + "() as a decorator takes one function");
    Value fn = a.pos[1];
    std::string fname = fn.kind == Value::Function ? static_cast<py::FunctionObj*>(fn.obj.get())->def->name : name + " function";
    // A method when it decorates one: `self` is bound when it is looked up on an instance.
    return py::method(fname, [fn, mode](Interpreter& inner, CallArgs& args) {
      const core::autograd::GradModeGuard guard(mode);
      return inner.call(fn, args);
    });
  });
  return Value::of_class(c);
}

// set_grad_enabled(mode): switches as it is made; as a context manager, __exit__ switches back.
Value set_grad_enabled_class() {
  py::ClassPtr c = py::make_native_class("set_grad_enabled", "torch.autograd.grad_mode");
  c->immutable = false;
  c->slots.init = [](Interpreter&, const Value& self, CallArgs& a) {
    const Value* mode = find_arg(a, 0, "mode");
    if (!mode || a.pos.size() + a.kw.size() != 1)
      throw TypeError("set_grad_enabled.__init__() missing 1 required positional argument: 'mode'");
    if (mode->kind != Value::Bool) throw TypeError("enabled must be a bool (got " + type_name(*mode) + ")");
    inst(self).set("prev", Value::boolean(core::autograd::grad_enabled()));
    core::autograd::set_grad_enabled(mode->b);
  };
  c->methods["__enter__"] = py::method("set_grad_enabled.__enter__", [](Interpreter&, CallArgs&) { return Value::none(); });
  c->methods["__exit__"] = py::method("set_grad_enabled.__exit__", [](Interpreter&, CallArgs& a) {
    const Value* prev = inst(a.pos.at(0)).find("prev");
    core::autograd::set_grad_enabled(prev && truthy(*prev));
    return Value::none();
  });
  return Value::of_class(c);
}

}  // namespace

void add_grad_mode(NamespaceObj& torch) {
  torch.names["no_grad"] = switch_class("no_grad", false);
  torch.names["enable_grad"] = switch_class("enable_grad", true);
  torch.names["set_grad_enabled"] = set_grad_enabled_class();
  torch.names["inference_mode"] = inference_mode_class();
  torch.names["is_inference_mode_enabled"] = builtin("torch.is_inference_mode_enabled", [](Interpreter&, CallArgs& a) {
    if (!a.pos.empty() || !a.kw.empty()) throw TypeError("is_inference_mode_enabled() takes no arguments");
    return Value::boolean(inference_enabled);
  });
  torch.names["is_grad_enabled"] = builtin("torch.is_grad_enabled", [](Interpreter&, CallArgs& a) {
    if (!a.pos.empty() || !a.kw.empty()) throw TypeError("is_grad_enabled() takes no arguments");
    return Value::boolean(core::autograd::grad_enabled());
  });
}

}  // namespace attn::torch
