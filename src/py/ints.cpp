// py/ints.cpp: Python's int on interpreter values (see ints.h). Each operation tries int64
// first (with the compiler's overflow checks) and goes to BigInt only when that overflows.
#include "py/exceptions.h"
#include "py/ints.h"

#include <fmt/format.h>

#include <cfloat>
#include <cmath>

#include "py/interpreter.h"
#include "py/limits.h"

namespace attn::py {

// float ** float as CPython's float_pow: ZeroDivisionError for 0.0 to a negative power, an
// OverflowError when finite operands give an infinity; a negative base to a fractional power is
// a complex number in Python, which attn does not have.
Value float_power(double x, double y) {
  if (x == 0 && y < 0) throw ZeroDivisionError("0.0 cannot be raised to a negative power");
  if (x < 0 && std::isfinite(x) && std::isfinite(y) && y != std::floor(y))
    throw NotImplementedError("attn does not support complex numbers (a negative number to a fractional power)");
  double r = std::pow(x, y);
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y))
    throw error("OverflowError", std::vector<Value>{Value::integer(34), Value::str("Numerical result out of range")});
  return Value::number(r);
}

namespace {

int64_t py_floordiv(int64_t a, int64_t b) {   // b != 0, not (INT64_MIN, -1)
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t py_mod(int64_t a, int64_t b) {   // b != 0; the sign of b
  if (b == -1) return 0;
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// int ** int for a negative exponent is float ** float, as CPython's long_pow does.
Value negative_power(const Value& a, const Value& b) { return float_power(int_to_double(a), int_to_double(b)); }

// Small exponent fast path: nullopt when the result leaves int64.
std::optional<int64_t> small_pow(int64_t base, int64_t exponent) {
  int64_t result = 1;
  for (int64_t b = base, e = exponent;;) {
    if (e & 1 && __builtin_mul_overflow(result, b, &result)) return std::nullopt;
    e >>= 1;
    if (!e) return result;
    if (__builtin_mul_overflow(b, b, &b)) return std::nullopt;
  }
}

uint64_t shift_count(const Value& b) {   // >= 0; huge counts saturate
  if (b.is_big()) {
    if (b.big().negative()) throw ValueError("negative shift count");
    return UINT64_MAX;
  }
  int64_t n = small_of(b);
  if (n < 0) throw ValueError("negative shift count");
  return static_cast<uint64_t>(n);
}

std::optional<Value> small_binop(char op, char op2, int64_t x, int64_t y) {
  int64_t r = 0;
  switch (op) {
    case '+': if (!__builtin_add_overflow(x, y, &r)) return Value::integer(r); break;
    case '-': if (!__builtin_sub_overflow(x, y, &r)) return Value::integer(r); break;
    case '*':
      if (op2 == '*') {
        if (y < 0) break;
        if (auto p = small_pow(x, y)) return Value::integer(*p);
        break;
      }
      if (!__builtin_mul_overflow(x, y, &r)) return Value::integer(r);
      break;
    case '/':
      if (op2 == '/') {
        if (y == 0) throw ZeroDivisionError("integer division or modulo by zero");
        if (x == INT64_MIN && y == -1) break;
        return Value::integer(py_floordiv(x, y));
      }
      break;
    case '%':
      if (y == 0) throw ZeroDivisionError("integer modulo by zero");
      return Value::integer(py_mod(x, y));
    case '&': return Value::integer(x & y);
    case '|': return Value::integer(x | y);
    case '^': return Value::integer(x ^ y);
    case '<':
      if (y < 0) throw ValueError("negative shift count");
      if (x == 0) return Value::integer(0);
      if (y < 63 && (x << y) >> y == x) return Value::integer(x << y);   // x << y: y < 63 and no bit lost
      break;
    case '>':
      if (y < 0) throw ValueError("negative shift count");
      return Value::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);   // arithmetic shift: Python's floor
  }
  return std::nullopt;
}

}  // namespace

bool is_int(const Value& v) { return v.kind == Value::Int || v.kind == Value::Bool; }

BigInt big_of(const Value& v) { return v.is_big() ? v.big() : BigInt(small_of(v)); }

int64_t small_of(const Value& v) { return v.kind == Value::Bool ? int64_t(v.b) : v.i; }

Value int_binop(const std::string& op, const Value& a, const Value& b) {
  const char op1 = op[0], op2 = op.size() > 1 ? op[1] : '\0';
  if (op == "/") {
    if (!a.is_big() && !b.is_big()) {
      int64_t x = small_of(a), y = small_of(b);
      if (y == 0) throw ZeroDivisionError("division by zero");
      constexpr int64_t exact = int64_t(1) << DBL_MANT_DIG;   // both exact as floats: one rounding, as CPython
      if (x >= -exact && x <= exact && y >= -exact && y <= exact) return Value::number(static_cast<double>(x) / static_cast<double>(y));
    }
    BigInt y = big_of(b);
    if (y.is_zero()) throw ZeroDivisionError("division by zero");
    return Value::number(true_divide(big_of(a), y));
  }
  if (!a.is_big() && !b.is_big())
    if (std::optional<Value> r = small_binop(op1, op2, small_of(a), small_of(b))) return *r;
  if (op == "**") {
    if (b.is_big() ? b.big().negative() : small_of(b) < 0) return negative_power(a, b);
    BigInt base = big_of(a);
    if (b.is_big()) {   // only 0, 1 and -1 have a power with such an exponent below the limit
      if (base.bit_length() > 1) check_int_bits(UINT64_MAX, "**", "at least ");
      bool odd = !bit_and(b.big(), BigInt(1)).is_zero();
      return Value::integer(BigInt::pow(base, odd ? 1 : 2));
    }
    return Value::integer(BigInt::pow(base, static_cast<uint64_t>(small_of(b))));
  }
  if (op == "<<") {
    uint64_t n = shift_count(b);
    return Value::integer(big_of(a).shifted_left(n));
  }
  if (op == ">>") {
    uint64_t n = shift_count(b);
    return Value::integer(big_of(a).shifted_right(n));
  }
  BigInt x = big_of(a), y = big_of(b);
  switch (op1) {
    case '+': return Value::integer(x + y);
    case '-': return Value::integer(x - y);
    case '*': return Value::integer(x * y);
    case '&': return Value::integer(bit_and(x, y));
    case '|': return Value::integer(bit_or(x, y));
    case '^': return Value::integer(bit_xor(x, y));
    case '/': case '%': {
      if (y.is_zero()) throw ZeroDivisionError(op1 == '%' ? "integer modulo by zero" : "integer division or modulo by zero");
      BigInt q, r;
      BigInt::divmod(x, y, q, r);
      return Value::integer(op1 == '%' ? r : q);
    }
  }
  throw TypeError("unsupported operand type(s) for " + op + ": '" + type_name(a) + "' and '" + type_name(b) + "'");
}

Value int_neg(const Value& v) {
  if (!v.is_big() && small_of(v) != INT64_MIN) return Value::integer(-small_of(v));
  return Value::integer(-big_of(v));
}

Value int_invert(const Value& v) {   // ~v == -v - 1
  if (!v.is_big()) return Value::integer(~small_of(v));
  return Value::integer(-big_of(v) - BigInt(1));
}

Value int_abs(const Value& v) {
  if (!v.is_big() && small_of(v) != INT64_MIN) return Value::integer(std::llabs(small_of(v)));
  return Value::integer(big_of(v).abs());
}

int compare_numbers(const Value& a, const Value& b) {
  const bool fa = a.kind == Value::Float, fb = b.kind == Value::Float;
  if (fa && fb) return a.f < b.f ? -1 : a.f > b.f ? 1 : a.f == b.f ? 0 : 2;
  if (!fa && !fb) {
    if (!a.is_big() && !b.is_big()) {
      int64_t x = small_of(a), y = small_of(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return compare(big_of(a), big_of(b));
  }
  if (fa) {   // float vs int: the opposite of int vs float
    int c = compare_numbers(b, a);
    return c == 2 ? 2 : -c;
  }
  // int a vs float d, exactly (CPython's float_richcompare)
  const double d = b.f;
  if (std::isnan(d)) return 2;
  if (std::isinf(d)) return d > 0 ? -1 : 1;
  constexpr int64_t exact = int64_t(1) << DBL_MANT_DIG;
  if (!a.is_big() && small_of(a) >= -exact && small_of(a) <= exact) {
    double x = static_cast<double>(small_of(a));
    return x < d ? -1 : x > d ? 1 : 0;
  }
  double whole = std::trunc(d);
  int c = compare(big_of(a), BigInt::from_double(whole));
  if (c != 0) return c;
  return d > whole ? -1 : d < whole ? 1 : 0;
}

double int_to_double(const Value& v) {
  if (!v.is_big()) return static_cast<double>(small_of(v));   // rounded half to even, as CPython
  double d = 0;
  if (!v.big().to_double(d)) throw OverflowError("int too large to convert to float");
  return d;
}

namespace {
std::string digits_limit_message(const std::string& detail) {
  return fmt::format("Exceeds the limit ({} digits) for integer string conversion{}; attn keeps CPython's default "
                     "limit (limits::kMaxIntStrDigits; there is no sys.set_int_max_str_digits)", limits::kMaxIntStrDigits, detail);
}
}  // namespace

std::string int_repr(const Value& v) {
  if (!v.is_big()) return v.kind == Value::Bool ? std::to_string(int(v.b)) : std::to_string(v.i);
  // 10**4300 has 14,284.6 bits: anything longer has more digits than the limit, uncounted.
  if (v.big().bit_length() > 14'290) throw ValueError(digits_limit_message(""));
  std::string s = v.big().to_decimal();
  if (s.size() - (s[0] == '-') > limits::kMaxIntStrDigits) throw ValueError(digits_limit_message(""));
  return s;
}

Value int_from_string(const std::string& text, const Value* shown) {
  auto invalid = [&] { throw ValueError("invalid literal for int() with base 10: " + repr(shown ? *shown : Value::str(text))); };
  size_t b = text.find_first_not_of(" \t\n\r\f\v"), e = text.find_last_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) invalid();
  std::string_view s(text.data() + b, e - b + 1);
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::string digits;
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == '_' && k > 0 && k + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[k - 1])) &&
        std::isdigit(static_cast<unsigned char>(s[k + 1])))
      continue;
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) invalid();
    digits += s[k];
  }
  if (digits.empty()) invalid();
  if (digits.size() > limits::kMaxIntStrDigits) throw ValueError(digits_limit_message(fmt::format(": value has {} digits", digits.size())));
  if (digits.size() <= 18) {
    int64_t x = std::stoll(digits);
    return Value::integer(negative ? -x : x);
  }
  return Value::integer(BigInt::from_decimal(digits, negative));
}

