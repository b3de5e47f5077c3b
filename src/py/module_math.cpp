// py/module_math.cpp: Python's `math` module: the functions and constants lessons and tutorials
// use, with CPython's errors.
//
// What it is: every function and constant of CPython 3.11's math module, each a double
// computation as Modules/mathmodule.c does it (fsum's exact partial sums, the integer functions
// factorial, gcd, lcm, isqrt, comb, perm on Python's unbounded ints).
// What it is not: bit-exact gamma/lgamma (CPython has its own Lanczos sum; attn uses the C
// library's tgamma/lgamma, equal on small integers and within an ulp elsewhere).
#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

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
// CPython's loghelper: an int is taken whole (not converted to a float first), so
// math.log(10**400) is 921.03...: a non-positive int is a domain error, and one too large for a
// float is m * 2**e with log(m) + log(2) * e. Anything else goes through f as a float.
double log_of(Args& b, const char* name, double (*f)(double)) {
  const Value x = b.get(name);
  if (x.kind == Value::Int) {
    const BigInt v = big_of(x);
    if (v.negative() || v.is_zero()) throw ValueError("math domain error");
    double d = 0;
    if (v.to_double(d)) return f(d);
    int64_t e = 0;
    const double m = v.frexp(e);
    return f(m) + f(2.0) * static_cast<double>(e);
  }
  const double d = b.number(name);
  if (std::isnan(d)) return d;
  if (d <= 0) throw ValueError("math domain error");
  return f(d);
}

double ln(double x) { return std::log(x); }

Value math_log() {
  auto sig = std::make_shared<Signature>(Signature::parse("def math.log(x, base=None, /)"));
  return builtin("math.log", [sig](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    double num = log_of(b, "x", ln);
    if (b.get("base").is_none()) return Value::number(num);
    double den = log_of(b, "base", ln);
    if (den == 0) throw ZeroDivisionError("float division by zero");
    return Value::number(num / den);
  });
}

// math.log2 / math.log10: one argument, through the same loghelper.
Value math_log_base(const char* name, double (*f)(double)) {
  auto sig = std::make_shared<Signature>(Signature::parse(fmt::format("def math.{}(x, /)", name)));
  return builtin(std::string("math.") + name, [sig, f](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    return Value::number(log_of(b, "x", f));
  });
}

Value math_two(const char* name, double (*f)(double, double), Inf inf = Inf::domain) {
  auto sig = std::make_shared<Signature>(Signature::parse(fmt::format("def math.{}(x, y, /)", name)));
  return builtin(std::string("math.") + name, [sig, f, inf](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    double x = b.number("x"), y = b.number("y"), r = f(x, y);
    if (std::isnan(r) && !std::isnan(x) && !std::isnan(y)) throw ValueError("math domain error");
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) {
      if (inf == Inf::overflow) throw OverflowError("math range error");
      throw ValueError("math domain error");
    }
    return Value::number(r);
  });
}

double as_double(const Value& v, const char* what) { return to_double(v, what); }

Value int_arg(const Value& v) {
  if (is_int(v)) return v.kind == Value::Bool ? Value::integer(v.b) : v;
  if (v.kind == Value::Instance)
    if (Interpreter* in = Interpreter::current())
      if (std::optional<int64_t> k = in->index(v)) return Value::integer(*k);
  throw TypeError("'" + type_name(v) + "' object cannot be interpreted as an integer");
}

bool negative(const Value& v) { return compare_numbers(v, Value::integer(0)) < 0; }

Value math_factorial(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.factorial(n, /)");
  Args b = bind_args(sig, a, "factorial");
  Value n = int_arg(b.get("n"));
  if (negative(n)) throw ValueError("factorial() not defined for negative values");
  if (n.is_big() || n.i > 100000) throw OverflowError("attn's math.factorial() takes n up to 100000");
  Value out = Value::integer(1);
  for (int64_t k = 2; k <= n.i; ++k) out = int_binop("*", out, Value::integer(k));
  return out;
}

