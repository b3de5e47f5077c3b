// py/module_unicodedata.cpp: Python's unicodedata module as CPython 3.11's (Unicode 14.0.0).
//
// What it is: category, bidirectional, east_asian_width, mirrored, combining, decomposition,
// decimal / digit / numeric (with their default), normalize and is_normalized (NFC, NFD, NFKC,
// NFKD: full decomposition, Hangul syllables by algorithm, canonical ordering, composition to
// the primary composites CPython makes) and unidata_version, with CPython's messages. The
// tables are tools/make_unicodedata_tables.py's (unicodedata_tables.inc, about 150 KB of the
// binary). What it is not: name() and lookup() (their table would add some 400 KB; they say
// attn has not got them), the UCD class or ucd_3_2_0.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "print/unicode.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "py/unicodedata.h"

namespace attn::py {

namespace ucd {

namespace {

struct UcdRecord {
  uint8_t category, bidirectional, width, mirrored, combining;
};
struct UcdDecomposition {
  char32_t cp;
  uint16_t offset;
  uint8_t length, tag;
};
struct UcdComposition {
  char32_t first, second, composite;
};
struct UcdNumeric {
  char32_t cp;
  int8_t decimal, digit;
  double value;
};

#include "py/unicodedata_tables.inc"

const UcdRecord& record(char32_t c) {
  const uint32_t key = (static_cast<uint32_t>(c) << 8) | 0xFF;
  const uint32_t* it = std::upper_bound(std::begin(k_runs), std::end(k_runs), key);
  return k_records[*(it - 1) & 0xFF];
}

const UcdDecomposition* find_decomposition(char32_t c) {
  auto it = std::lower_bound(std::begin(k_decompositions), std::end(k_decompositions), c,
                             [](const UcdDecomposition& d, char32_t x) { return d.cp < x; });
  return it != std::end(k_decompositions) && it->cp == c ? &*it : nullptr;
}

// Hangul syllables (Unicode 3.12): decomposed and composed by arithmetic, not by table.
constexpr char32_t SBase = 0xAC00, LBase = 0x1100, VBase = 0x1161, TBase = 0x11A7;
constexpr char32_t LCount = 19, VCount = 21, TCount = 28, NCount = VCount * TCount, SCount = LCount * NCount;

void decompose(char32_t c, bool compat, std::u32string& out) {
  if (c >= SBase && c < SBase + SCount) {
    const char32_t s = c - SBase;
    out += LBase + s / NCount;
    out += VBase + (s % NCount) / TCount;
    if (s % TCount) out += TBase + s % TCount;
    return;
  }
  const UcdDecomposition* d = find_decomposition(c);
  if (!d || (d->tag != 0 && !compat)) {
    out += c;
    return;
  }
  for (int k = 0; k < d->length; ++k) decompose(k_decomposition_pool[d->offset + k], compat, out);   // depth <= 4
}

// Canonical ordering: each run of non-starters sorted, stably, by combining class.
void reorder(std::u32string& s) {
  size_t k = 0;
  while (k < s.size()) {
    if (record(s[k]).combining == 0) {
      ++k;
      continue;
    }
    size_t end = k;
    while (end < s.size() && record(s[end]).combining != 0) ++end;
    std::stable_sort(s.begin() + static_cast<std::ptrdiff_t>(k), s.begin() + static_cast<std::ptrdiff_t>(end),
                     [](char32_t a, char32_t b) { return record(a).combining < record(b).combining; });
    k = end;
  }
}

// The primary composite of a pair, or 0.
char32_t compose_pair(char32_t a, char32_t b) {
  if (a >= LBase && a < LBase + LCount && b >= VBase && b < VBase + VCount)
    return SBase + ((a - LBase) * VCount + (b - VBase)) * TCount;
  if (a >= SBase && a < SBase + SCount && (a - SBase) % TCount == 0 && b > TBase && b < TBase + TCount)
    return a + (b - TBase);
  auto it = std::lower_bound(std::begin(k_compositions), std::end(k_compositions), std::make_pair(a, b),
                             [](const UcdComposition& x, std::pair<char32_t, char32_t> y) {
                               return x.first != y.first ? x.first < y.first : x.second < y.second;
                             });
  return it != std::end(k_compositions) && it->first == a && it->second == b ? it->composite : 0;
}

// Canonical composition of a decomposed, ordered string: a character joins the last starter
// unless a character between them (not composed away) is a starter or has a class >= its own.
std::u32string compose(const std::u32string& d) {
  std::u32string out;
  std::ptrdiff_t starter = -1;
  for (char32_t c : d) {
    const int cc = record(c).combining;
    if (starter >= 0) {
      const auto last = static_cast<std::ptrdiff_t>(out.size()) - 1;
      const int last_cc = record(out[static_cast<size_t>(last)]).combining;
      const bool blocked = last != starter && (last_cc == 0 || last_cc >= cc);
      if (!blocked) {
        if (char32_t p = compose_pair(out[static_cast<size_t>(starter)], c)) {
          out[static_cast<size_t>(starter)] = p;
          continue;
        }
      }
    }
    if (cc == 0) starter = static_cast<std::ptrdiff_t>(out.size());
    out += c;
  }
  return out;
}

}  // namespace

Properties properties(char32_t c) {
  const UcdRecord& r = record(c);
  return {k_categories[r.category], k_bidis[r.bidirectional], k_widths[r.width], r.mirrored, r.combining};
}

std::string decomposition(char32_t c) {
  const UcdDecomposition* d = find_decomposition(c);
  if (!d) return "";
  std::string out = k_decomposition_tags[d->tag];
  for (int k = 0; k < d->length; ++k)
    out += fmt::format("{}{:04X}", out.empty() ? "" : " ", static_cast<uint32_t>(k_decomposition_pool[d->offset + k]));
  return out;
}

Numeric numeric(char32_t c) {
  auto it = std::lower_bound(std::begin(k_numerics), std::end(k_numerics), c,
                             [](const UcdNumeric& n, char32_t x) { return n.cp < x; });
  Numeric n;
  if (it == std::end(k_numerics) || it->cp != c) return n;
  n.has = true;
  n.decimal = it->decimal;
  n.digit = it->digit;
  n.value = it->value;
  return n;
}

std::u32string normalize(Form form, std::u32string_view s) {
  const bool compat = form == Form::NFKC || form == Form::NFKD;
  std::u32string d;
  d.reserve(s.size());
  for (char32_t c : s) {
    decompose(c, compat, d);   // up to 18 code points each (U+FDFA): the result's size is checked as it grows
    if (d.size() > limits::kMaxStrBytes) too_many_bytes("a normalized str", d.size());
  }
  size_t bytes = 0;
  for (char32_t c : d) bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  check_bytes("a normalized str", bytes);
  reorder(d);
  return form == Form::NFD || form == Form::NFKD ? d : compose(d);
}

}  // namespace ucd

namespace {

// The type CPython's argument errors name: None as itself.
std::string arg_type(const Value& v) { return v.is_none() ? "None" : type_name(v); }

void no_keywords(const CallArgs& a, const char* name) {
  if (!a.kw.empty()) throw TypeError(fmt::format("unicodedata.{}() takes no keyword arguments", name));
}

// The one character argument of category() and the others, with CPython's message.
char32_t character(const Value& v, const char* name) {
  if (v.kind == Value::Str && print::unicode::length(v.s) == 1) {
    size_t pos = 0;
    return print::unicode::next(v.s, pos);
  }
  throw TypeError(fmt::format("{}() argument must be a unicode character, not {}", name, arg_type(v)));
}

// category(chr) and the other functions of one character.
template <class F>
Value one_char(const char* name, F f) {
  return builtin(std::string("unicodedata.") + name, [name, f](Interpreter&, CallArgs& a) -> Value {
    no_keywords(a, name);
    if (a.pos.size() != 1)
      throw TypeError(fmt::format("unicodedata.{}() takes exactly one argument ({} given)", name, a.pos.size()));
    return f(character(a.pos[0], name));
  });
}

// decimal / digit / numeric (chr[, default]): ValueError(message) when there is no value and no default.
Value with_default(const char* name, const char* message, Value (*get)(const ucd::Numeric&)) {
  return builtin(std::string("unicodedata.") + name, [name, message, get](Interpreter&, CallArgs& a) -> Value {
    no_keywords(a, name);
    if (a.pos.empty()) throw TypeError(fmt::format("{} expected at least 1 argument, got 0", name));
    if (a.pos.size() > 2) throw TypeError(fmt::format("{} expected at most 2 arguments, got {}", name, a.pos.size()));
    Value v = get(ucd::numeric(character(a.pos[0], name)));
    if (!v.is_none()) return v;
    if (a.pos.size() == 2) return a.pos[1];
    throw ValueError(message);
  });
}

ucd::Form form_of(const CallArgs& a, const char* name) {
  if (a.pos.size() != 2) throw TypeError(fmt::format("{} expected 2 arguments, got {}", name, a.pos.size()));
  for (size_t k = 0; k < 2; ++k)
    if (a.pos[k].kind != Value::Str)
      throw TypeError(fmt::format("{}() argument {} must be str, not {}", name, k + 1, arg_type(a.pos[k])));
  const std::string& f = a.pos[0].s;
  if (f == "NFC") return ucd::Form::NFC;
  if (f == "NFD") return ucd::Form::NFD;
  if (f == "NFKC") return ucd::Form::NFKC;
  if (f == "NFKD") return ucd::Form::NFKD;
  throw ValueError("invalid normalization form");
}

std::string normalized(const CallArgs& a, const char* name) {
  const ucd::Form form = form_of(a, name);
  return print::unicode::encode(ucd::normalize(form, print::unicode::decode(a.pos[1].s)));
}

Value unicodedata_module() {
  auto ns = std::make_shared<NamespaceObj>();
  auto& n = ns->names;
  n["unidata_version"] = Value::str("14.0.0");
  n["category"] = one_char("category", [](char32_t c) { return Value::str(ucd::properties(c).category); });
  n["bidirectional"] = one_char("bidirectional", [](char32_t c) { return Value::str(ucd::properties(c).bidirectional); });
  n["east_asian_width"] = one_char("east_asian_width", [](char32_t c) { return Value::str(ucd::properties(c).east_asian_width); });
  n["mirrored"] = one_char("mirrored", [](char32_t c) { return Value::integer(ucd::properties(c).mirrored); });
  n["combining"] = one_char("combining", [](char32_t c) { return Value::integer(ucd::properties(c).combining); });
  n["decomposition"] = one_char("decomposition", [](char32_t c) { return Value::str(ucd::decomposition(c)); });
  n["decimal"] = with_default("decimal", "not a decimal", [](const ucd::Numeric& x) {
    return x.decimal >= 0 ? Value::integer(x.decimal) : Value::none();
  });
  n["digit"] = with_default("digit", "not a digit", [](const ucd::Numeric& x) {
    return x.digit >= 0 ? Value::integer(x.digit) : Value::none();
  });
  n["numeric"] = with_default("numeric", "not a numeric character", [](const ucd::Numeric& x) {
    return x.has ? Value::number(x.value) : Value::none();
  });
  n["normalize"] = builtin("unicodedata.normalize", [](Interpreter&, CallArgs& a) {
    no_keywords(a, "normalize");
    return Value::str(normalized(a, "normalize"));
  });
  n["is_normalized"] = builtin("unicodedata.is_normalized", [](Interpreter&, CallArgs& a) {
    no_keywords(a, "is_normalized");
    return Value::boolean(normalized(a, "is_normalized") == a.pos[1].s);
  });
  for (const char* missing : {"name", "lookup"}) {
    const std::string full = std::string("unicodedata.") + missing;
    n[missing] = builtin(full, [full](Interpreter&, CallArgs&) -> Value {
      throw NotImplementedError("attn does not implement " + full + "() (no character name table)");
    });
  }
  return module_value("unicodedata", ns);
}

}  // namespace

void add_unicodedata_module(Interpreter& in) {
  in.add_module("unicodedata", [](Interpreter&) { return unicodedata_module(); });
}

}  // namespace attn::py
