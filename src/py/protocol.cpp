// py/protocol.cpp: Python's object protocol: operators, comparisons, items, len, truth, hash,
// iteration, calls, repr/str/format, each through the value's class.
//
// What it is: one place where `a + b`, `a[k]`, `len(a)`, `for x in a`, `a == b`, `str(a)` decide
// what runs, as CPython's abstract.c / object.c do: for an object, the first class along its
// method resolution order that has a Python dunder (__add__, __getitem__, ...) or a native hook
// (value.h's Slots) for the operation supplies it; binary operators and comparisons try the left
// operand, then the right one's reflected form (the right one first when its class is a
// subclass of the left's), and NotImplemented passes the turn. Values of the built-in kinds
// (numbers, str, list, tuple, dict, set, range) take the fast paths of ints.h and builtins.cpp.
// What it is not: attribute lookup (classes.cpp) or the evaluator (eval.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/text.h"

namespace attn::py {

namespace {

// Where an operation's implementation is: a Python method, or a class's native hook.
struct Hook {
  const Value* py = nullptr;          // the dunder method (a function, builtin, or None)
  const ClassObj* native = nullptr;   // the class whose Slots has the hook
  explicit operator bool() const { return py || native; }
};

// The first class in v's order (object excluded: its behaviour is the interpreter's default)
// that defines `dunder` in Python or has the native hook `has`.
template <class Has>
Hook find_hook(const ClassObj& cls, const char* dunder, Has has) {
  static const ClassObj* const object = builtin_class("object").get();
  for (const ClassObj* c : cls.mro()) {
    if (c == object) break;
    auto it = c->methods.find(dunder);
    if (it != c->methods.end()) return {&it->second, nullptr};
    if (has(c->slots)) return {nullptr, c};
  }
  return {};
}

// Whether a value's class can carry hooks: an object, a list/tuple tagged with a native class, or
// a list, tuple, dict or set of a class written in Python (class L(list)).
bool has_class(const Value& v) {
  if (v.kind == Value::Instance) return true;
  return ((v.kind == Value::List || v.kind == Value::Tuple) && static_cast<const SeqObj*>(v.obj.get())->cls) || py_subclass(v);
}

}  // namespace

// d[key] of a dict subclass's instance: its class's __missing__(key) when the key is absent.
std::optional<Value> missing_item(Interpreter& in, const Value& d, const Value& key) {
  if (d.kind != Value::Dict || !py_subclass(d) || static_cast<DictObj*>(d.obj.get())->find(key)) return std::nullopt;
  const Value* m = type_of(d)->find_method("__missing__");
  if (!m) return std::nullopt;
  CallArgs args;
  args.pos = {d, key};
  auto& dict = *static_cast<DictObj*>(d.obj.get());
  const size_t before = dict.items.size();
  Value r = in.call(*m, args);
  if (in.read_only && dict.items.size() != before) {   // defaultdict: reading would insert the key
    dict.erase(key);
    throw ValueError("a placeholder cannot read a missing key of a " + type_name(d) + ": it would insert it");
  }
  return r;
}

namespace {

const char* binary_dunder(const std::string& op, bool reflected) {
  static const std::map<std::string, std::pair<const char*, const char*>> names = {
      {"+", {"__add__", "__radd__"}},     {"-", {"__sub__", "__rsub__"}},         {"*", {"__mul__", "__rmul__"}},
      {"/", {"__truediv__", "__rtruediv__"}}, {"//", {"__floordiv__", "__rfloordiv__"}}, {"%", {"__mod__", "__rmod__"}},
      {"**", {"__pow__", "__rpow__"}},    {"@", {"__matmul__", "__rmatmul__"}},   {"&", {"__and__", "__rand__"}},
      {"|", {"__or__", "__ror__"}},       {"^", {"__xor__", "__rxor__"}},         {"<<", {"__lshift__", "__rlshift__"}},
      {">>", {"__rshift__", "__rrshift__"}}};
  auto it = names.find(op);
  if (it == names.end()) throw SyntaxError("unknown operator " + op);
  return reflected ? it->second.second : it->second.first;
}

const char* inplace_dunder(const std::string& op) {
  static const std::map<std::string, const char*> names = {
      {"+", "__iadd__"}, {"-", "__isub__"}, {"*", "__imul__"}, {"/", "__itruediv__"}, {"//", "__ifloordiv__"},
      {"%", "__imod__"}, {"**", "__ipow__"}, {"@", "__imatmul__"}, {"&", "__iand__"}, {"|", "__ior__"},
      {"^", "__ixor__"}, {"<<", "__ilshift__"}, {">>", "__irshift__"}};
  return names.at(op);
}

const char* compare_dunder(const std::string& op) {
  static const std::map<std::string, const char*> names = {{"==", "__eq__"}, {"!=", "__ne__"}, {"<", "__lt__"},
                                                            {"<=", "__le__"}, {">", "__gt__"}, {">=", "__ge__"}};
  return names.at(op);
}

std::string swapped_compare(const std::string& op) {   // a < b is b > a
  if (op == "<") return ">";
  if (op == ">") return "<";
  if (op == "<=") return ">=";
  if (op == ">=") return "<=";
  return op;
}

std::optional<Value> implemented(Value r) {
  if (r.kind == Value::NotImplemented) return std::nullopt;
  return r;
}

// ---- the built-in kinds' operators ----

double num(const Value& v) { return v.kind == Value::Float ? v.f : int_to_double(v); }

// Python's float // and % (CPython's float_divmod): the remainder takes the divisor's sign.
void float_divmod(double x, double y, double& div, double& mod) {
  mod = std::fmod(x, y);
  double d = (x - mod) / y;
  if (mod != 0) {
    if ((y < 0) != (mod < 0)) {
      mod += y;
      d -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, y);
  }
  if (d != 0) {
    div = std::floor(d);
    if (d - div > 0.5) div += 1.0;
  } else {
    div = std::copysign(0.0, x / y);
  }
}

std::optional<Value> number_binop(const std::string& op, const Value& a, const Value& b) {
  if (a.kind != Value::Float && b.kind != Value::Float) {
    if ((op == "&" || op == "|" || op == "^") && a.kind == Value::Bool && b.kind == Value::Bool)   // bool's own: True ^ False is True
      return Value::boolean(op == "&" ? (a.b && b.b) : op == "|" ? (a.b || b.b) : (a.b != b.b));
    return int_binop(op, a, b);
  }
  double x = num(a), y = num(b);
  if (op == "+") return Value::number(x + y);
  if (op == "-") return Value::number(x - y);
  if (op == "*") return Value::number(x * y);
  if (op == "/") {
    if (y == 0) throw ZeroDivisionError("float division by zero");
    return Value::number(x / y);
  }
  if (op == "//" || op == "%") {
    if (y == 0) throw ZeroDivisionError(op == "%" ? "float modulo" : "float floor division by zero");
    double div = 0, mod = 0;
    float_divmod(x, y, div, mod);
    return Value::number(op == "%" ? mod : div);
  }
  if (op == "**") return float_power(x, y);
  return std::nullopt;
}

// seq * n for a str, list or tuple: n copies (none for n <= 0), within the size limits.
Value repeat(const Value& seq, const Value& count) {
  int64_t n = std::max<int64_t>(to_count(count), 0);
  if (seq.kind == Value::Str) {
    check_bytes("a str", static_cast<Count>(seq.s.size()) * static_cast<Count>(n));
    std::string out;
    out.reserve(seq.s.size() * static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) out += seq.s;
    return Value::str(std::move(out));
  }
  const std::vector<Value>& items = as_seq(seq);
  check_items(seq.kind == Value::List ? "a list" : "a tuple", static_cast<Count>(items.size()) * static_cast<Count>(n));
  std::vector<Value> out;
  out.reserve(items.size() * static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) out.insert(out.end(), items.begin(), items.end());
  return seq.kind == Value::List ? Value::list(std::move(out)) : Value::tuple(std::move(out));
}

bool is_sequence(const Value& v) { return v.kind == Value::Str || v.kind == Value::List || v.kind == Value::Tuple; }

}  // namespace

// x | y, x & y, x - y, x ^ y as Objects/setobject.c builds each result, so that it iterates in
// CPython's order: set_or copies x and merges y; set_intersection walks the smaller set;
// set_difference copies x and discards y's items when x is over four times larger, else adds x's
// items not in y; set_symmetric_difference copies y and toggles x's items.
Value set_operator(const std::string& op, const SetObj& x, const SetObj& y) {
  Value out = Value::set({});
  SetObj& r = *static_cast<SetObj*>(out.obj.get());
  if (op == "|") {
    r.merge(x);
    r.merge(y);
  } else if (op == "&") {
    const SetObj& small = y.size() > x.size() ? x : y;
    const SetObj& large = y.size() > x.size() ? y : x;
    for (const Value& v : small.ordered())
      if (large.contains(v)) r.add(v);
  } else if (op == "-" && (x.size() >> 2) > y.size()) {
    r.merge(x);
    r.discard_all(y.ordered());
  } else if (op == "-") {
    for (const Value& v : x.ordered())
      if (!y.contains(v)) r.add(v);
  } else {
    r.merge(y);
    for (const Value& v : x.ordered())
      if (!r.discard(v)) r.add(v);
  }
  return out;
}

namespace {

std::optional<Value> builtin_binop(Interpreter& in, const std::string& op, const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) return number_binop(op, a, b);
  if (op == "+" && a.kind == Value::Str && b.kind == Value::Str) {
    check_bytes("a str", static_cast<Count>(a.s.size()) + b.s.size());
    return Value::str(a.s + b.s);
  }
  if (op == "*" && is_sequence(a) && is_int(b)) return repeat(a, b);
  if (op == "*" && is_sequence(b) && is_int(a)) return repeat(b, a);
  if (op == "+" && a.kind == b.kind && (a.kind == Value::List || a.kind == Value::Tuple)) {
    check_items(a.kind == Value::List ? "a list" : "a tuple", static_cast<Count>(as_seq(a).size()) + as_seq(b).size());
    std::vector<Value> items = as_seq(a);
    items.insert(items.end(), as_seq(b).begin(), as_seq(b).end());
    return a.kind == Value::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (op == "%" && a.kind == Value::Str) return Value::str(percent_format(in, a.s, b));
  if ((op == "|" || op == "&" || op == "-" || op == "^") && a.kind == Value::Set && b.kind == Value::Set) {
    Value r = set_operator(op, *static_cast<SetObj*>(a.obj.get()), *static_cast<SetObj*>(b.obj.get()));
    return is_frozenset(a) ? frozen(r) : r;   // the left operand's type: frozenset | set is a frozenset
  }
  if (op == "|" && a.kind == Value::Dict && b.kind == Value::Dict) {   // {**a, **b}
    // OrderedDict.__or__ (an OrderedDict on the left), or its __ror__ where it is tried first (the
    // right operand's class a subclass of the left's: dict | od): type(od)(a), then b's items.
    // Else dict's: a plain dict (of a dict subclass too, as dict_or's PyDict_Copy).
    auto ordered = [](const Value& v) { return static_cast<const DictObj*>(v.obj.get())->ordered; };
    const ClassPtr ta = type_of(a), tb = type_of(b);
    const bool reflected = !ordered(a) && ordered(b) && ta != tb && is_subclass(tb, ta.get());
    if (ordered(a) || reflected) {
      CallArgs first;
      first.pos.push_back(a);
      Value d = in.call(Value::of_class(reflected ? tb : ta), first);
      auto* out = static_cast<DictObj*>(d.obj.get());
      for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(static_cast<DictObj*>(b.obj.get())->items)) out->set(k, v);
      return d;
    }
    Value d = Value::dict();
    auto* out = static_cast<DictObj*>(d.obj.get());
    for (const Value* src : {&a, &b})
      for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(static_cast<DictObj*>(src->obj.get())->items)) out->set(k, v);   // a copy: __eq__ may change a or b
    return d;
  }
  return std::nullopt;
}

