// py/interpreter.cpp: names and scopes, statements, assignment, calls, instances, attributes
// (see interpreter.h; the newer statements are in statements.cpp).
#include "py/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_set>

#include "py/exceptions.h"
#include "py/function_attrs.h"
#include "py/lexer.h"
#include "py/limits.h"
#include "py/parser.h"

namespace attn::py {

namespace {

bool declared(const std::vector<std::string>& sorted_names, const std::string& name) {
  return std::binary_search(sorted_names.begin(), sorted_names.end(), name);
}

// Objects that hold themselves (a.append(a); `m.me = m` on an instance; a class whose method's
// default is the class; two imported files that import each other) are reference cycles
// shared_ptr never frees: LeakSanitizer's finding in the sanitizer build. The session is over,
// so empty every container reachable from its names and modules: lists, tuples, dicts, module
// namespaces, instances' attribute dicts, the attributes of classes the session made, and
// functions' defaults, attributes and closures (a wrapper that captured its own owner). Objects
// shared by every session (built-in and native classes, and what only they reach) are left as they are. Walks with its own stack: no recursion on deep values.
void break_cycles(const std::map<std::string, Value>& names, const std::map<std::string, Value>& modules) {
  std::vector<Value> todo;
  std::unordered_set<const Obj*> seen;
  // Each object once, marked when first met: a list of 10^7 ints, or of 10^7 references to one
  // list ([[]] * 10**7), is walked without a 10^7-item copy of it (the mark was at the walk:
  // 1.9 GB for that list, issue 20).
  auto push = [&](const Value& x) {
    if (x.obj && seen.insert(x.obj.get()).second) todo.push_back(x);
  };
  for (const auto& [name, v] : names) push(v);
  for (const auto& [path, v] : modules) push(v);
  std::vector<Value> containers;
  std::vector<std::shared_ptr<ClassObj>> classes;
  std::vector<std::shared_ptr<FunctionObj>> functions;
  std::vector<std::shared_ptr<Scope>> scopes;   // closures: a wrapper's captured names can lead back to it
  std::unordered_set<const Scope*> seen_scopes;
  while (!todo.empty()) {
    Value v = std::move(todo.back());
    todo.pop_back();
    switch (v.kind) {
      case Value::Dict:
        for (const auto& [key, x] : static_cast<const DictObj*>(v.obj.get())->items) push(x);
        break;
      case Value::Namespace:
        for (const auto& [name, x] : static_cast<const NamespaceObj*>(v.obj.get())->names) push(x);
        break;
      case Value::List: case Value::Tuple:
        for (const Value& x : static_cast<const SeqObj*>(v.obj.get())->items) push(x);
        break;
      case Value::Instance: {
        auto* o = static_cast<InstanceObj*>(v.obj.get());
        if (o->dict && !o->dict->items.empty()) {
          Value d;
          d.kind = Value::Dict;
          d.obj = o->dict;
          push(d);
        }
        push(Value::of_class(o->cls));
        continue;
      }
      case Value::Class: {
        auto c = std::static_pointer_cast<ClassObj>(v.obj);
        if (c->immutable) continue;
        for (const auto& [name, x] : c->methods) push(x);
        classes.push_back(std::move(c));
        continue;
      }
      case Value::Function: {
        auto f = std::static_pointer_cast<FunctionObj>(v.obj);
        for (const Value& x : f->defaults) push(x);
        for (const auto& [name, x] : f->kwdefaults) push(x);
        for (std::shared_ptr<Scope> sc = f->closure; sc && seen_scopes.insert(sc.get()).second; sc = sc->parent) {
          for (const auto& [name, x] : sc->vars) push(x);
          scopes.push_back(sc);
        }
        if (const auto& attrs = static_cast<const FunctionWithAttrs*>(f.get())->attrs) {   // f.x = ...
          Value d;
          d.kind = Value::Dict;
          d.obj = attrs;
          push(d);
        }
        functions.push_back(std::move(f));
        continue;
      }
      default: continue;
    }
    containers.push_back(std::move(v));
  }
  for (Value& c : containers) {
    if (c.kind == Value::Dict) static_cast<DictObj*>(c.obj.get())->clear();
    else if (c.kind == Value::Namespace) static_cast<NamespaceObj*>(c.obj.get())->names.clear();
    else static_cast<SeqObj*>(c.obj.get())->items.clear();
  }
  for (auto& c : classes) c->methods.clear();
  for (auto& f : functions) {
    f->defaults.clear();
    f->kwdefaults.clear();
  }
  for (auto& sc : scopes) sc->vars.clear();
}

}  // namespace

void Interpreter::rethrow_at(int line, const std::string& file) {
  // A built-in module written in Python (a library's, "<torch.nn.modules>") is not the lesson's
  // code: an error passing through it takes the line of the lesson's statement that called it.
  if (!file.empty() && file.front() == '<') line = 0;
  const std::string where = line ? file : "";
  try {
    throw;
  } catch (const LimitError& e) {   // raised where no line is known (limits.h)
    if (e.line == 0) throw LimitError(line, e.what(), where);
    throw;
  } catch (const PyError& e) {
    // raised in attn's own library ("<collections.py>": no file the student has): the lesson's line
    const bool in_library = !e.file.empty() && e.file.front() == '<';
    if ((e.line != 0 && !in_library) || line == 0) throw;
    PyError placed = e;
    placed.line = line;
    placed.file = where;
    throw placed;
  } catch (const ScriptError&) {
    throw;
  } catch (const std::bad_alloc&) {   // a value the machine cannot hold: Python's MemoryError, not a crash
    throw PyError(new_exception("MemoryError", {Value::str("out of memory (" + code_name_ + " asked for more than this machine could allocate)")}), "", line, where);
  } catch (const std::ios_base::failure&) {   // `out` could not take what the cell printed (badbit)
    throw PyError(new_exception("OSError", {Value::str("attn could not keep what " + code_name_ + " printed (writing its output failed)")}), "", line, where);
  } catch (...) {
    for (auto it = translators_.rbegin(); it != translators_.rend(); ++it) {   // a host library's own errors
      try {
        (*it)();
      } catch (const LimitError& e) {
        throw LimitError(e.line ? e.line : line, e.what(), e.line ? e.file : where);
      } catch (const PyError& e) {
        PyError placed = e;
        placed.line = line;
        placed.file = where;
        throw placed;
      }
    }
    try {
      throw;
    } catch (const std::exception& e) {   // anything else: a bug in attn, reported as Python would a C error
      throw PyError(new_exception("SystemError", {Value::str(e.what())}), "", line, where);
    }
  }
}

namespace {
thread_local Interpreter* current_interpreter = nullptr;
}  // namespace

Interpreter* Interpreter::current() { return current_interpreter; }

CurrentScope::CurrentScope(Interpreter& in) : saved_(current_interpreter), saved_heap_(GcHeap::current()) {
  current_interpreter = &in;
  GcHeap::set_current(&in.gc());
}
CurrentScope::~CurrentScope() {
  current_interpreter = saved_;
  GcHeap::set_current(saved_heap_);
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

Value method(const std::string& name, NativeFn fn) {
  Value m = builtin(name, std::move(fn));
  static_cast<BuiltinObj*>(m.obj.get())->method = true;
  return m;
}

Value module_value(const std::string& name, std::shared_ptr<NamespaceObj> ns) {
  if (!ns->names.count("__name__")) ns->names["__name__"] = Value::str(name);
  Value v;
  v.kind = Value::Namespace;
  v.s = name;
  v.obj = std::move(ns);
  return v;
}

NamespaceObj& names_of(const Value& module) {
  if (module.kind != Value::Namespace) throw TypeError("'" + type_name(module) + "' object is not a module");
  return *static_cast<NamespaceObj*>(module.obj.get());
}

Interpreter::Interpreter() : main_(std::make_shared<NamespaceObj>()), globals_(main_) {
  add_python_builtins(builtins_);
  add_class_builtins(*this, builtins_);
  add_more_builtins(builtins_);
  add_exception_classes(builtins_);
  builtins_["NotImplemented"] = Value::not_implemented();
  Value ellipsis;
  ellipsis.kind = Value::Ellipsis;
  builtins_["Ellipsis"] = ellipsis;
  add_standard_modules(*this);
  main_->names["__name__"] = Value::str("__main__");
  // A print() that cannot be written (std::bad_alloc while the buffer grows) must stop the cell
  // as a MemoryError (rethrow_at), not set badbit and drop this and every later line silently.
  out.exceptions(std::ios::badbit);
}

// A function that closes over its defining scope and is stored in it is a reference cycle;
// the session is over, so empty those scopes (a function the caller kept keeps its name and code).
Interpreter::~Interpreter() {
  end_generators();   // unwinds the stacks of generators never finished (generator.cpp)
  for (const std::weak_ptr<Scope>& w : closures_)
    if (std::shared_ptr<Scope> s = w.lock()) {
      s->vars.clear();
      s->parent.reset();
    }
  break_cycles(main_->names, modules_);
  try {
    gc_.collect();   // while the session is whole: a generator the garbage holds is closed here
  } catch (...) {    // no memory for the collector's lists: what is left is only not freed
  }
}

void Interpreter::record_printed(const std::string& name, const Value& v, const std::string& text) {
  if (!on_print || v.kind == Value::Str || v.kind == Value::None) return;
  on_print(name, v, text);
}

void Interpreter::add_module(const std::string& name, ModuleMaker make) { makers_[name] = std::move(make); }

void Interpreter::add_source_module(const std::string& name, std::string label, std::string_view source) {
  makers_[name] = [name, label = std::move(label), source](Interpreter& in) {
    return in.import_source(name, label, std::string(source), true);
  };
}

std::string Interpreter::take_output() {
  std::string s = std::move(out).str();   // the buffer itself (C++20), not a copy of it
  out.str("");
  return s;
}

void Interpreter::check_budget() const {
  if (steps_ > limits::kMaxSteps)
    throw LimitError(0, fmt::format("RuntimeError: {} ran more than {} steps (statements and loop iterations; "
                                 "attn's limit, limits::kMaxSteps)", code_name_, with_commas(limits::kMaxSteps)));
  if (std::chrono::steady_clock::now() > deadline_) throw LimitError(0, timeout_message(time_limit_, code_name_));
}

namespace {

// Jupyter's rule (IPython's DisplayHook.quiet): a cell whose last token, past comments and line
// ends, is `;` displays nothing.
bool ends_with_semicolon(const std::string& source) {
  const std::vector<Token> tokens = tokenize(source);
  for (auto t = tokens.rbegin(); t != tokens.rend(); ++t) {
    if (t->kind == Token::Newline || t->kind == Token::Indent || t->kind == Token::Dedent || t->kind == Token::End) continue;
    return t->kind == Token::Op && t->text == ";";
  }
  return false;
}

}  // namespace

namespace {

// At the end of a cell (also one that raised): its unreachable cycles are freed.
struct CollectAfterCell {
  Interpreter& in;
  ~CollectAfterCell() {
    try {
      if (in.gc().allocated_since()) in.collect_cycles();
    } catch (...) {   // no memory for the collector's lists, or a generator's `finally` hit a limit:
    }                 // the cycles stay until the next collection
  }
};

}  // namespace

void Interpreter::run_cell(const std::string& source, bool echo_last, int first_line) {
  const CurrentScope running(*this);
  const CollectAfterCell collect_after{*this};
  steps_ = own_steps_ = 0;
  out.clear();   // a cell whose output failed left badbit set; the next one writes again
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(time_limit_));
  // The cell's tree lives while the cell runs; what outlives it (a `def`) owns its own part.
  const Block body = parse_program(source, first_line);
  cells_.emplace_back(first_line, source);
  bool echo = echo_last && !body.empty() && body.back()->kind == Stmt::ExprStmt && !ends_with_semicolon(source);
  Value ret;
  exec(echo ? Block(body.begin(), body.end() - 1) : body, &ret);
  if (!echo) return;
  const Stmt& last = *body.back();
  Value v;
  line_ = last.line;
  try {
    v = eval(*last.value);
  } catch (...) {
    rethrow_at(last.line, file_);
  }
  if (!v.is_none()) {
    std::string text;
    try {
      text = repr_of(v);
      out << text << "\n";
      record_printed(last.value->kind == Expr::Call && last.value->a->kind == Expr::Name ? last.value->a->name + "(...)" : "_", v, text);
    } catch (...) {
      rethrow_at(last.line, file_);
    }
  }
}

// ---- where the running code is (warnings) ----

std::optional<Interpreter::Location> Interpreter::location(int level) const {
  const std::string* file = &file_;
  int line = line_;
  const NamespaceObj* module = globals_.get();
  const RunIn* r = run_;
  for (; level > 0; --level) {   // each RunIn holds what its caller was running
    if (!r) return std::nullopt;
    file = &r->file_;
    line = r->line_;
    module = r->globals_.get();
    r = r->prev_;
  }
  Location where{file->empty() ? main_file_ : *file, line, "__main__"};
  if (module && module != main_.get()) {
    auto name = module->names.find("__name__");
    if (name != module->names.end() && name->second.kind == Value::Str) where.module = name->second.s;
  }
  return where;
}

namespace {

// Line n (1-based) of text with its newline, as linecache.getline gives it; "" past the end.
std::string nth_line(const std::string& text, int n) {
  size_t pos = 0;
  for (int k = 1; k < n; ++k) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return "";
    ++pos;
  }
  if (pos >= text.size()) return "";
  return text.substr(pos, text.find('\n', pos) - pos) + "\n";
}

}  // namespace

