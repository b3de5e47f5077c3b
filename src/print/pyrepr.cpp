// print/pyrepr.cpp: Python's repr() of float and str (see pyrepr.h).
#include "print/pyrepr.h"
#include "print/unicode.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>

namespace attn::print {
namespace detail {

// ---------------------------------------------------------------------------------------------
// Python repr() helpers

namespace {

// Shortest round-trip digits and decimal point position: value = 0.DIGITS * 10**decpt.
struct ShortestDigits {
  std::string digits;
  int decpt = 0;
};

ShortestDigits shortest_digits(double magnitude) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, magnitude, std::chars_format::scientific);
  const std::string s(buf, res.ptr);  // "d.ddde+XX" or "de+XX"
  const std::size_t e = s.find('e');
  ShortestDigits out;
  for (std::size_t k = 0; k < e; ++k) {
    if (s[k] != '.') out.digits += s[k];
  }
  out.decpt = std::stoi(s.substr(e + 1)) + 1;
  return out;
}

}  // namespace

// Python's float_repr_style 'short' (format_float_short with 'r'): exponent form when
// decpt <= -4 or decpt > 16, otherwise fixed with at least one digit after the point.
std::string py_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0.0) return sign + "0.0";
  const ShortestDigits d = shortest_digits(std::fabs(v));
  const int ndigits = static_cast<int>(d.digits.size());
  if (d.decpt <= -4 || d.decpt > 16) {
    std::string mant = d.digits.substr(0, 1);
    if (ndigits > 1) mant.append(".").append(d.digits, 1, std::string::npos);
    const int exp = d.decpt - 1;
    return sign + mant + fmt::format("e{}{:02d}", exp < 0 ? '-' : '+', std::abs(exp));
  }
  if (d.decpt <= 0) return sign + "0." + std::string(static_cast<std::size_t>(-d.decpt), '0') + d.digits;
  if (d.decpt >= ndigits) {
    return sign + d.digits + std::string(static_cast<std::size_t>(d.decpt - ndigits), '0') + ".0";
  }
  return sign + d.digits.substr(0, static_cast<std::size_t>(d.decpt)) + "." +
         d.digits.substr(static_cast<std::size_t>(d.decpt));
}

// str.isprintable() of one code point, from CPython's own table (unicode.h).
bool py_is_printable(char32_t c) { return unicode::is_printable(c); }

// Decodes one UTF-8 sequence at s[pos]; advances pos. Invalid bytes decode as U+DC80+byte
// (Python's surrogateescape), which then prints as \udcXX.
char32_t decode_utf8(const std::string& s, std::size_t& pos) {
  const auto b0 = static_cast<unsigned char>(s[pos]);
  int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
  if (len == 0 || pos + static_cast<std::size_t>(len) > s.size()) {
    ++pos;
    return len == 1 ? b0 : 0xdc00 + b0;
  }
  char32_t c = len == 1 ? b0 : b0 & (0x7f >> len);
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[pos + static_cast<std::size_t>(k)]);
    if ((b & 0xc0) != 0x80) {
      ++pos;
      return 0xdc00 + b0;
    }
    c = (c << 6) | (b & 0x3f);
  }
  pos += static_cast<std::size_t>(len);
  return c;
}

}  // namespace detail

std::string py_float_repr(double v) { return detail::py_float_repr(v); }

// unicode_repr (Objects/unicodeobject.c): choose the quote, escape quote, backslash, \t \n \r,
// other non-printables as \xHH, \uHHHH or \UHHHHHHHH; printable characters pass through.
std::string py_str_repr(const std::string& s) {
  const bool has_single = s.find('\'') != std::string::npos;
  const bool has_double = s.find('"') != std::string::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t start = pos;
    const char32_t c = detail::decode_utf8(s, pos);
    if (c == static_cast<char32_t>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (!detail::py_is_printable(c)) {
      const auto u = static_cast<uint32_t>(c);
      out += u <= 0xff ? fmt::format("\\x{:02x}", u) : u <= 0xffff ? fmt::format("\\u{:04x}", u)
                                                                 : fmt::format("\\U{:08x}", u);
    } else {
      out += s.substr(start, pos - start);
    }
  }
  return out + quote;
}

std::size_t py_str_repr_size(const std::string& s) {   // py_str_repr's cases, counted
  const char quote = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::size_t size = 2, pos = 0;
  while (pos < s.size()) {
    const std::size_t start = pos;
    const char32_t c = detail::decode_utf8(s, pos);
    if (c == static_cast<char32_t>(quote) || c == '\\' || c == '\t' || c == '\n' || c == '\r') size += 2;
    else if (!detail::py_is_printable(c)) size += c <= 0xff ? 4 : c <= 0xffff ? 6 : 10;
    else size += pos - start;
  }
  return size;
}

}  // namespace attn::print
