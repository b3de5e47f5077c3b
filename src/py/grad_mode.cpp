// py/grad_mode.cpp: torch's grad mode in lesson code: torch.no_grad, torch.enable_grad and
// torch.set_grad_enabled (context managers, and no_grad/enable_grad as decorators:
// `@torch.no_grad()`), torch.is_grad_enabled().
//
// What it is: the switch, as torch/autograd/grad_mode.py 1.13 flips it: no_grad() keeps `prev`
// (False until entered), __enter__ saves is_grad_enabled() into it and disables, __exit__
// restores it, also when the block raises; set_grad_enabled(mode) switches when it is made and
// restores on __exit__. The flag is the session's (RunState::grad_enabled): the autograd code
// reads it to decide whether an op records a graph. What it is not: inference_mode, or the
// recording itself.
#include <memory>
#include <string>

#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::py {

namespace {

InstanceObj& inst(const Value& v) { return *static_cast<InstanceObj*>(v.obj.get()); }

Value method(const std::string& name, NativeFn fn) {
  Value m = builtin(name, std::move(fn));
  static_cast<BuiltinObj*>(m.obj.get())->method = true;   // called with the instance first
  return m;
}

Value class_value(std::shared_ptr<ClassObj> c) {
  Value v;
  v.kind = Value::Class;
  v.obj = std::move(c);
  return v;
}

// Restores the session's grad mode when a decorated call ends, by return or by exception.
struct GradModeGuard {
  RunState& state;
  bool saved;
  GradModeGuard(RunState& s, bool mode) : state(s), saved(s.grad_enabled) { state.grad_enabled = mode; }
  ~GradModeGuard() { state.grad_enabled = saved; }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;
};

// no_grad (mode false) or enable_grad (mode true): a class whose instances are context managers
// and decorators.
Value switch_class(const std::string& name, bool mode) {
  auto c = std::make_shared<ClassObj>();
  c->name = name;
  c->module = "torch.autograd.grad_mode";
  c->native_init = [name](Interpreter&, Value& self, CallArgs& a) {
    if (!a.pos.empty() || !a.kw.empty()) throw TypeError(name + "() takes no arguments");
    inst(self).set("prev", Value::boolean(false));
  };
  c->methods["__enter__"] = method(name + ".__enter__", [mode](Interpreter& in, CallArgs& a) {
    inst(a.pos.at(0)).set("prev", Value::boolean(in.state.grad_enabled));
    in.state.grad_enabled = mode;
    return Value::none();
  });
  c->methods["__exit__"] = method(name + ".__exit__", [](Interpreter& in, CallArgs& a) {
    const Value* prev = inst(a.pos.at(0)).find("prev");
    in.state.grad_enabled = prev && truthy(*prev);
    return Value::none();   // never suppresses the exception
  });
  c->methods["__call__"] = method(name + ".__call__", [name, mode](Interpreter&, CallArgs& a) {
    if (a.pos.size() != 2 || !a.kw.empty()) throw TypeError(name + "() as a decorator takes one function");
    Value fn = a.pos[1];
    std::string fname = fn.kind == Value::Function ? static_cast<FunctionObj*>(fn.obj.get())->def->name : name + " function";
    return builtin(fname, [fn, mode](Interpreter& inner, CallArgs& args) {
      GradModeGuard guard(inner.state, mode);
      return inner.call(fn, args);
    });
  });
  return class_value(c);
}

// set_grad_enabled(mode): switches as it is made; as a context manager, __exit__ switches back.
Value set_grad_enabled_class() {
  auto c = std::make_shared<ClassObj>();
  c->name = "set_grad_enabled";
  c->module = "torch.autograd.grad_mode";
  c->native_init = [](Interpreter& in, Value& self, CallArgs& a) {
    const Value* mode = find_arg(a, 0, "mode");
    if (!mode || a.pos.size() + a.kw.size() != 1)
      throw TypeError("set_grad_enabled.__init__() missing 1 required positional argument: 'mode'");
    if (mode->kind != Value::Bool) throw TypeError("enabled must be a bool (got " + type_name(*mode) + ")");
    inst(self).set("prev", Value::boolean(in.state.grad_enabled));
    in.state.grad_enabled = mode->b;
  };
  c->methods["__enter__"] = method("set_grad_enabled.__enter__", [](Interpreter&, CallArgs&) { return Value::none(); });
  c->methods["__exit__"] = method("set_grad_enabled.__exit__", [](Interpreter& in, CallArgs& a) {
    const Value* prev = inst(a.pos.at(0)).find("prev");
    in.state.grad_enabled = prev && truthy(*prev);
    return Value::none();
  });
  return class_value(c);
}

}  // namespace

void add_grad_mode(NamespaceObj& torch) {
  torch.names["no_grad"] = switch_class("no_grad", false);
  torch.names["enable_grad"] = switch_class("enable_grad", true);
  torch.names["set_grad_enabled"] = set_grad_enabled_class();
  torch.names["is_grad_enabled"] = builtin("torch.is_grad_enabled", [](Interpreter& in, CallArgs& a) {
    if (!a.pos.empty() || !a.kw.empty()) throw TypeError("is_grad_enabled() takes no arguments");
    return Value::boolean(in.state.grad_enabled);
  });
}

}  // namespace attn::py
