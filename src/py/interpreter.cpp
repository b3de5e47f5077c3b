// py/interpreter.cpp: names and scopes, statements, assignment, calls, instances, attributes
// (see interpreter.h; the newer statements are in statements.cpp).
#include "py/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "core/deadline.h"
#include "py/exceptions.h"
#include "py/limits.h"
#include "py/parser.h"

namespace attn::py {

namespace {

bool declared(const std::vector<std::string>& sorted_names, const std::string& name) {
  return std::binary_search(sorted_names.begin(), sorted_names.end(), name);
}

// Lists, dicts and module namespaces that hold themselves (a.append(a); two imported files that
// import each other) are reference cycles shared_ptr never frees: LeakSanitizer's finding in the
// sanitizer build. The session is over, so empty each such container reachable from its names,
// its modules and the printed values it still holds. Instances, functions and classes are not
// entered: a printed nn.Module may live on in a LessonRun. Snapshots already moved to a
// LessonRun are copies, not reached here. Walks with its own stack: no recursion on deep values.
void break_cycles(const std::map<std::string, Value>& names, const std::map<std::string, Value>& modules,
                  const std::vector<PrintedValue>& printed) {
  std::vector<Value> todo;
  for (const auto& [name, v] : names) todo.push_back(v);
  for (const auto& [path, v] : modules) todo.push_back(v);
  for (const PrintedValue& p : printed) todo.push_back(p.value);
  std::unordered_set<const Obj*> seen;
  std::vector<Value> containers;
  while (!todo.empty()) {
    Value v = std::move(todo.back());
    todo.pop_back();
    const bool file_module = v.kind == Value::Namespace && v.obj && static_cast<const NamespaceObj*>(v.obj.get())->names.count("__file__");
    if (!v.obj || !(v.kind == Value::List || v.kind == Value::Tuple || v.kind == Value::Dict || file_module)) continue;
    if (!seen.insert(v.obj.get()).second) continue;
    if (v.kind == Value::Dict)
      for (const auto& [key, x] : static_cast<const DictObj*>(v.obj.get())->items) todo.push_back(x);
    else if (v.kind == Value::Namespace)
      for (const auto& [name, x] : static_cast<const NamespaceObj*>(v.obj.get())->names) todo.push_back(x);
    else
      for (const Value& x : static_cast<const SeqObj*>(v.obj.get())->items) todo.push_back(x);
    containers.push_back(std::move(v));
  }
  for (Value& c : containers) {
    if (c.kind == Value::Dict) static_cast<DictObj*>(c.obj.get())->clear();
    else if (c.kind == Value::Namespace) static_cast<NamespaceObj*>(c.obj.get())->names.clear();
    else static_cast<SeqObj*>(c.obj.get())->items.clear();
  }
}

std::string timeout_message(double seconds) {
  return fmt::format("TimeoutError: the cell ran longer than its time limit of {:g} seconds (--time-limit SECONDS changes it)",
                     seconds);
}

}  // namespace

// Attach the line (and the imported file, if that is what runs) to an error from a native
// function or core op; an error that has its place already keeps it.
void rethrow_at(int line, const std::string& file) {
  try {
    throw;
  } catch (const LimitError& e) {   // raised where no line is known (limits.h)
    if (e.line == 0) throw LimitError(line, e.what(), file);
    throw;
  } catch (const PyError& e) {
    if (e.line != 0) throw;
    PyError placed = e;
    placed.line = line;
    placed.file = file;
    throw placed;
  } catch (const ScriptError&) {
    throw;
  } catch (const std::bad_alloc&) {   // a value the machine cannot hold: Python's MemoryError, not a crash
    throw PyError(new_exception("MemoryError", {Value::str("out of memory (the cell asked for more than this machine could allocate)")}), "", line, file);
  } catch (const core::DeadlineExceeded& e) {   // a kernel saw the cell's deadline pass (core/deadline.h)
    throw LimitError(line, timeout_message(e.seconds), file);
  } catch (const std::ios_base::failure&) {   // `out` could not take what the cell printed (badbit)
    throw PyError(new_exception("OSError", {Value::str("attn could not keep what the cell printed (writing its output failed)")}), "", line, file);
  } catch (const core::TensorError& e) {   // PyTorch's RuntimeError (IndexError, ValueError) for a tensor op it rejects
    throw PyError(new_exception(e.python_type(), {Value::str(e.what())}), "", line, file);
  } catch (const std::exception& e) {
    throw PyError(new_exception("RuntimeError", {Value::str(e.what())}), "", line, file);
  }
}

Value builtin(const std::string& name, NativeFn fn) {
  auto o = std::make_shared<BuiltinObj>();
  o->name = name;
  o->fn = std::move(fn);
  Value v;
  v.kind = Value::Builtin;
  v.obj = o;
  return v;
}

Interpreter::Interpreter(core::CpuKernels cpu, core::DropoutRng rng)
    : state(cpu, rng), main_(std::make_shared<NamespaceObj>()), globals_(main_) {
  add_python_builtins(builtins_);
  add_class_builtins(builtins_);
  add_more_builtins(builtins_);
  add_exception_classes(builtins_);
  main_->names["__name__"] = Value::str("__main__");
  // A print() that cannot be written (std::bad_alloc while the buffer grows) must stop the cell
  // as a MemoryError (rethrow_at), not set badbit and drop this and every later line silently.
  out.exceptions(std::ios::badbit);
}

// A function that closes over its defining scope and is stored in it is a reference cycle;
// the session is over, so empty those scopes (a printed function keeps its name and code).
Interpreter::~Interpreter() {
  for (const std::weak_ptr<Scope>& w : closures_)
    if (std::shared_ptr<Scope> s = w.lock()) {
      s->vars.clear();
      s->parent.reset();
    }
  break_cycles(main_->names, modules_, printed);
}

void Interpreter::record_printed(const std::string& name, const Value& v) {
  if (v.kind == Value::Str || v.kind == Value::None) return;
  std::string text = str_of(v);
  printed.push_back({name, snapshot(v), std::move(text)});
}

std::string Interpreter::take_output() {
  std::string s = out.str();
  out.str("");
  return s;
}

void Interpreter::check_budget() const {
  if (steps_ > limits::kMaxSteps)
    throw LimitError(0, fmt::format("RuntimeError: the cell ran more than {} steps (statements and loop iterations; "
                                 "attn's limit, limits::kMaxSteps)", with_commas(limits::kMaxSteps)));
  if (std::chrono::steady_clock::now() > deadline_) throw LimitError(0, timeout_message(time_limit_));
}

void Interpreter::run_cell(const std::string& source, bool echo_last, int first_line) {
  const core::autograd::SequenceScope sequence(state.sequence);   // this session numbers its nodes
  steps_ = 0;
  out.clear();   // a cell whose output failed left badbit set; the next one writes again
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(time_limit_));
  // The kernels of one huge op look at the same deadline (core/deadline.h).
  core::ScopedDeadline kernels_deadline(deadline_, time_limit_);
  // The cell's tree lives while the cell runs; what outlives it (a `def`) owns its own part.
  const Block body = parse_program(source, first_line);
  bool echo = echo_last && !body.empty() && body.back()->kind == Stmt::ExprStmt;
  Value ret;
  exec(echo ? Block(body.begin(), body.end() - 1) : body, &ret);
  if (!echo) return;
  const Stmt& last = *body.back();
  Value v;
  try {
    v = eval(*last.value);
  } catch (...) {
    rethrow_at(last.line, file_);
  }
  if (!v.is_none()) {
    try {
      out << repr_of(v) << "\n";
    } catch (...) {
      rethrow_at(last.line, file_);
    }
    record_printed(last.value->kind == Expr::Call && last.value->a->kind == Expr::Name ? last.value->a->name + "(...)" : "_", v);
  }
}