std::string Interpreter::source_line(const std::string& file, int line) const {
  if (line < 1) return "";
  if (file == main_file_) {
    for (auto it = cells_.rbegin(); it != cells_.rend(); ++it)
      if (line >= it->first) {
        std::string text = nth_line(it->second, line - it->first + 1);
        if (!text.empty()) return text;
      }
    return "";
  }
  auto it = sources_.find(file);
  return it == sources_.end() ? "" : nth_line(it->second, line);
}

// ---- names and scopes ----

Value Interpreter::lookup(const std::string& name) {
  Scope* top = frames_.empty() ? nullptr : frames_.back().get();
  for (Scope* s = top; s; s = s->parent.get()) {
    if (s->kind == Scope::class_body && s != top) continue;   // a class's names are not seen from a comprehension or lambda in it
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
    throw NameError("attn does not support the Python builtin '" + name + "' (docs/lesson-authors.md: What attn's Python supports)");
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
  if (s.kind == Scope::class_body && !s.vars.count(name)) s.order.push_back(name);
  s.vars[name] = std::move(v);
}

// `name := v` binds in the scope around the comprehensions it is in (PEP 572), as store() would there.
void Interpreter::store_named(const std::string& name, const Value& v) {
  std::shared_ptr<Scope> s = frames_.empty() ? nullptr : frames_.back();
  if (!s || s->kind != Scope::comprehension) return store(name, v);
  while (s && s->kind == Scope::comprehension) s = s->parent;
  if (!s) {
    globals_->names[name] = v;
    return;
  }
  frames_.push_back(s);
  try {
    store(name, v);
  } catch (...) {
    frames_.pop_back();
    throw;
  }
  frames_.pop_back();
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
  line_ = s.line;
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
      case Stmt::AugAssign: {   // target first, then the value, as Python; x[k] += v stores back with __setitem__
        Value target = eval(*s.target);
        Value value = eval(*s.value);
        const bool item = s.target->kind == Expr::Subscript;
        augmenting_item_ += item;
        Value r;
        try {
          r = inplace_op(s.op, target, value);
        } catch (...) {
          augmenting_item_ -= item;
          throw;
        }
        augmenting_item_ -= item;
        assign(*s.target, r);
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
        if (!dropped_gens_.empty()) close_dropped();   // the loop's own generator, left by a break
        if (returned) return Flow::returned;
        return broke ? Flow::next : exec(s.orelse, ret);
      }
      case Stmt::If:
        return exec(truth(eval(*s.value)) ? s.body : s.orelse, ret);
      case Stmt::Return:
        *ret = s.value ? eval(*s.value) : Value::none();
        return Flow::returned;
      case Stmt::Pass: break;
      case Stmt::Assert:
        if (!truth(eval(*s.value)))
          throw s.target ? PyError(new_exception("AssertionError", {eval(*s.target)})) : AssertionError("");
        break;
      default: {
        Flow f = exec_more(ptr, ret);
        if (!dropped_gens_.empty()) close_dropped();
        return f;
      }
    }
    if (!dropped_gens_.empty()) close_dropped();   // generators this statement let go of: their `finally` runs now
  } catch (...) {
    rethrow_at(s.line, file_);
  }
  return Flow::next;
}

