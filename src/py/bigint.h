// py/bigint.h: Python's unbounded int, for the values that do not fit in 64 bits.
//
// What it is: a sign and a magnitude in 32-bit limbs, with the arithmetic Python's int has
// (floor division and modulo, powers, shifts and bitwise operators on two's complement), exact
// conversions (decimal text, float rounded half to even as CPython does) and CPython's hash.
// Every result is checked against limits::kMaxIntBits before it is computed, so 2**(10**18)
// fails at once instead of running for hours.
// What it is not: fast for huge numbers (schoolbook multiplication and division, fine at the
// limit's 100,000 bits), or the Value-level operators (ints.h), which keep int64 fast paths.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::py {

class BigInt {
 public:
  BigInt() = default;
  explicit BigInt(int64_t v);
  static BigInt from_uint64(uint64_t v);
  static BigInt from_double(double v);   // int(v): v finite, truncated toward zero
  // Decimal digits ('0'-'9' only, at least one): the caller checks the digit limit.
  static BigInt from_decimal(std::string_view digits, bool negative);

  bool is_zero() const { return mag_.empty(); }
  bool negative() const { return neg_; }
  uint64_t bit_length() const;              // of |v|; 0 for 0
  bool fits_int64() const;
  int64_t to_int64() const;                 // requires fits_int64()
  bool fits_uint64() const;                 // 0 <= v < 2**64
  uint64_t to_uint64() const;               // requires fits_uint64()
  // float(v) rounded half to even; false when that is 2**1024 or more in magnitude (overflow).
  bool to_double(double& out) const;
  // |v| = m * 2**e with m in [0.5, 1) rounded half to even to 53 bits, as _PyLong_Frexp: what
  // math.log takes of an int too large for a float. Requires v != 0.
  double frexp(int64_t& e) const;
  std::string to_decimal() const;           // "-123"
  std::string magnitude_in_base(int base) const;   // |v| in base 2, 8 or 16 (lowercase digits)
  int64_t hash() const;                     // CPython's hash(): |v| mod 2**61 - 1, signed; -1 is -2

  friend int compare(const BigInt& a, const BigInt& b);   // -1, 0, 1
  friend bool operator==(const BigInt& a, const BigInt& b) { return a.neg_ == b.neg_ && a.mag_ == b.mag_; }
  BigInt operator-() const;
  BigInt abs() const;
  friend BigInt operator+(const BigInt& a, const BigInt& b);
  friend BigInt operator-(const BigInt& a, const BigInt& b);
  friend BigInt operator*(const BigInt& a, const BigInt& b);
  // Python's divmod: q = floor(a / b), r = a - q * b (the sign of b). Requires b != 0.
  static void divmod(const BigInt& a, const BigInt& b, BigInt& q, BigInt& r);
  static BigInt pow(const BigInt& base, uint64_t exponent);
  BigInt shifted_left(uint64_t n) const;
  BigInt shifted_right(uint64_t n) const;   // floor(v / 2**n), as Python's >>
  friend BigInt bit_and(const BigInt& a, const BigInt& b);
  friend BigInt bit_or(const BigInt& a, const BigInt& b);
  friend BigInt bit_xor(const BigInt& a, const BigInt& b);

 private:
  bool neg_ = false;
  std::vector<uint32_t> mag_;   // least significant first, no leading zero limbs; empty for 0
  void trim();
  static BigInt with_magnitude(std::vector<uint32_t> mag, bool negative);
  static BigInt bitwise(const BigInt& a, const BigInt& b, char op);
  friend double true_divide(const BigInt& a, const BigInt& b);
};

// a / b, correctly rounded as CPython's long_true_divide (b != 0); raises OverflowError when the
// quotient is too large for a float.
double true_divide(const BigInt& a, const BigInt& b);

// Raises LimitError when an int of `bits` bits (qualifier: "at least ") would be made by `op`.
void check_int_bits(uint64_t bits, const char* op, const char* qualifier = "");

}  // namespace attn::py
