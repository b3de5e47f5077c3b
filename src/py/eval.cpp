// py/eval.cpp: expression evaluation and Python's operators for the lesson interpreter.
//
// What it is: Interpreter::eval and friends: names, literals, operators (numbers, strings,
// lists, tensors), comparisons, subscripts, f-strings, comprehensions, iteration.
// What it is not: where torch functions live (torch_api.cpp) or Python builtins (builtins.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/ops.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"

namespace attn::py {

namespace {

// What CPython's compiler folds to a constant: literals, and signs, operators and tuples of them.
bool is_constant(const Expr& e) {
  switch (e.kind) {
    case Expr::Int: case Expr::Float: case Expr::Str: case Expr::NoneLit: case Expr::True: case Expr::False: return true;
    case Expr::Unary: return is_constant(*e.a);
    case Expr::Binary: return is_constant(*e.a) && is_constant(*e.b);
    case Expr::Tuple: return std::all_of(e.items.begin(), e.items.end(), [](const ExprPtr& x) { return is_constant(*x); });
    default: return false;
  }
}

// A number as a float, for float arithmetic: an int is rounded as CPython's float(int) does.
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

Value number_binop(const std::string& op, const Value& a, const Value& b) {
  if (a.kind != Value::Float && b.kind != Value::Float) return int_binop(op, a, b);
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
  if (op == "**") {
    if (x == 0 && y < 0) throw ZeroDivisionError("0.0 cannot be raised to a negative power");
    return Value::number(std::pow(x, y));
  }
  throw TypeError("unsupported operand type(s) for " + op + ": '" + type_name(a) + "' and '" + type_name(b) + "'");
}

core::BinOp tensor_op(const std::string& op) {
  if (op == "+") return core::BinOp::add;
  if (op == "-") return core::BinOp::sub;
  if (op == "*") return core::BinOp::mul;
  if (op == "/") return core::BinOp::div;
  if (op == "**") return core::BinOp::pow;
  throw TypeError("unsupported operand type(s) for " + op + " with a Tensor");
}

Value tensor_binop(const std::string& op, const Value& a, const Value& b) {
  if (op == "@") {
    if (a.kind != Value::Tensor || b.kind != Value::Tensor)
      throw TypeError("unsupported operand type(s) for @: '" + type_name(a) + "' and '" + type_name(b) + "'");
    return Value::tensor(core::matmul(as_tensor(a), as_tensor(b)));
  }
  if (a.kind == Value::Tensor && b.kind == Value::Tensor)
    return Value::tensor(core::binary(tensor_op(op), as_tensor(a), as_tensor(b)));
  if (a.kind == Value::Tensor && b.is_number())
    return Value::tensor(core::binary_scalar(tensor_op(op), as_tensor(a), torch_scalar(b, "other")));
  if (a.is_number() && b.kind == Value::Tensor)
    return Value::tensor(core::binary_scalar(tensor_op(op), as_tensor(b), torch_scalar(a, "other"), true));
  throw TypeError("unsupported operand type(s) for " + op + ": '" + type_name(a) + "' and '" + type_name(b) + "'");
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

bool iterable(const Value& v) {
  switch (v.kind) {
    case Value::List: case Value::Tuple: case Value::Size: case Value::Str: case Value::Dict: case Value::Set: case Value::Tensor:
    case Value::Range:
      return true;
    case Value::Instance: {
      auto* o = static_cast<InstanceObj*>(v.obj.get());
      return o->find("_modules") || is_iterator(v);
    }
    default: return false;
  }
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

}  // namespace

Value Interpreter::binop(const std::string& op, const Value& a, const Value& b) {
  if (op == "**" && a.kind == Value::Tensor && b.kind == Value::Tensor)   // torch.pow: the run's kernel family
    return Value::tensor(core::pow(as_tensor(a), as_tensor(b), state.cpu));
  if (op == "**" && a.kind == Value::Tensor && b.is_number()) return Value::tensor(core::pow(as_tensor(a), num(b), state.cpu));
  if (op == "**" && a.is_number() && b.kind == Value::Tensor) {
    // Tensor.__rpow__ (1.13): torch.tensor(number) ** x, a tensor ** tensor (PowBackward1)
    if (as_tensor(b).is_float()) return Value::tensor(core::pow(core::scalar(static_cast<float>(num(a))), as_tensor(b), state.cpu));
    return Value::tensor(core::pow(num(a), as_tensor(b), state.cpu));
  }
  if (a.kind == Value::Tensor || b.kind == Value::Tensor) return tensor_binop(op, a, b);
  if (a.is_number() && b.is_number()) return number_binop(op, a, b);
  if (op == "+" && a.kind == Value::Str && b.kind == Value::Str) {
    check_bytes("a str", static_cast<Count>(a.s.size()) + b.s.size());
    return Value::str(a.s + b.s);
  }
  if (op == "*" && (a.kind == Value::Str || a.kind == Value::List || a.kind == Value::Tuple) && is_int(b)) return repeat(a, b);
  if (op == "*" && (b.kind == Value::Str || b.kind == Value::List || b.kind == Value::Tuple) && is_int(a)) return repeat(b, a);
  if (op == "+" && a.kind == b.kind && (a.kind == Value::List || a.kind == Value::Tuple)) {
    check_items(a.kind == Value::List ? "a list" : "a tuple", static_cast<Count>(as_seq(a).size()) + as_seq(b).size());
    std::vector<Value> items = as_seq(a);
    items.insert(items.end(), as_seq(b).begin(), as_seq(b).end());
    return a.kind == Value::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (op == "%" && a.kind == Value::Str) return Value::str(percent_format(*this, a.s, b));
  throw TypeError("unsupported operand type(s) for " + op + ": '" + type_name(a) + "' and '" + type_name(b) + "'");
}

std::vector<Value> Interpreter::iterate(const Value& v) {
  switch (v.kind) {
    case Value::List: case Value::Tuple: case Value::Size: return as_seq(v);
    case Value::Str: {
      std::vector<Value> out;
      for (char c : v.s) out.push_back(Value::str(std::string(1, c)));
      return out;
    }
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
    case Value::Tensor: {
      const core::Tensor& t = as_tensor(v);
      if (t.dim() == 0) throw TypeError("iteration over a 0-d tensor");
      std::vector<Value> out;
      for (int64_t k = 0; k < t.shape()[0]; ++k) {
        core::Index ix;
        ix.value = k;
        out.push_back(Value::tensor(core::index(t, {ix})));
      }
      return out;
    }
    case Value::Instance: {      // an iterator (map, filter, iter(...)); nn.ModuleList
      if (is_iterator(v)) return drain_iterator(v);
      if (Value* items = static_cast<InstanceObj*>(v.obj.get())->find("_modules")) return as_seq(*items);
      break;
    }
    default: break;
  }
  throw TypeError("'" + type_name(v) + "' object is not iterable");
}

Value Interpreter::eval(const Expr& e) {
  check_stack();   // the parser bounds a tree's depth; calls nest trees (limits.h)
  switch (e.kind) {
    case Expr::Name: return lookup(e.name);
    case Expr::Int: return e.name.empty() ? Value::integer(e.ival) : int_from_string(e.name);   // name: the digits of a big literal
    case Expr::Float: return Value::number(e.fval);
    case Expr::Str: return Value::str(e.name);
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
      auto d = std::make_shared<DictObj>();
      Value v;
      v.kind = Value::Dict;
      v.obj = d;
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
    case Expr::Unary: {
      Value x = eval(*e.a);
      if (e.name == "+") return x;
      if (x.kind == Value::Tensor && e.name == "-") {
        Value r = Value::tensor(core::neg(as_tensor(x)));
        return state.grad_enabled ? r : without_grad(r);
      }
      if (is_int(x)) return e.name == "~" ? int_invert(x) : int_neg(x);
      if (x.kind == Value::Float && e.name == "-") return Value::number(-x.f);
      throw TypeError("bad operand type for unary " + e.name + ": '" + type_name(x) + "'");
    }
    case Expr::Binary: {   // left operand first, as Python (C++ leaves argument order open)
      Value left = eval(*e.a);
      Value right = eval(*e.b);
      const Value r = binop(e.name, left, right);
      if (r.kind == Value::Tensor && std::chrono::steady_clock::now() > deadline_) check_budget();   // `a @ b @ b @ b`
      return state.grad_enabled ? r : without_grad(r);   // torch.no_grad(): nothing recorded
    }
    case Expr::Compare: return eval_compare(e);
    case Expr::BoolOp: {
      Value a = eval(*e.a);
      if (e.name == "and") return truthy(a) ? eval(*e.b) : a;
      return truthy(a) ? a : eval(*e.b);
    }
    case Expr::Not: return Value::boolean(!truthy(eval(*e.a)));
    case Expr::IfExp: return truthy(eval(*e.b)) ? eval(*e.a) : eval(*e.c);
    case Expr::Lambda: return make_function(e.def);
    case Expr::Starred: throw SyntaxError("can't use starred expression here");
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

Value Interpreter::eval_call(const Expr& e) {
  Value fn = eval(*e.a);
  CallArgs args;
  auto keyword = [&](const std::string& name, Value v) {
    for (const auto& kw : args.kw)
      if (kw.first == name) throw TypeError(fmt::format("{}() got multiple values for keyword argument '{}'", callable_name(fn), name));
    args.kw.emplace_back(name, std::move(v));
  };
  for (const Arg& a : e.args) {
    if (a.name == "*") {
      Value v = eval(*a.value);
      if (!iterable(v)) throw TypeError(fmt::format("{}() argument after * must be an iterable, not {}", callable_name(fn), type_name(v)));
      for (const Value& item : iterate(v)) {
        args.pos.push_back(item);
        args.pos_text.push_back("");
      }
    } else if (a.name == "**") {
      Value d = eval(*a.value);
      if (d.kind != Value::Dict) throw TypeError(fmt::format("{}() argument after ** must be a mapping, not {}", callable_name(fn), type_name(d)));
      for (const auto& [k, v] : static_cast<DictObj*>(d.obj.get())->items) {
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
  return call(fn, args);
}

Value Interpreter::eval_subscript(const Expr& e) {
  Value obj = eval(*e.a);
  std::vector<Value> idx;
  for (const ExprPtr& x : e.items) idx.push_back(eval(*x));
  CallArgs a;
  a.pos.push_back(obj);
  for (const Value& v : idx) a.pos.push_back(v);
  if (obj.kind == Value::Tensor) {
    CallArgs b;
    for (const Value& v : idx) b.pos.push_back(v);
    return call(tensor_attribute(*this, obj, "__getitem__"), b);
  }
  // An instance of a class with __getitem__ (a torch.utils.data.Dataset): x[k], x[k, j] as Python calls it.
  if (obj.kind == Value::Instance && static_cast<InstanceObj*>(obj.obj.get())->cls->find_method("__getitem__")) {
    CallArgs b;
    b.pos.push_back(idx.size() == 1 ? idx[0] : Value::tuple(idx));
    return call(getattr(obj, "__getitem__"), b);
  }
  return call(lookup("__getitem__"), a);
}

Value Interpreter::eval_compare(const Expr& e) {
  Value left = eval(*e.items[0]);
  Value result = Value::boolean(true);
  for (size_t k = 0; k < e.ops.size(); ++k) {
    Value right = eval(*e.items[k + 1]);
    CallArgs a;
    a.pos = {left, right, Value::str(e.ops[k])};
    result = call(lookup("__compare__"), a);
    if (k + 1 == e.ops.size()) break;   // only a chain's inner links are tested for truth
    if (!truthy(result)) return result;
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
    if (conv) v = Value::str(conv == 's' ? str_of(v) : repr_of(v));   // !a: repr, as all text here is ASCII-safe
    out += e.fspecs[k].empty() ? str_of(v) : format_spec(v, e.fspecs[k]);
  }
  return Value::str(out);
}

void Interpreter::comprehend(const Expr& e, size_t level, std::vector<Value>& list, Value* dict) {
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
  for_each(eval(*c.iter), [&](const Value& item) {
    tick();
    assign(*c.target, item);
    bool ok = true;
    for (const ExprPtr& cond : c.conds) ok = ok && truthy(eval(*cond));
    if (ok) comprehend(e, level + 1, list, dict);
    return true;
  });
}

Value Interpreter::eval_comprehension(const Expr& e) {
  // Python 3 runs a comprehension in its own scope: its loop variables do not leak, and it sees
  // the names of the scope around it.
  auto local = std::make_shared<Scope>();
  local->kind = Scope::comprehension;
  local->parent = frames_.empty() ? nullptr : frames_.back();
  std::vector<Value> list;
  Value dict;
  if (e.kind == Expr::DictComp) {
    dict.kind = Value::Dict;
    dict.obj = std::make_shared<DictObj>();
  }
  {
    RunIn in_comprehension(*this, local);
    comprehend(e, 0, list, e.kind == Expr::DictComp ? &dict : nullptr);
  }
  return e.kind == Expr::DictComp ? dict : e.kind == Expr::SetComp ? Value::set(list) : Value::list(list);
}

}  // namespace attn::py
