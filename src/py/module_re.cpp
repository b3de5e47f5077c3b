// py/module_re.cpp: `_re`, the native half of `import re` (src/py/python/re.py): compiles a
// pattern with re_parse.cpp and hands re.py a matcher function that runs re_match.cpp over a str.
//
// What it is: compile(pattern, flags) -> (True, flags, groups, [(name, group)...], matcher, hash) or
// (False, kind, message, pos) for re.py to raise; matcher(string, pos, endpos, mode, count,
// must_advance[, repl]): mode 0/1/2 = match/fullmatch/search -> None or (spans, lastindex);
// mode 3 = the next matches from pos on with finditer's empty-match rule, at most count (0: no
// bound) and at most kBatch -> a list of those (re.py calls again after a full batch); mode 4 =
// findall's list, 5 = split's list (count: maxsplit), 6 = sub with a replacement str that has no
// group reference -> (new string, count), so the common calls build their results here. Positions are code points. What it is not: the Pattern and Match classes, templates,
// split/sub (re.py has them), or bytes patterns.
#include <fmt/format.h>

#include "print/unicode.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "py/re_engine.h"

namespace attn::py {

namespace {

constexpr int64_t kBatch = 4096;   // matches per call of mode 3: re.py asks again from where it stopped

Value result_value(const re::MatchResult& r) {
  std::vector<Value> spans;
  spans.reserve(r.spans.size());
  for (int64_t v : r.spans) spans.push_back(Value::integer(v));
  return Value::tuple({Value::tuple(std::move(spans)), Value::integer(r.lastindex)});
}

// A str as code points, and where each code point starts in its UTF-8 (for slices of the result).
struct Decoded {
  std::string text;
  std::u32string cps;
  std::vector<size_t> bytes;   // empty: all ASCII (code point k is byte k)
  size_t byte(int64_t k) const { return bytes.empty() ? static_cast<size_t>(k) : bytes[static_cast<size_t>(k)]; }
  Value slice(int64_t a, int64_t b) const { return Value::str(text.substr(byte(a), byte(b) - byte(a))); }
  Value group(const re::MatchResult& r, int g) const {
    int64_t a = r.spans[static_cast<size_t>(2 * g)];
    return a < 0 ? Value::none() : slice(a, r.spans[static_cast<size_t>(2 * g + 1)]);
  }
};

// finditer/sub/split come back for the next batch with the same str: decode it once.
const Decoded& decoded(const Value& text) {
  thread_local Decoded d;
  if (text.s != d.text || d.cps.empty() != d.text.empty()) {
    d.text = text.s;
    d.cps = print::unicode::decode(text.s);
    d.bytes.clear();
    if (d.cps.size() != d.text.size()) {
      d.bytes.reserve(d.cps.size() + 1);
      size_t at = 0;
      for (char32_t c : d.cps) {
        d.bytes.push_back(at);
        at += print::unicode::encode(c).size();
      }
      d.bytes.push_back(at);
    }
  }
  return d;
}

// findall's items: the match, its one group, or a tuple of its groups ('' for one that did not take part).
Value findall(Interpreter& in, const re::Program& prog, const Decoded& d, int64_t pos, int64_t endpos) {
  std::vector<Value> out;
  re::find_each(in, prog, d.cps, pos, endpos, false, 0, [&](const re::MatchResult& r) {
    auto text = [&](int g) { Value v = d.group(r, g); return v.is_none() ? Value::str("") : v; };
    if (prog.groups == 0) out.push_back(text(0));
    else if (prog.groups == 1) out.push_back(text(1));
    else {
      std::vector<Value> items;
      for (int g = 1; g <= prog.groups; ++g) items.push_back(text(g));
      out.push_back(Value::tuple(std::move(items)));
    }
  });
  return Value::list(std::move(out));
}

Value split(Interpreter& in, const re::Program& prog, const Decoded& d, int64_t maxsplit) {
  std::vector<Value> out;
  int64_t last = 0;
  const int64_t n = static_cast<int64_t>(d.cps.size());
  re::find_each(in, prog, d.cps, 0, n, false, maxsplit, [&](const re::MatchResult& r) {
    out.push_back(d.slice(last, r.spans[0]));
    for (int g = 1; g <= prog.groups; ++g) out.push_back(d.group(r, g));
    last = r.spans[1];
  });
  out.push_back(d.slice(last, n));
  return Value::list(std::move(out));
}

// sub with a replacement that has no group reference: (new string, count).
Value sub_literal(Interpreter& in, const re::Program& prog, const Decoded& d, const std::string& repl, int64_t count) {
  std::string out;
  size_t last = 0;
  const int64_t n = static_cast<int64_t>(d.cps.size());
  int64_t k = re::find_each(in, prog, d.cps, 0, n, false, count, [&](const re::MatchResult& r) {
    out.append(d.text, last, d.byte(r.spans[0]) - last);
    out += repl;
    last = d.byte(r.spans[1]);
    check_bytes("a str", out.size());
  });
  out.append(d.text, last, std::string::npos);
  return Value::tuple({Value::str(std::move(out)), Value::integer(k)});
}

Value run_matcher(Interpreter& in, const re::Program& prog, CallArgs& a) {
  Value text = arg(a, 0, "string");
  if (text.kind != Value::Str) throw TypeError("expected string or bytes-like object, got '" + type_name(text) + "'");
  const Decoded& d = decoded(text);
  const int64_t n = static_cast<int64_t>(d.cps.size());
  int64_t pos = std::clamp<int64_t>(to_int(arg(a, 1, "pos"), "pos"), 0, n);
  int64_t endpos = std::clamp<int64_t>(to_int(arg(a, 2, "endpos"), "endpos"), 0, n);
  const int64_t mode = to_int(arg(a, 3, "mode"), "mode");
  const int64_t count = to_int(arg(a, 4, "count"), "count");
  const bool must_advance = truthy(arg(a, 5, "must_advance"));
  re::MatchResult r;
  switch (mode) {
    case 0: case 1: case 2: {
      if (endpos < pos) return Value::none();
      const re::Mode m = mode == 0 ? re::Mode::Match : mode == 1 ? re::Mode::FullMatch : re::Mode::Search;
      if (!re::find(in, prog, d.cps, pos, endpos, m, must_advance, r)) return Value::none();
      return result_value(r);
    }
    case 3: {
      std::vector<Value> out;
      re::find_each(in, prog, d.cps, pos, endpos, must_advance, count == 0 ? kBatch : std::min(count, kBatch),
                    [&](const re::MatchResult& m) { out.push_back(result_value(m)); });
      return Value::list(std::move(out));
    }
    case 4: return findall(in, prog, d, pos, endpos);
    case 5: return split(in, prog, d, count);
    default: {
      Value repl = arg(a, 6, "repl");
      return sub_literal(in, prog, d, repl.s, count);
    }
  }
}

Value compile_value(const Value& pattern, int64_t flags) {
  std::shared_ptr<const re::Program> prog;
  try {
    prog = re::compile(print::unicode::decode(pattern.s), static_cast<int>(flags));
  } catch (const re::ParseError& e) {
    const char* kind = e.kind == re::ParseError::Overflow ? "OverflowError" : e.kind == re::ParseError::Recursion ? "RecursionError"
                       : e.kind == re::ParseError::Value ? "ValueError" : "error";
    return Value::tuple({Value::boolean(false), Value::str(kind), Value::str(e.msg), e.pos < 0 ? Value::none() : Value::integer(e.pos)});
  }
  std::vector<Value> names;
  for (const auto& [name, group] : prog->groupindex) names.push_back(Value::tuple({Value::str(name), Value::integer(group)}));
  uint64_t hash = 1469598103934665603ull;   // FNV-1a of the pattern and flags: Pattern.__hash__
  for (unsigned char c : pattern.s) hash = (hash ^ c) * 1099511628211ull;
  hash ^= static_cast<uint64_t>(prog->flags);
  Value matcher = builtin("_re.matcher", [prog](Interpreter& in, CallArgs& a) { return run_matcher(in, *prog, a); });
  return Value::tuple({Value::boolean(true), Value::integer(prog->flags), Value::integer(prog->groups), Value::list(std::move(names)), matcher,
                       Value::integer(static_cast<int64_t>(hash >> 2))});
}

}  // namespace

void add_re_core(Interpreter& in) {
  in.add_module("_attn_re", [](Interpreter&) {
    auto ns = std::make_shared<NamespaceObj>();
    ns->names["compile"] = builtin("_re.compile", [](Interpreter&, CallArgs& a) {
      Value pattern = arg(a, 0, "pattern");
      if (pattern.kind != Value::Str) throw TypeError("first argument must be string or compiled pattern");
      return compile_value(pattern, to_int(arg(a, 1, "flags"), "flags"));
    });
    ns->names["MAXREPEAT"] = Value::integer(re::kMaxRepeat);
    return module_value("_attn_re", ns);
  });
}

}  // namespace attn::py