Value gcd2(Value x, Value y) {
  x = int_abs(x);
  y = int_abs(y);
  while (compare_numbers(y, Value::integer(0)) != 0) {
    Value r = int_binop("%", x, y);
    x = y;
    y = r;
  }
  return x;
}

Value math_gcd(Interpreter&, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("gcd() takes no keyword arguments");
  Value out = Value::integer(0);
  for (const Value& v : a.pos) out = gcd2(out, int_arg(v));
  return out;
}

Value math_lcm(Interpreter&, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("lcm() takes no keyword arguments");
  Value out = Value::integer(1);
  for (const Value& raw : a.pos) {
    Value v = int_arg(raw);
    if (compare_numbers(v, Value::integer(0)) == 0 || compare_numbers(out, Value::integer(0)) == 0) {
      out = Value::integer(0);
      continue;
    }
    out = int_abs(int_binop("*", int_binop("//", out, gcd2(out, v)), v));
  }
  return out;
}

Value math_isqrt(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.isqrt(n, /)");
  Args b = bind_args(sig, a, "isqrt");
  Value n = int_arg(b.get("n"));
  if (negative(n)) throw ValueError("isqrt() argument must be nonnegative");
  if (compare_numbers(n, Value::integer(0)) == 0) return n;
  // Newton from above: x = n's bit length halved, rounded up, as a power of two
  uint64_t bits = big_of(n).bit_length();
  Value x = int_binop("<<", Value::integer(1), Value::integer(static_cast<int64_t>((bits + 1) / 2)));
  for (;;) {
    Value y = int_binop("//", int_binop("+", x, int_binop("//", n, x)), Value::integer(2));
    if (compare_numbers(y, x) >= 0) return x;
    x = y;
  }
}

Value math_comb_perm(Interpreter&, CallArgs& a, bool comb) {
  static const Signature comb_sig = Signature::parse("def math.comb(n, k, /)");
  static const Signature perm_sig = Signature::parse("def math.perm(n, k=None, /)");
  Args b = bind_args(comb ? comb_sig : perm_sig, a, comb ? "comb" : "perm");
  Value n = int_arg(b.get("n"));
  if (!comb && b.get("k").is_none()) {
    CallArgs f;
    f.pos.push_back(n);
    Interpreter* in = Interpreter::current();
    return math_factorial(*in, f);
  }
  Value k = int_arg(b.get("k"));
  if (negative(n)) throw ValueError("n must be a non-negative integer");
  if (negative(k)) throw ValueError("k must be a non-negative integer");
  if (compare_numbers(k, n) > 0) return Value::integer(0);
  if (comb && compare_numbers(k, int_binop("-", n, k)) > 0) k = int_binop("-", n, k);
  if (k.is_big() || k.i > 100000) throw OverflowError("attn's math.comb()/perm() take k up to 100000");
  Value out = Value::integer(1);
  for (int64_t i = 1; i <= k.i; ++i) {
    out = int_binop("*", out, int_binop("-", n, Value::integer(i - 1)));
    if (comb) out = int_binop("//", out, Value::integer(i));
  }
  return out;
}

