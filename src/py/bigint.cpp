// py/bigint.cpp: the arbitrary-precision int (see bigint.h). Division is Knuth's algorithm D
// (Hacker's Delight, divmnu); int -> float and int / int round as CPython's _PyLong_Frexp and
// long_true_divide (Objects/longobject.c) do, so the last bit is Python's.
#include "py/exceptions.h"
#include "py/bigint.h"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "py/limits.h"

namespace attn::py {

namespace {

using Mag = std::vector<uint32_t>;

void trim_mag(Mag& m) {
  while (!m.empty() && m.back() == 0) m.pop_back();
}

uint64_t mag_bits(const Mag& m) {
  if (m.empty()) return 0;
  return (m.size() - 1) * 32 + (32 - static_cast<uint64_t>(__builtin_clz(m.back())));
}

int mag_cmp(const Mag& a, const Mag& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t k = a.size(); k-- > 0;)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

Mag mag_add(const Mag& a, const Mag& b) {
  const Mag& big = a.size() >= b.size() ? a : b;
  const Mag& small = a.size() >= b.size() ? b : a;
  Mag r(big.size() + 1);
  uint64_t carry = 0;
  for (size_t k = 0; k < big.size(); ++k) {
    uint64_t t = uint64_t(big[k]) + (k < small.size() ? small[k] : 0) + carry;
    r[k] = static_cast<uint32_t>(t);
    carry = t >> 32;
  }
  r[big.size()] = static_cast<uint32_t>(carry);
  trim_mag(r);
  return r;
}

Mag mag_sub(const Mag& a, const Mag& b) {   // a >= b
  Mag r(a.size());
  int64_t borrow = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    int64_t t = int64_t(a[k]) - (k < b.size() ? int64_t(b[k]) : 0) - borrow;
    borrow = t < 0;
    r[k] = static_cast<uint32_t>(t + (borrow << 32));
  }
  trim_mag(r);
  return r;
}

Mag mag_mul(const Mag& a, const Mag& b) {
  if (a.empty() || b.empty()) return {};
  Mag r(a.size() + b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.size(); ++j) {
      uint64_t t = uint64_t(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    r[i + b.size()] = static_cast<uint32_t>(carry);
  }
  trim_mag(r);
  return r;
}

Mag mag_shl(const Mag& a, uint64_t n) {
  if (a.empty()) return {};
  size_t limbs = n / 32;
  unsigned bits = n % 32;
  Mag r(a.size() + limbs + 1, 0);
  for (size_t k = 0; k < a.size(); ++k) {
    uint64_t t = uint64_t(a[k]) << bits;
    r[k + limbs] |= static_cast<uint32_t>(t);
    r[k + limbs + 1] |= static_cast<uint32_t>(t >> 32);
  }
  trim_mag(r);
  return r;
}

Mag mag_shr(const Mag& a, uint64_t n) {
  size_t limbs = n / 32;
  unsigned bits = n % 32;
  if (limbs >= a.size()) return {};
  Mag r(a.size() - limbs);
  for (size_t k = 0; k < r.size(); ++k) {
    uint64_t t = a[k + limbs] >> bits;
    if (bits && k + limbs + 1 < a.size()) t |= uint64_t(a[k + limbs + 1]) << (32 - bits) & 0xffffffffu;
    r[k] = static_cast<uint32_t>(t);
  }
  trim_mag(r);
  return r;
}

bool mag_any_below(const Mag& a, uint64_t n) {   // any of the lowest n bits set
  for (size_t k = 0; k < a.size() && k * 32 < n; ++k) {
    uint64_t take = std::min<uint64_t>(32, n - k * 32);
    uint32_t mask = take == 32 ? 0xffffffffu : (uint32_t(1) << take) - 1;
    if (a[k] & mask) return true;
  }
  return false;
}

uint64_t mag_low64(const Mag& a) {
  uint64_t v = 0;
  for (size_t k = 0; k < a.size() && k < 2; ++k) v |= uint64_t(a[k]) << (32 * k);
  return v;
}

// u = q * v + r, 0 <= r < v (v != 0): Knuth's algorithm D on 32-bit limbs.
void mag_divmod(const Mag& u, const Mag& v, Mag& q, Mag& r) {
  if (mag_cmp(u, v) < 0) {
    q.clear();
    r = u;
    return;
  }
  const size_t m = u.size(), n = v.size();
  if (n == 1) {
    q.assign(m, 0);
    uint64_t rem = 0;
    for (size_t j = m; j-- > 0;) {
      uint64_t cur = (rem << 32) | u[j];
      q[j] = static_cast<uint32_t>(cur / v[0]);
      rem = cur % v[0];
    }
    trim_mag(q);
    r = rem ? Mag{static_cast<uint32_t>(rem)} : Mag{};
    return;
  }
  const unsigned s = static_cast<unsigned>(__builtin_clz(v[n - 1]));
  auto high = [s](uint32_t x) { return s ? static_cast<uint32_t>(uint64_t(x) >> (32 - s)) : 0u; };
  Mag vn(n), un(m + 1);
  for (size_t i = n - 1; i > 0; --i) vn[i] = (v[i] << s) | high(v[i - 1]);
  vn[0] = v[0] << s;
  un[m] = high(u[m - 1]);
  for (size_t i = m - 1; i > 0; --i) un[i] = (u[i] << s) | high(u[i - 1]);
  un[0] = u[0] << s;
  q.assign(m - n + 1, 0);
  constexpr uint64_t b = uint64_t(1) << 32;
  for (size_t j = m - n + 1; j-- > 0;) {
    uint64_t num = (uint64_t(un[j + n]) << 32) | un[j + n - 1];
    uint64_t qhat = num / vn[n - 1], rhat = num % vn[n - 1];
    while (qhat >= b || qhat * vn[n - 2] > ((rhat << 32) | un[j + n - 2])) {
      --qhat;
      rhat += vn[n - 1];
      if (rhat >= b) break;
    }
    int64_t k = 0, t = 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t p = qhat * vn[i];
      t = int64_t(un[i + j]) - k - int64_t(p & 0xffffffffu);
      un[i + j] = static_cast<uint32_t>(t);
      k = int64_t(p >> 32) - (t >> 32);
    }
    t = int64_t(un[j + n]) - k;
    un[j + n] = static_cast<uint32_t>(t);
    q[j] = static_cast<uint32_t>(qhat);
    if (t < 0) {   // qhat was one too large (rare): add v back
      --q[j];
      uint64_t c = 0;
      for (size_t i = 0; i < n; ++i) {
        uint64_t sum = uint64_t(un[i + j]) + vn[i] + c;
        un[i + j] = static_cast<uint32_t>(sum);
        c = sum >> 32;
      }
      un[j + n] = static_cast<uint32_t>(un[j + n] + c);
    }
  }
  trim_mag(q);
  r.assign(n, 0);
  for (size_t i = 0; i < n; ++i)
    r[i] = static_cast<uint32_t>((uint64_t(un[i]) >> s) | (s ? (uint64_t(un[i + 1]) << (32 - s)) & 0xffffffffu : 0));
  trim_mag(r);
}

// Rounds the top of x (which has x_bits >= 55 significant bits... or fewer, see callers) to a
// multiple of 2**extra_bits, half to even, `inexact` saying bits below x were lost already.
uint64_t round_half_even(uint64_t x, int extra_bits, bool inexact) {
  uint64_t mask = uint64_t(1) << (extra_bits - 1);
  const uint64_t low = x | (inexact ? 1 : 0);   // the bit above the half (x's last kept bit) decides a tie
  if ((low & mask) && (low & (3 * mask - 1))) x += mask;
  return x & ~(2 * mask - 1);
}

}  // namespace

