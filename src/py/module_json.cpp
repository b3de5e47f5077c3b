// py/module_json.cpp: `_json`, the native half of Python's json module as CPython 3.11's
// Modules/_json.c: the string encoders (encode_basestring_ascii: \uXXXX for every non-ASCII code
// point, surrogate pairs beyond the BMP) and the scanner behind json.loads, with CPython's error
// messages and positions (in code points).
//
// What it is: scan(text) -> (True, value, end) or (False, message, pos); src/py/python/json.py
// raises JSONDecodeError from the second form and writes dumps() in Python over the encoders.
// What it is not: object_hook/parse_float/... hooks, or lone surrogates (a \ud800 escape that no
// low surrogate follows is kept as its three UTF-8-style bytes, as attn's strings are UTF-8).
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"

namespace attn::py {

namespace {

// The code point at s[k] (UTF-8) and its length in bytes.
uint32_t decode_utf8(const std::string& s, size_t k, size_t& len) {
  auto c = static_cast<unsigned char>(s[k]);
  if (c < 0x80) { len = 1; return c; }
  int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
  uint32_t cp = c & (0x3f >> (n - 1));
  len = 1;
  for (int i = 1; i < n && k + i < s.size(); ++i, ++len) cp = (cp << 6) | (static_cast<unsigned char>(s[k + i]) & 0x3f);
  return cp;
}

void json_append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) out += static_cast<char>(cp);
  else if (cp < 0x800) { out += static_cast<char>(0xc0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3f)); }
  else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

std::string encode(const std::string& s, bool ascii) {
  std::string out = "\"";
  for (size_t k = 0; k < s.size();) {
    size_t len = 1;
    uint32_t cp = decode_utf8(s, k, len);
    switch (cp) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (cp < 0x20 || (ascii && cp >= 0x7f)) {
          if (cp >= 0x10000) {
            uint32_t v = cp - 0x10000;
            out += fmt::format("\\u{:04x}\\u{:04x}", 0xd800 | (v >> 10), 0xdc00 | (v & 0x3ff));
          } else {
            out += fmt::format("\\u{:04x}", cp);
          }
        } else {
          out.append(s, k, len);
        }
    }
    k += len;
  }
  return out + "\"";
}

struct DecodeError {
  std::string msg;
  size_t pos;   // bytes
};

class Scanner {
 public:
  Scanner(Interpreter& in, const std::string& s) : in_(in), s_(s) {}

  Value document(size_t& end) {
    size_t k = skip(0);
    Value v = value(k, k);
    end = skip(k);
    if (end != s_.size()) throw DecodeError{"Extra data", end};
    return v;
  }

 private:
  Interpreter& in_;
  const std::string& s_;
  int depth_ = 0;

  size_t skip(size_t k) const {
    while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t' || s_[k] == '\n' || s_[k] == '\r')) ++k;
    return k;
  }
  bool at(size_t k, const char* word) const { return s_.compare(k, std::char_traits<char>::length(word), word) == 0; }

  Value value(size_t k, size_t& end) {
    in_.tick();
    if (k >= s_.size()) throw DecodeError{"Expecting value", k};
    char c = s_[k];
    if (c == '"') return Value::str(text_at(k + 1, end));
    if (c == '{' || c == '[') {
      if (++depth_ > 1000) throw RecursionError("maximum recursion depth exceeded while decoding a JSON document");
      Value v = c == '{' ? object(k + 1, end) : array(k + 1, end);
      --depth_;
      return v;
    }
    if (at(k, "null")) { end = k + 4; return Value::none(); }
    if (at(k, "true")) { end = k + 4; return Value::boolean(true); }
    if (at(k, "false")) { end = k + 5; return Value::boolean(false); }
    if (at(k, "NaN")) { end = k + 3; return Value::number(std::nan("")); }
    if (at(k, "Infinity")) { end = k + 8; return Value::number(HUGE_VAL); }
    if (at(k, "-Infinity")) { end = k + 9; return Value::number(-HUGE_VAL); }
    return number(k, end);
  }

  Value number(size_t k, size_t& end) {
    size_t i = k;
    if (i < s_.size() && s_[i] == '-') ++i;
    auto digit = [&](size_t j) { return j < s_.size() && s_[j] >= '0' && s_[j] <= '9'; };
    if (!digit(i)) throw DecodeError{"Expecting value", k};
    if (s_[i] == '0') ++i;
    else while (digit(i)) ++i;
    bool is_float = false;
    if (i < s_.size() && s_[i] == '.' && digit(i + 1)) {
      is_float = true;
      ++i;
      while (digit(i)) ++i;
    }
    if (i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
      size_t j = i + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (digit(j)) {
        is_float = true;
        i = j;
        while (digit(i)) ++i;
      }
    }
    end = i;
    std::string text = s_.substr(k, i - k);
    if (is_float) return Value::number(std::strtod(text.c_str(), nullptr));
    return int_from_string(text);
  }