[[noreturn]] void unsupported(const std::string& op, const Value& a, const Value& b) {
  if (op == "+" && (a.kind == Value::Str || a.kind == Value::List || a.kind == Value::Tuple) && !has_class(a))
    throw TypeError(fmt::format("can only concatenate {} (not \"{}\") to {}", type_name(a), type_name(b), type_name(a)));
  for (const auto& [seq, n] : {std::pair{a, b}, std::pair{b, a}})   // 'a' * 1.5, [1] * 'x'
    if (op == "*" && (seq.kind == Value::Str || seq.kind == Value::List || seq.kind == Value::Tuple) && !is_int(n))
      throw TypeError("can't multiply sequence by non-int of type '" + type_name(n) + "'");
  throw TypeError("unsupported operand type(s) for " + op + ": '" + type_name(a) + "' and '" + type_name(b) + "'");
}

// <, <=, >, >= of the built-in kinds: numbers, strings, lists and tuples (lexicographic).
std::optional<bool> builtin_order(const std::string& op, const Value& a, const Value& b) {
  if (a.kind == Value::Slice && b.kind == Value::Slice) {   // as the tuples (start, stop, step)
    auto tuple_of = [](const Value& v) {
      const auto& s = *static_cast<const SliceObj*>(v.obj.get());
      return Value::tuple({s.start, s.stop, s.step});
    };
    return builtin_order(op, tuple_of(a), tuple_of(b));
  }
  int c;
  if (a.is_number() && b.is_number()) {
    c = compare_numbers(a, b);
    if (c == 2) return false;   // a NaN: every order comparison is False
  } else if (a.kind == Value::Str && b.kind == Value::Str) {
    c = a.s < b.s ? -1 : a.s == b.s ? 0 : 1;
  } else if ((a.kind == Value::Tuple || a.kind == Value::List) && a.kind == b.kind) {
    // As CPython's list_richcompare: the first items that differ decide (one < per level, so
    // nested lists compare in linear time, not 2**depth).
    ValueDepthGuard guard("in comparison");
    auto &x = as_seq(a), &y = as_seq(b);
    // Copies of the items, both sizes re-read after each ==: it may run Python that changes a list.
    size_t k = 0;
    for (; k < x.size() && k < y.size(); ++k) {
      const Value xk = x[k], yk = y[k];
      if (!(xk.obj && xk.obj == yk.obj) && !equal(xk, yk)) break;
    }
    if (k < x.size() && k < y.size()) {
      const Value xk = x[k], yk = y[k];
      return truthy(Interpreter::current()->compare(op, xk, yk));
    }
    c = x.size() < y.size() ? -1 : x.size() == y.size() ? 0 : 1;
  } else if (a.kind == Value::Set && b.kind == Value::Set) {   // subset order
    auto *x = static_cast<SetObj*>(a.obj.get()), *y = static_cast<SetObj*>(b.obj.get());
    auto subset = [](SetObj* p, SetObj* q) {
      for (const Value& v : p->ordered())
        if (!q->contains(v)) return false;
      return true;
    };
    if (op == "<=") return subset(x, y);
    if (op == ">=") return subset(y, x);
    if (op == "<") return x->size() < y->size() && subset(x, y);
    return y->size() < x->size() && subset(y, x);
  } else {
    return std::nullopt;
  }
  if (op == "<") return c < 0;
  if (op == "<=") return c <= 0;
  if (op == ">") return c > 0;
  return c >= 0;
}

}  // namespace

