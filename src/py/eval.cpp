// py/eval.cpp: expression evaluation and Python's operators for the lesson interpreter.
//
// What it is: Interpreter::eval and friends: names, literals, operators, comparisons, subscripts,
// calls' arguments, f-strings, comprehensions. What the operators do is protocol.cpp's.
// What it is not: Python builtins (builtins.cpp) or the object protocol (protocol.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/text.h"

namespace attn::py {

namespace {

// What CPython's compiler folds to a constant: literals, and signs, operators and tuples of them.
bool is_constant(const Expr& e) {
  switch (e.kind) {
    case Expr::Int: case Expr::Float: case Expr::Str: case Expr::Bytes: case Expr::NoneLit: case Expr::True: case Expr::False: return true;
    case Expr::Unary: return is_constant(*e.a);
    case Expr::Binary: return is_constant(*e.a) && is_constant(*e.b);
    case Expr::Tuple: return std::all_of(e.items.begin(), e.items.end(), [](const ExprPtr& x) { return is_constant(*x); });
    default: return false;
  }
}

// The name a call's TypeError gives the function, as CPython's _PyObject_FunctionStr:
// __main__.f, __main__.A.method, helper.f (a function of an imported file), print.
std::string callable_name(const Value& fn) {
  if (fn.kind == Value::Function) {
    const auto& f = *static_cast<FunctionObj*>(fn.obj.get());
    std::shared_ptr<NamespaceObj> module = f.module.lock();
    if (!module || !module->names.count("__name__")) return f.qualname;
    return str(module->names.at("__name__")) + "." + f.qualname;
  }
  if (fn.kind == Value::Builtin) return static_cast<BuiltinObj*>(fn.obj.get())->name;
  if (fn.kind == Value::Class) return static_cast<ClassObj*>(fn.obj.get())->name;
  return type_name(fn);
}

}  // namespace

void Interpreter::check_read_only_value(const Value& v) const {
  if (v.kind != Value::Instance) return;
  if (is_iterator(v) || is_generator(v) || type_of(v)->find_method("__next__"))
    throw ValueError("a placeholder cannot read an iterator (" + type_name(v) + "): showing it would use up its items");
}

Value Interpreter::eval(const Expr& e) {
  check_stack();   // the parser bounds a tree's depth; calls nest trees (limits.h)
  if (read_only && (e.kind == Expr::Name || e.kind == Expr::Attribute || e.kind == Expr::Subscript)) {
    Value v = e.kind == Expr::Name ? lookup(e.name) : e.kind == Expr::Attribute ? getattr(eval(*e.a), e.name) : eval_subscript(e);
    check_read_only_value(v);
    return v;
  }
  switch (e.kind) {
    case Expr::Name: return lookup(e.name);
    case Expr::Int: return e.name.empty() ? Value::integer(e.ival) : int_from_string(e.name);   // name: the digits of a big literal
    case Expr::Float: return Value::number(e.fval);
    case Expr::Str: return Value::str(e.name);
    case Expr::Bytes: return make_bytes(e.name);
    case Expr::FStr: return eval_fstring(e);
    case Expr::NoneLit: return Value::none();
    case Expr::True: return Value::boolean(true);
    case Expr::False: return Value::boolean(false);
    case Expr::Ellipsis: {
      Value v;
      v.kind = Value::Ellipsis;
      return v;
    }
    case Expr::Tuple: case Expr::List: {
      std::vector<Value> items = eval_items(e.items);
      return e.kind == Expr::Tuple ? Value::tuple(items) : Value::list(items);
    }
    case Expr::Dict: {
      Value v = Value::dict();
      auto* d = static_cast<DictObj*>(v.obj.get());
      d->presize(std::min<size_t>(e.items.size(), 15));   // BUILD_MAP's size: the compiler builds in parts of 15 (STACK_USE_GUIDELINE / 2)
      auto put = [&](const Value& key, const Value& val) { d->set(key, val); };
      for (size_t k = 0; k < e.items.size(); ++k) {
        if (!e.items[k]) {   // {**other, ...}
          Value other = eval(*e.values[k]);
          if (other.kind != Value::Dict) throw TypeError("'" + type_name(other) + "' object is not a mapping");
          for (const auto& [key, val] : static_cast<DictObj*>(other.obj.get())->items) put(key, val);
          continue;
        }
        Value key = eval(*e.items[k]), val = eval(*e.values[k]);
        put(key, val);
      }
      return v;
    }
    case Expr::Set: {
      std::vector<Value> items = eval_items(e.items);
      bool folded = items.size() > 2 && std::all_of(e.items.begin(), e.items.end(), [](const ExprPtr& x) { return is_constant(*x); });
      return folded ? Value::set_literal(items) : Value::set(items);
    }
    case Expr::ListComp: case Expr::DictComp: case Expr::SetComp: return eval_comprehension(e);
    case Expr::Attribute: return getattr(eval(*e.a), e.name);
    case Expr::Subscript: return eval_subscript(e);
    case Expr::Slice: {
      auto s = std::make_shared<SliceObj>();
      if (e.a) s->start = eval(*e.a);
      if (e.b) s->stop = eval(*e.b);
      if (e.c) s->step = eval(*e.c);
      Value v;
      v.kind = Value::Slice;
      v.obj = s;
      return v;
    }
    case Expr::Call: {
      Value r = eval_call(e);
      // A call may take seconds by itself: one statement of many must not run long past
      // --time-limit (tick() reads the clock only every 1024 steps).
      if (std::chrono::steady_clock::now() > deadline_) check_budget();
      return r;
    }
    case Expr::Unary: return unary(e.name, eval(*e.a));
    case Expr::Binary: {   // left operand first, as Python (C++ leaves argument order open)
      Value left = eval(*e.a);
      Value right = eval(*e.b);
      Value r = binop(e.name, left, right);
      // One operator may take seconds (`a @ b @ b @ b` on big matrices): look at the clock.
      if (r.kind == Value::Instance && std::chrono::steady_clock::now() > deadline_) check_budget();
      return r;
    }
    case Expr::Compare: return eval_compare(e);
    case Expr::BoolOp: {
      Value a = eval(*e.a);
      if (e.name == "and") return truth(a) ? eval(*e.b) : a;
      return truth(a) ? a : eval(*e.b);
    }
    case Expr::Not: return Value::boolean(!truth(eval(*e.a)));
    case Expr::IfExp: return truth(eval(*e.b)) ? eval(*e.a) : eval(*e.c);
    case Expr::Lambda: return make_function(e.def);
    case Expr::NamedExpr: {
      Value v = eval(*e.a);
      store_named(e.name, v);
      return v;
    }
    case Expr::Starred: throw SyntaxError("can't use starred expression here");
    case Expr::Yield: return yield_value(e.a ? eval(*e.a) : Value::none());
    case Expr::YieldFrom: return yield_from(eval(*e.a));
    case Expr::GenExp: return make_genexp(e);
  }
  throw SyntaxError("unsupported expression");
}

// [*a, b] / (*a, b) / {*a, b}: the items, each starred one spliced in.
std::vector<Value> Interpreter::eval_items(const std::vector<ExprPtr>& items) {
  std::vector<Value> out;
  for (const ExprPtr& x : items) {
    if (x->kind != Expr::Starred) {
      out.push_back(eval(*x));
      continue;
    }
    Value v = eval(*x->a);
    if (!iterable(v)) throw TypeError("Value after * must be an iterable, not " + type_name(v));
    for (Value& item : iterate(v)) out.push_back(std::move(item));
  }
  return out;
}

namespace {

// `xs.append(x)`: a plain list's, dict's or set's method, made for this one call. It is called
// and dropped at once, so it needs none of what getattr adds to one that may be kept (the
// collector's view of the container it holds); nullopt for any other callee.
std::optional<Value> plain_container_method(const Value& obj, const std::string& name) {
  if (name.rfind("__", 0) == 0) return std::nullopt;   // xs.__len__(): getattr's
  switch (obj.kind) {
    case Value::List: case Value::Dict:
      if (py_subclass(obj) || (obj.kind == Value::List ? static_cast<SeqObj*>(obj.obj.get())->cls : static_cast<DictObj*>(obj.obj.get())->cls)) return std::nullopt;
      return seq_method(obj, name);
    case Value::Set:
      if (py_subclass(obj)) return std::nullopt;
      return more_seq_method(obj, name);
    default: return std::nullopt;
  }
}

}  // namespace

Value Interpreter::eval_call(const Expr& e) {
  Value fn;
  if (e.a->kind == Expr::Attribute) {
    const Value obj = eval(*e.a->a);
    std::optional<Value> m = plain_container_method(obj, e.a->name);
    fn = m ? std::move(*m) : getattr(obj, e.a->name);
  } else {
    fn = eval(*e.a);
  }
  CallArgs args = eval_args(e.args, [&] { return callable_name(fn); });
  return call(fn, args);
}

// A call's arguments (or a class statement's bases and keywords), `*xs` and `**d` unpacked;
// `callee` names the function in the errors ("__build_class__" for a class, whose `*1` is
// CPython's "Value after * must be an iterable").
CallArgs Interpreter::eval_args(const std::vector<Arg>& given, const std::function<std::string()>& callee) {
  CallArgs args;
  auto keyword = [&](const std::string& name, Value v) {
    for (const auto& kw : args.kw)
      if (kw.first == name) throw TypeError(fmt::format("{}() got multiple values for keyword argument '{}'", callee(), name));
    args.kw.emplace_back(name, std::move(v));
  };
  for (const Arg& a : given) {
    if (a.name == "*") {
      Value v = eval(*a.value);
      if (!iterable(v)) {
        const std::string who = callee();
        throw TypeError(fmt::format("{} after * must be an iterable, not {}", who == "__build_class__" ? "Value" : who + "() argument", type_name(v)));
      }
      for (const Value& item : iterate(v)) {
        args.pos.push_back(item);
        args.pos_text.push_back("");
      }
    } else if (a.name == "**") {
      Value d = eval(*a.value);
      if (d.kind != Value::Dict) throw TypeError(fmt::format("{}() argument after ** must be a mapping, not {}", callee(), type_name(d)));
      for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(static_cast<DictObj*>(d.obj.get())->items)) {   // a copy: a value's __eq__ runs no code, but d may be ours
        if (k.kind != Value::Str) throw TypeError("keywords must be strings");
        keyword(k.s, v);
      }
    } else if (a.name.empty()) {
      args.pos.push_back(eval(*a.value));
      args.pos_text.push_back(a.text);
    } else {
      keyword(a.name, eval(*a.value));
    }
  }
  return args;
}