// fsum: Shewchuk's exact partial sums, as mathmodule.c's math_fsum (with its special cases).
Value math_fsum(Interpreter& in, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.fsum(seq, /)");
  Args b = bind_args(sig, a, "fsum");
  std::vector<double> p;
  double special_sum = 0, inf_sum = 0;
  for (const Value& item : in.iterate(b.get("seq"))) {
    double x = as_double(item, "fsum");
    double xsave = x;
    size_t i = 0;
    for (double y : p) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      double hi = x + y, lo = y - (hi - x);
      if (lo != 0.0) p[i++] = lo;
      x = hi;
    }
    p.resize(i);
    if (x != 0.0) {
      if (!std::isfinite(x)) {
        if (std::isfinite(xsave)) throw OverflowError("intermediate overflow in fsum");
        if (std::isinf(xsave)) inf_sum += xsave;
        special_sum += xsave;
        p.clear();
      } else {
        p.push_back(x);
      }
    }
  }
  if (special_sum != 0.0) {
    if (std::isnan(inf_sum)) throw ValueError("-inf + inf in fsum");
    return Value::number(special_sum);
  }
  double hi = 0.0;
  if (!p.empty()) {
    size_t n = p.size();
    hi = p[--n];
    double lo = 0;
    while (n > 0) {
      double x = hi, y = p[--n];
      hi = x + y;
      double yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) break;
    }
    if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
      double y = lo * 2.0, x = hi + y, yr = x - hi;
      if (y == yr) hi = x;
    }
  }
  return Value::number(hi);
}

Value math_prod(Interpreter& in, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.prod(iterable, /, *, start=1)");
  Args b = bind_args(sig, a, "prod");
  Value out = b.get("start");
  for (const Value& v : in.iterate(b.get("iterable"))) out = in.binop("*", out, v);
  return out;
}

Value math_isclose(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)");
  Args b = bind_args(sig, a, "isclose");
  double x = b.number("a"), y = b.number("b"), rel = b.number("rel_tol"), abs_tol = b.number("abs_tol");
  if (rel < 0.0 || abs_tol < 0.0) throw ValueError("tolerances must be non-negative");
  if (x == y) return Value::boolean(true);
  if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
  double diff = std::fabs(y - x);
  return Value::boolean(((diff <= std::fabs(rel * y)) || (diff <= std::fabs(rel * x))) || (diff <= abs_tol));
}

// CPython's vector_norm (Modules/mathmodule.c, 3.10+): scaled by a power of two, each square
// split exactly (fma), summed with Neumaier's compensation from 1.0, and the square root given
// one differential correction; |coordinates| in `vec`, `max` the largest.
double vector_norm(std::vector<double>& vec, double max, bool found_nan) {
  if (std::isinf(max)) return max;
  if (found_nan) return std::nan("");
  if (max == 0.0 || vec.size() <= 1) return max;
  int max_e = 0;
  std::frexp(max, &max_e);
  if (max_e < -1023) {   // ldexp(1.0, -max_e) would overflow: subnormals to normals first
    for (double& x : vec) x /= DBL_MIN;
    return DBL_MIN * vector_norm(vec, max / DBL_MIN, found_nan);
  }
  const double scale = std::ldexp(1.0, -max_e);
  double csum = 1.0, frac1 = 0.0, frac2 = 0.0;
  auto add = [&](double hi, double lo) {   // dl_fast_sum(csum, hi), the errors kept apart
    double x = csum + hi;
    frac2 += (csum - x) + hi;
    csum = x;
    frac1 += lo;
  };
  for (double x : vec) {
    x *= scale;
    double z = x * x;
    add(z, std::fma(x, x, -z));
  }
  double h = std::sqrt(csum - 1.0 + (frac1 + frac2));
  double z = -h * h;
  add(z, std::fma(-h, h, -z));
  double x = csum - 1.0 + (frac1 + frac2);
  h += x / (2.0 * h);
  return h / scale;
}

double norm_of(std::vector<double> vec) {
  double max = 0.0;
  bool nan = false;
  for (double& x : vec) {
    x = std::fabs(x);
    nan = nan || std::isnan(x);
    if (x > max) max = x;
  }
  return vector_norm(vec, max, nan);
}

Value math_hypot(Interpreter&, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("hypot() takes no keyword arguments");
  std::vector<double> xs;
  for (const Value& v : a.pos) xs.push_back(as_double(v, "hypot"));
  return Value::number(norm_of(std::move(xs)));
}