void check_int_bits(uint64_t bits, const char* op, const char* qualifier) {
  if (bits > limits::kMaxIntBits)
    throw LimitError(0, fmt::format("OverflowError: int too large: the result of {} would have {}{} bits, more than attn's limit of {} "
                                 "bits for an int (limits::kMaxIntBits)", op, qualifier, with_commas(bits), with_commas(limits::kMaxIntBits)));
}

// ---- construction and conversion ----

BigInt::BigInt(int64_t v) {
  neg_ = v < 0;
  uint64_t m = neg_ ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  while (m) {
    mag_.push_back(static_cast<uint32_t>(m));
    m >>= 32;
  }
}

BigInt BigInt::from_uint64(uint64_t v) {
  BigInt r;
  while (v) {
    r.mag_.push_back(static_cast<uint32_t>(v));
    v >>= 32;
  }
  return r;
}

BigInt BigInt::with_magnitude(Mag mag, bool negative) {
  BigInt r;
  r.mag_ = std::move(mag);
  r.trim();
  r.neg_ = negative && !r.mag_.empty();
  return r;
}

void BigInt::trim() {
  trim_mag(mag_);
  if (mag_.empty()) neg_ = false;
}

BigInt BigInt::from_double(double v) {
  int e = 0;
  double m = std::frexp(std::fabs(v), &e);   // |v| = m * 2**e, 0.5 <= m < 1
  if (m == 0 || e <= 0) return BigInt();
  auto mantissa = static_cast<uint64_t>(std::ldexp(m, 53));   // exact: 53 bits
  Mag mag = {static_cast<uint32_t>(mantissa), static_cast<uint32_t>(mantissa >> 32)};
  trim_mag(mag);
  mag = e >= 53 ? mag_shl(mag, static_cast<uint64_t>(e - 53)) : mag_shr(mag, static_cast<uint64_t>(53 - e));
  return with_magnitude(std::move(mag), v < 0);
}