Value Interpreter::eval_subscript(const Expr& e) {
  Value obj = eval(*e.a);
  std::vector<Value> idx;
  for (const ExprPtr& x : e.items) idx.push_back(eval(*x));
  return getitem(obj, idx.size() == 1 ? idx[0] : Value::tuple(idx));   // x[k, j] is x[(k, j)]
}

Value Interpreter::eval_compare(const Expr& e) {
  Value left = eval(*e.items[0]);
  Value result = Value::boolean(true);
  for (size_t k = 0; k < e.ops.size(); ++k) {
    Value right = eval(*e.items[k + 1]);
    const std::string& op = e.ops[k];
    if (op == "in" || op == "not in") {
      result = Value::boolean(contains(right, left) == (op == "in"));
    } else if (op == "is" || op == "is not") {
      result = Value::boolean(same_object(left, right) == (op == "is"));
    } else {
      result = compare(op, left, right);
    }
    if (k + 1 == e.ops.size()) break;   // only a chain's inner links are tested for truth
    if (!truth(result)) return result;
    left = right;
  }
  return result;
}

Value Interpreter::eval_fstring(const Expr& e) {
  std::string out;
  for (size_t k = 0; k < e.items.size(); ++k) {
    if (!e.fexpr[k]) {
      out += e.items[k]->name;
      continue;
    }
    Value v = eval(*e.items[k]);
    char conv = k < e.fconv.size() ? e.fconv[k] : 0;
    if (conv) v = Value::str(conv == 's' ? str_of(v) : conv == 'a' ? ascii_escaped(repr_of(v)) : repr_of(v));
    const Expr* nested = k < e.fspec_at.size() && e.fspec_at[k] >= 0 ? e.values[static_cast<size_t>(e.fspec_at[k])].get() : nullptr;
    std::string piece = format(v, nested ? eval_fstring(*nested).s : e.fspecs[k]);
    check_append(out, piece.size());   // f"{a}{a}": the limit before it is built
    out += piece;
  }
  return Value::str(out);
}