Value Interpreter::call_dunder(const Value& fn, const Value& self, std::vector<Value> args) {
  CallArgs a;
  a.pos.reserve(args.size() + 1);
  a.pos.push_back(self);
  for (Value& v : args) a.pos.push_back(std::move(v));
  return call(fn, a);
}

// ---- operators ----

// class | class (int | None, list[int] | str): type.__or__ / __ror__, a types.UnionType (PEP 604),
// made by types._union (src/py/python/types.py); nullopt where that is NotImplemented.
std::optional<Value> Interpreter::type_union(const Value& a, const Value& b) {
  if (a.kind != Value::Class && b.kind != Value::Class) return std::nullopt;
  CallArgs args;
  args.pos = {a, b};
  Value r = call(getattr(import("types"), "_union"), args);
  if (r.kind == Value::NotImplemented) return std::nullopt;
  return r;
}

Value Interpreter::binop(const std::string& op, const Value& a, const Value& b) {
  if (!has_class(a) && !has_class(b)) {
    if (auto r = builtin_binop(*this, op, a, b)) return *r;
    if (op == "|")
      if (auto r = type_union(a, b)) return *r;
    unsupported(op, a, b);
  }
  const ClassPtr ta = type_of(a), tb = type_of(b);
  auto forward = [&]() -> std::optional<Value> {
    Hook h = find_hook(*ta, binary_dunder(op, false), [](const Slots& s) { return bool(s.binary); });
    if (h.py) return h.py->is_none() ? std::nullopt : implemented(call_dunder(*h.py, a, {b}));
    if (h.native) return h.native->slots.binary(*this, op, a, b, false);
    return std::nullopt;
  };
  auto reflected = [&]() -> std::optional<Value> {
    Hook h = find_hook(*tb, binary_dunder(op, true), [](const Slots& s) { return bool(s.binary); });
    if (h.py) return h.py->is_none() ? std::nullopt : implemented(call_dunder(*h.py, b, {a}));
    if (h.native) return h.native->slots.binary(*this, op, b, a, true);
    return std::nullopt;
  };
  const bool right_first = ta != tb && is_subclass(tb, ta.get());
  std::optional<Value> r = right_first ? reflected() : forward();
  if (!r && ta != tb) r = right_first ? forward() : reflected();
  if (!r) r = builtin_binop(*this, op, a, b);   // a tagged tuple (torch.Size) is still a tuple
  if (!r && op == "*")   // [1] * n, n * "ab": n's __index__, as CPython's sequence repeat
    for (const bool seq_left : {true, false}) {
      const Value& seq = seq_left ? a : b;
      const Value& n = seq_left ? b : a;
      if (r || (seq.kind != Value::Str && seq.kind != Value::List && seq.kind != Value::Tuple) || n.kind != Value::Instance) continue;
      if (std::optional<int64_t> k = index(n)) r = builtin_binop(*this, op, seq_left ? a : Value::integer(*k), seq_left ? Value::integer(*k) : b);
    }
  if (!r && op == "|") r = type_union(a, b);
  if (!r) unsupported(op, a, b);
  return *r;
}

