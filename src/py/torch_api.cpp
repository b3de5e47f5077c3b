// py/torch_api.cpp: the `torch` module lesson cells import: its functions (every function row
// of the op table), constants and dtypes, torch.nn, torch.nn.functional, and `math`.
//
// What it is: the namespaces. What it is not: the functions themselves (op_table.h) or the nn
// modules (nn_modules.cpp).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
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

// math.sqrt(x) and friends: one positional-only number, a float back, with CPython's errors
// (Modules/mathmodule.c, math_1): a NaN from a number that was not one is "ValueError: math
// domain error" (sqrt(-1), log(-2)); an infinity from a finite number is "OverflowError: math
// range error" for the functions that can overflow (exp(1000)) and a domain error for the
// others (log(0)).
enum class Inf { overflow, domain };
Value math_function(const char* name, double (*f)(double), Inf inf = Inf::domain) {
  auto sig = std::make_shared<Signature>(Signature::parse(fmt::format("def math.{}(x, /)", name)));
  return builtin(std::string("math.") + name, [sig, f, inf](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    double x = b.number("x"), r = f(x);
    if (std::isnan(r) && !std::isnan(x)) throw ValueError("math domain error");
    if (std::isinf(r) && std::isfinite(x))
      {
      if (inf == Inf::overflow) throw OverflowError("math range error");
      throw ValueError("math domain error");
    }
    return Value::number(r);
  });
}

// math.floor / ceil / trunc: an int (a big one for a big float), the int itself for an int;
// int()'s errors for an infinity or a NaN.
Value math_rounding(const char* name, double (*f)(double)) {
  auto sig = std::make_shared<Signature>(Signature::parse(fmt::format("def math.{}(x, /)", name)));
  return builtin(std::string("math.") + name, [sig, f](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    Value x = b.get("x");
    if (x.kind == Value::Int) return x;
    return int_from_double(f(b.number("x")));
  });
}

Value math_test(const char* name, bool (*f)(double)) {
  auto sig = std::make_shared<Signature>(Signature::parse(fmt::format("def math.{}(x, /)", name)));
  return builtin(std::string("math.") + name, [sig, f](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    return Value::boolean(f(b.number("x")));
  });
}

// math.log(x[, base]): log(x) / log(base), each with the domain check of math.log(x).
Value math_log() {
  auto sig = std::make_shared<Signature>(Signature::parse("def math.log(x, base=None, /)"));
  return builtin("math.log", [sig](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    auto ln = [](double x) {
      if (std::isnan(x)) return x;
      if (x <= 0) throw ValueError("math domain error");
      return std::log(x);
    };
    double num = ln(b.number("x"));
    if (b.get("base").is_none()) return Value::number(num);
    double den = ln(b.number("base"));
    if (den == 0) throw ZeroDivisionError("float division by zero");
    return Value::number(num / den);
  });
}

std::shared_ptr<NamespaceObj> make_math() {
  auto math = std::make_shared<NamespaceObj>();
  auto& n = math->names;
  n["sqrt"] = math_function("sqrt", [](double x) { return std::sqrt(x); });
  n["exp"] = math_function("exp", [](double x) { return std::exp(x); }, Inf::overflow);
  n["expm1"] = math_function("expm1", [](double x) { return std::expm1(x); }, Inf::overflow);
  n["log"] = math_log();
  n["log2"] = math_function("log2", [](double x) { return std::log2(x); });
  n["log10"] = math_function("log10", [](double x) { return std::log10(x); });
  n["log1p"] = math_function("log1p", [](double x) { return std::log1p(x); });
  n["sin"] = math_function("sin", [](double x) { return std::sin(x); });
  n["cos"] = math_function("cos", [](double x) { return std::cos(x); });
  n["tan"] = math_function("tan", [](double x) { return std::tan(x); });
  n["tanh"] = math_function("tanh", [](double x) { return std::tanh(x); });
  n["atan"] = math_function("atan", [](double x) { return std::atan(x); });
  n["erf"] = math_function("erf", [](double x) { return std::erf(x); });
  n["fabs"] = math_function("fabs", [](double x) { return std::fabs(x); });
  n["floor"] = math_rounding("floor", [](double x) { return std::floor(x); });
  n["ceil"] = math_rounding("ceil", [](double x) { return std::ceil(x); });
  n["trunc"] = math_rounding("trunc", [](double x) { return std::trunc(x); });
  n["isnan"] = math_test("isnan", [](double x) { return std::isnan(x); });
  n["isinf"] = math_test("isinf", [](double x) { return std::isinf(x); });
  n["isfinite"] = math_test("isfinite", [](double x) { return std::isfinite(x); });
  n["pi"] = Value::number(M_PI);
  n["e"] = Value::number(M_E);
  n["tau"] = Value::number(2 * M_PI);
  n["inf"] = Value::number(std::numeric_limits<double>::infinity());
  n["nan"] = Value::number(std::numeric_limits<double>::quiet_NaN());
  return math;
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
  t->names["__math__"] = ns_value(make_math(), "math");
  return ns_value(t, "torch");
}

}  // namespace attn::py