  std::string text_at(size_t k, size_t& end) {
    const size_t begin = k - 1;
    std::string out;
    for (;;) {
      if (k >= s_.size()) throw DecodeError{"Unterminated string starting at", begin};
      auto c = static_cast<unsigned char>(s_[k]);
      if (c == '"') { end = k + 1; return out; }
      if (c < 0x20) throw DecodeError{"Invalid control character at", k};
      if (c != '\\') { out += static_cast<char>(c); ++k; continue; }
      if (k + 1 >= s_.size()) throw DecodeError{"Unterminated string starting at", begin};
      char e = s_[k + 1];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = hex4(k + 2, k + 1);
          k += 6;
          if (cp >= 0xd800 && cp <= 0xdbff && at(k, "\\u")) {
            uint32_t low = hex4(k + 2, k + 1);
            if (low >= 0xdc00 && low <= 0xdfff) {
              cp = 0x10000 + (((cp - 0xd800) << 10) | (low - 0xdc00));
              k += 6;
            }
          }
          json_append_utf8(out, cp);
          continue;
        }
        default: throw DecodeError{"Invalid \\escape", k};
      }
      k += 2;
    }
  }

  uint32_t hex4(size_t k, size_t err) const {
    if (k + 4 > s_.size()) throw DecodeError{"Invalid \\uXXXX escape", err};
    uint32_t v = 0;
    for (size_t i = k; i < k + 4; ++i) {
      char c = s_[i];
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) throw DecodeError{"Invalid \\uXXXX escape", err};
      v = v * 16 + static_cast<uint32_t>(d);
    }
    return v;
  }

  Value object(size_t k, size_t& end) {
    Value d = Value::dict();
    auto* o = static_cast<DictObj*>(d.obj.get());
    k = skip(k);
    if (k < s_.size() && s_[k] == '}') { end = k + 1; return d; }
    for (;;) {
      if (k >= s_.size() || s_[k] != '"') throw DecodeError{"Expecting property name enclosed in double quotes", k};
      Value key = Value::str(text_at(k + 1, k));
      k = skip(k);
      if (k >= s_.size() || s_[k] != ':') throw DecodeError{"Expecting ':' delimiter", k};
      k = skip(k + 1);
      Value v = value(k, k);
      o->set(key, v);
      k = skip(k);
      if (k < s_.size() && s_[k] == '}') { end = k + 1; return d; }
      if (k >= s_.size() || s_[k] != ',') throw DecodeError{"Expecting ',' delimiter", k};
      k = skip(k + 1);
    }
  }

  Value array(size_t k, size_t& end) {
    std::vector<Value> items;
    k = skip(k);
    if (k < s_.size() && s_[k] == ']') { end = k + 1; return Value::list({}); }
    for (;;) {
      items.push_back(value(k, k));
      k = skip(k);
      if (k < s_.size() && s_[k] == ']') { end = k + 1; return Value::list(std::move(items)); }
      if (k >= s_.size() || s_[k] != ',') throw DecodeError{"Expecting ',' delimiter", k};
      k = skip(k + 1);
    }
  }
};

// Byte offset -> code point offset.
int64_t code_points(const std::string& s, size_t bytes) {
  int64_t n = 0;
  for (size_t k = 0; k < bytes && k < s.size(); ++k)
    if ((static_cast<unsigned char>(s[k]) & 0xc0) != 0x80) ++n;
  return n;
}

Value scan(Interpreter& in, const std::string& s) {
  try {
    size_t end = 0;
    Value v = Scanner(in, s).document(end);
    return Value::tuple({Value::boolean(true), v, Value::integer(code_points(s, end))});
  } catch (const DecodeError& e) {
    return Value::tuple({Value::boolean(false), Value::str(e.msg), Value::integer(code_points(s, e.pos))});
  }
}

}  // namespace

void add_json_core(Interpreter& in) {
  in.add_module("_attn_json", [](Interpreter&) {
    auto ns = std::make_shared<NamespaceObj>();
    auto str_arg = [](CallArgs& a) {
      Value s = arg(a, 0, "s");
      if (s.kind != Value::Str) throw TypeError("first argument must be a string, not " + type_name(s));
      return s.s;
    };
    ns->names["encode_basestring_ascii"] = builtin("_json.encode_basestring_ascii", [str_arg](Interpreter&, CallArgs& a) { return Value::str(encode(str_arg(a), true)); });
    ns->names["encode_basestring"] = builtin("_json.encode_basestring", [str_arg](Interpreter&, CallArgs& a) { return Value::str(encode(str_arg(a), false)); });
    ns->names["scan"] = builtin("_json.scan", [str_arg](Interpreter& in, CallArgs& a) { return scan(in, str_arg(a)); });
    return module_value("_attn_json", ns);
  });
}

}  // namespace attn::py
