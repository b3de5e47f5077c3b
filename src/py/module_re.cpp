// py/module_re.cpp: `_re`, the native half of `import re` (src/py/python/re.py): compiles a
// pattern with re_parse.cpp and hands re.py a matcher function that runs re_match.cpp over a str.
//
// What it is: compile(pattern, flags) -> (True, flags, groups, [(name, group)...], matcher, hash) or
// (False, kind, message, pos) for re.py to raise; matcher(string, pos, endpos, mode, count,
// must_advance): mode 0/1/2 = match/fullmatch/search -> None or (spans, lastindex); mode 3 =
// the next matches from pos on with finditer's empty-match rule, at most count (0: no bound) and
// at most kBatch -> a list of those (re.py calls again after a full batch). Positions are code points. What it is not: the Pattern and Match classes, templates,
// split/sub (re.py has them), or bytes patterns.
#include <fmt/format.h>

#include "print/unicode.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
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

Value run_matcher(Interpreter& in, const re::Program& prog, CallArgs& a) {
  Value text = arg(a, 0, "string");
  if (text.kind != Value::Str) throw TypeError("expected string or bytes-like object, got '" + type_name(text) + "'");
  // finditer/sub/split come back for the next batch with the same str: decode it once.
  thread_local std::string last_text;
  thread_local std::u32string last_decoded;
  if (text.s != last_text) {
    last_decoded = print::unicode::decode(text.s);
    last_text = text.s;
  }
  const std::u32string& s = last_decoded;
  const int64_t n = static_cast<int64_t>(s.size());
  int64_t pos = std::clamp<int64_t>(to_int(arg(a, 1, "pos"), "pos"), 0, n);
  int64_t endpos = std::clamp<int64_t>(to_int(arg(a, 2, "endpos"), "endpos"), 0, n);
  const int64_t mode = to_int(arg(a, 3, "mode"), "mode");
  const int64_t count = to_int(arg(a, 4, "count"), "count");
  bool must_advance = truthy(arg(a, 5, "must_advance"));
  re::MatchResult r;
  if (mode < 3) {
    if (endpos < pos) return Value::none();
    const re::Mode m = mode == 0 ? re::Mode::Match : mode == 1 ? re::Mode::FullMatch : re::Mode::Search;
    if (!re::find(in, prog, s, pos, endpos, m, must_advance, r)) return Value::none();
    return result_value(r);
  }
  std::vector<Value> out;
  const int64_t batch = count == 0 ? kBatch : std::min(count, kBatch);
  while (pos <= endpos && static_cast<int64_t>(out.size()) < batch) {
    if (!re::find(in, prog, s, pos, endpos, re::Mode::Search, must_advance, r)) break;
    out.push_back(result_value(r));
    must_advance = r.spans[1] == r.spans[0];
    pos = r.spans[1];
    in.tick();
  }
  return Value::list(std::move(out));
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
  in.add_module("_re", [](Interpreter&) {
    auto ns = std::make_shared<NamespaceObj>();
    ns->names["compile"] = builtin("_re.compile", [](Interpreter&, CallArgs& a) {
      Value pattern = arg(a, 0, "pattern");
      if (pattern.kind != Value::Str) throw TypeError("first argument must be string or compiled pattern");
      return compile_value(pattern, to_int(arg(a, 1, "flags"), "flags"));
    });
    ns->names["MAXREPEAT"] = Value::integer(re::kMaxRepeat);
    return module_value("_re", ns);
  });
}

}  // namespace attn::py
