// py/interpreter.h: runs lesson code cells (the Python subset of ast.h) against core tensors.
//
// What it is: a tree-walking interpreter with Python's scoping for the subset (a module's globals,
// one local scope per call, closures over enclosing functions, `global`/`nonlocal`, class bodies),
// the `torch` / `torch.nn` / `torch.nn.functional` names the articles use (torch_api.cpp,
// nn_modules.cpp), Python's builtins (builtins.cpp), exceptions (exceptions.h) and imports of
// .py files next to the lesson (modules.cpp). print() writes into an output buffer the lesson
// runner reads after each cell. One Interpreter = one Python session.
// The member functions live by topic: interpreter.cpp (statements, assignment, calls), eval.cpp
// (expressions), statements.cpp (while, try, with, raise, del), calls.cpp (def, lambda, argument
// binding), classes.cpp (attributes of classes and instances, super), modules.cpp (import).
// What it is not: a general Python. It is guarded (py/limits.h) against a cell that nests too
// deep, grows too large, takes more than limits::kMaxSteps steps or runs past its time limit;
// those stop the cell with a LimitError, which a lesson's code cannot catch.
#pragma once

#include <chrono>
#include <exception>
#include <map>
#include <sstream>
#include <string>

#include "core/autograd.h"
#include "core/random.h"
#include "py/limits.h"
#include "py/value.h"

namespace attn::py {

// The numeric state of one session (one lesson run), fixed when its Interpreter is made: the
// CPU kernel family whose rounding exp, softmax, rand and randn reproduce, the generator behind
// nn.Dropout's mask, torch's default generator (made with `cpu`) and the print options. Nothing numeric is
// process-wide: two Interpreters, or a re-run with other options, never see each other's.
struct RunState {
  RunState(core::CpuKernels cpu_, core::DropoutRng rng_) : cpu(cpu_), rng(rng_), generator(cpu_) {}
  const core::CpuKernels cpu;
  const core::DropoutRng rng;
  core::Generator generator;   // torch.manual_seed reseeds it; its family is `cpu`
  print::PrintOptions print_options;   // torch.set_printoptions: this session's, from the defaults
  // torch.is_grad_enabled(): false inside `with torch.no_grad():` (grad_mode.cpp). The autograd
  // code reads it: an op records its backward only while it is true.
  bool grad_enabled = true;
  // The creation numbers of this session's autograd nodes (installed while a cell runs).
  core::autograd::SequenceCounter sequence;
};

// The local names of one function call, class body or comprehension. A function's scope lives as
// long as a function defined in it (a closure) does; lookups go from a scope to `parent` (the
// scope the function was defined in), then to the module's globals and the builtins.
struct Scope {
  enum Kind { function, class_body, comprehension } kind = function;
  std::map<std::string, Value> vars;
  std::shared_ptr<Scope> parent;
  const Stmt* def = nullptr;            // function: its def (local names, global/nonlocal declarations)
  const FunctionObj* fn = nullptr;      // function: the function called (super())
  std::string qualname;                 // function/class: "f", "A", "f.<locals>.g"
  std::vector<std::shared_ptr<FunctionObj>> defined;   // class body: its functions (owned by the class)
};

class Interpreter {
 public:
  Interpreter(core::CpuKernels cpu, core::DropoutRng rng);

  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;
  Interpreter(Interpreter&&) = default;

  // Parse and run one cell; output of print() accumulates in output(). With `echo_last`, a cell
  // ending in an expression displays its value's repr, as a Jupyter cell does (unless None).
  // Lines (in errors and in functions the cell defines) count from `first_line`: the cell's
  // first line in its lesson file, so a function called from a later cell names its own line.
  void run_cell(const std::string& source, bool echo_last = false, int first_line = 1);
  std::string take_output();
  // Wall-clock seconds each later run_cell may take (limits::kDefaultTimeLimit unless set).
  void set_time_limit(double seconds) { time_limit_ = seconds; }
  // One step of the running cell (a statement, a loop or comprehension iteration): counts
  // against limits::kMaxSteps and, every so many steps, looks at the clock (LimitError).
  void tick() {
    if (++steps_ > limits::kMaxSteps || (steps_ & 1023) == 0) check_budget();
  }

  // The folder `import helper` / `from helper import f` reads helper.py from (the lesson file's);
  // "" (the default) is the current directory.
  void set_import_dir(std::string dir) { import_dir_ = std::move(dir); }

  // ---- used by the built-in functions ----
  RunState state;                                  // the kernel family, dropout generator, RNG
  std::ostringstream out;

  // Every value print() (or a Jupyter echo) showed since the last take_printed(), with the
  // source text it was printed from. Labels ("keys.shape:") are plain strings and not kept.
  std::vector<PrintedValue> printed;
  void record_printed(const std::string& name, const Value& v);

