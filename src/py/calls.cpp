// py/calls.cpp: functions of lesson code: making one from a `def` or lambda (defaults, closure,
// module, qualified name), decorators, and calling one: binding the arguments to its parameters
// (positional, keyword, defaults, `*args`, keyword-only, `**kwargs`, positional-only) with
// CPython 3.11's TypeError messages, in its order of checks (ceval.c: initialize_locals).
// What it is not: the torch functions' binder (bind.cpp), which follows PyTorch's parser.
#include <fmt/format.h>

#include <algorithm>

#include "py/exceptions.h"
#include "py/function_attrs.h"
#include "py/interpreter.h"
#include "py/signature.h"   // quoted_names

namespace attn::py {

namespace {

constexpr size_t kMaxCallDepth = 200;   // deeper recursion: RecursionError (a C++ stack guard)

[[noreturn]] void type_error(const std::string& msg) { throw TypeError(msg); }

bool has_name(const std::vector<std::string>& names, const std::string& n, size_t from = 0) {
  return std::find(names.begin() + static_cast<std::ptrdiff_t>(std::min(from, names.size())), names.end(), n) != names.end();
}

}  // namespace

RunIn::RunIn(Interpreter& in, std::shared_ptr<Scope> scope, std::shared_ptr<NamespaceObj> module, std::string file)
    : in_(in), top_level_(!scope), globals_(in.globals_), file_(in.file_), line_(in.line_), prev_(in.run_) {
  in.run_ = this;
  if (top_level_) frames_.swap(in.frames_);
  else in.frames_.push_back(std::move(scope));
  if (module) {
    in.globals_ = std::move(module);
    in.file_ = std::move(file);
  }
}

RunIn::~RunIn() {
  if (top_level_) in_.frames_.swap(frames_);
  else in_.frames_.pop_back();
  in_.globals_ = globals_;
  in_.file_ = file_;
  in_.line_ = line_;
  in_.run_ = prev_;
}

void FunctionObj::gc_traverse(GcVisitor& visit) {
  for (const Value& v : defaults) visit(v);
  for (const auto& kv : kwdefaults) visit(kv.second);
  visit(closure);
}

// A function and a scope free what they hold through the trashcan (value.cpp): a closure holds its
// scope, which holds the next closure ..., so a chain of 120,000 closures must not free recursively.
FunctionObj::~FunctionObj() {
  std::vector<std::shared_ptr<Obj>> held;
  for (Value& v : defaults) held.push_back(std::move(v.obj));
  for (auto& kv : kwdefaults) held.push_back(std::move(kv.second.obj));
  held.push_back(std::move(closure));
  release_all_later(std::move(held));
}

Scope::~Scope() {
  std::vector<std::shared_ptr<Obj>> held;
  for (auto& kv : vars) held.push_back(std::move(kv.second.obj));
  held.push_back(std::move(parent));
  for (auto& f : defined) held.push_back(std::move(f));
  release_all_later(std::move(held));
}

void FunctionObj::gc_clear() {   // garbage: never called again
  std::vector<Value> gone;
  gone.swap(defaults);
  kwdefaults.clear();
  closure.reset();
}

void FunctionWithAttrs::gc_traverse(GcVisitor& visit) {
  FunctionObj::gc_traverse(visit);
  visit(attrs);
}

void Scope::gc_traverse(GcVisitor& visit) {
  for (const auto& kv : vars) visit(kv.second);
  visit(parent);
  for (const auto& f : defined) visit(f);
}

void Scope::gc_clear() {
  if (generator) return;
  std::map<std::string, Value> gone;
  gone.swap(vars);
  parent.reset();
  defined.clear();
}

Value Interpreter::make_function(const StmtPtr& ptr) {
  const Stmt& s = *ptr;
  auto f = std::make_shared<FunctionWithAttrs>();   // f.x = ... (function_attrs.h)
  f->def = ptr;
  for (const ExprPtr& d : s.defaults) f->defaults.push_back(eval(*d));
  for (size_t k = 0; k < s.kwonly.size(); ++k)
    if (s.kwonly_defaults[k]) f->kwdefaults[s.kwonly[k]] = eval(*s.kwonly_defaults[k]);
  f->qualname = qualify(s.name);
  f->module = globals_;
  f->file = file_;
  f->closure = closure_scope();
  if (f->closure) {
    // Forget the scopes that are gone already when the list is full, and make room for as many
    // again when most are alive: each pass is paid for by as many new entries (issue 20: a pass on
    // every call past 4096 made a chain of 80,000 live closures take 13 s).
    if (closures_.size() >= 4096 && closures_.size() == closures_.capacity()) {
      closures_.erase(std::remove_if(closures_.begin(), closures_.end(), [](const std::weak_ptr<Scope>& w) { return w.expired(); }), closures_.end());
      if (closures_.size() > closures_.capacity() / 2) closures_.reserve(2 * closures_.capacity());
    }
    if (closures_.empty() || closures_.back().lock() != f->closure) closures_.push_back(f->closure);
  }
  if (!frames_.empty() && frames_.back()->kind == Scope::class_body) frames_.back()->defined.push_back(f);
  Value v;
  v.kind = Value::Function;
  v.obj = f;
  return v;
}

// @a @b def f: f = a(b(f)); the decorator expressions are evaluated top to bottom first.
Value Interpreter::decorate(const Stmt& s, Value v) {
  std::vector<Value> decorators;
  for (const ExprPtr& d : s.decorators) decorators.push_back(eval(*d));
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    CallArgs a;
    a.pos.push_back(v);
    v = call(*it, a);
  }
  return v;
}

