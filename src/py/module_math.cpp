// py/module_math.cpp: Python's `math` module: the functions and constants lessons and tutorials
// use, with CPython's errors.
//
// What it is: math.sqrt, exp, log, the trigonometric and rounding functions, isnan/isinf/isfinite,
// pi, e, tau, inf, nan, each a double computation as CPython's Modules/mathmodule.c does it.
// What it is not: the whole module (no gcd, comb, fsum, ...: AttributeError names them).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/signature.h"

namespace attn::py {

namespace {

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

void add_math_module(Interpreter& in) {
  in.add_module("math", [](Interpreter&) { return module_value("math", make_math()); });
}

}  // namespace attn::py