  Value call(const Value& fn, CallArgs& args);
  Value getattr(const Value& obj, const std::string& name);
  void setattr(const Value& obj, const std::string& name, Value v);
  Value binop(const std::string& op, const Value& a, const Value& b);
  std::vector<Value> iterate(const Value& v);      // list(), tuple(), sorted(), zip(), ...
  // `for` loops and comprehensions: body(item) for each item while it returns true; a range is
  // walked item by item, never made into a list.
  template <class Body>
  void for_each(const Value& v, Body body) {
    if (v.kind == Value::Range) {
      const auto& r = *static_cast<const RangeObj*>(v.obj.get());
      for (unsigned __int128 k = 0, n = r.length(); k < n; ++k)
        if (!body(Value::integer(r.at(k)))) return;
      return;
    }
    for (const Value& item : iterate(v))
      if (!body(item)) return;
  }
  Value lookup(const std::string& name);
  // str() and repr() as print(), f-strings, str(), repr() and format() show a value: a user
  // class's own __str__ / __repr__ for an instance, else py::str / py::repr.
  std::string str_of(const Value& v);
  std::string repr_of(const Value& v);
  // The method super() is called from: the class that defined it and its first argument.
  bool current_method(std::shared_ptr<ClassObj>& owner, Value& self) const;

 private:
  std::shared_ptr<NamespaceObj> main_;             // __main__: the lesson's globals
  std::shared_ptr<NamespaceObj> globals_;          // the running code's module (main_ or an imported file)
  std::vector<std::shared_ptr<Scope>> frames_;     // innermost last; empty = module level
  std::map<std::string, Value> builtins_;
  std::map<std::string, Value> modules_;           // imported files by path: each runs once
  std::string import_dir_;
  std::string file_;                               // "" while lesson code runs, else the module's path
  std::vector<std::weak_ptr<Scope>> closures_;     // scopes functions captured: cycles cut at destruction
  std::vector<std::exception_ptr> handling_;       // exceptions being handled: a bare `raise` re-raises
  int64_t steps_ = 0;                              // in the running cell
  double time_limit_ = limits::kDefaultTimeLimit;
  std::chrono::steady_clock::time_point deadline_;
  void check_budget() const;

  friend struct RunIn;                             // switches module/scope/file for a call (calls.cpp)

  void store(const std::string& name, Value v);    // name = v in the current scope, per global/nonlocal
  void erase(const std::string& name);             // del name
  std::shared_ptr<Scope> closure_scope() const;    // the scope a function defined now closes over
  std::string qualify(const std::string& name) const;   // qualname of a def/class defined now
  void assign(const Expr& target, const Value& v);
  void assign_unpack(const Expr& target, const Value& v);
  enum class Flow { next, returned, broke, continued };
  Flow exec(const Block& block, Value* ret);
  Flow exec_stmt(const StmtPtr& s, Value* ret);   // a shared pointer: a `def` keeps its statement
  Flow exec_more(const StmtPtr& s, Value* ret);   // statements.cpp: while, try, with, raise, del, ...
  Flow exec_try(const Stmt& s, Value* ret);
  Flow exec_handler(const Stmt& s, const Handler& h, std::exception_ptr caught, const Value& exc, Value* ret);
  Flow exec_with(const Stmt& s, size_t item, Value* ret);
  Flow exec_loop_body(const Block& body, Value* ret, bool& broke);
  void exec_raise(const Stmt& s);
  void exec_del(const Expr& target);
  void exec_import(const Stmt& s);
  Value import_module(const std::string& name);    // modules.cpp: a built-in module or NAME.py
  Value import_file(const std::string& name, const std::string& path);
  Value import_source(const std::string& name, const std::string& path, const std::string& text);
  void exec_class(const StmtPtr& s);
  Value make_function(const StmtPtr& def);         // calls.cpp: a `def` or lambda as a value
  Value decorate(const Stmt& s, Value v);
  void bind_arguments(const FunctionObj& f, CallArgs& args, Scope& local);
  Value getattr_instance(const Value& obj, const std::string& name);   // classes.cpp
  Value getattr_class(const Value& cls, const std::string& name);
  Value eval(const Expr& e);
  Value eval_call(const Expr& e);
  Value eval_subscript(const Expr& e);
  Value eval_compare(const Expr& e);
  Value eval_fstring(const Expr& e);
  Value eval_comprehension(const Expr& e);
  void comprehend(const Expr& e, size_t level, std::vector<Value>& list, Value* dict);
  Value call_function(const FunctionObj& f, CallArgs& args);
  Value instantiate(const std::shared_ptr<ClassObj>& cls, CallArgs& args);
  std::vector<Value> eval_items(const std::vector<ExprPtr>& items);   // a display's items, *a spliced
};

// Runs code in `scope`, pushed on the scope stack (null: at module level, with no scope), and,
// when `module` is given, with that module's globals and file; restores what ran before when it
// goes out of scope, also when the code raises. (A call switches to its function's module.)
struct RunIn {
  RunIn(Interpreter& in, std::shared_ptr<Scope> scope, std::shared_ptr<NamespaceObj> module = nullptr, std::string file = "");
  ~RunIn();
  RunIn(const RunIn&) = delete;
  RunIn& operator=(const RunIn&) = delete;

