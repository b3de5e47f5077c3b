// py/match.cpp: running a match statement (PEP 634) as CPython 3.11 does: the first case whose
// pattern matches the subject and whose guard holds runs; a pattern's names are bound only once
// it has matched as a whole (before the guard). Sequences are lists, tuples and ranges (not str,
// bytes or dicts), mappings are dicts (and their subclasses); class patterns use isinstance and
// __match_args__, with CPython's TypeErrors. What it is not: parsing (parser_match.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::py {

namespace {

using Bindings = std::vector<std::pair<std::string, Value>>;

bool is_sequence(const Value& v) { return v.kind == Value::List || v.kind == Value::Tuple || v.kind == Value::Range; }

// The built-in classes whose one positional sub-pattern matches the subject itself (int(x)).
bool self_matching(const Value& cls) {
  static const char* names[] = {"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"};
  const ClassObj* c = static_cast<ClassObj*>(cls.obj.get());
  if (c->module != "builtins") return false;
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return c->name == n; });
}

}  // namespace

Interpreter::Flow Interpreter::exec_match(const Stmt& s, Value* ret) {
  const Value subject = eval(*s.value);
  for (const Handler& h : s.handlers) {
    Bindings binds;
    if (!match_pattern(*h.pattern, subject, binds)) continue;
    for (const auto& [name, v] : binds) store(name, v);
    if (h.guard && !truth(eval(*h.guard))) continue;
    return exec(h.body, ret);
  }
  return Flow::next;
}

bool Interpreter::match_pattern(const Pattern& p, const Value& v, Bindings& binds) {
  tick();
  switch (p.kind) {
    case Pattern::Wildcard: return true;
    case Pattern::Capture: binds.emplace_back(p.name, v); return true;
    case Pattern::Value: return truth(compare("==", v, eval(*p.value)));
    case Pattern::Singleton: {
      const Value want = eval(*p.value);
      return v.kind == want.kind && (v.kind != Value::Bool || v.b == want.b);
    }
    case Pattern::As:
      if (!match_pattern(*p.items[0], v, binds)) return false;
      binds.emplace_back(p.name, v);
      return true;
    case Pattern::Or:
      for (const PatternPtr& alt : p.items) {
        Bindings tried = binds;
        if (match_pattern(*alt, v, tried)) {
          binds = std::move(tried);
          return true;
        }
      }
      return false;
    case Pattern::Sequence: return match_sequence(p, v, binds);
    case Pattern::Mapping: return match_mapping(p, v, binds);
    case Pattern::Class: return match_class(p, v, binds);
    case Pattern::Star: break;
  }
  throw SyntaxError("a pattern attn cannot match");
}

bool Interpreter::match_sequence(const Pattern& p, const Value& v, Bindings& binds) {
  if (!is_sequence(v)) return false;
  const std::vector<Value> items = iterate(v);
  const size_t n = p.items.size();
  size_t star = n;
  for (size_t k = 0; k < n; ++k)
    if (p.items[k]->kind == Pattern::Star) star = k;
  if (star == n ? items.size() != n : items.size() < n - 1) return false;
  const size_t after = star == n ? 0 : n - star - 1;   // patterns after the star
  for (size_t k = 0; k < n; ++k) {
    if (k == star) {
      if (!p.items[k]->name.empty())
        binds.emplace_back(p.items[k]->name, Value::list(std::vector<Value>(items.begin() + static_cast<std::ptrdiff_t>(k),
                                                                            items.end() - static_cast<std::ptrdiff_t>(after))));
      continue;
    }
    const size_t at = k < star ? k : items.size() - (n - k);
    if (!match_pattern(*p.items[k], items[at], binds)) return false;
  }
  return true;
}

bool Interpreter::match_mapping(const Pattern& p, const Value& v, Bindings& binds) {
  if (v.kind != Value::Dict) return false;
  auto* d = static_cast<DictObj*>(v.obj.get());
  if (d->items.size() < p.keys.size()) return false;
  std::vector<Value> keys;
  for (const ExprPtr& k : p.keys) {
    Value key = eval(*k);
    for (const Value& seen : keys)
      if (equal(seen, key)) throw ValueError("mapping pattern checks duplicate key (" + repr_of(key) + ")");
    keys.push_back(key);
  }
  for (size_t k = 0; k < keys.size(); ++k) {
    const Value* found = d->find(keys[k]);
    if (!found) return false;
    const Value item = *found;   // the sub-pattern's Python may change the dict
    if (!match_pattern(*p.items[k], item, binds)) return false;
  }
  if (p.name.empty()) return true;
  Value rest = Value::dict();
  auto* r = static_cast<DictObj*>(rest.obj.get());
  for (const auto& [key, value] : std::vector<std::pair<Value, Value>>(d->items)) {
    bool taken = false;
    for (const Value& k : keys) taken = taken || equal(k, key);
    if (!taken) r->set(key, value);
  }
  binds.emplace_back(p.name, rest);
  return true;
}

bool Interpreter::match_class(const Pattern& p, const Value& v, Bindings& binds) {
  const Value cls = eval(*p.value);
  if (cls.kind != Value::Class) throw TypeError("called match pattern must be a type");
  const auto* c = static_cast<ClassObj*>(cls.obj.get());
  if (!(c->slots.instancecheck ? c->slots.instancecheck(v) : isinstance(v, c))) return false;
  std::vector<std::string> names;
  if (!p.items.empty()) {
    if (self_matching(cls)) {
      if (p.items.size() > 1) throw TypeError(fmt::format("{}() accepts 1 positional sub-pattern ({} given)", c->name, p.items.size()));
      if (!match_pattern(*p.items[0], v, binds)) return false;
    } else {
      Value args = Value::tuple({});
      try {
        args = getattr(cls, "__match_args__");
      } catch (const PyError& e) {
        if (!is_instance_of(e, "AttributeError")) throw;
      }
      if (args.kind != Value::Tuple) throw TypeError(fmt::format("{}.__match_args__ must be a tuple (got {})", c->name, type_name(args)));
      const std::vector<Value>& a = as_seq(args);
      if (p.items.size() > a.size())
        throw TypeError(fmt::format("{}() accepts {} positional sub-pattern{} ({} given)", c->name, a.size(), a.size() == 1 ? "" : "s", p.items.size()));
      for (size_t k = 0; k < p.items.size(); ++k) {
        if (a[k].kind != Value::Str) throw TypeError(fmt::format("__match_args__ elements must be strings (got {})", type_name(a[k])));
        names.push_back(a[k].s);
      }
    }
  }
  names.insert(names.end(), p.kw_names.begin(), p.kw_names.end());
  const size_t first_kw = names.size() - p.kw_names.size();
  for (size_t k = 0; k < names.size(); ++k) {
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(k), names[k]) != names.begin() + static_cast<std::ptrdiff_t>(k))
      throw TypeError(fmt::format("{}() got multiple sub-patterns for attribute '{}'", c->name, names[k]));
    Value attr;
    try {
      attr = getattr(v, names[k]);
    } catch (const PyError& e) {
      if (!is_instance_of(e, "AttributeError")) throw;
      return false;
    }
    const Pattern& sub = k < first_kw ? *p.items[k] : *p.kw_items[k - first_kw];
    if (!match_pattern(sub, attr, binds)) return false;
  }
  return true;
}

}  // namespace attn::py