Value int_from_double(double x) {
  if (std::isinf(x)) throw OverflowError("cannot convert float infinity to integer");
  if (std::isnan(x)) throw ValueError("cannot convert float NaN to integer");
  if (x > -9.2e18 && x < 9.2e18) return Value::integer(static_cast<int64_t>(x));   // truncates, as int()
  return Value::integer(BigInt::from_double(x));
}

Value round_int(const Value& v, const Value& ndigits) {
  // round(x, n) with n >= 0 is x; with n < 0, x to a multiple of 10**-n, half to even.
  if (ndigits.is_big() ? !ndigits.big().negative() : small_of(ndigits) >= 0) return Value::integer(big_of(v));
  if (ndigits.is_big() || small_of(ndigits) < -static_cast<int64_t>(limits::kMaxIntStrDigits) - 1) return Value::integer(0);
  BigInt pow10 = BigInt::pow(BigInt(10), static_cast<uint64_t>(-small_of(ndigits)));
  BigInt q, r;
  BigInt::divmod(big_of(v), pow10, q, r);   // v = q * pow10 + r, 0 <= r < pow10
  int c = compare(r + r, pow10);
  BigInt q_odd, parity;
  BigInt::divmod(q, BigInt(2), q_odd, parity);
  if (c > 0 || (c == 0 && !parity.is_zero())) q = q + BigInt(1);
  return Value::integer(q * pow10);
}