void Interpreter::bind_arguments(const FunctionObj& f, CallArgs& c, Scope& local) {
  const Stmt& d = *f.def;
  const std::string& name = f.qualname;
  auto& vars = local.vars;
  const size_t npos = d.params.size(), nargs = c.pos.size();
  for (size_t k = 0; k < std::min(nargs, npos); ++k) vars[d.params[k]] = c.pos[k];
  if (!d.vararg.empty())
    vars[d.vararg] = Value::tuple(nargs > npos ? std::vector<Value>(c.pos.begin() + static_cast<std::ptrdiff_t>(npos), c.pos.end()) : std::vector<Value>{});
  std::shared_ptr<DictObj> kwargs;
  if (!d.kwarg.empty()) {
    kwargs = std::make_shared<DictObj>();
    Value dict;
    dict.kind = Value::Dict;
    dict.obj = kwargs;
    vars[d.kwarg] = dict;
  }
  for (auto& [key, v] : c.kw) {
    if (!has_name(d.params, key, d.posonly) && !has_name(d.kwonly, key)) {
      if (kwargs) {
        kwargs->items.emplace_back(Value::str(key), v);
        continue;
      }
      std::vector<std::string> posonly;
      for (auto& kw : c.kw)
        if (has_name(std::vector<std::string>(d.params.begin(), d.params.begin() + static_cast<std::ptrdiff_t>(d.posonly)), kw.first))
          posonly.push_back(kw.first);
      if (!posonly.empty()) type_error(fmt::format("{}() got some positional-only arguments passed as keyword arguments: {}", name, quoted_names(posonly)));
      type_error(fmt::format("{}() got an unexpected keyword argument '{}'", name, key));
    }
    if (vars.count(key)) type_error(fmt::format("{}() got multiple values for argument '{}'", name, key));
    vars[key] = v;
  }
  if (nargs > npos && d.vararg.empty()) {
    size_t kwonly_given = 0;
    for (const std::string& k : d.kwonly) kwonly_given += vars.count(k);
    size_t ndef = f.defaults.size();
    std::string takes = ndef ? fmt::format("from {} to {}", npos - ndef, npos) : std::to_string(npos);
    std::string given = kwonly_given ? fmt::format("{} positional argument{} (and {} keyword-only argument{})", nargs, nargs != 1 ? "s" : "",
                                                   kwonly_given, kwonly_given != 1 ? "s" : "")
                                     : std::to_string(nargs);
    type_error(fmt::format("{}() takes {} positional argument{} but {} {} given", name, takes, ndef || npos != 1 ? "s" : "", given,
                           nargs == 1 && !kwonly_given ? "was" : "were"));
  }
  std::vector<std::string> missing;
  const size_t first_default = npos - f.defaults.size();
  for (size_t k = 0; k < npos; ++k) {
    if (vars.count(d.params[k])) continue;
    if (k >= first_default) vars[d.params[k]] = f.defaults[k - first_default];
    else missing.push_back(d.params[k]);
  }
  if (!missing.empty())
    type_error(fmt::format("{}() missing {} required positional argument{}: {}", name, missing.size(), missing.size() == 1 ? "" : "s", quoted_names(missing)));
  for (const std::string& k : d.kwonly) {
    if (vars.count(k)) continue;
    auto dflt = f.kwdefaults.find(k);
    if (dflt != f.kwdefaults.end()) vars[k] = dflt->second;
    else missing.push_back(k);
  }
  if (!missing.empty())
    type_error(fmt::format("{}() missing {} required keyword-only argument{}: {}", name, missing.size(), missing.size() == 1 ? "" : "s", quoted_names(missing)));
}

Value Interpreter::call_function(const FunctionObj& f, CallArgs& args) {
  if (read_only && (f.file.empty() || f.file[0] != '<'))   // the lesson's code, not attn's bundled Python
    throw ValueError("a placeholder cannot call the lesson's own code (" + f.qualname + "): it could change what the next cells see");
  auto local = std::make_shared<Scope>();
  local->def = f.def.get();
  local->fn = &f;   // alive while the call runs: the caller holds the function
  local->parent = f.closure;
  local->qualname = f.qualname;
  bind_arguments(f, args, *local);
  if (frames_.size() > kMaxCallDepth) throw RecursionError("maximum recursion depth exceeded");
  // A function whose session has ended (kept in a printed value, called by another Interpreter)
  // runs in the calling session's module.
  std::shared_ptr<NamespaceObj> module = f.module.lock();
  if (!module) module = globals_;
  if (f.def->generator) return make_generator(f, std::move(local), std::move(module));   // runs at its first next()
  RunIn run(*this, local, module, f.file);
  Value ret;
  exec(f.def->body, &ret);
  return ret;
}

}  // namespace attn::py