BigInt BigInt::from_decimal(std::string_view digits, bool negative) {
  Mag mag;
  size_t k = 0;
  while (k < digits.size()) {
    size_t take = std::min<size_t>(9, digits.size() - k);
    uint32_t chunk = 0, scale = 1;
    for (size_t d = 0; d < take; ++d) {
      chunk = chunk * 10 + static_cast<uint32_t>(digits[k + d] - '0');
      scale *= 10;
    }
    uint64_t carry = chunk;
    for (uint32_t& limb : mag) {
      uint64_t t = uint64_t(limb) * scale + carry;
      limb = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    if (carry) mag.push_back(static_cast<uint32_t>(carry));
    k += take;
  }
  return with_magnitude(std::move(mag), negative);
}

uint64_t BigInt::bit_length() const { return mag_bits(mag_); }

bool BigInt::fits_int64() const {
  if (mag_.size() > 2) return false;
  uint64_t m = mag_low64(mag_);
  return neg_ ? m <= uint64_t(1) << 63 : m < uint64_t(1) << 63;
}

int64_t BigInt::to_int64() const {
  uint64_t m = mag_low64(mag_);
  return neg_ ? static_cast<int64_t>(uint64_t(0) - m) : static_cast<int64_t>(m);
}

bool BigInt::fits_uint64() const { return !neg_ && mag_.size() <= 2; }
uint64_t BigInt::to_uint64() const { return mag_low64(mag_); }

bool BigInt::to_double(double& out) const {
  uint64_t bits = bit_length();
  double d = 0;
  if (bits <= 64) {
    d = static_cast<double>(mag_low64(mag_));   // the hardware rounds half to even
  } else {
    // The top 55 bits, the rest folded into `inexact`, rounded to 53: _PyLong_Frexp's way.
    if (bits > DBL_MAX_EXP + 1) return false;
    uint64_t shift = bits - 55;
    uint64_t x = mag_low64(mag_shr(mag_, shift));
    x = round_half_even(x, 2, mag_any_below(mag_, shift));
    d = std::ldexp(static_cast<double>(x), static_cast<int>(shift));
  }
  if (std::isinf(d)) return false;
  out = neg_ ? -d : d;
  return true;
}

double BigInt::frexp(int64_t& e) const {
  const uint64_t bits = bit_length();
  uint64_t x = mag_low64(mag_);
  if (bits > 55) x = round_half_even(mag_low64(mag_shr(mag_, bits - 55)), 2, mag_any_below(mag_, bits - 55));
  double m = std::ldexp(static_cast<double>(x), -static_cast<int>(std::min<uint64_t>(bits, 55)));
  e = static_cast<int64_t>(bits);
  if (m == 1.0) {   // rounded up to the next power of two
    m = 0.5;
    ++e;
  }
  return m;
}

std::string BigInt::to_decimal() const {
  if (mag_.empty()) return "0";
  Mag m = mag_;
  std::vector<uint32_t> chunks;   // base 10**9, least significant first
  while (!m.empty()) {
    uint64_t rem = 0;
    for (size_t j = m.size(); j-- > 0;) {
      uint64_t cur = (rem << 32) | m[j];
      m[j] = static_cast<uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    trim_mag(m);
    chunks.push_back(static_cast<uint32_t>(rem));
  }
  std::string out = neg_ ? "-" : "";
  out += std::to_string(chunks.back());
  for (size_t k = chunks.size() - 1; k-- > 0;) out += fmt::format("{:09d}", chunks[k]);
  return out;
}

std::string BigInt::magnitude_in_base(int base) const {
  const unsigned per_digit = base == 2 ? 1 : base == 8 ? 3 : 4;
  const uint64_t bits = bit_length();
  if (bits == 0) return "0";
  std::string out;
  for (uint64_t at = 0; at < bits; at += per_digit) {
    uint64_t limb = at / 32, off = at % 32;
    uint64_t window = mag_[limb] >> off;
    if (off + per_digit > 32 && limb + 1 < mag_.size()) window |= uint64_t(mag_[limb + 1]) << (32 - off);
    out += "0123456789abcdef"[window & ((1u << per_digit) - 1)];
  }
  std::reverse(out.begin(), out.end());
  return out;
}

int64_t BigInt::hash() const {
  constexpr uint64_t kModulus = (uint64_t(1) << 61) - 1;
  uint64_t x = 0;
  for (size_t k = mag_.size(); k-- > 0;) x = static_cast<uint64_t>(((static_cast<unsigned __int128>(x) << 32) | mag_[k]) % kModulus);
  auto h = static_cast<int64_t>(x);
  if (neg_) h = -h;
  return h == -1 ? -2 : h;
}

// ---- arithmetic ----

int compare(const BigInt& a, const BigInt& b) {
  if (a.neg_ != b.neg_) return a.neg_ ? -1 : 1;
  int c = mag_cmp(a.mag_, b.mag_);
  return a.neg_ ? -c : c;
}

BigInt BigInt::operator-() const { return with_magnitude(mag_, !neg_); }
BigInt BigInt::abs() const { return with_magnitude(mag_, false); }

BigInt operator+(const BigInt& a, const BigInt& b) {
  BigInt r;
  if (a.neg_ == b.neg_) {
    r = BigInt::with_magnitude(mag_add(a.mag_, b.mag_), a.neg_);
  } else {
    int c = mag_cmp(a.mag_, b.mag_);
    if (c == 0) return BigInt();
    r = c > 0 ? BigInt::with_magnitude(mag_sub(a.mag_, b.mag_), a.neg_) : BigInt::with_magnitude(mag_sub(b.mag_, a.mag_), b.neg_);
  }
  check_int_bits(r.bit_length(), "+");
  return r;
}

BigInt operator-(const BigInt& a, const BigInt& b) { return a + (-b); }

BigInt operator*(const BigInt& a, const BigInt& b) {
  if (a.is_zero() || b.is_zero()) return BigInt();
  check_int_bits(a.bit_length() + b.bit_length() - 1, "*");
  BigInt r = BigInt::with_magnitude(mag_mul(a.mag_, b.mag_), a.neg_ != b.neg_);
  check_int_bits(r.bit_length(), "*");
  return r;
}

void BigInt::divmod(const BigInt& a, const BigInt& b, BigInt& q, BigInt& r) {
  Mag qm, rm;
  mag_divmod(a.mag_, b.mag_, qm, rm);
  q = with_magnitude(std::move(qm), a.neg_ != b.neg_);
  r = with_magnitude(std::move(rm), a.neg_);
  if (!r.is_zero() && a.neg_ != b.neg_) {   // truncated -> floored: q - 1, r + b
    q = with_magnitude(mag_add(q.mag_, {1}), true);
    r = r + b;
  }
}

BigInt BigInt::pow(const BigInt& base, uint64_t exponent) {
  if (exponent == 0) return BigInt(1);
  uint64_t bits = base.bit_length();
  if (bits <= 1) return base.neg_ && exponent % 2 == 0 ? base.abs() : base;   // 0, 1 or -1
  // |base|**e has at least (bits - 1) * e + 1 bits: refuse before computing anything.
  unsigned __int128 least = static_cast<unsigned __int128>(bits - 1) * exponent + 1;
  if (least > limits::kMaxIntBits) check_int_bits(static_cast<uint64_t>(std::min<unsigned __int128>(least, UINT64_MAX)), "**", "at least ");
  BigInt result(1), square = base;
  for (uint64_t e = exponent;;) {
    if (e & 1) result = result * square;
    e >>= 1;
    if (!e) break;
    square = square * square;
  }
  return result;
}

BigInt BigInt::shifted_left(uint64_t n) const {
  if (is_zero()) return BigInt();
  unsigned __int128 bits = static_cast<unsigned __int128>(bit_length()) + n;
  check_int_bits(static_cast<uint64_t>(std::min<unsigned __int128>(bits, UINT64_MAX)), "<<");
  return with_magnitude(mag_shl(mag_, n), neg_);
}

BigInt BigInt::shifted_right(uint64_t n) const {
  if (!neg_) return with_magnitude(mag_shr(mag_, n), false);
  // floor(-m / 2**n) = -(((m - 1) >> n) + 1)
  Mag m1 = mag_sub(mag_, {1});
  return with_magnitude(mag_add(mag_shr(m1, n), {1}), true);
}

BigInt BigInt::bitwise(const BigInt& a, const BigInt& b, char op) {
  // Two's complement over enough limbs for both, plus a sign limb.
  size_t n = std::max(a.mag_.size(), b.mag_.size()) + 1;
  auto twos = [n](const BigInt& x) {
    Mag t = x.neg_ ? mag_sub(x.mag_, {1}) : x.mag_;
    t.resize(n, 0);
    if (x.neg_)
      for (uint32_t& limb : t) limb = ~limb;
    return t;
  };
  Mag x = twos(a), y = twos(b), r(n);
  for (size_t k = 0; k < n; ++k) r[k] = op == '&' ? x[k] & y[k] : op == '|' ? x[k] | y[k] : x[k] ^ y[k];
  bool negative = r[n - 1] >> 31;
  if (negative) {
    for (uint32_t& limb : r) limb = ~limb;
    trim_mag(r);
    r = mag_add(r, {1});
  }
  return with_magnitude(std::move(r), negative);
}

BigInt bit_and(const BigInt& a, const BigInt& b) { return BigInt::bitwise(a, b, '&'); }
BigInt bit_or(const BigInt& a, const BigInt& b) { return BigInt::bitwise(a, b, '|'); }
BigInt bit_xor(const BigInt& a, const BigInt& b) { return BigInt::bitwise(a, b, '^'); }

double true_divide(const BigInt& a, const BigInt& b) {
  const bool negate = a.negative() != b.negative();
  const BigInt x = a.abs(), y = b.abs();
  auto sign = [negate](double d) { return negate ? -d : d; };
  if (x.is_zero()) return sign(0.0);
  const auto a_bits = static_cast<int64_t>(x.bit_length()), b_bits = static_cast<int64_t>(y.bit_length());
  if (a_bits <= DBL_MANT_DIG && b_bits <= DBL_MANT_DIG)   // both exact as floats: one rounding
    return sign(static_cast<double>(x.to_uint64()) / static_cast<double>(y.to_uint64()));
  const int64_t diff = a_bits - b_bits;
  if (diff > DBL_MAX_EXP) throw OverflowError("integer division result too large for a float");
  if (diff < DBL_MIN_EXP - DBL_MANT_DIG - 1) return sign(0.0);
  // x / y scaled by 2**-shift has DBL_MANT_DIG + 2 or 3 bits (or a subnormal's fewer).
  const int64_t shift = std::max<int64_t>(diff, DBL_MIN_EXP) - DBL_MANT_DIG - 2;
  bool inexact = false;
  Mag num = shift <= 0 ? mag_shl(x.mag_, static_cast<uint64_t>(-shift)) : mag_shr(x.mag_, static_cast<uint64_t>(shift));
  if (shift > 0) inexact = mag_any_below(x.mag_, static_cast<uint64_t>(shift));
  Mag q, r;
  mag_divmod(num, y.mag_, q, r);
  inexact = inexact || !r.empty();
  uint64_t xq = mag_low64(q);
  const auto x_bits = static_cast<int64_t>(mag_bits(q));
  const int64_t extra_bits = std::max<int64_t>(x_bits, DBL_MIN_EXP - shift) - DBL_MANT_DIG;
  xq = round_half_even(xq, static_cast<int>(extra_bits), inexact);
  const double dx = static_cast<double>(xq);
  if (shift + x_bits >= DBL_MAX_EXP && (shift + x_bits > DBL_MAX_EXP || dx == std::ldexp(1.0, static_cast<int>(x_bits))))
    throw OverflowError("integer division result too large for a float");
  return sign(std::ldexp(dx, static_cast<int>(shift)));
}

}  // namespace attn::py
