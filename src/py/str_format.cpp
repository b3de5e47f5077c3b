// py/str_format.cpp: str.format as CPython 3.11's Objects/stringlib/unicode_format.h does it.
//
// What it is: literal text with {{ and }}, replacement fields `{name!conv:spec}` whose name is
// empty (automatic numbering), a number or a keyword, followed by `.attr` and `[key]` parts,
// the conversions !r !s !a, a spec that may hold nested fields (`{:{width}}`, two levels as
// CPython), and CPython's errors for each malformed piece. The value is formatted by
// Interpreter::format (format(v, spec): __format__ of a class, format.cpp for the built-ins).
// What it is not: format(v, spec) itself, % formatting (builtins_more.cpp) or f-strings (eval.cpp).
#include <fmt/format.h>

#include <cctype>
#include <string>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/text.h"

namespace attn::py {

namespace {

struct Formatter {
  Interpreter& in;
  CallArgs& args;
  const Value* mapping = nullptr;   // format_map's mapping: keyword fields are its items
  int64_t auto_next = 0;   // the next automatic field; -1 once a field was numbered by hand
  bool manual = false;

  std::string render(const std::string& s, int depth);
  std::string field(const std::string& f, int depth);
  Value lookup(const std::string& name);
  Value positional(size_t k);
};

Value Formatter::positional(size_t k) {
  if (k >= args.pos.size()) throw IndexError(fmt::format("Replacement index {} out of range for positional args tuple", k));
  return args.pos[k];
}

// The object a field names: an argument, then each .attr and [key] after it.
Value Formatter::lookup(const std::string& name) {
  size_t k = 0;
  while (k < name.size() && name[k] != '.' && name[k] != '[') ++k;
  const std::string first = name.substr(0, k);
  Value v;
  if (first.empty()) {
    if (manual) throw ValueError("cannot switch from manual field specification to automatic field numbering");
    v = positional(static_cast<size_t>(auto_next++));
  } else if (first.find_first_not_of("0123456789") == std::string::npos) {
    if (auto_next > 0) throw ValueError("cannot switch from automatic field numbering to manual field specification");
    manual = true;
    v = positional(std::stoull(first.size() > 18 ? "99999999999999999" : first));
  } else {
    v = mapping ? in.getitem(*mapping, Value::str(first)) : keyword_arg(args, first);
  }
  while (k < name.size()) {
    if (name[k] == '.') {
      size_t e = name.find_first_of(".[", k + 1);
      if (e == std::string::npos) e = name.size();
      if (e == k + 1) throw ValueError("Empty attribute in format string");
      v = in.getattr(v, name.substr(k + 1, e - k - 1));
      k = e;
    } else if (name[k] == '[') {
      size_t e = name.find(']', k + 1);
      if (e == std::string::npos) throw ValueError("Missing ']' in format string");
      const std::string key = name.substr(k + 1, e - k - 1);
      if (key.empty()) throw ValueError("Empty attribute in format string");
      bool digits = key.find_first_not_of("0123456789") == std::string::npos && key.size() < 18;
      v = in.getitem(v, digits ? Value::integer(std::stoll(key)) : Value::str(key));
      k = e + 1;
      if (k < name.size() && name[k] != '.' && name[k] != '[') throw ValueError("Only '.' or '[' may follow ']' in format field specifier");
    } else {
      throw ValueError("Only '.' or '[' may follow ']' in format field specifier");
    }
  }
  return v;
}

// One field's text between its braces: name, then !conversion, then :spec.
std::string Formatter::field(const std::string& f, int depth) {
  size_t k = 0;
  int bracket = 0;
  for (; k < f.size(); ++k) {
    if (f[k] == '[') ++bracket;
    else if (f[k] == ']') bracket = 0;
    else if (bracket == 0 && (f[k] == '!' || f[k] == ':')) break;
  }
  Value v = lookup(f.substr(0, k));
  char32_t conversion = 0;
  if (k < f.size() && f[k] == '!') {
    if (k + 1 >= f.size()) throw ValueError("end of string while looking for conversion specifier");
    ++k;
    conversion = uc::next(f, k);
    if (k < f.size() && f[k] != ':') throw ValueError("expected ':' after conversion specifier");
  }
  std::string spec = k < f.size() ? render(f.substr(k + 1), depth - 1) : "";
  if (conversion == 'r' || conversion == 'a') v = Value::str(conversion == 'a' ? ascii_escaped(in.repr_of(v)) : in.repr_of(v));
  else if (conversion == 's') v = Value::str(in.str_of(v));
  else if (conversion > 32 && conversion < 127) throw ValueError(fmt::format("Unknown conversion specifier {}", static_cast<char>(conversion)));
  else if (conversion) throw ValueError(fmt::format("Unknown conversion specifier \\x{:x}", static_cast<uint32_t>(conversion)));
  return in.format(v, spec);
}

// Where the replacement field whose text starts at s[k] (after its '{') ends: its '}', past
// the nested fields of its spec, as CPython 3.11's parse_field (Objects/stringlib/
// unicode_format.h) scans it, with its errors.
size_t field_end(const std::string& s, size_t k) {
  char c = 0;
  while (k < s.size()) {   // the field name: up to '}', ':' or '!', a [key] skipped whole
    c = s[k++];
    if (c == '{') throw ValueError("unexpected '{' in field name");
    if (c == '}' || c == ':' || c == '!') break;
    if (c == '[')
      while (k < s.size() && s[k] != ']') ++k;
    c = 0;
  }
  if (c == '}') return k - 1;
  if (c != '!' && c != ':') throw ValueError("expected '}' before end of string");
  if (c == '!') {
    if (k >= s.size()) throw ValueError("end of string while looking for conversion specifier");
    do ++k; while (k < s.size() && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80);   // the conversion character
    if (k < s.size()) {
      c = s[k++];
      if (c == '}') return k - 1;
      if (c != ':') throw ValueError("expected ':' after conversion specifier");
    }
  }
  for (int count = 1; k < s.size(); ++k) {   // the spec, its nested {fields} counted
    if (s[k] == '{') ++count;
    else if (s[k] == '}' && --count == 0) return k;
  }
  throw ValueError("unmatched '{' in format spec");
}

std::string Formatter::render(const std::string& s, int depth) {
  if (depth <= 0) throw ValueError("Max string recursion exceeded");
  std::string out;
  for (size_t k = 0; k < s.size(); ++k) {
    const char c = s[k];
    if ((c == '{' || c == '}') && k + 1 < s.size() && s[k + 1] == c) {
      out += c;
      ++k;
    } else if (c == '}') {
      throw ValueError("Single '}' encountered in format string");
    } else if (c == '{') {
      if (k + 1 == s.size()) throw ValueError("Single '{' encountered in format string");
      const size_t e = field_end(s, k + 1);
      std::string piece = field(s.substr(k + 1, e - k - 1), depth);
      check_append(out, piece.size());   // "{}{}".format(a, a): the limit before it is built
      out += piece;
      k = e;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string str_format(Interpreter& in, const std::string& s, CallArgs& args) {
  Formatter f{in, args};
  return f.render(s, 2);
}

std::string str_format_map(Interpreter& in, const std::string& s, const Value& mapping) {
  CallArgs none;
  Formatter f{in, none, &mapping};
  return f.render(s, 2);
}

}  // namespace attn::py