void check_bases(const ClassObj& cls) {
  static const std::set<std::string> refused = {"int", "float", "str", "frozenset"};
  static const std::set<std::string> final = {"bool", "range", "slice", "function", "NoneType", "builtin_function_or_method",
                                              "module", "ellipsis", "NotImplementedType"};
  for (const ClassPtr& bc : cls.bases) {
    if (bc->module == "builtins" && final.count(bc->name)) throw TypeError("type '" + bc->name + "' is not an acceptable base type");
    if (bc->module == "builtins" && refused.count(bc->name))
      throw NotImplementedError("attn's classes cannot derive from the built-in type '" + bc->name + "'");
  }
  for (size_t k = 0; k < cls.bases.size(); ++k)
    for (size_t j = 0; j < k; ++j)
      if (cls.bases[j] == cls.bases[k]) throw TypeError("duplicate base class " + cls.bases[k]->name);
  cls.mro();   // the order is checked now: TypeError for bases Python cannot order
  // CPython's best_base: the bases' built-in containers (list, dict, ...) and native payloads must
  // lie on one line of inheritance, else TypeError.
  const ClassObj* solid = nullptr;
  for (const ClassPtr& b : cls.bases) {
    const ClassObj* s = builtin_base(*b);
    if (!s || s == solid) continue;
    if (solid && !is_subclass(s, solid) && !is_subclass(solid, s)) throw TypeError("multiple bases have instance lay-out conflict");
    solid = s;
  }
  if (solid && cls.tag()) throw TypeError("multiple bases have instance lay-out conflict");
}