int64_t int_hash(const Value& v) {
  if (v.is_big()) return v.big().hash();
  int64_t x = small_of(v);
  constexpr uint64_t kModulus = (uint64_t(1) << 61) - 1;
  uint64_t magnitude = x < 0 ? uint64_t(0) - uint64_t(x) : uint64_t(x);
  auto h = static_cast<int64_t>(magnitude % kModulus);
  if (x < 0) h = -h;
  return h == -1 ? -2 : h;
}

int64_t to_index(const Value& v, const char* what) {
  if (v.is_big()) throw IndexError("cannot fit 'int' into an index-sized integer");
  if (is_int(v)) return small_of(v);
  throw TypeError(std::string() + what + " must be an integer, not " + type_name(v));
}

int64_t to_count(const Value& v) {
  if (v.is_big()) throw OverflowError("cannot fit 'int' into an index-sized integer");
  return small_of(v);
}

int64_t to_slice_bound(const Value& v) {
  if (v.is_big()) return v.big().negative() ? -INT64_MAX : INT64_MAX;
  if (is_int(v)) return small_of(v);
  if (v.kind == Value::Instance)
    if (Interpreter* in = Interpreter::current())
      if (std::optional<int64_t> k = in->index(v)) return *k;   // an object with __index__
  throw TypeError("slice indices must be integers or None or have an __index__ method");
}

}  // namespace attn::py