Value math_dist(Interpreter& in, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.dist(p, q, /)");
  Args b = bind_args(sig, a, "dist");
  std::vector<Value> p = in.iterate(b.get("p")), q = in.iterate(b.get("q"));
  if (p.size() != q.size()) throw ValueError("both points must have the same number of dimensions");
  std::vector<double> d;
  for (size_t k = 0; k < p.size(); ++k) d.push_back(as_double(p[k], "dist") - as_double(q[k], "dist"));
  return Value::number(norm_of(std::move(d)));
}

Value math_pair(const char* name, Value (*f)(double)) {
  auto sig = std::make_shared<Signature>(Signature::parse(fmt::format("def math.{}(x, /)", name)));
  return builtin(std::string("math.") + name, [sig, f](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    return f(b.number("x"));
  });
}

Value modf_of(double x) {
  if (std::isinf(x)) return Value::tuple({Value::number(std::copysign(0.0, x)), Value::number(x)});
  double ip = 0;
  double fp = std::modf(x, &ip);
  return Value::tuple({Value::number(fp), Value::number(ip)});
}

Value frexp_of(double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return Value::tuple({Value::number(x), Value::integer(0)});
  int e = 0;
  double m = std::frexp(x, &e);
  return Value::tuple({Value::number(m), Value::integer(e)});
}

Value math_ldexp(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.ldexp(x, i, /)");
  Args b = bind_args(sig, a, "ldexp");
  double x = b.number("x");
  Value i = b.get("i");
  if (!is_int(i)) throw TypeError("Expected an int as second argument to ldexp.");
  int64_t e = i.is_big() ? (negative(i) ? INT64_MIN : INT64_MAX) : (i.kind == Value::Bool ? i.b : i.i);
  if (x == 0 || !std::isfinite(x)) return Value::number(x);
  e = std::clamp<int64_t>(e, -100000, 100000);
  double r = std::ldexp(x, static_cast<int>(e));
  if (std::isinf(r)) throw OverflowError("math range error");
  return Value::number(r);
}

Value math_pow(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.pow(x, y, /)");
  Args b = bind_args(sig, a, "pow");
  double x = b.number("x"), y = b.number("y");
  if (!std::isfinite(x) || !std::isfinite(y)) {
    if (std::isnan(x)) return Value::number(y == 0.0 ? 1.0 : x);
    if (std::isnan(y)) return Value::number(x == 1.0 ? 1.0 : y);
    return Value::number(std::pow(x, y));
  }
  if (x == 0.0 && y < 0.0) throw ValueError("math domain error");
  double r = std::pow(x, y);
  if (std::isnan(r)) throw ValueError("math domain error");
  if (std::isinf(r)) throw OverflowError("math range error");
  return Value::number(r);
}