Value Interpreter::inplace_op(const std::string& op, const Value& a, const Value& b) {
  if (has_class(a)) {
    Hook h = find_hook(*type_of(a), inplace_dunder(op), [](const Slots& s) { return bool(s.inplace); });
    std::optional<Value> r;
    if (h.py && !h.py->is_none()) r = implemented(call_dunder(*h.py, a, {b}));
    else if (h.native) r = h.native->slots.inplace(*this, op, a, b);
    if (r) return *r;
    if (!py_subclass(a)) return binop(op, a, b);
  }
  if (op == "+" && a.kind == Value::List) {   // list += iterable extends the list in place
    list_extend(*this, a, b);
    return a;
  } else if (op == "*" && a.kind == Value::List) {   // list *= n repeats the list in place (list_inplace_repeat)
    const Value repeated = binop("*", a, b);   // n's __index__, its errors and the memory check as `*`
    std::vector<Value> items = as_seq(repeated);
    static_cast<SeqObj*>(a.obj.get())->items = std::move(items);
    return a;
  } else if (a.kind == Value::Set && b.kind == Value::Set && !is_frozenset(a) && (op == "|" || op == "&" || op == "-" || op == "^")) {
    // s |= t changes s itself (every name bound to it sees it), in CPython's table order:
    // set_merge, discarding or toggling other's items in place, a new table for &= (set_iand)
    SetObj& x = *static_cast<SetObj*>(a.obj.get());
    const SetObj y = *static_cast<SetObj*>(b.obj.get());   // a copy: s |= s
    if (op == "|") x.merge(y);
    else if (op == "-") x.discard_all(y.ordered());
    else if (op == "^") for (const Value& v : y.ordered()) { if (!x.discard(v)) x.add(v); }
    else {
      ClassPtr cls = x.cls;   // a set subclass's instance stays one
      std::shared_ptr<DictObj> attrs = x.attrs;
      x = SetObj(*static_cast<SetObj*>(set_operator(op, x, y).obj.get()));
      x.cls = cls;
      x.attrs = attrs;
    }
    return a;
  } else if (op == "|" && a.kind == Value::Dict && b.kind == Value::Dict) {   // d |= e updates d in place
    auto* d = static_cast<DictObj*>(a.obj.get());
    for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(static_cast<DictObj*>(b.obj.get())->items)) d->set(k, v);
    return a;
  } else if (op == "|" && a.kind == Value::Dict) {   // d |= pairs: dict_ior takes what dict.update takes
    CallArgs args;
    args.pos.push_back(b);
    call(more_seq_method(a, "update"), args);   // the built-in update, as dict_ior (not a subclass's)
    return a;
  }
  return binop(op, a, b);
}

Value Interpreter::unary(const std::string& op, const Value& v) {
  if (has_class(v)) {
    const char* dunder = op == "-" ? "__neg__" : op == "+" ? "__pos__" : op == "abs" ? "__abs__" : "__invert__";
    Hook h = find_hook(*type_of(v), dunder, [](const Slots& s) { return bool(s.unary); });
    if (h.py) return call_dunder(*h.py, v, {});
    if (h.native)
      if (auto r = h.native->slots.unary(*this, op, v)) return *r;
  } else if (v.kind == Value::Bool || v.kind == Value::Int) {
    if (op == "+") return Value::integer(big_of(v));
    return op == "~" ? int_invert(v) : int_neg(v);
  } else if (v.kind == Value::Float && op != "~") {
    return Value::number(op == "-" ? -v.f : v.f);
  }
  if (op == "abs") throw TypeError("bad operand type for abs(): '" + type_name(v) + "'");
  throw TypeError("bad operand type for unary " + op + ": '" + type_name(v) + "'");
}

Value Interpreter::compare(const std::string& op, const Value& a, const Value& b) {
  if (!has_class(a) && !has_class(b)) {
    if (op == "==") return Value::boolean(equal(a, b));
    if (op == "!=") return Value::boolean(!equal(a, b));
    if (auto r = builtin_order(op, a, b)) return Value::boolean(*r);
    throw TypeError("'" + op + "' not supported between instances of '" + type_name(a) + "' and '" + type_name(b) + "'");
  }
  const ClassPtr ta = type_of(a), tb = type_of(b);
  auto one = [&](const Value& self, const Value& other, const std::string& o) -> std::optional<Value> {
    Hook h = find_hook(*type_of(self), compare_dunder(o), [](const Slots& s) { return bool(s.compare); });
    if (h.py) return h.py->is_none() ? std::nullopt : implemented(call_dunder(*h.py, self, {other}));
    if (h.native) return h.native->slots.compare(*this, o, self, other);
    return std::nullopt;
  };
  const std::string rop = swapped_compare(op);
  const bool right_first = ta != tb && is_subclass(tb, ta.get());
  std::optional<Value> r = right_first ? one(b, a, rop) : one(a, b, op);
  if (!r) r = right_first ? one(a, b, op) : one(b, a, rop);
  if (r) return *r;
  if (op == "!=") {   // object.__ne__: the inverse of __eq__ when that is implemented
    std::optional<Value> eq = one(a, b, "==");
    if (!eq) eq = one(b, a, "==");
    if (eq) return Value::boolean(!truthy(*eq));
  }
  if (op == "==" || op == "!=") {
    // object.__eq__ is identity; a tagged list or tuple (torch.Size) compares as its base does
    const bool same = a.kind == Value::Instance || b.kind == Value::Instance ? a.obj == b.obj : equal(a, b);
    return Value::boolean(op == "==" ? same : !same);
  }
  if (auto o = builtin_order(op, a, b)) return Value::boolean(*o);
  throw TypeError("'" + op + "' not supported between instances of '" + type_name(a) + "' and '" + type_name(b) + "'");
}