// ---- names and scopes ----

Value Interpreter::lookup(const std::string& name) {
  Scope* top = frames_.empty() ? nullptr : frames_.back().get();
  for (Scope* s = top; s; s = s->parent.get()) {
    if (s->def && declared(s->def->globals, name)) break;
    auto it = s->vars.find(name);
    if (it != s->vars.end()) return it->second;
    if (s->kind == Scope::function && s->def && declared(s->def->local_names, name)) {
      if (s == top) throw UnboundLocalError("cannot access local variable '" + name + "' where it is not associated with a value");
      throw NameError("cannot access free variable '" + name + "' where it is not associated with a value in enclosing scope");
    }
  }
  auto g = globals_->names.find(name);
  if (g != globals_->names.end()) return g->second;
  auto b = builtins_.find(name);
  if (b != builtins_.end()) return b->second;
  if (is_unsupported_builtin(name))
    throw NameError("attn does not support the Python builtin '" + name + "' (README: What attn's Python supports)");
  throw NameError("name '" + name + "' is not defined");
}

void Interpreter::store(const std::string& name, Value v) {
  if (frames_.empty()) {
    globals_->names[name] = std::move(v);
    return;
  }
  Scope& s = *frames_.back();
  if (s.def && declared(s.def->globals, name)) {
    globals_->names[name] = std::move(v);
    return;
  }
  if (s.def && declared(s.def->nonlocals, name)) {
    for (Scope* p = s.parent.get(); p; p = p->parent.get())
      if (p->kind == Scope::function && p->def && declared(p->def->local_names, name)) {
        p->vars[name] = std::move(v);
        return;
      }
    throw SyntaxError("no binding for nonlocal '" + name + "' found");
  }
  s.vars[name] = std::move(v);
}