// math.gamma and math.lgamma as CPython 3.11 computes them (Modules/mathmodule.c), not libm's
// tgamma/lgamma, which differ in the last digits: the Lanczos approximation with N = 13 and
// g = 6.024680040776729583740234375 (Boost's parameters) as a rational function, a correction for
// the rounding of x + g - 0.5, and the reflection formula below zero. The order of operations is
// CPython's, so the doubles are the same.
namespace lanczos {
constexpr double kPi = 3.141592653589793238462643383279502884197;
constexpr double kLogPi = 1.144729885849400174143427351353058711647;
constexpr double kG = 6.024680040776729583740234375;
constexpr double kGMinusHalf = 5.524680040776729583740234375;
constexpr int kN = 13;
constexpr double kNum[kN] = {
    23531376880.410759688572007674451636754734846804940, 42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843, 17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708, 1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801, 31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768, 186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024, 210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408};
// x (x + 1) ... (x + 11) as a polynomial, lowest power first
constexpr double kDen[kN] = {0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0,
                             13339535.0, 2637558.0, 357423.0, 32670.0, 1925.0, 66.0, 1.0};

double sum(double x) {   // L_g(x), x > 0: in powers of x below 5, of 1/x above (no overflow)
  double num = 0.0, den = 0.0;
  if (x < 5.0) {
    for (int k = kN - 1; k >= 0; --k) { num = num * x + kNum[k]; den = den * x + kDen[k]; }
  } else {
    for (int k = 0; k < kN; ++k) { num = num / x + kNum[k]; den = den / x + kDen[k]; }
  }
  return num / den;
}

double sinpi(double x) {   // sin(pi x), exact at the integers and half-integers
  const double y = std::fmod(std::fabs(x), 2.0);
  double r = 0;
  switch (static_cast<int>(std::round(2.0 * y))) {
    case 0: r = std::sin(kPi * y); break;
    case 1: r = std::cos(kPi * (y - 0.5)); break;
    case 2: r = std::sin(kPi * (1.0 - y)); break;   // not -sin(pi (y - 1)): +0.0 at y == 1
    case 3: r = -std::cos(kPi * (y - 1.5)); break;
    default: r = std::sin(kPi * (y - 2.0)); break;
  }
  return std::copysign(1.0, x) * r;
}

double gamma(double x) {   // x finite, not zero or a negative integer
  if (x == std::floor(x) && x >= 1 && x <= 23) {   // 0! .. 22!: exact
    double f = 1;
    for (int k = 2; k < static_cast<int>(x); ++k) f *= k;
    return f;
  }
  const double a = std::fabs(x);
  if (a < 1e-20) return 1.0 / x;
  if (a > 200.0) return x < 0.0 ? 0.0 / sinpi(x) : HUGE_VAL;
  const double y = a + kGMinusHalf;
  double z = a > kGMinusHalf ? (y - a) - kGMinusHalf : (y - kGMinusHalf) - a;   // the rounding error of y
  z = z * kG / y;
  double r;
  if (x < 0.0) {
    r = -kPi / sinpi(a) / a * std::exp(y) / sum(a);
    r -= z * r;
    if (a < 140.0) {
      r /= std::pow(y, a - 0.5);
    } else {
      const double half = std::pow(y, a / 2.0 - 0.25);
      r /= half;
      r /= half;
    }
  } else {
    r = sum(a) / std::exp(y);
    r += z * r;
    if (a < 140.0) {
      r *= std::pow(y, a - 0.5);
    } else {
      const double half = std::pow(y, a / 2.0 - 0.25);
      r *= half;
      r *= half;
    }
  }
  return r;
}

double lgamma(double x) {   // x finite, not zero or a negative integer
  if (x == std::floor(x) && x <= 2.0) return 0.0;   // lgamma(1) = lgamma(2) = 0
  const double a = std::fabs(x);
  if (a < 1e-20) return -std::log(a);
  double r = std::log(sum(a)) - kG;
  r += (a - 0.5) * (std::log(a + kG - 0.5) - 1);
  if (x < 0.0) r = kLogPi - std::log(std::fabs(sinpi(a))) - std::log(a) - r;
  return r;
}
}  // namespace lanczos

Value math_gamma(bool log) {
  auto sig = std::make_shared<Signature>(Signature::parse(log ? "def math.lgamma(x, /)" : "def math.gamma(x, /)"));
  return builtin(log ? "math.lgamma" : "math.gamma", [sig, log](Interpreter&, CallArgs& a) {
    Args b = bind_args(*sig, a, sig->name);
    double x = b.number("x");
    if (std::isnan(x)) return Value::number(x);
    if (std::isinf(x)) {
      if (log) return Value::number(HUGE_VAL);
      if (x < 0) throw ValueError("math domain error");
      return Value::number(x);
    }
    if (x <= 0 && x == std::floor(x)) throw ValueError("math domain error");
    double r = log ? lanczos::lgamma(x) : lanczos::gamma(x);
    if (std::isinf(r)) throw OverflowError("math range error");
    return Value::number(r);
  });
}

