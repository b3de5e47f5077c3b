// py/str_methods.cpp: the methods of str, and a str's items and slices, by code point.
//
// What it is: every method of CPython 3.11's str (encode is in codecs.cpp), with its
// positions, widths and counts in code points and its character classes and case maps from
// CPython's tables (print/unicode.h); an all-ASCII str takes byte paths. Errors are CPython's
// messages. What it is not: str.format's fields (str_format.cpp), format specs (format.cpp) or
// `%` formatting (builtins_more.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/text.h"

namespace attn::py {

// ---- items, slices, iteration ----

Value str_item(const Value& v, int64_t k) {
  if (str_ascii(v)) return Value::str(std::string(1, v.s[static_cast<size_t>(k)]));
  size_t b = uc::offset_of(v.s, k), e = b;
  uc::next(v.s, e);
  return Value::str(v.s.substr(b, e - b));
}

Value str_slice(const Value& v, const std::vector<int64_t>& at) {
  std::string out;
  if (str_ascii(v)) {
    out.reserve(at.size());
    for (int64_t p : at) out += v.s[static_cast<size_t>(p)];
    return Value::str(std::move(out));
  }
  if (at.empty()) return Value::str("");
  if (at.back() - at.front() + 1 == static_cast<int64_t>(at.size())) {   // a step of 1: one piece
    size_t b = uc::offset_of(v.s, at.front()), e = uc::offset_of(v.s, at.back() + 1);
    return Value::str(v.s.substr(b, e - b));
  }
  std::vector<size_t> starts;
  for (size_t pos = 0; pos < v.s.size(); uc::next(v.s, pos)) starts.push_back(pos);
  starts.push_back(v.s.size());
  for (int64_t p : at) out.append(v.s, starts[static_cast<size_t>(p)], starts[static_cast<size_t>(p) + 1] - starts[static_cast<size_t>(p)]);
  return Value::str(std::move(out));
}

std::vector<Value> str_chars(const Value& v) {
  std::vector<Value> out;
  out.reserve(static_cast<size_t>(str_len(v)));
  for (size_t pos = 0; pos < v.s.size();) {
    size_t start = pos;
    uc::next(v.s, pos);
    out.push_back(Value::str(v.s.substr(start, pos - start)));
  }
  return out;
}

namespace {

// A method of str: the interpreter, the str, the method's name (for errors), the call's arguments.
using Method = Value (*)(Interpreter&, const Value& self, const std::string& name, CallArgs& a);

std::string text_arg(CallArgs& a, size_t k, const char* name, const std::string& method) {
  Value v = arg(a, k, name);
  if (v.kind != Value::Str) throw TypeError(fmt::format("{}() argument {} must be str, not {}", method, k + 1, type_name(v)));
  return v.s;
}

// A Py_ssize_t argument (a width, a count, a tab size): an int or an object with __index__.
int64_t ssize_arg(const Value& v) {
  if (v.is_big()) throw OverflowError("Python int too large to convert to C ssize_t");
  if (is_int(v)) return small_of(v);
  if (v.kind == Value::Instance)
    if (std::optional<int64_t> k = Interpreter::current()->index(v)) return *k;
  throw TypeError("'" + type_name(v) + "' object cannot be interpreted as an integer");
}

// ---- case ----

// lower() of s[k]: a capital sigma is final (ς) after a cased letter and not before one, the
// case-ignorable characters between skipped (unicodeobject.c's handle_capital_sigma).
void lower_at(std::u32string& out, const std::u32string& s, size_t k) {
  if (s[k] != 0x3A3) return uc::append_lower(out, s[k]);
  size_t j = k;
  while (j > 0 && uc::is_case_ignorable(s[j - 1])) --j;
  bool final_sigma = j > 0 && uc::is_cased(s[j - 1]);
  if (final_sigma) {
    j = k + 1;
    while (j < s.size() && uc::is_case_ignorable(s[j])) ++j;
    final_sigma = j == s.size() || !uc::is_cased(s[j]);
  }
  out += final_sigma ? 0x3C2 : 0x3C3;
}

enum class Case { lower, upper, fold, swap, title, capitalize };

std::string ascii_case(std::string s, Case how) {
  for (char& c : s)
    c = static_cast<char>(how == Case::upper ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string recase(const Value& self, Case how) {
  if (str_ascii(self) && (how == Case::lower || how == Case::upper || how == Case::fold)) return ascii_case(self.s, how);
  const std::u32string s = uc::decode(self.s);
  std::u32string out;
  bool prev_cased = false;
  for (size_t k = 0; k < s.size(); ++k) {
    const char32_t c = s[k];
    switch (how) {
      case Case::lower: lower_at(out, s, k); break;
      case Case::upper: uc::append_upper(out, c); break;
      case Case::fold: uc::append_fold(out, c); break;
      case Case::swap:
        if (uc::is_upper(c)) lower_at(out, s, k);
        else if (uc::is_lower(c)) uc::append_upper(out, c);
        else out += c;
        break;
      case Case::title: prev_cased ? lower_at(out, s, k) : uc::append_title(out, c); break;
      case Case::capitalize: k == 0 ? uc::append_title(out, c) : lower_at(out, s, k); break;
    }
    prev_cased = uc::is_cased(c);
  }
  return uc::encode(out);
}

// ---- predicates ----

bool every(const std::string& s, bool (*test)(char32_t)) {
  for (size_t pos = 0; pos < s.size();)
    if (!test(uc::next(s, pos))) return false;
  return true;
}

// islower / isupper: no character of the other case or titlecase, and one of this case.
bool is_case(const std::string& s, bool upper) {
  bool cased = false;
  for (size_t pos = 0; pos < s.size();) {
    const char32_t c = uc::next(s, pos);
    if ((upper ? uc::is_lower(c) : uc::is_upper(c)) || uc::is_title(c)) return false;
    cased = cased || (upper ? uc::is_upper(c) : uc::is_lower(c));
  }
  return cased;
}

bool is_title_text(const std::string& s) {
  bool cased = false, prev_cased = false;
  for (size_t pos = 0; pos < s.size();) {
    const char32_t c = uc::next(s, pos);
    if (uc::is_upper(c) || uc::is_title(c)) {
      if (prev_cased) return false;
      prev_cased = cased = true;
    } else if (uc::is_lower(c)) {
      if (!prev_cased) return false;
      prev_cased = cased = true;
    } else {
      prev_cased = false;
    }
  }
  return cased;
}

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  size_t pos = 0;
  if (!uc::is_id_start(uc::next(s, pos))) return false;
  while (pos < s.size())
    if (!uc::is_id_continue(uc::next(s, pos))) return false;
  return true;
}

template <bool (*Test)(char32_t)>
Value nonempty_all(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  no_args(a, "str." + name);
  return Value::boolean(!self.s.empty() && every(self.s, Test));
}


// ---- positions ----

// find, rfind, index, rindex: where sub starts in s[start:end], in code points; -1, or
// ValueError for index.
Value search(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  const std::string sub = text_arg(a, 0, "sub", name);
  const Span sp = span_of(a, 1, str_len(self));
  int64_t at = -1;
  if (sp.start <= sp.end && sp.start <= str_len(self)) {
    const size_t b = str_byte(self, sp.start);
    std::string_view w(self.s.data() + b, str_byte(self, sp.end) - b);
    const size_t p = name[0] == 'r' ? w.rfind(sub) : w.find(sub);
    if (p != std::string_view::npos) at = sp.start + (str_ascii(self) ? static_cast<int64_t>(p) : cp_count(w, p));
  }
  if (at < 0 && (name == "index" || name == "rindex")) throw ValueError("substring not found");
  return Value::integer(at);
}

Value count(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  const std::string sub = text_arg(a, 0, "sub", name);
  const Span sp = span_of(a, 1, str_len(self));
  if (sp.end < sp.start || sp.start > str_len(self)) return Value::integer(0);
  if (sub.empty()) return Value::integer(sp.end - sp.start + 1);
  const size_t b = str_byte(self, sp.start);
  std::string_view w(self.s.data() + b, str_byte(self, sp.end) - b);
  int64_t n = 0;
  for (size_t at = w.find(sub); at != std::string_view::npos; at = w.find(sub, at + sub.size())) ++n;
  return Value::integer(n);
}

Value affix(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {   // startswith, endswith
  const Value p = arg(a, 0, "prefix");
  const Span sp = span_of(a, 1, str_len(self));
  const std::vector<Value> options = p.kind == Value::Tuple ? as_seq(p) : std::vector<Value>{p};
  for (const Value& o : options) {
    if (o.kind != Value::Str) throw TypeError(fmt::format("{} first arg must be str or a tuple of str, not {}", name, type_name(o)));
    if (sp.end - sp.start < str_len(o)) continue;
    const size_t at = name == "startswith" ? str_byte(self, sp.start) : str_byte(self, sp.end) - o.s.size();
    if (self.s.compare(at, o.s.size(), o.s) == 0) return Value::boolean(true);
  }
  return Value::boolean(false);
}

// ---- widths ----

std::string repeat_cp(const std::string& c, int64_t n) {
  std::string out;
  for (int64_t k = 0; k < n; ++k) out += c;
  return out;
}

// ljust / rjust / center(width, fillchar=' '), as CPython pads (center: pad_left rounds as
// unicodeobject.c's pad does, `left = pad / 2 + (pad & width & 1)`).
Value justify(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("str." + name + "() takes no keyword arguments");
  if (a.pos.empty() || a.pos.size() > 2) throw TypeError(fmt::format("{} expected {}, got {}", name, a.pos.empty() ? "at least 1 argument" : "at most 2 arguments", a.pos.size()));
  const int64_t width = ssize_arg(a.pos[0]);
  std::string fill = " ";
  if (a.pos.size() == 2) {
    const Value& f = a.pos[1];
    if (f.kind != Value::Str) throw TypeError("The fill character must be a unicode character, not " + type_name(f));
    if (str_len(f) != 1) throw TypeError("The fill character must be exactly one character long");
    fill = f.s;
  }
  const int64_t pad = width - str_len(self);
  if (pad <= 0) return self;
  check_bytes("a str", static_cast<Count>(self.s.size()) + static_cast<Count>(pad) * fill.size());
  const int64_t left = name == "ljust" ? 0 : name == "rjust" ? pad : pad / 2 + (pad & width & 1);
  return Value::str(repeat_cp(fill, left) + self.s + repeat_cp(fill, pad - left));
}

Value zfill(Interpreter&, const Value& self, const std::string&, CallArgs& a) {
  const int64_t width = ssize_arg(arg(a, 0, "width"));
  if (width <= str_len(self)) return self;
  check_bytes("a str", static_cast<Count>(width));
  std::string out = self.s;
  const size_t at = !out.empty() && (out[0] == '+' || out[0] == '-') ? 1 : 0;
  out.insert(at, static_cast<size_t>(width - str_len(self)), '0');
  return Value::str(out);
}

Value expandtabs(Interpreter&, const Value& self, const std::string&, CallArgs& a) {
  const int64_t tab = ssize_arg(arg_or(a, 0, "tabsize", Value::integer(8)));
  std::string out;
  int64_t col = 0;
  for (size_t pos = 0; pos < self.s.size();) {
    const size_t start = pos;
    const char32_t c = uc::next(self.s, pos);
    if (c == '\t') {
      if (tab <= 0) continue;
      const int64_t n = tab - col % tab;
      check_bytes("a str", static_cast<Count>(out.size()) + static_cast<Count>(n));
      out.append(static_cast<size_t>(n), ' ');
      col += n;
      continue;
    }
    out.append(self.s, start, pos - start);
    col = c == '\n' || c == '\r' ? 0 : col + 1;
  }
  return Value::str(out);
}


// ---- pieces ----

Value strip(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  const Value* c = find_arg(a, 0, "chars");
  if (c && !c->is_none() && c->kind != Value::Str) throw TypeError(name + " arg must be None or str");
  const bool spaces = !c || c->is_none();
  const std::u32string chars = spaces ? U"" : uc::decode(c->s);
  auto stripped = [&](char32_t x) { return spaces ? uc::is_space(x) : chars.find(x) != std::u32string::npos; };
  const std::string& s = self.s;
  size_t b = 0, e = s.size();
  for (size_t p = b; name != "rstrip" && b < e && stripped(uc::next(s, p)); p = b) b = p;
  for (size_t p = e; name != "lstrip" && e > b && stripped(prev_cp(s, p)); p = e) e = p;
  return b == 0 && e == s.size() ? self : Value::str(s.substr(b, e - b));
}

// split / rsplit's (sep, maxsplit): sep null for runs of whitespace; maxsplit < 0: no limit.
const Value* split_args(CallArgs& a, int64_t& maxsplit) {
  const Value* sep = find_arg(a, 0, "sep");
  const Value* max_arg = find_arg(a, 1, "maxsplit");
  if (max_arg && !is_int(*max_arg)) throw TypeError("'" + type_name(*max_arg) + "' object cannot be interpreted as an integer");
  if (max_arg && max_arg->is_big()) throw OverflowError("Python int too large to convert to C ssize_t");
  maxsplit = max_arg ? small_of(*max_arg) : -1;
  if (sep && sep->is_none()) sep = nullptr;
  if (sep && sep->kind != Value::Str) throw TypeError("must be str or None, not " + type_name(*sep));
  if (sep && sep->s.empty()) throw ValueError("empty separator");
  return sep;
}

bool space_at(const std::string& s, size_t pos, size_t& after) {
  after = pos;
  return uc::is_space(uc::next(s, after));
}
bool space_before(const std::string& s, size_t pos, size_t& start) {
  start = pos;
  return uc::is_space(prev_cp(s, start));
}

// Runs of whitespace split s; after maxsplit splits, the rest (its leading space dropped).
std::vector<Value> split_spaces(const std::string& s, int64_t maxsplit) {
  std::vector<Value> out;
  size_t k = 0, next = 0;
  while (k < s.size()) {
    while (k < s.size() && space_at(s, k, next)) k = next;
    if (k == s.size()) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
      out.push_back(Value::str(s.substr(k)));
      break;
    }
    const size_t start = k;
    while (k < s.size() && !space_at(s, k, next)) k = next;
    out.push_back(Value::str(s.substr(start, k - start)));
  }
  return out;
}

std::vector<Value> rsplit_spaces(const std::string& s, int64_t maxsplit) {
  std::vector<Value> out;
  size_t k = s.size(), prev = 0;
  while (k > 0) {
    while (k > 0 && space_before(s, k, prev)) k = prev;
    if (k == 0) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
      out.push_back(Value::str(s.substr(0, k)));
      break;
    }
    const size_t end = k;
    while (k > 0 && !space_before(s, k, prev)) k = prev;
    out.push_back(Value::str(s.substr(k, end - k)));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Value split(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  int64_t maxsplit = -1;
  const Value* sep = split_args(a, maxsplit);
  const std::string& s = self.s;
  check_split_items(s, sep ? &sep->s : nullptr, maxsplit, space_at);
  if (!sep) return Value::list(name == "split" ? split_spaces(s, maxsplit) : rsplit_spaces(s, maxsplit));
  const std::string& d = sep->s;
  std::vector<Value> out;
  if (name == "split") {
    size_t pos = 0;
    for (size_t hit; (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) && (hit = s.find(d, pos)) != std::string::npos; pos = hit + d.size())
      out.push_back(Value::str(s.substr(pos, hit - pos)));
    out.push_back(Value::str(s.substr(pos)));
    return Value::list(out);
  }
  size_t end = s.size();
  for (size_t hit; (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) && end >= d.size() && (hit = s.rfind(d, end - d.size())) != std::string::npos; end = hit)
    out.push_back(Value::str(s.substr(hit + d.size(), end - hit - d.size())));
  out.push_back(Value::str(s.substr(0, end)));
  std::reverse(out.begin(), out.end());
  return Value::list(out);
}

Value splitlines(Interpreter&, const Value& self, const std::string&, CallArgs& a) {
  const Value* keep_arg = find_arg(a, 0, "keepends");
  const bool keep = keep_arg && to_int(*keep_arg, "keepends") != 0;
  const std::string& s = self.s;
  std::vector<Value> out;
  size_t start = 0;
  for (size_t k = 0; k < s.size();) {
    size_t after = k;
    const char32_t c = uc::next(s, after);
    if (!uc::is_linebreak(c)) {
      k = after;
      continue;
    }
    if (c == '\r' && after < s.size() && s[after] == '\n') ++after;
    out.push_back(Value::str(s.substr(start, (keep ? after : k) - start)));
    start = k = after;
  }
  if (start < s.size()) out.push_back(Value::str(s.substr(start)));
  return Value::list(out);
}

Value partition(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  const Value sep = arg(a, 0, "sep");
  if (sep.kind != Value::Str) throw TypeError("must be str, not " + type_name(sep));
  if (sep.s.empty()) throw ValueError("empty separator");
  const std::string& s = self.s;
  const size_t at = name == "partition" ? s.find(sep.s) : s.rfind(sep.s);
  if (at == std::string::npos)
    return name == "partition" ? Value::tuple({self, Value::str(""), Value::str("")}) : Value::tuple({Value::str(""), Value::str(""), self});
  return Value::tuple({Value::str(s.substr(0, at)), sep, Value::str(s.substr(at + sep.s.size()))});
}

Value remove_affix(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {   // removeprefix, removesuffix
  const Value fix = arg(a, 0, name == "removeprefix" ? "prefix" : "suffix");
  if (fix.kind != Value::Str) throw TypeError(name + "() argument must be str, not " + type_name(fix));
  const std::string& s = self.s;
  const bool pre = name == "removeprefix";
  const bool hit = !fix.s.empty() && fix.s.size() <= s.size() && s.compare(pre ? 0 : s.size() - fix.s.size(), fix.s.size(), fix.s) == 0;
  return !hit ? self : Value::str(pre ? s.substr(fix.s.size()) : s.substr(0, s.size() - fix.s.size()));
}

// ---- replace, join, translate ----

Value replace(Interpreter&, const Value& self, const std::string&, CallArgs& a) {
  if (a.pos.size() < 2) throw TypeError(fmt::format("replace expected at least 2 arguments, got {}", a.pos.size()));
  const std::string from = text_arg(a, 0, "old", "replace"), to = text_arg(a, 1, "new", "replace");
  int64_t count = ssize_arg(arg_or(a, 2, "count", Value::integer(-1)));   // < 0: every one
  const std::string& s = self.s;
  // The size first (as * and center do): ("a" * 1000).replace("a", "b" * 10**6) is refused at once.
  Count hits = 0;
  if (from.empty()) {
    hits = static_cast<Count>(self.i) + 1;
  } else {
    for (size_t hit, pos = 0; static_cast<int64_t>(hits) != count && (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size()) ++hits;
  }
  if (count >= 0 && hits > static_cast<Count>(count)) hits = static_cast<Count>(count);
  if (to.size() > from.size()) check_bytes("a str", static_cast<Count>(s.size()) + hits * (to.size() - from.size()));
  std::string out;
  if (from.empty()) {   // '' matches before each character and at the end
    for (size_t k = 0, made = 0;; ++made) {
      if (count < 0 || static_cast<int64_t>(made) < count) out += to;
      if (k == s.size()) break;
      const size_t start = k;
      uc::next(s, k);
      out.append(s, start, k - start);
    }
    return Value::str(out);
  }
  size_t pos = 0;
  for (size_t hit; count != 0 && (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size(), --count)
    out.append(s, pos, hit - pos).append(to);
  return Value::str(out.append(s, pos));
}

Value join(Interpreter& in, const Value& self, const std::string&, CallArgs& a) {
  const Value& iterable = arg(a, 0, "iterable");
  std::vector<Value> copied;   // a list or tuple is read in place: no Python code runs while joining
  const bool seq = (iterable.kind == Value::List || iterable.kind == Value::Tuple) && !py_subclass(iterable);
  if (!seq) copied = in.iterate(iterable);
  const std::vector<Value>& items = seq ? as_seq(iterable) : copied;
  Count size = 0;   // checked before it is built, as CPython sizes it first
  for (size_t k = 0; k < items.size(); ++k) {
    const Value& v = items[k];
    if (v.kind != Value::Str) throw TypeError(fmt::format("sequence item {}: expected str instance, {} found", k, type_name(v)));
    size += v.s.size() + (k > 0 ? self.s.size() : 0);
  }
  check_bytes("a str", size);
  std::string out;
  out.reserve(static_cast<size_t>(size));
  for (size_t k = 0; k < items.size(); ++k) {
    if (k > 0) out += self.s;
    out += items[k].s;
  }
  return Value::str(out);
}

void translate_to(const Value& to, std::string& out);

// What translate's table maps c to: appended to out (nothing for None), c itself when the
// table has no such key (LookupError).
void translate_one(Interpreter& in, const Value& table, char32_t c, std::string& out) {
  Value to;
  try {
    to = in.getitem(table, Value::integer(c));
  } catch (const PyError& e) {
    if (!is_instance_of(e, "LookupError")) throw;
    return uc::append(out, c);
  }
  translate_to(to, out);
}

// What a table's value for a character appends: a str, a code point, or nothing (None).
void translate_to(const Value& to, std::string& out) {
  if (to.is_none()) return;
  if (to.kind == Value::Str) {
    out += to.s;
    return;
  }
  if (!is_int(to)) throw TypeError("character mapping must return integer, None or str");
  if (to.is_big() || to.i < 0 || to.i > 0x10FFFF) throw ValueError("character mapping must be in range(0x110000)");
  uc::append(out, static_cast<char32_t>(to.i));
}

Value translate(Interpreter& in, const Value& self, const std::string&, CallArgs& a) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError(fmt::format("str.translate() takes exactly one argument ({} given)", a.pos.size() + a.kw.size()));
  const Value& table = a.pos[0];
  // A plain dict is read directly (no KeyError per unmapped character: 30x slower than CPython),
  // and what an ASCII character became is kept, as CPython's fast path does.
  DictObj* plain = table.kind == Value::Dict && !static_cast<DictObj*>(table.obj.get())->cls ? static_cast<DictObj*>(table.obj.get()) : nullptr;
  std::vector<std::optional<std::string>> ascii(128);
  std::string out;
  size_t n = 0;
  for (size_t pos = 0; pos < self.s.size();) {
    const char32_t c = uc::next(self.s, pos);
    if ((++n & 1023) == 0) in.tick();   // --time-limit
    if (!plain) {
      translate_one(in, table, c, out);
    } else if (c < 128 && ascii[c]) {
      out += *ascii[c];
    } else {
      const size_t start = out.size();
      if (Value* to = plain->find(Value::integer(c))) translate_to(*to, out);
      else uc::append(out, c);
      if (c < 128) ascii[c] = out.substr(start);
    }
    if (out.size() > limits::kMaxStrBytes) check_bytes("a str", out.size());
  }
  return Value::str(out);
}


// ---- the table ----

Value no_arg_result(const std::string& name, CallArgs& a, Value v) {
  no_args(a, "str." + name);
  return v;
}

template <Case How>
Value recase_method(Interpreter&, const Value& self, const std::string& name, CallArgs& a) {
  no_args(a, "str." + name);
  return Value::str(recase(self, How));
}

bool printable_text(const std::string& s) { return every(s, uc::is_printable); }

const std::unordered_map<std::string, Method>& str_methods() {
  static const std::unordered_map<std::string, Method> table = {
      {"find", search}, {"rfind", search}, {"index", search}, {"rindex", search}, {"count", count},
      {"startswith", affix}, {"endswith", affix},
      {"ljust", justify}, {"rjust", justify}, {"center", justify}, {"zfill", zfill}, {"expandtabs", expandtabs},
      {"strip", strip}, {"lstrip", strip}, {"rstrip", strip}, {"split", split}, {"rsplit", split},
      {"splitlines", splitlines}, {"partition", partition}, {"rpartition", partition},
      {"removeprefix", remove_affix}, {"removesuffix", remove_affix},
      {"replace", replace}, {"join", join}, {"translate", translate},
      {"lower", recase_method<Case::lower>}, {"upper", recase_method<Case::upper>}, {"casefold", recase_method<Case::fold>},
      {"swapcase", recase_method<Case::swap>}, {"title", recase_method<Case::title>}, {"capitalize", recase_method<Case::capitalize>},
      {"isalpha", nonempty_all<uc::is_alpha>}, {"isalnum", nonempty_all<uc::is_alnum>}, {"isdecimal", nonempty_all<uc::is_decimal>},
      {"isdigit", nonempty_all<uc::is_digit>}, {"isnumeric", nonempty_all<uc::is_numeric>}, {"isspace", nonempty_all<uc::is_space>},
      {"islower", [](Interpreter&, const Value& s, const std::string& n, CallArgs& a) { return no_arg_result(n, a, Value::boolean(is_case(s.s, false))); }},
      {"isupper", [](Interpreter&, const Value& s, const std::string& n, CallArgs& a) { return no_arg_result(n, a, Value::boolean(is_case(s.s, true))); }},
      {"istitle", [](Interpreter&, const Value& s, const std::string& n, CallArgs& a) { return no_arg_result(n, a, Value::boolean(is_title_text(s.s))); }},
      {"isidentifier", [](Interpreter&, const Value& s, const std::string& n, CallArgs& a) { return no_arg_result(n, a, Value::boolean(is_identifier(s.s))); }},
      {"isprintable", [](Interpreter&, const Value& s, const std::string& n, CallArgs& a) { return no_arg_result(n, a, Value::boolean(printable_text(s.s))); }},
      {"isascii", [](Interpreter&, const Value& s, const std::string& n, CallArgs& a) { return no_arg_result(n, a, Value::boolean(str_ascii(s))); }},
      {"format", [](Interpreter& in, const Value& s, const std::string&, CallArgs& a) { return Value::str(str_format(in, s.s, a)); }},
      {"format_map", [](Interpreter& in, const Value& s, const std::string&, CallArgs& a) { return Value::str(str_format_map(in, s.s, arg(a, 0, "mapping"))); }},
      {"maketrans", [](Interpreter& in, const Value&, const std::string&, CallArgs& a) { return str_maketrans(in, a); }},
  };
  return table;
}

// str.maketrans(x[, y[, z]]): a dict from code points to code points, strings or None.
void maketrans_pairs(DictObj& out, const Value& x, const Value& y) {
  if (x.kind != Value::Str) throw TypeError("first maketrans argument must be a string if there is a second argument");
  if (y.kind != Value::Str) throw TypeError("maketrans() argument 2 must be str, not " + type_name(y));
  if (str_len(x) != str_len(y)) throw ValueError("the first two maketrans arguments must have equal length");
  const std::u32string from = uc::decode(x.s), to = uc::decode(y.s);
  for (size_t k = 0; k < from.size(); ++k) out.set(Value::integer(from[k]), Value::integer(to[k]));
}

void maketrans_dict(DictObj& out, const Value& x) {
  if (x.kind != Value::Dict) throw TypeError("if you give only one argument to maketrans it must be a dict");
  for (const auto& kv : static_cast<DictObj*>(x.obj.get())->items) {
    const Value& key = kv.first;
    if (key.kind == Value::Str) {
      if (str_len(key) != 1) throw ValueError("string keys in translate table must be of length 1");
      size_t pos = 0;
      out.set(Value::integer(uc::next(key.s, pos)), kv.second);
    } else if (is_int(key)) {
      out.set(key.kind == Value::Bool ? Value::integer(key.b) : key, kv.second);
    } else {
      throw TypeError("keys in translate table must be strings or integers");
    }
  }
}

}  // namespace

Value str_maketrans(Interpreter&, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("str.maketrans() takes no keyword arguments");
  if (a.pos.empty() || a.pos.size() > 3) throw TypeError(fmt::format("maketrans expected {}, got {}", a.pos.empty() ? "at least 1 argument" : "at most 3 arguments", a.pos.size()));
  Value d = Value::dict();
  DictObj& out = *static_cast<DictObj*>(d.obj.get());
  if (a.pos.size() == 1) {
    maketrans_dict(out, a.pos[0]);
    return d;
  }
  maketrans_pairs(out, a.pos[0], a.pos[1]);
  if (a.pos.size() == 3) {
    if (a.pos[2].kind != Value::Str) throw TypeError("maketrans() argument 3 must be str, not " + type_name(a.pos[2]));
    for (char32_t c : uc::decode(a.pos[2].s)) out.set(Value::integer(c), Value::none());
  }
  return d;
}

Value str_attribute(const Value& self, const std::string& name) {
  if (name == "encode") return builtin("str.encode", [self](Interpreter&, CallArgs& a) { return str_encode(self.s, a); });
  const auto& table = str_methods();
  auto it = table.find(name);
  if (it == table.end()) no_method("str", name);
  const Method m = it->second;
  return builtin("str." + name, [self, name, m](Interpreter& in, CallArgs& a) { return m(in, self, name, a); });
}

std::string ascii_escaped(std::string_view repr) {
  std::string out;
  for (size_t pos = 0; pos < repr.size();) {
    const char32_t c = uc::next(repr, pos);
    out += c < 0x80 ? std::string(1, static_cast<char>(c)) : char_escape(c);
  }
  return out;
}

}  // namespace attn::py