void Interpreter::erase(const std::string& name) {
  std::map<std::string, Value>* vars = &globals_->names;
  if (!frames_.empty()) {
    Scope& s = *frames_.back();
    if (!(s.def && declared(s.def->globals, name))) vars = &s.vars;
    if (s.def && declared(s.def->nonlocals, name))
      for (Scope* p = s.parent.get(); p; p = p->parent.get())
        if (p->vars.count(name)) { vars = &p->vars; break; }
  }
  if (vars->erase(name) == 0) {
    if (!frames_.empty() && frames_.back()->def && declared(frames_.back()->def->local_names, name))
      throw UnboundLocalError("cannot access local variable '" + name + "' where it is not associated with a value");
    throw NameError("name '" + name + "' is not defined");
  }
}

std::shared_ptr<Scope> Interpreter::closure_scope() const {
  std::shared_ptr<Scope> s = frames_.empty() ? nullptr : frames_.back();
  while (s && s->kind == Scope::class_body) s = s->parent;   // methods do not see their class's names
  return s;
}

std::string Interpreter::qualify(const std::string& name) const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    if ((*it)->kind == Scope::class_body) return (*it)->qualname + "." + name;
    if ((*it)->kind == Scope::function) return (*it)->qualname + ".<locals>." + name;
  }
  return name;
}

bool Interpreter::current_method(std::shared_ptr<ClassObj>& owner, Value& self) const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    const Scope& s = **it;
    if (s.kind != Scope::function || !s.fn) continue;
    owner = s.fn->owner.lock();
    const Stmt& d = *s.fn->def;
    std::string first = !d.params.empty() ? d.params[0] : "";
    auto v = s.vars.find(first);
    if (!owner || v == s.vars.end()) return false;
    self = v->second;
    return true;
  }
  return false;
}

// ---- statements ----

Interpreter::Flow Interpreter::exec(const Block& block, Value* ret) {
  for (const StmtPtr& s : block) {
    Flow f = exec_stmt(s, ret);
    if (f != Flow::next) return f;
  }
  return Flow::next;
}

// A loop's body: `break` ends the loop (broke = true), `continue` the iteration.
Interpreter::Flow Interpreter::exec_loop_body(const Block& body, Value* ret, bool& broke) {
  Flow f = exec(body, ret);
  if (f == Flow::broke) broke = true;
  return f == Flow::returned ? f : Flow::next;
}

