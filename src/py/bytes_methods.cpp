// py/bytes_methods.cpp: the methods of bytes and bytearray, as CPython 3.11's: decode, hex,
// find/rfind/index/rindex/count, startswith/endswith, split/rsplit, join, strip/lstrip/rstrip,
// replace, upper/lower, translate, the is* tests (ASCII, as CPython's bytes methods), and bytearray's
// append/extend/pop/insert/remove/clear/copy/reverse; bytes.fromhex and bytes.maketrans on the class.
// What it is not: every bytes method (no center, expandtabs, partition, splitlines,
// title, ...: AttributeError as for any missing attribute).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "py/ints.h"
#include "py/text.h"

namespace attn::py {

namespace {

using BytesMethod = Value (*)(Interpreter&, const Value& self, CallArgs& a);

const std::string& data(const Value& self) { return *bytes_data(self); }
Value same_kind(const Value& self, std::string d) { return make_bytes(std::move(d), is_bytearray(self)); }

const std::string& bytes_like(const Value& v) {
  const std::string* d = bytes_data(v);
  if (!d) throw TypeError(fmt::format("a bytes-like object is required, not '{}'", type_name(v)));
  return *d;
}

// The needle of find/count/index: a bytes-like or an int in range(0, 256).
std::string needle(const Value& v) {
  if (const std::string* d = bytes_data(v)) return *d;
  if (v.kind == Value::Int || v.kind == Value::Bool) {
    const int64_t b = to_index(v, "byte");
    if (b < 0 || b > 255) throw ValueError("byte must be in range(0, 256)");
    return std::string(1, static_cast<char>(b));
  }
  throw TypeError(fmt::format("argument should be integer or bytes-like object, not '{}'", type_name(v)));
}

int64_t find_in(const Value& self, CallArgs& a, bool reverse) {
  const std::string& d = data(self);
  const std::string sub = needle(arg(a, 0, "sub"));
  const Span s = span_of(a, 1, static_cast<int64_t>(d.size()));
  if (s.end - s.start < static_cast<int64_t>(sub.size())) return -1;
  const std::string_view window(d.data() + s.start, static_cast<size_t>(s.end - s.start));
  const size_t at = reverse ? window.rfind(sub) : window.find(sub);
  return at == std::string_view::npos ? -1 : s.start + static_cast<int64_t>(at);
}

Value find_m(Interpreter&, const Value& self, CallArgs& a) { return Value::integer(find_in(self, a, false)); }
Value rfind_m(Interpreter&, const Value& self, CallArgs& a) { return Value::integer(find_in(self, a, true)); }
Value index_m(Interpreter&, const Value& self, CallArgs& a) {
  const int64_t k = find_in(self, a, false);
  if (k < 0) throw ValueError("subsection not found");
  return Value::integer(k);
}
Value rindex_m(Interpreter&, const Value& self, CallArgs& a) {
  const int64_t k = find_in(self, a, true);
  if (k < 0) throw ValueError("subsection not found");
  return Value::integer(k);
}

Value count_m(Interpreter&, const Value& self, CallArgs& a) {
  const std::string& d = data(self);
  const std::string sub = needle(arg(a, 0, "sub"));
  const Span s = span_of(a, 1, static_cast<int64_t>(d.size()));
  if (s.end - s.start < static_cast<int64_t>(sub.size())) return Value::integer(0);
  if (sub.empty()) return Value::integer(s.end - s.start + 1);
  int64_t n = 0;
  for (size_t at = static_cast<size_t>(s.start); (at = d.find(sub, at)) != std::string::npos && at + sub.size() <= static_cast<size_t>(s.end);
       at += sub.size())
    ++n;
  return Value::integer(n);
}

Value starts_or_ends(const Value& self, CallArgs& a, bool ends) {
  const std::string& d = data(self);
  const Value prefix = arg(a, 0, ends ? "suffix" : "prefix");
  const Span s = span_of(a, 1, static_cast<int64_t>(d.size()));
  std::vector<Value> options = prefix.kind == Value::Tuple ? as_seq(prefix) : std::vector<Value>{prefix};
  for (const Value& o : options) {
    const std::string* p = bytes_data(o);
    if (!p)
      throw TypeError(fmt::format("{} first arg must be bytes or a tuple of bytes, not {}", ends ? "endswith" : "startswith", type_name(o)));
    if (s.end - s.start < static_cast<int64_t>(p->size()) || s.start > static_cast<int64_t>(d.size())) continue;
    const size_t at = ends ? static_cast<size_t>(s.end) - p->size() : static_cast<size_t>(s.start);
    if (d.compare(at, p->size(), *p) == 0) return Value::boolean(true);
  }
  return Value::boolean(false);
}
Value startswith_m(Interpreter&, const Value& self, CallArgs& a) { return starts_or_ends(self, a, false); }
Value endswith_m(Interpreter&, const Value& self, CallArgs& a) { return starts_or_ends(self, a, true); }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c'; }

Value split_impl(const Value& self, CallArgs& a, bool reverse) {
  const std::string& d = data(self);
  const Value sep_v = arg_or(a, 0, "sep", Value::none());
  int64_t maxsplit = to_int(arg_or(a, 1, "maxsplit", Value::integer(-1)), "maxsplit");
  if (maxsplit < 0) maxsplit = INT64_MAX;
  if (!sep_v.is_none() && bytes_like(sep_v).empty()) throw ValueError("empty separator");
  check_split_items(d, sep_v.is_none() ? nullptr : &bytes_like(sep_v), maxsplit == INT64_MAX ? -1 : maxsplit,
                    [](const std::string& s, size_t pos, size_t& after) { after = pos + 1; return is_space(s[pos]); });
  std::vector<std::string> parts;
  if (sep_v.is_none()) {   // runs of ASCII whitespace; none at the ends
    std::string rest = d;
    if (reverse) std::reverse(rest.begin(), rest.end());
    size_t k = 0;
    while (true) {
      while (k < rest.size() && is_space(rest[k])) ++k;
      if (k >= rest.size()) break;
      if (static_cast<int64_t>(parts.size()) == maxsplit) { parts.push_back(rest.substr(k)); break; }   // the rest as it is
      size_t e = k;
      while (e < rest.size() && !is_space(rest[e])) ++e;
      parts.push_back(rest.substr(k, e - k));
      k = e;
    }
    if (reverse) {
      for (std::string& p : parts) std::reverse(p.begin(), p.end());
      std::reverse(parts.begin(), parts.end());
    }
  } else {
    const std::string& sep = bytes_like(sep_v);
    if (sep.empty()) throw ValueError("empty separator");
    if (!reverse) {
      size_t k = 0, at;
      while (static_cast<int64_t>(parts.size()) < maxsplit && (at = d.find(sep, k)) != std::string::npos) { parts.push_back(d.substr(k, at - k)); k = at + sep.size(); }
      parts.push_back(d.substr(k));
    } else {
      size_t end = d.size();
      while (static_cast<int64_t>(parts.size()) < maxsplit && end >= sep.size()) {
        const size_t at = d.rfind(sep, end - sep.size());
        if (at == std::string::npos) break;
        parts.push_back(d.substr(at + sep.size(), end - at - sep.size()));
        end = at;
      }
      parts.push_back(d.substr(0, end));
      std::reverse(parts.begin(), parts.end());
    }
  }
  std::vector<Value> out;
  for (std::string& p : parts) out.push_back(same_kind(self, std::move(p)));
  return Value::list(std::move(out));
}
Value split_m(Interpreter&, const Value& self, CallArgs& a) { return split_impl(self, a, false); }
Value rsplit_m(Interpreter&, const Value& self, CallArgs& a) { return split_impl(self, a, true); }

Value join_m(Interpreter& in, const Value& self, CallArgs& a) {
  const std::vector<Value> items = in.iterate(arg(a, 0, "iterable_of_bytes"));
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string* p = bytes_data(items[k]);
    if (!p) throw TypeError(fmt::format("sequence item {}: expected a bytes-like object, {} found", k, type_name(items[k])));
    if (k) out += data(self);
    out += *p;
    check_bytes(std::string("a ") + type_name(self), static_cast<Count>(out.size()));
  }
  return same_kind(self, std::move(out));
}

Value strip_impl(const Value& self, CallArgs& a, bool left, bool right) {
  const std::string& d = data(self);
  const Value chars_v = arg_or(a, 0, "bytes", Value::none());
  const std::string chars = chars_v.is_none() ? std::string(" \t\n\r\x0b\x0c") : bytes_like(chars_v);
  size_t b = 0, e = d.size();
  if (left) while (b < e && chars.find(d[b]) != std::string::npos) ++b;
  if (right) while (e > b && chars.find(d[e - 1]) != std::string::npos) --e;
  return same_kind(self, d.substr(b, e - b));
}
Value strip_m(Interpreter&, const Value& self, CallArgs& a) { return strip_impl(self, a, true, true); }
Value lstrip_m(Interpreter&, const Value& self, CallArgs& a) { return strip_impl(self, a, true, false); }
Value rstrip_m(Interpreter&, const Value& self, CallArgs& a) { return strip_impl(self, a, false, true); }

Value replace_m(Interpreter&, const Value& self, CallArgs& a) {
  const std::string& d = data(self);
  const std::string& old = bytes_like(arg(a, 0, "old"));
  const std::string& rep = bytes_like(arg(a, 1, "new"));
  int64_t count = to_int(arg_or(a, 2, "count", Value::integer(-1)), "count");
  if (count < 0) count = INT64_MAX;
  std::string out;
  size_t k = 0;
  for (int64_t n = 0; n < count; ++n) {
    if (old.empty()) {   // between every byte, and at both ends
      out += rep;
      if (k >= d.size()) { k = d.size() + 1; break; }
      out += d[k++];
    } else {
      const size_t at = d.find(old, k);
      if (at == std::string::npos) break;
      out.append(d, k, at - k);
      out += rep;
      k = at + old.size();
    }
    check_bytes(std::string("a ") + type_name(self), static_cast<Count>(out.size()));
  }
  if (k < d.size()) out.append(d, k, std::string::npos);
  return same_kind(self, std::move(out));
}

template <int (*F)(int)>
Value map_bytes(Interpreter&, const Value& self, CallArgs&) {
  std::string d = data(self);
  for (char& c : d)
    if (static_cast<unsigned char>(c) < 0x80) c = static_cast<char>(F(static_cast<unsigned char>(c)));
  return same_kind(self, std::move(d));
}

template <int (*F)(int)>
Value test_bytes(Interpreter&, const Value& self, CallArgs&) {
  const std::string& d = data(self);
  bool ok = !d.empty();
  for (char c : d) ok = ok && static_cast<unsigned char>(c) < 0x80 && F(static_cast<unsigned char>(c));
  return Value::boolean(ok);
}

int ascii_space(int c) { return is_space(static_cast<char>(c)); }

// isupper/islower: at least one cased byte, and none of the other case.
Value case_test(const Value& self, bool upper) {
  bool cased = false;
  for (char c : data(self)) {
    if (upper ? std::islower(static_cast<unsigned char>(c)) : std::isupper(static_cast<unsigned char>(c))) return Value::boolean(false);
    cased = cased || std::isalpha(static_cast<unsigned char>(c));
  }
  return Value::boolean(cased);
}
Value isupper_m(Interpreter&, const Value& self, CallArgs&) { return case_test(self, true); }
Value islower_m(Interpreter&, const Value& self, CallArgs&) { return case_test(self, false); }

Value decode_m(Interpreter&, const Value& self, CallArgs& a) {
  const Value encoding = arg_or(a, 0, "encoding", Value::str("utf-8"));
  const Value errors = arg_or(a, 1, "errors", Value::str("strict"));
  return Value::str(decode_bytes(data(self), encoding, errors));
}

Value hex_m(Interpreter&, const Value& self, CallArgs& a) {
  const Value* sep_v = find_arg(a, 0, "sep");
  std::string sep;
  if (sep_v) {
    sep = sep_v->kind == Value::Str ? sep_v->s : bytes_like(*sep_v);
    if (sep.size() != 1) throw ValueError("sep must be length 1.");
  }
  const int64_t per = to_int(arg_or(a, 1, "bytes_per_sep", Value::integer(1)), "bytes_per_sep");
  const std::string& d = data(self);
  std::string out;
  const size_t group = static_cast<size_t>(per == 0 ? 1 : std::abs(per));
  for (size_t k = 0; k < d.size(); ++k) {
    // a separator every `group` bytes, counted from the right for a positive bytes_per_sep
    const size_t from = per > 0 ? d.size() - k : k;
    if (k && !sep.empty() && per != 0 && from % group == 0) out += sep;
    out += fmt::format("{:02x}", static_cast<unsigned char>(d[k]));
  }
  return Value::str(out);
}

Value capitalize_m(Interpreter&, const Value& self, CallArgs&) {
  std::string d = data(self);
  for (size_t k = 0; k < d.size(); ++k)
    if (static_cast<unsigned char>(d[k]) < 0x80) d[k] = static_cast<char>(k == 0 ? std::toupper(d[k]) : std::tolower(d[k]));
  return same_kind(self, std::move(d));
}

// ---- bytearray's own ----

Value append_m(Interpreter&, const Value& self, CallArgs& a) {
  const int b = byte_value(arg(a, 0, "item"), true);
  check_bytes("a bytearray", static_cast<Count>(data(self).size() + 1));
  bytearray_data(self)->push_back(static_cast<char>(b));
  return Value::none();
}

Value extend_m(Interpreter& in, const Value& self, CallArgs& a) {
  const Value src = arg(a, 0, "iterable_of_ints");
  if (src.kind == Value::Str) throw TypeError("expected iterable of integers; got: 'str'");
  if (src.kind == Value::Int || !in.iterable(src)) throw TypeError(fmt::format("can't extend bytearray with {}", type_name(src)));
  std::string add;
  if (const std::string* d = bytes_data(src)) add = *d;
  else for (const Value& item : in.iterate(src)) add += static_cast<char>(byte_value(item, true));
  check_bytes("a bytearray", static_cast<Count>(data(self).size() + add.size()));
  *bytearray_data(self) += add;
  return Value::none();
}

Value pop_m(Interpreter&, const Value& self, CallArgs& a) {
  std::string& d = *bytearray_data(self);
  if (d.empty()) throw IndexError("pop from empty bytearray");
  int64_t k = to_int(arg_or(a, 0, "index", Value::integer(-1)), "index");
  if (k < 0) k += static_cast<int64_t>(d.size());
  if (k < 0 || k >= static_cast<int64_t>(d.size())) throw IndexError("pop index out of range");
  const auto b = static_cast<unsigned char>(d[static_cast<size_t>(k)]);
  d.erase(static_cast<size_t>(k), 1);
  return Value::integer(b);
}

Value insert_m(Interpreter&, const Value& self, CallArgs& a) {
  std::string& d = *bytearray_data(self);
  int64_t k = to_int(arg(a, 0, "index"), "index");
  const int b = byte_value(arg(a, 1, "item"), true);
  const int64_t n = static_cast<int64_t>(d.size());
  if (k < 0) k = std::max<int64_t>(k + n, 0);
  d.insert(static_cast<size_t>(std::min(k, n)), 1, static_cast<char>(b));
  return Value::none();
}

Value remove_m(Interpreter&, const Value& self, CallArgs& a) {
  std::string& d = *bytearray_data(self);
  const size_t at = d.find(static_cast<char>(byte_value(arg(a, 0, "value"), true)));
  if (at == std::string::npos) throw ValueError("value not found in bytearray");
  d.erase(at, 1);
  return Value::none();
}

Value clear_m(Interpreter&, const Value& self, CallArgs&) { bytearray_data(self)->clear(); return Value::none(); }
Value copy_m(Interpreter&, const Value& self, CallArgs&) { return make_bytes(data(self), true); }
Value reverse_m(Interpreter&, const Value& self, CallArgs&) {
  std::string& d = *bytearray_data(self);
  std::reverse(d.begin(), d.end());
  return Value::none();
}

// bytes.translate(table, /, delete=b''): each byte not in `delete` mapped through a 256-byte table (None: kept).
Value translate_m(Interpreter&, const Value& self, CallArgs& a) {
  if (a.pos.size() + a.kw.size() > 2) throw TypeError(fmt::format("translate() takes at most 2 arguments ({} given)", a.pos.size() + a.kw.size()));
  for (const auto& [k, v] : a.kw)
    if (k != "delete") throw TypeError(fmt::format("translate() got an unexpected keyword argument '{}'", k));
  if (a.pos.empty()) throw TypeError("translate() missing required argument 'table' (pos 1)");
  const Value table = a.pos[0];
  std::string drop;
  if (a.pos.size() == 2) drop = bytes_like(a.pos[1]);
  else if (!a.kw.empty()) drop = bytes_like(a.kw[0].second);
  const std::string* map = table.is_none() ? nullptr : &bytes_like(table);
  if (map && map->size() != 256) throw ValueError("translation table must be 256 characters long");
  bool gone[256] = {};
  for (unsigned char c : drop) gone[c] = true;
  std::string out;
  for (unsigned char c : data(self))
    if (!gone[c]) out += map ? (*map)[c] : static_cast<char>(c);
  return same_kind(self, std::move(out));
}

// bytes.maketrans(frm, to): the 256-byte table translate() takes, frm[k] mapped to to[k].
Value maketrans(CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("maketrans() takes no keyword arguments");
  if (a.pos.size() != 2) throw TypeError(fmt::format("maketrans expected 2 arguments, got {}", a.pos.size()));
  const std::string& frm = bytes_like(a.pos[0]);
  const std::string& to = bytes_like(a.pos[1]);
  if (frm.size() != to.size()) throw ValueError("maketrans arguments must have same length");
  std::string table(256, '\0');
  for (int k = 0; k < 256; ++k) table[static_cast<size_t>(k)] = static_cast<char>(k);
  for (size_t k = 0; k < frm.size(); ++k) table[static_cast<unsigned char>(frm[k])] = to[k];
  return make_bytes(std::move(table));
}

const std::map<std::string, BytesMethod>& shared_methods() {
  static const std::map<std::string, BytesMethod> m = {
      {"decode", decode_m}, {"hex", hex_m}, {"find", find_m}, {"rfind", rfind_m}, {"index", index_m}, {"rindex", rindex_m},
      {"count", count_m}, {"startswith", startswith_m}, {"endswith", endswith_m}, {"split", split_m}, {"rsplit", rsplit_m},
      {"join", join_m}, {"strip", strip_m}, {"lstrip", lstrip_m}, {"rstrip", rstrip_m}, {"replace", replace_m},
      {"upper", map_bytes<std::toupper>}, {"lower", map_bytes<std::tolower>}, {"capitalize", capitalize_m},
      {"isdigit", test_bytes<std::isdigit>}, {"isalpha", test_bytes<std::isalpha>}, {"isalnum", test_bytes<std::isalnum>},
      {"isspace", test_bytes<ascii_space>}, {"isupper", isupper_m}, {"islower", islower_m}, {"translate", translate_m}};
  return m;
}

const std::map<std::string, BytesMethod>& bytearray_methods() {
  static const std::map<std::string, BytesMethod> m = {
      {"append", append_m}, {"extend", extend_m}, {"pop", pop_m}, {"insert", insert_m}, {"remove", remove_m},
      {"clear", clear_m}, {"copy", copy_m}, {"reverse", reverse_m}};
  return m;
}

Value fromhex(const ClassObj& cls, CallArgs& a) {
  const Value s = arg(a, 0, "string");
  if (s.kind != Value::Str) throw TypeError("fromhex() argument must be str, not " + type_name(s));
  std::string out;
  const std::string& t = s.s;
  for (size_t k = 0; k < t.size();) {
    if (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r' || t[k] == '\x0b' || t[k] == '\x0c') { ++k; continue; }
    const int64_t pos = static_cast<int64_t>(uc::length(std::string_view(t).substr(0, k)));
    if (!std::isxdigit(static_cast<unsigned char>(t[k])))
      throw ValueError(fmt::format("non-hexadecimal number found in fromhex() arg at position {}", pos));
    if (k + 1 >= t.size() || !std::isxdigit(static_cast<unsigned char>(t[k + 1])))
      throw ValueError(fmt::format("non-hexadecimal number found in fromhex() arg at position {}", pos + 1));
    out += static_cast<char>(std::stoi(t.substr(k, 2), nullptr, 16));
    k += 2;
  }
  return make_bytes(std::move(out), &cls == bytearray_class().get());
}

}  // namespace

void add_bytes_methods(ClassObj& cls, bool mut) {
  auto add = [&cls](const std::string& name, BytesMethod f) {
    cls.methods[name] = method(cls.name + "." + name, [f](Interpreter& in, CallArgs& a) {
      const Value self = a.pos.at(0);
      a.pos.erase(a.pos.begin());
      return f(in, self, a);
    });
  };
  for (const auto& [name, f] : shared_methods()) add(name, f);
  if (mut)
    for (const auto& [name, f] : bytearray_methods()) add(name, f);
}

std::optional<Value> bytes_class_attribute(const ClassObj& cls, const std::string& name) {
  if ((name != "fromhex" && name != "maketrans") || (&cls != bytes_class().get() && &cls != bytearray_class().get())) return std::nullopt;
  if (name == "maketrans") return builtin(cls.name + ".maketrans", [](Interpreter&, CallArgs& a) { return maketrans(a); });
  const ClassObj* c = &cls;
  return builtin(cls.name + ".fromhex", [c](Interpreter&, CallArgs& a) { return fromhex(*c, a); });
}

}  // namespace attn::py