 private:
  Interpreter& in_;
  bool top_level_;
  std::vector<std::shared_ptr<Scope>> frames_;     // the caller's scopes, while at module level
  std::shared_ptr<NamespaceObj> globals_;
  std::string file_;
};

// Re-throw the exception being handled as a ScriptError at `line` (of `file`, "" for lesson
// code), unless it is one already: a core::TensorError becomes "RuntimeError: ...".
[[noreturn]] void rethrow_at(int line, const std::string& file);

// Helpers for Python builtins: fetch argument `k` (or keyword `name`), with Python-like errors.
// torch functions, Tensor methods and nn modules bind to a signature instead (signature.h).
const Value* find_arg(CallArgs& a, size_t k, const char* name);
Value arg(CallArgs& a, size_t k, const char* name);
Value arg_or(CallArgs& a, size_t k, const char* name, Value fallback);
Value keyword_arg(CallArgs& a, const std::string& name);   // str.format(name=...): KeyError if absent
int64_t to_int(const Value& v, const char* what);
double to_double(const Value& v, const char* what);
std::string format_spec(const Value& v, const std::string& spec);   // format(v, spec)

// Registration of the built-in namespaces (defined in builtins.cpp, torch_api.cpp, nn_modules.cpp).
void add_python_builtins(std::map<std::string, Value>& builtins);
void add_class_builtins(std::map<std::string, Value>& builtins);   // classes.cpp: super, property, isinstance, ...
// builtins_more.cpp: any, all, map, filter, reversed, iter, next, bool, hash, chr, ord; the
// methods of list/dict/tuple/str beyond builtins.cpp's; iterators (map, filter, iter(...)).
void add_more_builtins(std::map<std::string, Value>& builtins);
Value more_seq_method(const Value& obj, const std::string& name);   // list/dict/tuple methods
Value more_str_method(const Value& self, const std::string& name);
bool is_iterator(const Value& v);                 // what map/filter/reversed/iter return
std::vector<Value> drain_iterator(const Value& it);   // the items still to come; uses them up
bool is_unsupported_builtin(const std::string& name);   // a Python builtin attn lacks (open, eval, ...)
std::vector<int64_t> slice_positions(const SliceObj& s, size_t n);   // builtins.cpp: xs[a:b:c]'s positions
std::string percent_format(Interpreter& in, const std::string& text, const Value& values);   // 'x=%.2f' % x
// Class helpers (classes.cpp): the method resolution order (C3) and subclass tests.
std::vector<std::shared_ptr<ClassObj>> mro(const std::shared_ptr<ClassObj>& cls);
bool is_subclass(const std::shared_ptr<ClassObj>& cls, const ClassObj* base);
Value bound_method(const Value& self, const Value& fn, const std::string& name);
Value make_torch_namespace();
// Under torch.no_grad(): a tensor result (or a list/tuple of them) that an op recorded in the
// graph, as a detached tensor (requires_grad=False, no grad_fn), as PyTorch's ops return it.
// Leaves and in-place results keep theirs (ops_autograd.cpp).
Value without_grad(const Value& v);
// `x += y` & co. on a tensor x (and x.add_(y), ...): written in place, x returned (ops_autograd.cpp).
// base_follows: the target was x[idx], which assignment then writes back through x (CopySlices).
Value tensor_inplace(Interpreter& in, core::BinOp op, const Value& self, const Value& other, bool base_follows = false);
// An in-place write into part of a tensor (a slice, a row) while gradients flow through it:
// NotImplementedError naming the way around, rather than a gradient that misses the write.
void refuse_view_write(Interpreter& in, const core::Tensor& t, bool src_requires_grad);
// tensor.grad_fn: None for a leaf, else the node as a Python object (grad_fn.cpp).
Value grad_fn_value(const core::Tensor& t);
void add_grad_mode(NamespaceObj& torch);
void add_optim(NamespaceObj& torch);       // optim.cpp: torch.optim.SGD   // grad_mode.cpp: no_grad, enable_grad, set_grad_enabled, is_grad_enabled
Value tensor_attribute(Interpreter& in, const Value& self, const std::string& name);
// `x.grad = ...` and `x.requires_grad = ...` (tensor_methods.cpp); other names raise.
void set_tensor_attribute(const Value& self, const std::string& name, const Value& v);
Value str_attribute(const Value& self, const std::string& name);
Value instance_attribute(Interpreter& in, const Value& self, const std::string& name);
void add_nn_modules(NamespaceObj& nn);
void add_torch_environment(NamespaceObj& torch);   // torch_env.cpp: device, cuda, backends, set_printoptions, pi
Value torch_tensor_class();   // classes.cpp: torch.Tensor, what type() of a tensor is
Value cpu_device();   // torch_env.cpp: torch.device('cpu'), what Tensor.device is in attn
bool is_device(const Value& v);                    // a torch.device
bool is_cpu_device(const Value& v);                // "cpu", "cpu:0" or torch.device('cpu')
Value builtin(const std::string& name, NativeFn fn);

}  // namespace attn::py