Interpreter::Flow Interpreter::exec_stmt(const StmtPtr& ptr, Value* ret) {
  const Stmt& s = *ptr;
  try {
    tick();
    check_stack();
    switch (s.kind) {
      case Stmt::ExprStmt: eval(*s.value); break;
      case Stmt::Assign: {
        Value v = eval(*s.value);
        for (const ExprPtr& t : s.targets) assign(*t, v);
        break;
      }
      case Stmt::AugAssign: {   // target first, then the value, as Python
        Value target = eval(*s.target);
        Value value = eval(*s.value);
        if (target.kind == Value::Tensor && (s.op == "+" || s.op == "-" || s.op == "*" || s.op == "/") &&
            (value.kind == Value::Tensor || value.is_number())) {   // Tensor.__iadd__ & co.: in place
          const core::BinOp op = s.op == "+" ? core::BinOp::add : s.op == "-" ? core::BinOp::sub
                                 : s.op == "*" ? core::BinOp::mul : core::BinOp::div;
          assign(*s.target, tensor_inplace(*this, op, target, value, s.target->kind == Expr::Subscript));
          break;
        }
        const Value r = binop(s.op, target, value);
        assign(*s.target, state.grad_enabled ? r : without_grad(r));
        break;
      }
      case Stmt::Import: exec_import(s); break;
      case Stmt::Class: exec_class(ptr); break;
      case Stmt::Def: store(s.name, decorate(s, make_function(ptr))); break;
      case Stmt::For: {
        bool broke = false, returned = false;
        for_each(eval(*s.value), [&](const Value& item) {   // a range item by item (interpreter.h)
          assign(*s.target, item);
          returned = exec_loop_body(s.body, ret, broke) == Flow::returned;
          return !returned && !broke;
        });
        if (returned) return Flow::returned;
        return broke ? Flow::next : exec(s.orelse, ret);
      }
      case Stmt::If:
        return exec(truthy(eval(*s.value)) ? s.body : s.orelse, ret);
      case Stmt::Return:
        *ret = s.value ? eval(*s.value) : Value::none();
        return Flow::returned;
      case Stmt::Pass: break;
      case Stmt::Assert:
        if (!truthy(eval(*s.value)))
          throw s.target ? PyError(new_exception("AssertionError", {eval(*s.target)})) : AssertionError("");
        break;
      default: return exec_more(ptr, ret);
    }
  } catch (...) {
    rethrow_at(s.line, file_);
  }
  return Flow::next;
}

void Interpreter::exec_class(const StmtPtr& ptr) {
  const Stmt& s = *ptr;
  auto cls = std::make_shared<ClassObj>();
  cls->name = s.name;
  if (globals_ != main_) cls->module = str(globals_->names["__name__"]);
  for (const ExprPtr& b : s.bases) {
    Value base = eval(*b);
    if (base.kind != Value::Class) throw TypeError("a class can only derive from a class");
    auto bc = std::static_pointer_cast<ClassObj>(base.obj);
    cls->is_module = cls->is_module || bc->is_module;
    cls->bases.push_back(bc);
  }
  auto body = std::make_shared<Scope>();
  body->kind = Scope::class_body;
  body->parent = frames_.empty() ? nullptr : frames_.back();
  body->qualname = qualify(s.name);
  {
    RunIn in_body(*this, body);
    Value ret;
    exec(s.body, &ret);
  }
  cls->methods = body->vars;
  for (const StmtPtr& st : s.body)
    if (st->annotated && st->targets.at(0)->kind == Expr::Name &&
        std::find(cls->fields.begin(), cls->fields.end(), st->targets[0]->name) == cls->fields.end())
      cls->fields.push_back(st->targets[0]->name);
  for (const std::shared_ptr<FunctionObj>& f : body->defined) f->owner = cls;
  Value v;
  v.kind = Value::Class;
  v.obj = cls;
  store(s.name, decorate(s, v));
}