bool less(const Value& a, const Value& b) {
  if (Interpreter* in = Interpreter::current()) return in->truth(in->compare("<", a, b));
  if (auto r = builtin_order("<", a, b)) return *r;
  throw TypeError("'<' not supported between instances of '" + type_name(a) + "' and '" + type_name(b) + "'");
}

// ---- items ----

Value Interpreter::getitem(const Value& obj, const Value& key) {
  if (has_class(obj)) {
    Hook h = find_hook(*type_of(obj), "__getitem__", [](const Slots& s) { return bool(s.getitem); });
    if (h.py) return call_dunder(*h.py, obj, {key});
    if (h.native) return h.native->slots.getitem(*this, obj, key);
    if (obj.kind == Value::Instance) throw TypeError("'" + type_name(obj) + "' object is not subscriptable");
    if (std::optional<Value> m = missing_item(*this, obj, key)) return *m;
  }
  if (obj.kind == Value::Class) {   // list[int], dict[str, int]: annotations evaluated at run time
    Hook h = find_hook(*std::static_pointer_cast<ClassObj>(obj.obj), "__class_getitem__", [](const Slots&) { return false; });
    if (h.py) return call_dunder(*h.py, obj, {key});
    const ClassObj& cls = *static_cast<ClassObj*>(obj.obj.get());
    static const std::set<std::string> generic = {"list", "dict", "tuple", "set", "frozenset", "type"};
    if (cls.module == "builtins" && generic.count(cls.name)) {   // list[int]: a types.GenericAlias, as CPython's
      CallArgs args;
      args.pos = {obj, key};
      return call(getattr(import("types"), "_generic_alias"), args);
    }
    if (cls.module == "builtins") return obj;
    throw TypeError("'type' object is not subscriptable");
  }
  if (key.kind == Value::Instance && (obj.kind == Value::List || obj.kind == Value::Tuple || obj.kind == Value::Str || obj.kind == Value::Range)) {
    if (std::optional<int64_t> k = index(key)) return getitem_builtin(obj, Value::integer(*k));   // xs[k] for an object with __index__
  }
  return getitem_builtin(obj, key);
}

void Interpreter::setitem(const Value& obj, const Value& key, const Value& v) {
  if (has_class(obj)) {
    Hook h = find_hook(*type_of(obj), "__setitem__", [](const Slots& s) { return bool(s.setitem); });
    if (h.py) {
      call_dunder(*h.py, obj, {key, v});
      return;
    }
    if (h.native) return h.native->slots.setitem(*this, obj, key, v);
  }
  setitem_builtin(obj, key, v);
}

// obj[key] = v of a dict or list, whatever its class says (dict.__setitem__, list.__setitem__).
void Interpreter::setitem_builtin(const Value& obj, const Value& key, const Value& v) {
  if (obj.kind == Value::Dict) return static_cast<DictObj*>(obj.obj.get())->set(key, v);
  if (obj.kind == Value::List) {
    auto& items = as_seq(obj);
    if (key.kind == Value::Slice) {   // xs[a:b] = iterable (a step: as many items as positions)
      const SliceObj s = slice_unpacked(*static_cast<SliceObj*>(key.obj.get()));   // __index__ first: it may change the list
      std::vector<Value> with = iterate(v);
      std::vector<int64_t> pos = slice_positions(s, items.size());
      if (!s.step.is_none() && to_int(s.step, "slice step") != 1) {
        if (with.size() != pos.size())
          throw ValueError(fmt::format("attempt to assign sequence of size {} to extended slice of size {}", with.size(), pos.size()));
        for (size_t k = 0; k < pos.size(); ++k) items[static_cast<size_t>(pos[k])] = with[k];
        return;
      }
      const int64_t n = static_cast<int64_t>(items.size());
      int64_t start = pos.empty() ? std::clamp<int64_t>(s.start.is_none() ? 0 : to_slice_bound(s.start), -n, n) : pos.front();
      if (start < 0) start += n;
      items.erase(items.begin() + start, items.begin() + start + static_cast<int64_t>(pos.size()));
      items.insert(items.begin() + start, with.begin(), with.end());
      return;
    }
    if (key.kind != Value::Instance && !is_int(key)) throw TypeError("list indices must be integers or slices, not " + type_name(key));
    int64_t k = key.kind == Value::Instance ? index(key).value_or(0) : to_int(key, "list indices");
    if (k < 0) k += static_cast<int64_t>(items.size());
    if (k < 0 || k >= static_cast<int64_t>(items.size())) throw IndexError("list assignment index out of range");
    items[static_cast<size_t>(k)] = v;
    return;
  }
  throw TypeError("'" + type_name(obj) + "' object does not support item assignment");
}

void Interpreter::delitem(const Value& obj, const Value& key) {
  if (has_class(obj)) {
    Hook h = find_hook(*type_of(obj), "__delitem__", [](const Slots&) { return false; });
    if (h.py) {
      call_dunder(*h.py, obj, {key});
      return;
    }
  }
  delitem_builtin(obj, key);
}