void Interpreter::comprehend(const Expr& e, size_t level, std::vector<Value>& list, Value* dict, const Value* first) {
  if (level == e.comps.size()) {
    if (!dict) {
      list.push_back(eval(*e.a));
      return;
    }
    Value key = eval(*e.a), val = eval(*e.b);
    static_cast<DictObj*>(dict->obj.get())->set(key, std::move(val));   // a repeated key keeps its first slot, last value
    return;
  }
  const Comprehension& c = e.comps[level];
  for_each(first ? *first : eval(*c.iter), [&](const Value& item) {
    tick();
    assign(*c.target, item);
    bool ok = true;
    for (const ExprPtr& cond : c.conds) ok = ok && truth(eval(*cond));
    if (ok) comprehend(e, level + 1, list, dict);
    return true;
  });
}

Value Interpreter::eval_comprehension(const Expr& e) {
  // Python 3 runs a comprehension in its own scope: its loop variables do not leak, and it sees
  // the names of the scope around it (but a class body's), and its outermost iterable is
  // evaluated in that scope.
  const Value first = eval(*e.comps.at(0).iter);
  auto local = std::make_shared<Scope>();
  local->kind = Scope::comprehension;
  local->parent = frames_.empty() ? nullptr : frames_.back();
  std::vector<Value> list;
  Value dict;
  if (e.kind == Expr::DictComp) dict = Value::dict();
  {
    RunIn in_comprehension(*this, local);
    comprehend(e, 0, list, e.kind == Expr::DictComp ? &dict : nullptr, &first);
  }
  return e.kind == Expr::DictComp ? dict : e.kind == Expr::SetComp ? Value::set(list) : Value::list(list);
}

}  // namespace attn::py