void Interpreter::exec_class(const StmtPtr& ptr) {
  const Stmt& s = *ptr;
  auto cls = std::make_shared<ClassObj>();
  cls->name = s.name;
  if (globals_ != main_) cls->module = str(globals_->names["__name__"]);
  CallArgs given = s.value ? eval_args(s.value->args, [] { return std::string("__build_class__"); }) : CallArgs{};
  for (const Value& base : given.pos) {
    if (base.kind != Value::Class) throw TypeError("a class can only derive from a class");
    cls->bases.push_back(std::static_pointer_cast<ClassObj>(base.obj));
  }
  if (cls->bases.empty()) cls->bases.push_back(builtin_class("object"));
  CallArgs keywords;   // class A(Base, flag=True): for Base.__init_subclass__
  for (auto& [name, v] : given.kw) {
    if (name != "metaclass") keywords.kw.emplace_back(name, v);
    else if (v.kind != Value::Class || v.obj.get() != builtin_class("type").get())   // metaclass=type is every class's
      throw NotImplementedError("attn does not support metaclasses (metaclass=" + repr_of(v) + ")");
  }
  check_bases(*cls);
  auto body = std::make_shared<Scope>();
  body->kind = Scope::class_body;
  body->def = &s;   // its global and nonlocal declarations (it has no local_names: every name it binds is the class's)
  body->parent = frames_.empty() ? nullptr : frames_.back();
  body->qualname = qualify(s.name);
  cls->qualname = body->qualname;
  // What CPython's compiled body binds first: __module__, then the docstring as __doc__ (or None
  // after the body): vars(A) and A.__doc__ as CPython's.
  body->vars["__module__"] = Value::str(cls->module);
  body->order.push_back("__module__");
  const bool docstring = !s.body.empty() && s.body[0]->kind == Stmt::ExprStmt && s.body[0]->value && s.body[0]->value->kind == Expr::Str;
  if (docstring) {
    body->vars["__doc__"] = Value::str(s.body[0]->value->name);
    body->order.push_back("__doc__");
  }
  {
    RunIn in_body(*this, body);
    Value ret;
    exec(s.body, &ret);
  }
  if (!body->vars.count("__doc__")) {
    body->vars["__doc__"] = Value::none();
    body->order.push_back("__doc__");
  }
  // `__module__ = "torch.optim.sgd"` in the body names the class's module, as in CPython (never
  // "builtins": that name marks attn's own built-in classes)
  if (const Value& m = body->vars.at("__module__"); m.kind == Value::Str && m.s != "builtins") cls->module = m.s;
  cls->methods = body->vars;
  cls->order = std::move(body->order);
  for (const StmtPtr& st : s.body)
    if (st->annotated && st->targets.at(0)->kind == Expr::Name &&
        std::find(cls->fields.begin(), cls->fields.end(), st->targets[0]->name) == cls->fields.end())
      cls->fields.push_back(st->targets[0]->name);
  for (const std::shared_ptr<FunctionObj>& f : body->defined) f->owner = cls;
  if (cls->methods.count("__eq__") && !cls->methods.count("__hash__")) cls->methods["__hash__"] = Value::none();   // as type.__new__
  set_names(*this, cls);
  init_subclass(*this, cls, keywords);
  store(s.name, decorate(s, Value::of_class(cls)));
}

void Interpreter::assign(const Expr& target, const Value& v) {
  switch (target.kind) {
    case Expr::Name: store(target.name, v); return;
    case Expr::Tuple: case Expr::List: assign_unpack(target, v); return;
    case Expr::Starred: throw SyntaxError("starred assignment target must be in a list or tuple");
    case Expr::Attribute: setattr(eval(*target.a), target.name, v); return;
    case Expr::Subscript: {
      Value obj = eval(*target.a);
      std::vector<Value> idx;
      for (const ExprPtr& ix : target.items) idx.push_back(eval(*ix));
      setitem(obj, idx.size() == 1 ? idx[0] : Value::tuple(idx), v);
      return;
    }
    default: throw SyntaxError("cannot assign to this expression");
  }
}

// a, b = v; a, *rest = v; (a, b), c = v: Python's unpacking, with its messages.
void Interpreter::assign_unpack(const Expr& target, const Value& v) {
  if (!iterable(v)) throw TypeError("cannot unpack non-iterable " + type_name(v) + " object");
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

}  // namespace attn::py