// del obj[key] of a dict or list, whatever its class says (dict.__delitem__, list.__delitem__).
void Interpreter::delitem_builtin(const Value& obj, const Value& key) {
  if (obj.kind == Value::Dict) {
    if (static_cast<DictObj*>(obj.obj.get())->erase(key)) return;
    throw KeyError(key);
  }
  if (obj.kind == Value::List && key.kind == Value::Slice) {   // del xs[1:3], del xs[::2]
    const SliceObj s = slice_unpacked(*static_cast<SliceObj*>(key.obj.get()));   // __index__ first: it may change the list
    auto& items = as_seq(obj);
    std::vector<int64_t> pos = slice_positions(s, items.size());
    std::sort(pos.begin(), pos.end());
    for (auto it = pos.rbegin(); it != pos.rend(); ++it) items.erase(items.begin() + *it);
    return;
  }
  if (obj.kind == Value::List) {
    auto& items = as_seq(obj);
    if (key.kind != Value::Instance && !is_int(key)) throw TypeError("list indices must be integers or slices, not " + type_name(key));
    int64_t k = to_int(key, "list indices");
    if (k < 0) k += static_cast<int64_t>(items.size());
    if (k < 0 || k >= static_cast<int64_t>(items.size())) throw IndexError("list assignment index out of range");
    items.erase(items.begin() + k);
    return;
  }
  if (std::string* bytes = bytearray_data(obj)) {   // del b[k], del b[i:j]: the index's __index__ first
    if (key.kind == Value::Slice) {
      const SliceObj s = slice_unpacked(*static_cast<SliceObj*>(key.obj.get()));
      std::vector<int64_t> pos = slice_positions(s, bytes->size());
      std::sort(pos.begin(), pos.end());
      for (auto it = pos.rbegin(); it != pos.rend(); ++it) bytes->erase(static_cast<size_t>(*it), 1);
      return;
    }
    std::optional<int64_t> k = key.kind == Value::Instance || is_int(key) ? index(key) : std::nullopt;
    if (!k) throw TypeError("bytearray indices must be integers or slices, not " + type_name(key));
    const int64_t n = static_cast<int64_t>(bytes->size());
    if (*k < 0) *k += n;
    if (*k < 0 || *k >= n) throw IndexError("bytearray index out of range");
    bytes->erase(static_cast<size_t>(*k), 1);
    return;
  }
  throw TypeError("'" + type_name(obj) + "' object doesn't support item deletion");
}

size_t Interpreter::container_size(const Value& v) {
  return v.kind == Value::Dict ? static_cast<const DictObj*>(v.obj.get())->items.size() : static_cast<const SetObj*>(v.obj.get())->size();
}

void Interpreter::changed_size_during_iteration(const Value& v) {
  throw RuntimeError(v.kind == Value::Dict ? "dictionary changed size during iteration" : "Set changed size during iteration");
}

bool Interpreter::contains(const Value& container, const Value& item) {
  if (has_class(container)) {
    Hook h = find_hook(*type_of(container), "__contains__", [](const Slots& s) { return bool(s.contains); });
    if (h.py) return truth(call_dunder(*h.py, container, {item}));
    if (h.native) return h.native->slots.contains(*this, container, item);
    if (container.kind == Value::Instance) {   // by iteration, as CPython's PySequence_Contains falls back
      if (!iterable(container)) throw TypeError("argument of type '" + type_name(container) + "' is not iterable");
      bool found = false;   // lazily: `x in generator` stops at the first equal item, as CPython
      for_each(container, [&](const Value& v) {
        found = (v.obj && v.obj == item.obj) || truth(compare("==", v, item));
        return !found;
      });
      return found;
    }
  }
  switch (container.kind) {
    case Value::Str:
      if (item.kind != Value::Str) throw TypeError("'in <string>' requires string as left operand, not " + type_name(item));
      return container.s.find(item.s) != std::string::npos;
    case Value::Dict: return static_cast<DictObj*>(container.obj.get())->find(item) != nullptr;
    case Value::Set: return static_cast<SetObj*>(container.obj.get())->contains(item);
    case Value::Range: {   // an int: arithmetic, as CPython's range_contains
      const auto& r = *static_cast<const RangeObj*>(container.obj.get());
      if (!is_int(item) || item.is_big()) return false;   // beyond int64 is outside every range here
      __int128 x = small_of(item), offset = x - r.start;
      bool inside = r.step > 0 ? x >= r.start && x < r.stop : x <= r.start && x > r.stop;
      return inside && offset % r.step == 0;
    }
    case Value::List: case Value::Tuple: return find_equal(as_seq(container), item) >= 0;
    default:
      if (is_iterator(container)) {
        for (const Value& v : drain_iterator(container))
          if (equal(v, item)) return true;
        return false;
      }
      throw TypeError("argument of type '" + type_name(container) + "' is not iterable");
  }
}

// ---- len, truth, hash, index ----

int64_t Interpreter::len(const Value& v) {
  if (has_class(v)) {
    Hook h = find_hook(*type_of(v), "__len__", [](const Slots& s) { return bool(s.len); });
    if (h.native) return h.native->slots.len(*this, v);
    if (h.py) {
      Value n = call_dunder(*h.py, v, {});
      if (!is_int(n)) throw TypeError("'" + type_name(n) + "' object cannot be interpreted as an integer");
      if (n.is_big()) throw OverflowError("cannot fit 'int' into an index-sized integer");
      if (small_of(n) < 0) throw ValueError("__len__() should return >= 0");
      return small_of(n);
    }
    if (v.kind == Value::Instance) throw TypeError("object of type '" + type_name(v) + "' has no len()");
  }
  switch (v.kind) {
    case Value::Str: return str_len(v);
    case Value::Dict: return static_cast<int64_t>(static_cast<DictObj*>(v.obj.get())->items.size());
    case Value::Set: return static_cast<int64_t>(static_cast<SetObj*>(v.obj.get())->size());
    case Value::List: case Value::Tuple: return static_cast<int64_t>(as_seq(v).size());
    case Value::Range: {
      unsigned __int128 n = static_cast<const RangeObj*>(v.obj.get())->length();
      if (n > static_cast<unsigned __int128>(INT64_MAX)) throw OverflowError("Python int too large to convert to C ssize_t");
      return static_cast<int64_t>(n);
    }
    default: throw TypeError("object of type '" + type_name(v) + "' has no len()");
  }
}

