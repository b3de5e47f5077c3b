// py/torch_api.cpp: the `torch` module lesson cells import: its functions (every function row
// of the op table), constants and dtypes, torch.nn, torch.nn.functional, and `math`.
//
// What it is: the namespaces. What it is not: the functions themselves (op_table.h) or the nn
// modules (nn_modules.cpp).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "py/interpreter.h"
#include "py/op_table.h"

namespace attn::py {

namespace {

Value ns_value(std::shared_ptr<NamespaceObj> ns, const std::string& name) {
  Value v;
  v.kind = Value::Namespace;
  v.s = name;
  v.obj = std::move(ns);
  return v;
}

// A torch function: binds through its row of the op table.
Value op_function(const std::string& name) {
  const OpTable::Op* op = torch_ops().function(name);
  return builtin("torch." + name, [op](Interpreter& in, CallArgs& a) { return torch_ops().call_function(in, *op, a); });
}

// nn.Softmax(dim=None): a callable that applies softmax along dim, as the module's forward does
// (F.softmax, whose implicit dim choice applies when dim is None).
Value softmax_module(Interpreter&, CallArgs& a) {
  static const Signature init = Signature::parse("def Softmax.__init__(self, dim=None)");
  static const Signature forward = Signature::parse("def Softmax.forward(self, input)");
  CallArgs with_self = a;
  with_self.pos.insert(with_self.pos.begin(), Value::none());
  Args b = bind_args(init, with_self, "torch.nn.Softmax");
  Value dim = b.get("dim");
  if (!dim.is_none()) to_int(dim, "dim");
  return builtin("Softmax(dim=" + repr(dim) + ")", [dim](Interpreter& in, CallArgs& call) {
    CallArgs with_self = call;
    with_self.pos.insert(with_self.pos.begin(), Value::none());
    Args f = bind_args(forward, with_self, "Softmax.forward");
    CallArgs inner;
    inner.pos = {f.get("input"), dim};
    return torch_ops().call_function(in, *torch_ops().function("nn.functional.softmax"), inner);
  });
}

// math.sqrt(x) and friends: one positional-only number.
Value math_function(const char* name, double (*f)(double)) {
  auto sig = std::make_shared<Signature>(Signature::parse(fmt::format("def math.{}(x, /)", name)));
  return builtin(std::string("math.") + name, [sig, f](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    return Value::number(f(b.number("x")));
  });
}

}  // namespace

Value make_torch_namespace() {
  auto t = std::make_shared<NamespaceObj>();
  auto functional = std::make_shared<NamespaceObj>();
  for (const std::string& name : torch_ops().function_names()) {
    if (name.rfind("nn.functional.", 0) == 0) functional->names[name.substr(14)] = op_function(name);
    else t->names[name] = op_function(name);
  }
  t->names["inf"] = Value::number(std::numeric_limits<double>::infinity());
  t->names["nan"] = Value::number(std::numeric_limits<double>::quiet_NaN());
  t->names["float32"] = t->names["float"] = Value::dtype("torch.float32");
  t->names["int64"] = t->names["long"] = Value::dtype("torch.int64");
  t->names["bool"] = Value::dtype("torch.bool");
  t->names["__version__"] = Value::str("1.13.1");
  add_torch_environment(*t);
  add_grad_mode(*t);
  add_optim(*t);
  auto nn = std::make_shared<NamespaceObj>();
  add_nn_modules(*nn);
  nn->names["Softmax"] = builtin("torch.nn.Softmax", softmax_module);
  nn->names["functional"] = ns_value(functional, "torch.nn.functional");
  t->names["nn"] = ns_value(nn, "torch.nn");
  auto math = std::make_shared<NamespaceObj>();
  math->names["sqrt"] = math_function("sqrt", [](double x) { return std::sqrt(x); });
  math->names["exp"] = math_function("exp", [](double x) { return std::exp(x); });
  math->names["log"] = math_function("log", [](double x) { return std::log(x); });
  math->names["pi"] = Value::number(M_PI);
  math->names["inf"] = Value::number(std::numeric_limits<double>::infinity());
  t->names["__math__"] = ns_value(math, "math");
  return ns_value(t, "torch");
}

}  // namespace attn::py