Value math_ulp(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def math.ulp(x, /)");
  Args b = bind_args(sig, a, "ulp");
  double x = std::fabs(b.number("x"));
  if (std::isnan(x) || std::isinf(x)) return Value::number(x);
  double next = std::nextafter(x, HUGE_VAL);
  if (std::isinf(next)) return Value::number(x - std::nextafter(x, -HUGE_VAL));
  return Value::number(next - x);
}

std::shared_ptr<NamespaceObj> make_math() {
  auto math = std::make_shared<NamespaceObj>();
  auto& n = math->names;
  n["sqrt"] = math_function("sqrt", [](double x) { return std::sqrt(x); });
  n["exp"] = math_function("exp", [](double x) { return std::exp(x); }, Inf::overflow);
  n["expm1"] = math_function("expm1", [](double x) { return std::expm1(x); }, Inf::overflow);
  n["log"] = math_log();
  n["log2"] = math_log_base("log2", [](double x) { return std::log2(x); });
  n["log10"] = math_log_base("log10", [](double x) { return std::log10(x); });
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
  n["acos"] = math_function("acos", [](double x) { return std::acos(x); });
  n["asin"] = math_function("asin", [](double x) { return std::asin(x); });
  n["acosh"] = math_function("acosh", [](double x) { return std::acosh(x); });
  n["asinh"] = math_function("asinh", [](double x) { return std::asinh(x); });
  n["atanh"] = math_function("atanh", [](double x) { return std::atanh(x); });
  n["cosh"] = math_function("cosh", [](double x) { return std::cosh(x); }, Inf::overflow);
  n["sinh"] = math_function("sinh", [](double x) { return std::sinh(x); }, Inf::overflow);
  n["erfc"] = math_function("erfc", [](double x) { return std::erfc(x); });
  n["cbrt"] = math_function("cbrt", [](double x) { return std::cbrt(x); });
  n["exp2"] = math_function("exp2", [](double x) { return std::exp2(x); }, Inf::overflow);
  n["degrees"] = math_function("degrees", [](double x) { return x * (180.0 / M_PI); }, Inf::overflow);
  n["radians"] = math_function("radians", [](double x) { return x * (M_PI / 180.0); });
  n["gamma"] = math_gamma(false);
  n["lgamma"] = math_gamma(true);
  n["atan2"] = math_two("atan2", [](double y, double x) { return std::atan2(y, x); });
  n["copysign"] = math_two("copysign", [](double x, double y) { return std::copysign(x, y); });
  n["fmod"] = math_two("fmod", [](double x, double y) { return std::isinf(y) && std::isfinite(x) ? x : std::fmod(x, y); });
  n["remainder"] = math_two("remainder", [](double x, double y) { return std::remainder(x, y); });
  n["nextafter"] = math_two("nextafter", [](double x, double y) { return std::nextafter(x, y); });
  n["pow"] = builtin("math.pow", math_pow);
  n["ldexp"] = builtin("math.ldexp", math_ldexp);
  n["hypot"] = builtin("math.hypot", math_hypot);
  n["dist"] = builtin("math.dist", math_dist);
  n["modf"] = math_pair("modf", modf_of);
  n["frexp"] = math_pair("frexp", frexp_of);
  n["isclose"] = builtin("math.isclose", math_isclose);
  n["fsum"] = builtin("math.fsum", math_fsum);
  n["prod"] = builtin("math.prod", math_prod);
  n["ulp"] = builtin("math.ulp", math_ulp);
  n["factorial"] = builtin("math.factorial", math_factorial);
  n["gcd"] = builtin("math.gcd", math_gcd);
  n["lcm"] = builtin("math.lcm", math_lcm);
  n["isqrt"] = builtin("math.isqrt", math_isqrt);
  n["comb"] = builtin("math.comb", [](Interpreter& in, CallArgs& a) { return math_comb_perm(in, a, true); });
  n["perm"] = builtin("math.perm", [](Interpreter& in, CallArgs& a) { return math_comb_perm(in, a, false); });
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