bool Interpreter::truth(const Value& v) {
  if (!has_class(v)) return truthy(v);
  const ClassObj& cls = *type_of(v);
  Hook h = find_hook(cls, "__bool__", [](const Slots& s) { return bool(s.truth); });
  if (h.native) return h.native->slots.truth(*this, v);
  if (h.py) {
    Value r = call_dunder(*h.py, v, {});
    if (r.kind != Value::Bool) throw TypeError("__bool__ should return bool, returned " + type_name(r));
    return r.b;
  }
  if (find_hook(cls, "__len__", [](const Slots& s) { return bool(s.len); })) return len(v) != 0;
  return v.kind == Value::Instance || truthy(v);
}

// hash(v): the first class along the order that says: its __hash__ (None: unhashable), an __eq__
// without __hash__ (unhashable, as Python sets __hash__ = None then), or a native hook;
// object's is the identity.
int64_t Interpreter::hash(const Value& v) {
  if (v.kind != Value::Instance && !py_subclass(v)) return py_hash(v);
  static const ClassObj* const object = builtin_class("object").get();
  const ClassObj& cls = *type_of(v);
  for (const ClassObj* c : cls.mro()) {
    if (c == object) break;
    auto h = c->methods.find("__hash__");
    if (h != c->methods.end() && !h->second.is_none()) {
      Value r = call_dunder(h->second, v, {});
      if (!is_int(r)) throw TypeError("__hash__ method should return an integer");
      // CPython's slot_tp_hash: an int that fits is the hash as it is (-1 becomes -2); a bigger
      // one is hashed as an int. hash(K()) == hash("a") for __hash__ returning hash("a").
      if (!r.is_big()) return small_of(r) == -1 ? -2 : small_of(r);
      return int_hash(r);
    }
    if (h != c->methods.end() || c->methods.count("__eq__")) throw TypeError("unhashable type: '" + cls.name + "'");
    if (c->slots.hash) return c->slots.hash(v);
    if (c->module == "builtins" && v.kind != Value::Instance) return py_hash(v);   // tuple's, or list's TypeError
  }
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(v.obj.get()) >> 4);   // object.__hash__: by identity
}

std::optional<int64_t> Interpreter::index(const Value& v) {
  if (is_int(v)) return to_index(v, "index");
  if (v.kind != Value::Instance) return std::nullopt;
  Hook h = find_hook(*type_of(v), "__index__", [](const Slots& s) { return bool(s.index); });
  if (h.native) return h.native->slots.index(v);
  if (h.py) {
    Value r = call_dunder(*h.py, v, {});
    if (!is_int(r)) throw TypeError("__index__ returned non-int (type " + type_name(r) + ")");
    return to_index(r, "index");
  }
  return std::nullopt;
}

// ---- iteration ----

bool Interpreter::iterable(const Value& v) {
  switch (v.kind) {
    case Value::List: case Value::Tuple: case Value::Str: case Value::Dict: case Value::Set: case Value::Range: return true;
    case Value::Instance: {
      if (is_iterator(v)) return true;
      const ClassObj& cls = *type_of(v);
      return bool(find_hook(cls, "__iter__", [](const Slots& s) { return bool(s.iter); })) ||
             bool(find_hook(cls, "__getitem__", [](const Slots& s) { return bool(s.getitem); }));
    }
    default: return false;
  }
}

std::vector<Value> Interpreter::iterate(const Value& v) {
  if (py_subclass(v)) {   // class L(list) with its own __iter__
    Hook h = find_hook(*type_of(v), "__iter__", [](const Slots&) { return false; });
    if (h.py) return iterate(call_dunder(*h.py, v, {}));
  }
  switch (v.kind) {
    case Value::List: case Value::Tuple: return as_seq(v);
    case Value::Str:   // list(s), set(s), sorted(s): held to the item limit as a range's list is (`for` and iter() step lazily)
      check_items("a list made from a str", static_cast<Count>(str_len(v)));
      return str_chars(v);
    case Value::Dict: {
      std::vector<Value> out;
      for (auto& kv : static_cast<DictObj*>(v.obj.get())->items) out.push_back(kv.first);
      return out;
    }
    case Value::Set: return static_cast<SetObj*>(v.obj.get())->ordered();
    case Value::Range: {   // list(range(...)) and the like; `for` walks a range without this (for_each)
      const auto& r = *static_cast<const RangeObj*>(v.obj.get());
      unsigned __int128 n = r.length();
      check_items("a list made from a range", n);
      std::vector<Value> out;
      out.reserve(static_cast<size_t>(n));
      for (unsigned __int128 k = 0; k < n; ++k) out.push_back(Value::integer(r.at(k)));
      return out;
    }
    case Value::Instance: {
      if (is_iterator(v)) return drain_iterator(v);
      const ClassObj& cls = *type_of(v);
      Hook h = find_hook(cls, "__iter__", [](const Slots& s) { return bool(s.iter); });
      if (h.native) return iterate(h.native->slots.iter(*this, v));
      if (h.py) {   // an iterator: __next__ until StopIteration
        Value it = call_dunder(*h.py, v, {});
        if (is_iterator(it)) return iterate(it);
        Hook next = it.kind == Value::Instance ? find_hook(*type_of(it), "__next__", [](const Slots&) { return false; }) : Hook{};
        if (!next.py) throw TypeError("iter() returned non-iterator of type '" + type_name(it) + "'");
        std::vector<Value> out;
        for (;;) {
          tick();
          try {
            out.push_back(call_dunder(*next.py, it, {}));
          } catch (const PyError& e) {
            if (is_instance_of(e, "StopIteration")) return out;
            throw;
          }
          check_items("the items of an iterator", out.size());
        }
      }
      Hook item = find_hook(cls, "__getitem__", [](const Slots& s) { return bool(s.getitem); });
      if (item) {   // the old sequence protocol: self[0], self[1], ... until IndexError
        std::vector<Value> out;
        for (int64_t k = 0;; ++k) {
          tick();
          try {
            out.push_back(getitem(v, Value::integer(k)));
          } catch (const PyError& e) {
            if (is_instance_of(e, "IndexError") || is_instance_of(e, "StopIteration")) return out;
            throw;
          }
          check_items("the items of a sequence", out.size());
        }
      }
      break;
    }
    default: break;
  }
  throw TypeError("'" + type_name(v) + "' object is not iterable");
}