void Interpreter::assign(const Expr& target, const Value& v) {
  switch (target.kind) {
    case Expr::Name: store(target.name, v); return;
    case Expr::Tuple: case Expr::List: assign_unpack(target, v); return;
    case Expr::Starred: throw SyntaxError("starred assignment target must be in a list or tuple");
    case Expr::Attribute: setattr(eval(*target.a), target.name, v); return;
    case Expr::Subscript: {
      Value obj = eval(*target.a);
      if (obj.kind == Value::Dict) {
        static_cast<DictObj*>(obj.obj.get())->set(eval(*target.items.at(0)), v);
        return;
      }
      if (obj.kind == Value::List && target.items.size() == 1) {
        auto& items = as_seq(obj);
        int64_t k = to_int(eval(*target.items[0]), "list index");
        if (k < 0) k += static_cast<int64_t>(items.size());
        if (k < 0 || k >= static_cast<int64_t>(items.size())) throw IndexError("list assignment index out of range");
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
      throw TypeError("'" + type_name(obj) + "' object does not support item assignment");
    }
    default: throw SyntaxError("cannot assign to this expression");
  }
}

// a, b = v; a, *rest = v; (a, b), c = v: Python's unpacking, with its messages.
void Interpreter::assign_unpack(const Expr& target, const Value& v) {
  switch (v.kind) {
    case Value::None: case Value::Bool: case Value::Int: case Value::Float: case Value::Function:
    case Value::Builtin: case Value::Class: case Value::Dtype: case Value::Slice: case Value::Namespace:
      throw TypeError("cannot unpack non-iterable " + type_name(v) + " object");
    default: break;
  }
  std::vector<Value> items = iterate(v);
  const size_t n = target.items.size(), m = items.size();
  size_t star = n;
  for (size_t k = 0; k < n; ++k)
    if (target.items[k]->kind == Expr::Starred) {
      if (star != n) throw SyntaxError("multiple starred expressions in assignment");
      star = k;
    }
  if (star == n) {
    if (m > n) throw ValueError(fmt::format("too many values to unpack (expected {})", n));
    if (m < n) throw ValueError(fmt::format("not enough values to unpack (expected {}, got {})", n, m));
    for (size_t k = 0; k < n; ++k) assign(*target.items[k], items[k]);
    return;
  }
  const size_t after = n - star - 1;
  if (m < n - 1) throw ValueError(fmt::format("not enough values to unpack (expected at least {}, got {})", n - 1, m));
  for (size_t k = 0; k < star; ++k) assign(*target.items[k], items[k]);
  assign(*target.items[star]->a, Value::list(std::vector<Value>(items.begin() + static_cast<std::ptrdiff_t>(star), items.end() - static_cast<std::ptrdiff_t>(after))));
  for (size_t k = 0; k < after; ++k) assign(*target.items[star + 1 + k], items[m - after + k]);
}

// ---- calls ----

Value Interpreter::call(const Value& fn, CallArgs& args) {
  switch (fn.kind) {
    case Value::Builtin: {   // every torch op, method and module forward: no graph under no_grad
      Value r = static_cast<BuiltinObj*>(fn.obj.get())->fn(*this, args);
      return state.grad_enabled ? r : without_grad(r);
    }
    case Value::Function: return call_function(*static_cast<FunctionObj*>(fn.obj.get()), args);
    case Value::Class: return instantiate(std::static_pointer_cast<ClassObj>(fn.obj), args);
    case Value::Instance: {     // obj(x) runs its class's __call__; module(x) runs forward(x)
      auto cls = static_cast<InstanceObj*>(fn.obj.get())->cls;
      for (const auto& c : mro(cls)) {
        auto it = c->methods.find("__call__");
        if (it != c->methods.end()) return call(bound_method(fn, it->second, "__call__"), args);
      }
      if (!cls->is_module) throw TypeError("'" + type_name(fn) + "' object is not callable");
      Value self = fn;
      return call(getattr(self, "forward"), args);
    }
    default: throw TypeError("'" + type_name(fn) + "' object is not callable");
  }
}

Value Interpreter::instantiate(const std::shared_ptr<ClassObj>& cls, CallArgs& args) {
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = cls;
  Value self;
  self.kind = Value::Instance;
  self.obj = inst;
  if (is_exception_class(cls)) inst->set("args", Value::tuple(args.pos));   // BaseException.__new__
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
  if (!args.pos.empty() || !args.kw.empty())
    throw TypeError(cls->name + "() takes no arguments");
  return self;
}

// ---- attributes ----

Value Interpreter::getattr(const Value& obj, const std::string& name) {
  switch (obj.kind) {
    case Value::Namespace: {
      auto& names = static_cast<NamespaceObj*>(obj.obj.get())->names;
      auto it = names.find(name);
      if (it == names.end())
        throw AttributeError("module '" + obj.s + "' has no attribute '" + name + "'" +
                                 (names.count("__file__") ? "" : " (attn implements the parts of torch the lessons use)"));
      return it->second;
    }
    case Value::Tensor: return tensor_attribute(*this, obj, name);
    case Value::Str: return str_attribute(obj, name);
    case Value::Instance: return getattr_instance(obj, name);
    case Value::Class: return getattr_class(obj, name);
    case Value::Function:
      if (name == "__name__") return Value::str(static_cast<FunctionObj*>(obj.obj.get())->def->name);
      if (name == "__qualname__") return Value::str(static_cast<FunctionObj*>(obj.obj.get())->qualname);
      throw AttributeError("'function' object has no attribute '" + name + "'");
    case Value::Size: case Value::Tuple: case Value::List: case Value::Dict: {
      CallArgs a;
      a.pos.push_back(obj);
      a.pos.push_back(Value::str(name));
      return call(lookup("__seqattr__"), a);
    }
    default: throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
  }
}

}  // namespace attn::py
