// py/format.cpp: format(value, spec), the `{x:spec}` of f-strings and str.format, and `'%d' % x`.
//
// What it is: Python's format-spec mini-language, [[fill]align][sign][#][0][width][,|_]
// [.precision][type], read once into a Spec. Ints are formatted here as CPython's
// format_long_internal does (any size, grouping into zero padding as '030,' does); floats and
// strings through fmt, whose specs agree with Python's for what lessons write. Widths and
// precisions past limits::kMaxStrBytes stop with a LimitError before anything is allocated.
// What it is not: str.format's field parsing (builtins.cpp) or the `%` operator's full syntax.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"
#include "print/unicode.h"

namespace attn::py {

namespace {

struct Spec {
  std::string fill = " ";   // one character, UTF-8
  char align = '\0';        // < > ^ = or none
  char sign = '\0';         // + - space or none
  bool alternate = false;   // #
  bool zero = false;        // 0 before the width
  uint64_t width = 0;
  char grouping = '\0';     // , or _
  bool has_precision = false;
  uint64_t precision = 0;
  char type = '\0';
};

[[noreturn]] void value_error(const std::string& msg) { throw ValueError(msg); }

size_t utf8_length(unsigned char lead) { return lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 1; }

bool is_align(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

// A run of digits: a width or precision. CPython refuses more than fit a Py_ssize_t.
uint64_t read_number(const std::string& s, size_t& k, const char* what) {
  size_t start = k;
  while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
  if (k - start > 18) value_error("Too many decimal digits in format string");
  uint64_t n = k > start ? std::stoull(s.substr(start, k - start)) : 0;
  check_bytes(std::string("a formatted value's ") + what, n);
  return n;
}

Spec parse_spec(const std::string& s, const Value& v) {
  Spec out;
  size_t k = 0;
  size_t first = s.empty() ? 0 : utf8_length(static_cast<unsigned char>(s[0]));
  if (s.size() > first && is_align(s[first])) {
    out.fill = s.substr(0, first);
    out.align = s[first];
    k = first + 1;
  } else if (!s.empty() && is_align(s[0])) {
    out.align = s[0];
    k = 1;
  }
  if (k < s.size() && (s[k] == '+' || s[k] == '-' || s[k] == ' ')) out.sign = s[k++];
  if (k < s.size() && s[k] == '#') out.alternate = true, ++k;
  if (k < s.size() && s[k] == '0') {
    out.zero = true;
    // as CPython: the fill is '0' unless one was written ('<06' too), '=' unless an align was
    // written; a str ('{:06s}') pads on its default side
    bool fill_given = s.size() > first && is_align(s[first]);
    if (!fill_given) out.fill.assign(1, '0');   // assign(): GCC 12 -Wrestrict (bug 105651)
    if (!out.align) out.align = '=';
    ++k;
  }
  out.width = read_number(s, k, "width");
  if (k < s.size() && (s[k] == ',' || s[k] == '_')) out.grouping = s[k++];
  if (k < s.size() && s[k] == '.') {
    ++k;
    if (k >= s.size() || !std::isdigit(static_cast<unsigned char>(s[k]))) value_error("Format specifier missing precision");
    out.has_precision = true;
    out.precision = read_number(s, k, "precision");
  }
  if (k + 1 < s.size()) value_error("Invalid format specifier '" + s + "' for object of type '" + type_name(v) + "'");
  if (k < s.size()) out.type = s[k];
  return out;
}

// Digits with a separator every `every` digits from the right, padded with zeros (and their
// separators) to at least `min_width` characters: CPython's InsertThousandsGrouping.
std::string group_digits(const std::string& digits, char sep, int every, int64_t min_width) {
  std::string out;   // built right to left
  int64_t remaining = static_cast<int64_t>(digits.size());
  bool first = true;
  for (;;) {
    int64_t len = std::min<int64_t>(every, std::max<int64_t>({remaining, min_width, 1}));
    int64_t zeros = std::max<int64_t>(0, len - remaining), chars = std::max<int64_t>(0, std::min(remaining, len));
    if (!first) out += sep;
    first = false;
    for (int64_t c = 0; c < chars; ++c) out += digits[static_cast<size_t>(remaining - 1 - c)];
    out.append(static_cast<size_t>(zeros), '0');
    remaining -= chars;
    min_width -= len;
    if (remaining <= 0 && min_width <= 0) break;
    min_width -= 1;
  }
  return std::string(out.rbegin(), out.rend());
}

std::string pad(const std::string& body_left, const std::string& body_right, const Spec& s, char default_align) {
  // body_left: sign and prefix (before '=' padding); body_right: the digits
  size_t length = 0;
  for (const std::string* part : {&body_left, &body_right})
    for (size_t k = 0; k < part->size(); k += utf8_length(static_cast<unsigned char>((*part)[k]))) ++length;
  if (s.width <= length) return body_left + body_right;
  uint64_t n = s.width - length;
  auto fill = [&](uint64_t count) {
    std::string f;
    for (uint64_t c = 0; c < count; ++c) f += s.fill;
    return f;
  };
  switch (s.align ? s.align : default_align) {
    case '<': return body_left + body_right + fill(n);
    case '^': return fill(n / 2) + body_left + body_right + fill(n - n / 2);
    case '=': return body_left + fill(n) + body_right;
    default: return fill(n) + body_left + body_right;
  }
}

// format(int, spec) for the integer presentation types: '', d, n, x, X, o, b.
std::string format_int(const Value& v, const Spec& s) {
  if (s.has_precision) value_error("Precision not allowed in integer format specifier");
  int base = s.type == 'x' || s.type == 'X' ? 16 : s.type == 'o' ? 8 : s.type == 'b' ? 2 : 10;
  if (s.grouping == ',' && base != 10) value_error(std::string("Cannot specify ',' with '") + s.type + "'.");
  BigInt x = big_of(v);
  std::string digits = base == 10 ? x.abs().to_decimal() : x.magnitude_in_base(base);
  if (base == 10 && digits.size() > limits::kMaxIntStrDigits) int_repr(v);   // raises CPython's ValueError
  if (s.type == 'X')
    for (char& c : digits) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string left = x.negative() ? "-" : s.sign == '+' ? "+" : s.sign == ' ' ? " " : "";
  if (s.alternate && base != 10) left += std::string("0") + (s.type == 'X' ? 'X' : s.type);
  bool zero_fill = s.fill == "0" && s.align == '=';
  int64_t min_width = zero_fill ? static_cast<int64_t>(s.width) - static_cast<int64_t>(left.size()) : 0;
  if (s.grouping) digits = group_digits(digits, s.grouping, base == 10 ? 3 : 4, min_width);
  else if (min_width > static_cast<int64_t>(digits.size())) digits.insert(0, static_cast<size_t>(min_width) - digits.size(), '0');
  return pad(left, digits, s, '>');
}

// fmt's spec for what Python's spec says (fmt has no ',' or '_' grouping; they are put in after).
std::string fmt_spec(const std::string& spec) {
  std::string sp = spec;
  for (char g : {',', '_'})
    if (auto c = sp.find(g); c != std::string::npos) sp.erase(c, 1);
  return sp;
}

}  // namespace

// A float's digits after its sign as CPython's fill_number: the digits before the point grouped
// (inf and nan have none and stay as they are), then, for a '0' fill aligned '=', zeros in front
// to the width, with separators among them when grouping ('{:0=7,.8}' of 1.5 is '0,001.5').
static std::string group_and_zero_fill(std::string body, const std::string& left, const Spec& s) {
  const bool zero_fill = s.fill == "0" && s.align == '=';
  const int64_t min_width = zero_fill ? static_cast<int64_t>(s.width) - static_cast<int64_t>(left.size()) : 0;
  const size_t end = std::min(body.size(), body.find_first_not_of("0123456789"));
  if (s.grouping && end > 0)
    return group_digits(body.substr(0, end), s.grouping, 3, min_width - static_cast<int64_t>(body.size() - end)) + body.substr(end);
  if (min_width > static_cast<int64_t>(body.size())) body.insert(0, static_cast<size_t>(min_width) - body.size(), '0');
  return body;
}

// 'g' with precision p as CPython's format_float_short with Py_DTSF_ADD_DOT_0: the exponent form
// once the point would fall past p - 1 digits ('{:.2}'.format(61.0) is '6.1e+01'), trailing zeros
// dropped, '.0' after a whole number.
static std::string general_add_dot_0(double ax, uint64_t precision) {
  const int p = static_cast<int>(std::clamp<uint64_t>(precision, 1, 400));
  std::string e = fmt::format("{:.{}e}", ax, p - 1);   // d.ddde+XX, rounded to p digits
  const size_t at = e.find('e');
  const int decpt = std::stoi(e.substr(at + 1)) + 1;
  auto strip = [](std::string m) {
    if (m.find('.') != std::string::npos) {
      m.erase(m.find_last_not_of('0') + 1);
      if (m.back() == '.') m.pop_back();
    }
    return m;
  };
  if (decpt <= -4 || decpt > p - 1) {
    const int exp = decpt - 1;
    return strip(e.substr(0, at)) + fmt::format("e{}{:02d}", exp < 0 ? '-' : '+', std::abs(exp));
  }
  return strip(fmt::format("{:.{}f}", ax, std::max(p - decpt, 0)));
}

// A float with no presentation type: repr when there is no precision, else general_add_dot_0, and
// in both at least one digit after the point ('{:6}'.format(61.0) is '  61.0').
static std::string format_float_plain(double x, const Spec& s) {
  std::string body = std::isinf(x) ? "inf" : std::isnan(x) ? "nan"
                     : s.has_precision ? general_add_dot_0(std::fabs(x), s.precision) : str(Value::number(std::fabs(x)));
  if (body.find_first_of(".en") == std::string::npos) body += ".0";   // not for 1e+20, inf, nan
  std::string left = std::signbit(x) && !std::isnan(x) ? "-" : s.sign == '+' ? "+" : s.sign == ' ' ? " " : "";
  return pad(left, group_and_zero_fill(body, left, s), s, '>');
}

// A number with a float presentation type (e E f F g G %): the digits from fmt as printf makes
// them, then Python's sign, grouping, zero fill and alignment ('=' too, which fmt lacks).
static std::string format_float_typed(double x, const Spec& s) {
  const int precision = static_cast<int>(s.has_precision ? std::min<uint64_t>(s.precision, 1000) : 6);
  const std::string c_format = std::string("%") + (s.alternate ? "#" : "") + ".*" + (s.type == '%' ? 'f' : s.type);
  std::vector<char> buf(static_cast<size_t>(precision) + 400);   // printf: '#g' keeps the point, drops nothing else
  std::snprintf(buf.data(), buf.size(), c_format.c_str(), precision, std::fabs(s.type == '%' ? x * 100 : x));
  std::string body = buf.data();
  if (s.type == '%') body += "%";
  std::string left = std::signbit(x) && !std::isnan(x) ? "-" : s.sign == '+' ? "+" : s.sign == ' ' ? " " : "";
  return pad(left, group_and_zero_fill(body, left, s), s, '>');
}

// format(str, spec): precision cuts, padding left-aligned by default; '0' before the width pads
// with zeros (CPython 3.10+); signs, '#', grouping and '=' are CPython's ValueErrors.
static std::string format_str(const std::string& text, Spec s) {
  if (s.type && s.type != 's') value_error(std::string("Unknown format code '") + s.type + "' for object of type 'str'");
  if (s.sign) value_error("Sign not allowed in string format specifier");
  if (s.alternate) value_error("Alternate form (#) not allowed in string format specifier");
  if (s.grouping) value_error(std::string("Cannot specify '") + s.grouping + "' with 's'.");
  if (s.zero && s.align == '=' && s.fill == "0") s.align = '<';
  else if (s.align == '=') value_error("'=' alignment not allowed in string format specifier");
  return pad("", s.has_precision ? text.substr(0, print::unicode::offset_of(text, static_cast<int64_t>(s.precision))) : text, s, '<');
}

// format(int, 'c'): the character of that code point, padded as a number (on the left).
static std::string format_char(const Value& v, const Spec& s) {
  if (s.has_precision) value_error("Precision not allowed in integer format specifier");
  if (s.sign) value_error("Sign not allowed with integer format specifier 'c'");
  if (s.alternate) value_error("Alternate form (#) not allowed with integer format specifier 'c'");
  if (s.grouping) value_error(std::string("Cannot specify '") + s.grouping + "' with 'c'.");
  if (v.i < 0 || v.i > 0x10FFFF) throw OverflowError("%c arg not in range(0x110000)");
  return pad("", print::unicode::encode(static_cast<char32_t>(v.i)), s, '>');
}

std::string format_spec(const Value& v, const std::string& spec) {
  if (spec.empty()) return str(v);
  Spec s = parse_spec(spec, v);
  if (v.kind == Value::Float && !s.type) return format_float_plain(v.f, s);
  if (v.kind == Value::Str) return format_str(v.s, s);
  if ((v.kind == Value::Float || v.kind == Value::Int || v.kind == Value::Bool) && s.type && std::string("eEfFgG%").find(s.type) != std::string::npos)
    return format_float_typed(to_double(v, "value"), s);
  bool float_type = s.type && std::string("eEfFgG%").find(s.type) != std::string::npos;
  bool int_type = !s.type || std::string("dnxXob").find(s.type) != std::string::npos;
  if (s.type == 'n' && s.grouping && v.kind != Value::Str) value_error(std::string("Cannot specify '") + s.grouping + "' with 'n'.");
  if ((v.kind == Value::Int || v.kind == Value::Bool) && int_type) return format_int(v, s);
  if ((v.kind == Value::Int || v.kind == Value::Bool) && !float_type && s.type != 'c')
    value_error(std::string("Unknown format code '") + s.type + "' for object of type '" + type_name(v) + "'");
  if (v.kind == Value::Float && s.type == 'n') {   // 'g' in the C locale attn runs in
    if (s.grouping) value_error(std::string("Cannot specify '") + s.grouping + "' with 'n'.");
    s.type = 'g';
    return format_float_typed(v.f, s);
  }
  if (v.kind == Value::Float && s.type) value_error(std::string("Unknown format code '") + s.type + "' for object of type 'float'");
  if (s.type == 'c' && v.is_big()) throw OverflowError("Python int too large to convert to C long");
  if (s.type == 'c' && v.kind == Value::Int) return format_char(v, s);
  if (s.type == 'c' && v.kind == Value::Bool) return format_char(Value::integer(v.b ? 1 : 0), s);
  std::string sp = fmt_spec(spec), out;
  try {
    if (v.kind == Value::Str) out = fmt::format(fmt::runtime("{:" + sp + "}"), v.s);
    else if (v.kind == Value::Int && s.type == 'c') out = fmt::format(fmt::runtime("{:" + sp + "}"), v.i);
    else if (s.type == '%') out = fmt::format(fmt::runtime("{:" + sp.substr(0, sp.size() - 1) + "f}"), to_double(v, "value") * 100) + "%";
    else out = fmt::format(fmt::runtime("{:" + sp + "}"), to_double(v, "value"));
  } catch (const fmt::format_error&) {
    value_error("Invalid format specifier '" + spec + "' for object of type '" + type_name(v) + "'");
  }
  if (s.grouping) {   // insert thousands separators into the integer digits
    size_t start = out.find_first_of("0123456789"), end = out.find_first_not_of("0123456789", start);
    if (end == std::string::npos) end = out.size();
    for (int64_t k = static_cast<int64_t>(end) - 3; k > static_cast<int64_t>(start); k -= 3) out.insert(static_cast<size_t>(k), 1, s.grouping);
  }
  return out;
}

}  // namespace attn::py