// ---- calls ----

Value Interpreter::call(const Value& fn, CallArgs& args) {
  switch (fn.kind) {
    case Value::Builtin: return static_cast<BuiltinObj*>(fn.obj.get())->fn(*this, args);
    case Value::Function: return call_function(*static_cast<FunctionObj*>(fn.obj.get()), args);
    case Value::Class: return instantiate(std::static_pointer_cast<ClassObj>(fn.obj), args);
    case Value::Instance: {     // obj(x) runs its class's __call__
      Hook h = find_hook(*type_of(fn), "__call__", [](const Slots& s) { return bool(s.call); });
      if (h.native) return h.native->slots.call(*this, fn, args);
      if (h.py) {
        CallArgs b = args;
        b.pos.insert(b.pos.begin(), fn);
        if (!b.pos_text.empty()) b.pos_text.insert(b.pos_text.begin(), "");
        return call(*h.py, b);
      }
      break;
    }
    default: break;
  }
  throw TypeError("'" + type_name(fn) + "' object is not callable");
}

// cls(*args): __new__ (a Python __new__ or a native class's make) makes the object, then, if it is
// an instance of cls, __init__ initialises it.
Value Interpreter::instantiate(const std::shared_ptr<ClassObj>& cls, CallArgs& args) {
  Hook make = find_hook(*cls, "__new__", [](const Slots& s) { return bool(s.make); });
  Value self;
  if (make.py) {
    CallArgs a = args;
    a.pos.insert(a.pos.begin(), Value::of_class(cls));
    const Value& fn = *make.py;   // a staticmethod wrapper or a plain function: called with cls first
    self = call(fn.kind == Value::Instance && fn.obj && static_cast<InstanceObj*>(fn.obj.get())->find("__func__")
                    ? *static_cast<InstanceObj*>(fn.obj.get())->find("__func__") : fn, a);
  } else if (make.native && make.native != cls.get() && make.native == builtin_base(*cls)) {
    self = new_builtin_subclass(*make.native, cls, args);   // class L(list): L(...) is a list of class L
  } else if (make.native) {
    self = make.native->slots.make(*this, cls, args);
  } else {
    auto o = std::make_shared<InstanceObj>();
    o->cls = cls;
    self = Value::of_instance(std::move(o));
  }
  if (!isinstance(self, cls.get())) return self;
  Hook init = find_hook(*cls, "__init__", [](const Slots& s) { return bool(s.init); });
  if (init.py) {
    CallArgs a = args;
    a.pos.insert(a.pos.begin(), self);
    if (!a.pos_text.empty()) a.pos_text.insert(a.pos_text.begin(), "");
    Value r = call(*init.py, a);
    if (!r.is_none()) throw TypeError("__init__() should return None, not '" + type_name(r) + "'");
  } else if (init.native) {
    // list(x), dict(x), set(x) are whole once made; their __init__ fills a subclass's instance
    // (class L(list)) that __new__ made empty, or re-fills one when called by name (l.__init__(x)).
    const bool made_whole = (self.kind == Value::List || self.kind == Value::Dict || self.kind == Value::Set) && !py_subclass(self);
    if (!made_whole) init.native->slots.init(*this, self, args);
  } else if (!make && (!args.pos.empty() || !args.kw.empty())) {
    throw TypeError(cls->name + "() takes no arguments");
  }
  return self;
}

// ---- text ----

std::string Interpreter::repr_of(const Value& v) {
  if (has_class(v)) {
    Hook h = find_hook(*type_of(v), "__repr__", [](const Slots& s) { return bool(s.repr); });
    if (h.native) return h.native->slots.repr(*this, v);
    if (h.py) {
      Value s = call_dunder(*h.py, v, {});
      if (s.kind != Value::Str) throw TypeError("__repr__ returned non-string (type " + type_name(s) + ")");
      return s.s;
    }
  }
  return plain_repr(v);
}

std::string Interpreter::str_of(const Value& v) {
  if (v.kind == Value::Str) return v.s;
  if (has_class(v)) {
    Hook h = find_hook(*type_of(v), "__str__", [](const Slots& s) { return bool(s.str); });
    if (h.native) return h.native->slots.str(*this, v);
    if (h.py) {
      Value s = call_dunder(*h.py, v, {});
      if (s.kind != Value::Str) throw TypeError("__str__ returned non-string (type " + type_name(s) + ")");
      return s.s;
    }
  }
  return repr_of(v);
}

std::string Interpreter::format(const Value& v, const std::string& spec) {
  if (has_class(v)) {
    Hook h = find_hook(*type_of(v), "__format__", [](const Slots& s) { return bool(s.format); });
    if (h.native)
      if (auto r = h.native->slots.format(*this, v, spec)) return *r;
    if (h.py) {
      Value s = call_dunder(*h.py, v, {Value::str(spec)});
      if (s.kind != Value::Str) throw TypeError("__format__ must return a str, not " + type_name(s));
      return s.s;
    }
    if (!spec.empty()) throw TypeError("unsupported format string passed to " + type_name(v) + ".__format__");
    return str_of(v);
  }
  if (spec.empty() && v.kind != Value::Float && !is_int(v)) return str_of(v);
  if (v.kind != Value::Float && v.kind != Value::Str && !is_int(v))   // None, a list, ...: object.__format__
    throw TypeError("unsupported format string passed to " + type_name(v) + ".__format__");
  return format_spec(v, spec);
}

}  // namespace attn::py
