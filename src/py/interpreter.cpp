// py/interpreter.cpp: statements, expressions, calls, classes (see interpreter.h).
#include "py/interpreter.h"

#include <fmt/format.h>

#include <cmath>

#include "py/parser.h"

namespace attn::py {

namespace {

constexpr long kMaxSteps = 20'000'000;   // guards a lesson file's `for` loop against running forever

// Attach the cell line to an error from a native function or core op.
[[noreturn]] void rethrow_at(int line) {
  try {
    throw;
  } catch (const ScriptError&) {
    throw;
  } catch (const core::TensorError& e) {
    throw ScriptError(line, std::string("RuntimeError: ") + e.what());
  } catch (const std::exception& e) {
    throw ScriptError(line, e.what());
  }
}

}  // namespace

Value builtin(const std::string& name, NativeFn fn) {
  auto o = std::make_shared<BuiltinObj>();
  o->name = name;
  o->fn = std::move(fn);
  Value v;
  v.kind = Value::Builtin;
  v.obj = o;
  return v;
}

Interpreter::Interpreter(core::CpuKernels cpu, core::DropoutRng rng) : state(cpu, rng) { add_python_builtins(builtins_); }

void Interpreter::record_printed(const std::string& name, const Value& v) {
  if (v.kind == Value::Str || v.kind == Value::None) return;
  std::string text = str(v, state.print_options);
  printed.push_back({name, snapshot(v), std::move(text)});
}

std::string Interpreter::take_output() {
  std::string s = out.str();
  out.str("");
  return s;
}

void Interpreter::run_cell(const std::string& source, bool echo_last) {
  // The cell's tree lives while the cell runs; what outlives it (a `def`) owns its own part.
  const Block body = parse_program(source);
  bool echo = echo_last && !body.empty() && body.back()->kind == Stmt::ExprStmt;
  Value ret;
  exec(echo ? Block(body.begin(), body.end() - 1) : body, &ret);
  if (!echo) return;
  const Stmt& last = *body.back();
  Value v;
  try {
    v = eval(*last.value);
  } catch (...) {
    rethrow_at(last.line);
  }
  if (!v.is_none()) {
    out << repr(v, state.print_options) << "\n";
    record_printed(last.value->kind == Expr::Call && last.value->a->kind == Expr::Name ? last.value->a->name + "(...)" : "_", v);
  }
}

Value Interpreter::lookup(const std::string& name) {
  if (!frames_.empty()) {
    auto it = frames_.back()->find(name);
    if (it != frames_.back()->end()) return it->second;
  }
  auto g = globals_.find(name);
  if (g != globals_.end()) return g->second;
  auto b = builtins_.find(name);
  if (b != builtins_.end()) return b->second;
  throw std::runtime_error("NameError: name '" + name + "' is not defined");
}

// ---- statements ----

Interpreter::Flow Interpreter::exec(const Block& block, Value* ret) {
  for (const StmtPtr& s : block)
    if (exec_stmt(s, ret) == Flow::returned) return Flow::returned;
  return Flow::next;
}

Interpreter::Flow Interpreter::exec_stmt(const StmtPtr& ptr, Value* ret) {
  const Stmt& s = *ptr;
  if (++steps_ > kMaxSteps) throw ScriptError(s.line, "RuntimeError: the cell ran too long (step limit reached)");
  try {
    switch (s.kind) {
      case Stmt::ExprStmt: eval(*s.value); break;
      case Stmt::Assign: {
        Value v = eval(*s.value);
        for (const ExprPtr& t : s.targets) assign(*t, v);
        break;
      }
      case Stmt::AugAssign: assign(*s.target, binop(s.op, eval(*s.target), eval(*s.value))); break;
      case Stmt::Import: exec_import(s); break;
      case Stmt::Class: exec_class(s); break;
      case Stmt::Def: {
        auto f = std::make_shared<FunctionObj>();
        f->def = ptr;   // shares ownership of the `def` and its body with the cell's tree
        for (const ExprPtr& d : s.defaults) f->defaults.push_back(eval(*d));
        Value v;
        v.kind = Value::Function;
        v.obj = f;
        scope()[s.name] = v;
        break;
      }
      case Stmt::For:
        for (const Value& item : iterate(eval(*s.value))) {
          assign(*s.target, item);
          if (exec(s.body, ret) == Flow::returned) return Flow::returned;
        }
        break;
      case Stmt::If:
        return exec(truthy(eval(*s.value)) ? s.body : s.orelse, ret);
      case Stmt::Return:
        *ret = s.value ? eval(*s.value) : Value::none();
        return Flow::returned;
      case Stmt::Pass: break;
      case Stmt::Assert:
        if (!truthy(eval(*s.value)))
          throw std::runtime_error("AssertionError" + (s.target ? ": " + str(eval(*s.target)) : std::string()));
        break;
    }
  } catch (...) {
    rethrow_at(s.line);
  }
  return Flow::next;
}

void Interpreter::exec_import(const Stmt& s) {
  static const std::map<std::string, std::string> known = {
      {"torch", "torch"}, {"torch.nn", "torch.nn"}, {"torch.nn.functional", "torch.nn.functional"},
      {"importlib.metadata", ""}, {"math", "math"}};
  auto it = known.find(s.name);
  if (it == known.end()) throw std::runtime_error("ModuleNotFoundError: attn lessons can import torch, torch.nn, torch.nn.functional and math, not '" + s.name + "'");
  if (!s.names.empty()) {      // from X import a [as b], ...
    Value mod = s.name == "importlib.metadata" ? Value::none() : lookup("__import__:" + s.name);
    for (const std::string& n : s.names) {
      auto sp = n.find(" as ");
      std::string name = n.substr(0, sp), alias = sp == std::string::npos ? name : n.substr(sp + 4);
      scope()[alias] = mod.is_none() ? lookup("__import__:" + s.name + "." + name) : getattr(mod, name);
    }
    return;
  }
  Value mod = lookup("__import__:" + s.name);
  if (!s.op.empty()) scope()[s.op] = mod;
  else scope()[s.name.substr(0, s.name.find('.'))] = lookup("__import__:" + s.name.substr(0, s.name.find('.')));
}

void Interpreter::exec_class(const Stmt& s) {
  auto cls = std::make_shared<ClassObj>();
  cls->name = s.name;
  for (const ExprPtr& b : s.bases) {
    Value base = eval(*b);
    if (base.kind != Value::Class) throw std::runtime_error("TypeError: a class can only derive from a class");
    auto bc = std::static_pointer_cast<ClassObj>(base.obj);
    cls->is_module = cls->is_module || bc->is_module;
    cls->bases.push_back(bc);
  }
  Frame body;
  frames_.push_back(&body);
  try {
    Value ret;
    exec(s.body, &ret);
  } catch (...) {
    frames_.pop_back();
    throw;
  }
  frames_.pop_back();
  cls->methods = body;
  Value v;
  v.kind = Value::Class;
  v.obj = cls;
  scope()[s.name] = v;
}

void Interpreter::assign(const Expr& target, const Value& v) {
  switch (target.kind) {
    case Expr::Name: scope()[target.name] = v; return;
    case Expr::Tuple: case Expr::List: {
      std::vector<Value> items = iterate(v);
      if (items.size() != target.items.size())
        throw std::runtime_error(fmt::format("ValueError: expected {} values to unpack, got {}", target.items.size(), items.size()));
      for (size_t k = 0; k < items.size(); ++k) assign(*target.items[k], items[k]);
      return;
    }
    case Expr::Attribute: setattr(eval(*target.a), target.name, v); return;
    case Expr::Subscript: {
      Value obj = eval(*target.a);
      if (obj.kind == Value::Dict) {
        Value key = eval(*target.items.at(0));
        auto& items = static_cast<DictObj*>(obj.obj.get())->items;
        for (auto& kv : items)
          if (equal(kv.first, key)) { kv.second = v; return; }
        items.emplace_back(key, v);
        return;
      }
      if (obj.kind == Value::List && target.items.size() == 1) {
        auto& items = as_seq(obj);
        int64_t k = to_int(eval(*target.items[0]), "list index");
        if (k < 0) k += static_cast<int64_t>(items.size());
        if (k < 0 || k >= static_cast<int64_t>(items.size())) throw std::runtime_error("IndexError: list assignment index out of range");
        items[k] = v;
        return;
      }
      if (obj.kind == Value::Tensor) {
        // x[i] = value / x[i, j] = value: write through into the tensor (used by `for` loops
        // that fill torch.empty(...) results, as in the book chapter).
        CallArgs a;
        a.pos.push_back(v);
        for (const ExprPtr& ix : target.items) a.pos.push_back(eval(*ix));
        CallArgs set_args = a;
        call(tensor_attribute(*this, obj, "__setitem__"), set_args);
        return;
      }
      throw std::runtime_error("TypeError: '" + type_name(obj) + "' object does not support item assignment");
    }
    default: throw std::runtime_error("SyntaxError: cannot assign to this expression");
  }
}

// ---- calls ----

Value Interpreter::call(const Value& fn, CallArgs& args) {
  switch (fn.kind) {
    case Value::Builtin: return static_cast<BuiltinObj*>(fn.obj.get())->fn(*this, args);
    case Value::Function: return call_function(*static_cast<FunctionObj*>(fn.obj.get()), args);
    case Value::Class: return instantiate(std::static_pointer_cast<ClassObj>(fn.obj), args);
    case Value::Instance: {     // module(x) runs forward(x)
      Value self = fn;
      return call(getattr(self, "forward"), args);
    }
    default: throw std::runtime_error("TypeError: '" + type_name(fn) + "' object is not callable");
  }
}

Value Interpreter::call_function(const FunctionObj& f, CallArgs& args) {
  const Stmt& d = *f.def;
  Frame local;
  size_t np = d.params.size(), nd = f.defaults.size();
  if (args.pos.size() > np)
    throw std::runtime_error(fmt::format("TypeError: {}() takes {} positional arguments but {} were given", d.name, np, args.pos.size()));
  for (size_t k = 0; k < args.pos.size(); ++k) local[d.params[k]] = args.pos[k];
  for (auto& [name, v] : args.kw) {
    if (std::find(d.params.begin(), d.params.end(), name) == d.params.end())
      throw std::runtime_error(fmt::format("TypeError: {}() got an unexpected keyword argument '{}'", d.name, name));
    local[name] = v;
  }
  for (size_t k = 0; k < np; ++k) {
    if (local.count(d.params[k])) continue;
    if (k + nd < np) throw std::runtime_error(fmt::format("TypeError: {}() missing required positional argument: '{}'", d.name, d.params[k]));
    local[d.params[k]] = f.defaults[k - (np - nd)];
  }
  if (frames_.size() > 200) throw std::runtime_error("RecursionError: maximum recursion depth exceeded");
  frames_.push_back(&local);
  Value ret;
  try {
    exec(d.body, &ret);
  } catch (...) {
    frames_.pop_back();
    throw;
  }
  frames_.pop_back();
  return ret;
}

Value Interpreter::instantiate(const std::shared_ptr<ClassObj>& cls, CallArgs& args) {
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = cls;
  Value self;
  self.kind = Value::Instance;
  self.obj = inst;
  if (const Value* init = cls->find_method("__init__")) {
    CallArgs a = args;
    a.pos.insert(a.pos.begin(), self);
    call(*init, a);
    return self;
  }
  for (auto c = cls; c; c = c->bases.empty() ? nullptr : c->bases.front())
    if (c->native_init) {
      c->native_init(*this, self, args);
      return self;
    }
  return self;
}

// ---- attributes ----

Value Interpreter::getattr(const Value& obj, const std::string& name) {
  switch (obj.kind) {
    case Value::Namespace: {
      auto& names = static_cast<NamespaceObj*>(obj.obj.get())->names;
      auto it = names.find(name);
      if (it == names.end()) throw std::runtime_error("AttributeError: module '" + obj.s + "' has no attribute '" + name + "' (attn implements the parts of torch the lessons use)");
      return it->second;
    }
    case Value::Tensor: return tensor_attribute(*this, obj, name);
    case Value::Str: return str_attribute(obj, name);
    case Value::Instance: return instance_attribute(*this, obj, name);
    case Value::Size: case Value::Tuple: case Value::List: case Value::Dict: {
      CallArgs a;
      a.pos.push_back(obj);
      a.pos.push_back(Value::str(name));
      return call(lookup("__seqattr__"), a);
    }
    default: throw std::runtime_error("AttributeError: '" + type_name(obj) + "' object has no attribute '" + name + "'");
  }
}

void Interpreter::setattr(const Value& obj, const std::string& name, Value v) {
  if (obj.kind != Value::Instance) throw std::runtime_error("AttributeError: cannot set '" + name + "' on a " + type_name(obj));
  static_cast<InstanceObj*>(obj.obj.get())->set(name, std::move(v));
}

}  // namespace attn::py
