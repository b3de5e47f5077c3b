// py/interpreter.h: a Python session that runs lesson code cells (the Python subset of ast.h).
//
// What it is: a tree-walking interpreter with Python's scoping for the subset (a module's globals,
// one local scope per call, closures over enclosing functions, `global`/`nonlocal`, class bodies),
// Python's builtins (builtins.cpp), exceptions (exceptions.h), the object protocol through which
// user classes' dunder methods and native classes' hooks run (protocol.cpp), and imports: of
// built-in modules (math, typing, ...; a host library adds its own with add_module) and of .py
// files next to the lesson (modules.cpp). print() writes into an output buffer the caller reads
// after each cell. One Interpreter = one Python session: its limits, its import folder, its output.
// The member functions live by topic: interpreter.cpp (statements, assignment), eval.cpp
// (expressions), statements.cpp (while, try, with, raise, del), calls.cpp (def, lambda, argument
// binding), classes.cpp (attributes of classes and instances, super), protocol.cpp (operators,
// items, len, iteration, repr through dunders and hooks), modules.cpp (import).
// What it is not: a general Python, or a numeric library: it knows nothing of arrays. A host
// library (src/torch) registers its classes (value.h's Slots), modules (add_module), session
// state (extension<T>()), and the errors of its own code (add_error_translator). The interpreter
// is guarded (py/limits.h) against a cell that nests too deep, grows too large, takes more than
// limits::kMaxSteps steps or runs past its time limit; those stop the cell with a LimitError,
// which a lesson's code cannot catch.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <typeindex>
#include <unordered_map>

#include "py/gc.h"
#include "py/limits.h"
#include "py/value.h"

namespace attn::py {

// A plain dict's live iterator over its keys (0), values (1) or items (2), as CPython's (builtins_more.cpp).
Value dict_live_iterator(const std::string& name, const Value& dict, int what);
Value set_live_iterator(const Value& set);   // a set's live iterator, as CPython's (builtins_more.cpp)
struct GenFrame;   // a generator's execution (generator.cpp)

// The local names of one function call, class body or comprehension. A function's scope lives as
// long as a function defined in it (a closure) does; lookups go from a scope to `parent` (the
// scope the function was defined in), then to the module's globals and the builtins.
// A scope is Tracked (the cycle collector's): a function stored in the scope it closes over
// (a recursive inner function) is a cycle.
struct Scope : Tracked {
  enum Kind { function, class_body, comprehension } kind = function;
  std::map<std::string, Value> vars;
  std::shared_ptr<Scope> parent;
  const Stmt* def = nullptr;            // function: its def (local names, global/nonlocal declarations); class body: its class statement
  const FunctionObj* fn = nullptr;      // function: the function called (super())
  std::string qualname;                 // function/class: "f", "A", "f.<locals>.g"
  std::vector<std::shared_ptr<FunctionObj>> defined;   // class body: its functions (owned by the class)
  std::vector<std::string> order;       // class body: each name when it was stored while unbound (the class's __dict__ order)
  // A generator's locals: never cleared by the collector (its suspended stack may be using them);
  // a cycle through them breaks where the generator object is cleared (GeneratorObj::gc_clear).
  bool generator = false;
  ~Scope() override;                             // through the trashcan (calls.cpp)
  void gc_traverse(GcVisitor& visit) override;   // calls.cpp
  void gc_clear() override;
};

// State a host library keeps per session (torch's generator, print options, ...): one object of
// each type, made by the library when it is added to the session, freed with it.
struct Extension {
  virtual ~Extension() = default;
};

class Interpreter {
 public:
  Interpreter();
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // The interpreter running code on this thread (inside run_cell or a call made through a
  // CurrentScope), or null: what hash(), == and repr() of a value use to reach __hash__, __eq__
  // and __repr__ when they are called without one.
  static Interpreter* current();

  // Parse and run one cell; output of print() accumulates in output(). With `echo_last`, a cell
  // ending in an expression displays its value's repr, as a Jupyter cell does (unless None, or
  // the cell ends with `;`).
  // Lines (in errors and in functions the cell defines) count from `first_line`: the cell's
  // first line in its lesson file, so a function called from a later cell names its own line.
  void run_cell(const std::string& source, bool echo_last = false, int first_line = 1);
  std::string take_output();
  // Wall-clock seconds each later run_cell may take (limits::kDefaultTimeLimit unless set).
  void set_time_limit(double seconds) { time_limit_ = seconds; }
  double time_limit() const { return time_limit_; }
  // One step of the running cell (a statement, a loop or comprehension iteration): counts
  // against limits::kMaxSteps and, every so many steps, looks at the clock (LimitError).
  // The running (or last) cell's steps of the learner's code: what counts against kMaxSteps.
  int64_t steps_taken() const { return steps_; }
  int64_t own_steps_taken() const { return own_steps_; }   // attn's bundled Python's, in the last cell
  // The step and time budgets alone, for a builtin whose one call can run long (pow(a, b, m)).
  void check_limits() const { check_budget(); }
  // Steps of attn's own Python (the stdlib and torch modules it bundles, file "<...>": a lazy
  // itertools.product's odometer, nn.Module.__call__) are not the learner's: they do not count
  // against the limit, but the clock is looked at as often.
  void tick() {
    if (!file_.empty() && file_[0] == '<') {
      if ((++own_steps_ & 1023) == 0) check_budget();
    } else if (++steps_ > limits::kMaxSteps || (steps_ & 1023) == 0) {
      check_budget();
    }
    if (gc_.due()) gc_.collect();
  }
  // The session's cycle collector (py/gc.h): `gc.collect()`, and what tick() runs when due.
  GcHeap& gc() { return gc_; }
  // gc.collect() and the end of a cell: a collection, then the suspended generators it found in
  // the garbage closed (their `finally` runs) and another collection for what they held.
  size_t collect_cycles();

  // Where the running code is, for warnings: the frame `level` calls up from it (0: the running
  // code itself; comprehensions, class bodies and generators are frames, as in CPython 3.11): its
  // file (the main file's name for lesson code), line and module __name__; nullopt past the
  // outermost frame. source_line(file, line) is that line's text and newline, as linecache's
  // getline ("" if unknown): the lesson's cells as they ran, or an imported .py file's.
  struct Location {
    std::string file;
    int line = 0;
    std::string module;
  };
  std::optional<Location> location(int level) const;
  std::string source_line(const std::string& file, int line) const;
  // The name lesson code's warnings give its file (the lesson's path; "<string>" by default).
  void set_main_file(std::string name) { main_file_ = std::move(name); }
  // What the limits' messages call the code run ("the cell"; an exercise file: "your code").
  void set_code_name(std::string what) { code_name_ = std::move(what); }
  const std::string& code_name() const { return code_name_; }

  // The folder `import helper` / `from helper import f` reads helper.py from (the lesson file's);
  // "" (the default) is the current directory.
  void set_import_dir(std::string dir) { import_dir_ = std::move(dir); }

  // ---- what a host library plugs in ----
  // `import NAME` (and `import NAME as x`, `from NAME import y`) of a built-in module: made by
  // `make` the first time a session imports it, then the same module. A dotted NAME is a
  // submodule: `import torch.nn` makes "torch" first.
  using ModuleMaker = std::function<Value(Interpreter&)>;
  void add_module(const std::string& name, ModuleMaker make);
  bool has_module(const std::string& name) const;   // a built-in module of that name exists
  std::vector<std::string> module_names() const;     // every built-in module's name, sorted (packages.cpp)
  // sys.modules[name] = module: a maker that runs Python which imports it (or its submodules)
  // puts them here first, as a package's __init__ does.
  void set_module(const std::string& name, Value module) { modules_["<builtin>:" + name] = std::move(module); }
  Value import(const std::string& name);             // `import name`, from native code
  // `import name` on lesson code's behalf (pickle's find_class): attn's internal modules are
  // CPython's ModuleNotFoundError whichever module asks.
  Value import_for_lesson(const std::string& name);
  const std::shared_ptr<NamespaceObj>& main_module() const { return main_; }   // __main__: the lesson's globals
  Value literal_eval(const std::string& text);       // ast.literal_eval (modules.cpp)
  std::string standard_modules() const;              // "bisect, collections, ...": the standard library it has
  // A module written in Python, run the first time it is imported (`label` names it in errors).
  // `source` is text of static storage (the files embedded in the binary): kept as a view, copied
  // only when the module is imported.
  void add_source_module(const std::string& name, std::string label, std::string_view source);
  // Called inside a catch block for an error that is not a Python exception (a C++ exception of
  // the library's own): rethrow it as a PyError (exceptions.h) or LimitError if it is the
  // library's, return if not. Runs at the statement the error passed, most recent first.
  void add_error_translator(std::function<void()> translate) { translators_.push_back(std::move(translate)); }
  // The session's state for library T, made on first use: `T& state = in.extension<TorchState>();`
  template <class T>
  T& extension() {
    auto& slot = extensions_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_unique<T>();
    return static_cast<T&>(*slot);
  }
  void set_extension(std::type_index type, std::unique_ptr<Extension> e) { extensions_[type] = std::move(e); }
  // Each value print() (or a Jupyter echo) shows, with the source text it was printed from
  // ("attn_weights", "sa(x)"; "" when unknown) and the text printed for it. Labels are not
  // reported: print("keys.shape:", ...) reports only the second argument, a str is never reported.
  std::function<void(const std::string& name, const Value& v, const std::string& text)> on_print;
  void record_printed(const std::string& name, const Value& v, const std::string& text);

  // ---- the object protocol (protocol.cpp): Python's semantics through dunders and hooks ----
  Value call(const Value& fn, CallArgs& args);
  Value getattr(const Value& obj, const std::string& name);
  void setattr(const Value& obj, const std::string& name, Value v);
  void delattr(const Value& obj, const std::string& name);
  Value generic_getattr(const Value& obj, const std::string& name);    // object.__getattribute__ of an instance
  std::optional<Value> find_attribute(const Value& obj, const std::string& name);   // ... nullopt for AttributeError
  void generic_setattr(const Value& obj, const std::string& name, Value v);   // object.__setattr__
  Value getitem(const Value& obj, const Value& key);
  void setitem(const Value& obj, const Value& key, const Value& v);
  void delitem(const Value& obj, const Value& key);
  void setitem_builtin(const Value& obj, const Value& key, const Value& v);   // what dict/list.__setitem__ do
  void delitem_builtin(const Value& obj, const Value& key);
  // An instance of cls, a class written in Python deriving from the built-in container `base`
  // (list, tuple, dict, set): base.__new__(cls, *args), as `super().__new__(cls, ...)` calls it.
  Value new_builtin_subclass(const ClassObj& base, const ClassPtr& cls, CallArgs& args);
  // An attribute of the built-in container `base` for self, whatever self's class overrides:
  // `super().__setitem__` and `dict.__setitem__(self, ...)` reaching dict's own.
  Value builtin_base_attr(const Value& self, const ClassObj& base, const std::string& name);
  Value binop(const std::string& op, const Value& a, const Value& b);          // a + b, a @ b, ...
  Value inplace_op(const std::string& op, const Value& a, const Value& b);     // a += b: __iadd__, else +
  Value unary(const std::string& op, const Value& v);                          // -v, +v, ~v, abs(v)
  Value compare(const std::string& op, const Value& a, const Value& b);        // ==, !=, <, <=, >, >=
  bool contains(const Value& container, const Value& item);                    // item in container
  bool truth(const Value& v);                                                  // bool(v): __bool__, __len__
  int64_t len(const Value& v);
  int64_t hash(const Value& v);
  std::optional<int64_t> index(const Value& v);                                // operator.index: __index__
  std::string str_of(const Value& v);                                          // str(v)
  std::string repr_of(const Value& v);                                         // repr(v)
  std::string format(const Value& v, const std::string& spec);                 // format(v, spec)
  std::vector<Value> iterate(const Value& v);      // list(), tuple(), sorted(), zip(), ...
  bool iterable(const Value& v);
  // iter(v), and one step of an iterator (a generator, a built-in iterator, an object with
  // __next__): its next item, nullopt once it is used up (StopIteration). generator.cpp.
  Value iter(const Value& v);
  std::optional<Value> next(const Value& it);
  // `for` loops and comprehensions: body(item) for each item while it returns true; a range is
  // walked item by item, never made into a list, and an iterator (a generator) is stepped lazily.
  template <class Body>
  void for_each(const Value& v, Body body) {
    if (v.kind == Value::Range) {
      const auto& r = *static_cast<const RangeObj*>(v.obj.get());
      for (unsigned __int128 k = 0, n = r.length(); k < n; ++k) {
        if ((k & 0xffff) == 0xffff) check_budget();   // sum(range(10**13)): the clock, every 65,536 items
        if (!body(Value::integer(r.at(k)))) return;
      }
      return;
    }
    if (v.kind == Value::Instance) {
      const Value it = iter(v);
      while (std::optional<Value> item = next(it))
        if (!body(*item)) return;
      return;
    }
    if (v.kind == Value::List && !static_cast<const SeqObj*>(v.obj.get())->cls) {
      // By index, the size re-read each step, as CPython's list iterator: the body may change the list.
      const std::vector<Value>& items = static_cast<const SeqObj*>(v.obj.get())->items;
      for (size_t k = 0; k < items.size(); ++k) {
        const Value item = items[k];
        if (!body(item)) return;
      }
      return;
    }
    if (v.kind == Value::Dict && !static_cast<const DictObj*>(v.obj.get())->cls && !static_cast<const DictObj*>(v.obj.get())->ordered) {
      const Value it = dict_live_iterator("dict_keyiterator", v, 0);   // CPython's walk over its table
      while (std::optional<Value> item = next(it))
        if (!body(*item)) return;
      return;
    }
    if (v.kind == Value::Set && !static_cast<const SetObj*>(v.obj.get())->cls) {
      const Value it = set_live_iterator(v);   // CPython's walk over its table
      while (std::optional<Value> item = next(it))
        if (!body(*item)) return;
      return;
    }
    if (v.kind == Value::List || v.kind == Value::Dict || v.kind == Value::Set || v.kind == Value::Str) {   // a subclass, an OrderedDict: its iterator; a str's, one code point a step
      const Value it = iter(v);
      while (std::optional<Value> item = next(it))
        if (!body(*item)) return;
      return;
    }
    for (const Value& item : iterate(v))
      if (!body(item)) return;
  }
  static size_t container_size(const Value& v);                      // a dict's or set's len (protocol.cpp)
  [[noreturn]] static void changed_size_during_iteration(const Value& v);   // RuntimeError
  Value lookup(const std::string& name);
  // True while `x[k] op= v` runs its in-place step: Python then stores the result back with
  // x[k] = result, so a native in-place hook may leave the write-back (and what it records) to that.
  bool augmenting_item() const { return augmenting_item_ > 0; }
  // The method super() is called from: the class that defined it and its first argument.
  bool current_method(std::shared_ptr<ClassObj>& owner, Value& self) const;
  // Set while a lesson's prose placeholder is evaluated: it must leave the session as it found it,
  // so the lesson's own functions and dunders are not called (only attn's bundled Python), a name,
  // attribute or item that is an iterator is not read (taking its items would use them up), and
  // a __missing__ that would insert a key (defaultdict) is refused. Each raises ValueError.
  bool read_only = false;
  void check_read_only_value(const Value& v) const;   // eval.cpp

  std::ostringstream out;
  // Where sys.stderr.write and warnings go (made safe by module_stdlib.cpp's stderr_text): std::cerr,
  // or a sink while a grader runs a learner's file (the grader's report is all it prints).
  std::ostream* err = nullptr;   // nullptr: std::cerr

 private:
  GcHeap gc_;                                      // first: freed last, after all that held its objects
  std::shared_ptr<NamespaceObj> main_;             // __main__: the lesson's globals
  std::shared_ptr<NamespaceObj> globals_;          // the running code's module (main_ or an imported file)
  std::vector<std::shared_ptr<Scope>> frames_;     // innermost last; empty = module level
  std::map<std::string, Value> builtins_;
  std::map<std::string, Value> modules_;           // imported modules by path ("<builtin>:name" for built-in ones): each runs once
  std::map<std::string, ModuleMaker> makers_;      // built-in modules not imported yet
  std::vector<std::function<void()>> translators_;
  std::unordered_map<std::type_index, std::unique_ptr<Extension>> extensions_;
  std::string import_dir_;
  std::string file_;                               // "" while lesson code runs, else the module's path
  int line_ = 0;                                   // the running statement's line (location())
  struct RunIn* run_ = nullptr;                    // the innermost call's RunIn: the callers' files and lines
  std::string main_file_ = "<string>";
  std::string code_name_ = "the cell";
  std::vector<std::pair<int, std::string>> cells_;   // each cell run: its first line and its source
  std::map<std::string, std::string> sources_;     // imported .py files' text by path (source_line)
  std::vector<std::weak_ptr<Scope>> closures_;     // scopes functions captured: cycles cut at destruction
  std::vector<std::exception_ptr> handling_;       // exceptions being handled: a bare `raise` re-raises
  int64_t steps_ = 0;                              // in the running cell: the learner's code's
  int64_t own_steps_ = 0;                          // in the running cell: attn's bundled modules' (tick)
  int augmenting_item_ = 0;                        // augmenting_item()
  // Generators (generator.cpp): the one whose code runs now (what `yield` suspends), those
  // started and not finished (unwound when the session ends), and those dropped while
  // suspended, which are closed (their `finally` runs) when the running statement ends.
  struct GenFrame* gen_ = nullptr;
  std::vector<struct GenFrame*> live_gens_;
  // A dropped generator's frame; `owner` set: a generator in garbage the collector found, kept
  // whole (frame attached) and alive while it is closed, as CPython finalises before clearing.
  struct DroppedGen {
    struct GenFrame* frame;
    std::shared_ptr<Tracked> owner;
  };
  std::vector<DroppedGen> dropped_gens_;
  bool finalizing_ = false;                        // close_dropped is closing one the collector found
  double time_limit_ = limits::kDefaultTimeLimit;
  std::chrono::steady_clock::time_point deadline_;
  void check_budget() const;

  friend struct RunIn;                             // switches module/scope/file for a call (calls.cpp)
  friend struct GenFrame;                          // generator.cpp
  friend struct GeneratorObj;
  friend class GenAccess;

  // Attaches the line (and the imported file, if that is what runs) to the error being handled,
  // as a PyError or LimitError (a host library's errors through its translators).
  [[noreturn]] void rethrow_at(int line, const std::string& file);
  void store(const std::string& name, Value v);    // name = v in the current scope, per global/nonlocal
  void erase(const std::string& name);             // del name
  void store_named(const std::string& name, const Value& v);   // name := v: past comprehension scopes
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
  // match.cpp: a match statement; a pattern against a value, its captures added to `binds`
  Flow exec_match(const Stmt& s, Value* ret);
  bool match_pattern(const Pattern& p, const Value& v, std::vector<std::pair<std::string, Value>>& binds);
  bool match_sequence(const Pattern& p, const Value& v, std::vector<std::pair<std::string, Value>>& binds);
  bool match_mapping(const Pattern& p, const Value& v, std::vector<std::pair<std::string, Value>>& binds);
  bool match_class(const Pattern& p, const Value& v, std::vector<std::pair<std::string, Value>>& binds);
  Flow exec_loop_body(const Block& body, Value* ret, bool& broke);
  void exec_raise(const Stmt& s);
  void exec_del(const Expr& target);
  void exec_import(const Stmt& s);
  void check_importable(const std::string& name) const;   // an internal module of attn's: ModuleNotFoundError
  Value import_module(const std::string& name);    // modules.cpp: a built-in module or NAME.py
  Value import_file(const std::string& name, const std::string& path, const std::string& package_dir = "");
  // `cache_parse`: the text is a fixed built-in module: parse it once per process, not per session.
  // `package_dir`: the text is that package folder's __init__.py.
  Value import_source(const std::string& name, const std::string& path, const std::string& text, bool cache_parse = false,
                      const std::string& package_dir = "");
  std::optional<Value> import_from_folder(const std::string& name);   // packages.cpp: NAME.py, NAME/, a.b in a package
  Value namespace_package(const std::string& name, const std::string& dir);
  void check_in_folder(const std::string& path) const;             // refused if its real path leads out of the folder
  std::string read_in_folder(const std::string& path) const;       // a module file's text, opened once and checked on it
  std::string resolve_relative(const std::string& spec) const;        // `from ..a import b`: the absolute "x.a"
  void exec_class(const StmtPtr& s);
  Value make_function(const StmtPtr& def);         // calls.cpp: a `def` or lambda as a value
  Value decorate(const Stmt& s, Value v);
  void bind_arguments(const FunctionObj& f, CallArgs& args, Scope& local);
  Value getattr_instance(const Value& obj, const std::string& name);   // classes.cpp
  Value getattr_class(const Value& cls, const std::string& name);
  Value eval(const Expr& e);
  Value eval_call(const Expr& e);
  std::optional<Value> type_union(const Value& a, const Value& b);   // int | None (protocol.cpp)
  CallArgs eval_args(const std::vector<Arg>& given, const std::function<std::string()>& callee);
  Value eval_subscript(const Expr& e);
  Value eval_compare(const Expr& e);
  Value eval_fstring(const Expr& e);
  Value eval_comprehension(const Expr& e);
  // `first`: the outermost iterable, evaluated in the scope around the comprehension (level 0).
  void comprehend(const Expr& e, size_t level, std::vector<Value>& list, Value* dict, const Value* first = nullptr);
  Value call_function(const FunctionObj& f, CallArgs& args);
  // generator.cpp: a generator function's call, a generator expression, yield, and the switch
  // into and out of a generator's own stack.
  Value make_generator(const FunctionObj& f, std::shared_ptr<Scope> local, std::shared_ptr<NamespaceObj> module);
  Value make_genexp(const Expr& e);
  void genexp_loop(const Expr& e, size_t level, const Value& it);
  Value yield_value(Value v);
  Value yield_from(Value delegate);
  void resume(GenFrame& g);
  void close_dropped();
  void end_generators();
  Flow exec_handlers(const Stmt& s, std::exception_ptr caught, Value* ret);
  Value instantiate(const std::shared_ptr<ClassObj>& cls, CallArgs& args);
  std::vector<Value> eval_items(const std::vector<ExprPtr>& items);   // a display's items, *a spliced
  Value call_dunder(const Value& fn, const Value& self, std::vector<Value> args);
  friend void add_class_builtins(Interpreter& in, std::map<std::string, Value>& builtins);
};

// Makes `in` the current interpreter of this thread while it lives (Interpreter::current()).
class CurrentScope {
 public:
  explicit CurrentScope(Interpreter& in);
  ~CurrentScope();
  CurrentScope(const CurrentScope&) = delete;
  CurrentScope& operator=(const CurrentScope&) = delete;

 private:
  Interpreter* saved_;
  GcHeap* saved_heap_;
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
  friend class Interpreter;                        // location() walks the callers
  Interpreter& in_;
  bool top_level_;
  std::vector<std::shared_ptr<Scope>> frames_;     // the caller's scopes, while at module level
  std::shared_ptr<NamespaceObj> globals_;
  std::string file_;
  int line_;                                       // the caller's line
  RunIn* prev_;                                    // the caller's own RunIn
};

// ---- the small public API native code is written against ----
// builtin_dunders.cpp: a built-in value's own dunders by name ((3).__add__, [].__len__), as CPython's
// slot wrappers. dunder_type: "int", "frozenset", ... or "" for a value it does not serve.
std::string dunder_type(const Value& v);
bool own_dunder(const std::string& type, const std::string& name);        // CPython's vars(type) has it
bool type_has_dunder(const std::string& type, const std::string& name);   // ... or its built-in base's (bool: int)
bool dunder_backed(const std::string& type, const std::string& name);     // ... and attn answers it
std::optional<Value> builtin_dunder(Interpreter& in, const Value& self, const std::string& name);
Value builtin(const std::string& name, NativeFn fn);          // a built-in function
Value method(const std::string& name, NativeFn fn);           // ... called with the instance first (in a class's methods)
Value module_value(const std::string& name, std::shared_ptr<NamespaceObj> ns);   // a module of these names
NamespaceObj& names_of(const Value& module);
// Helpers for Python builtins: fetch argument `k` (or keyword `name`), with Python-like errors.
// Functions with a def-style signature bind through signature.h instead.
const Value* find_arg(CallArgs& a, size_t k, const char* name);
Value arg(CallArgs& a, size_t k, const char* name);
Value arg_or(CallArgs& a, size_t k, const char* name, Value fallback);
Value keyword_arg(CallArgs& a, const std::string& name);   // str.format(name=...): KeyError if absent
int64_t to_int(const Value& v, const char* what);           // an int, bool, or an object with __index__
double to_double(const Value& v, const char* what);         // an int, float, bool or an object with __float__
std::string format_spec(const Value& v, const std::string& spec);   // format(v, spec) of a number or str
std::string str_format(Interpreter& in, const std::string& s, CallArgs& args);   // s.format(*args, **kwargs) (str_format.cpp)

// Registration of the builtins (builtins.cpp, builtins_more.cpp, classes.cpp, exceptions.cpp).
void add_python_builtins(std::map<std::string, Value>& builtins);
void add_class_builtins(Interpreter& in, std::map<std::string, Value>& builtins);   // super, property, isinstance, ...
// builtins_more.cpp: any, all, map, filter, reversed, iter, next, bool, hash, chr, ord; the
// methods of list/dict/tuple/str beyond builtins.cpp's; iterators (map, filter, iter(...)).
void add_more_builtins(std::map<std::string, Value>& builtins);
void add_standard_modules(Interpreter& in);   // modules.cpp: math, typing, dataclasses, ...
Value seq_method(const Value& obj, const std::string& name);   // list/dict/tuple methods (builtins.cpp)
Value more_seq_method(const Value& obj, const std::string& name);
Value str_attribute(const Value& self, const std::string& name);   // str_methods.cpp: s.upper, s.split, ...
Value str_maketrans(Interpreter& in, CallArgs& a);                  // str.maketrans(x[, y[, z]])
std::string str_format_map(Interpreter& in, const std::string& s, const Value& mapping);   // s.format_map(m) (str_format.cpp)
// [start, end) of str.find/count/startswith... and list.index: CPython's ADJUST_INDICES (a
// negative index counts from the end, then both are clipped to [0, n]); start may pass end.
struct Span {
  int64_t start, end;
};
Span span_of(CallArgs& a, size_t first, int64_t n);
void no_args(CallArgs& a, const std::string& name);                   // TypeError: NAME() takes no arguments (k given)
[[noreturn]] void no_method(const std::string& type, const std::string& name);   // AttributeError, or attn's refusal by name
void list_extend(Interpreter& in, const Value& list, const Value& iterable);   // l.extend(x), l += x (builtins_more.cpp)
std::vector<Value> update_pair(Interpreter& in, const Value& kv, size_t n);   // item n of dict(pairs), d.update(pairs) (builtins.cpp)
// An iterator over `items`, a snapshot of dict or set `container`'s keys (values, items), that
// raises CPython's RuntimeError once the container changed size (an OrderedDict: was changed).
Value checked_iterator(const std::string& name, std::vector<Value> items, const Value& container);
bool is_iterator(const Value& v);                 // what map/filter/reversed/iter return
std::vector<Value> drain_iterator(const Value& it);   // the items still to come; uses them up
std::optional<Value> iterator_step(const Value& it);  // one item of such an iterator, nullopt at its end
bool is_generator(const Value& v);                // a generator object (generator.cpp)
// d[key] of a dict subclass's instance with the key absent: its __missing__(key), or nullopt
// (protocol.cpp). Refused in Interpreter::read_only mode when it would insert the key.
std::optional<Value> missing_item(Interpreter& in, const Value& d, const Value& key);
// An iterator of built-in class `name` whose items `step` makes one by one (nullopt: the end).
// `held` is what the iterator steps over (the collector sees into it; `step` holds no Value).
using LazyStep = std::function<std::optional<Value>(Interpreter&, std::vector<Value>& held)>;
Value lazy_iterator(const std::string& name, std::vector<Value> held, LazyStep step);
Value product_fn(Interpreter& in, CallArgs& a);   // itertools.product (lazy_iterators.cpp)
Value merge_fn(Interpreter& in, CallArgs& a);     // heapq.merge (lazy_iterators.cpp)
bool is_unsupported_builtin(const std::string& name);   // a Python builtin attn lacks (open, eval, ...)
std::vector<int64_t> slice_positions(const SliceObj& s, size_t n);   // builtins.cpp: xs[a:b:c]'s positions
// The slice with each bound that has __index__ replaced by its int: called before a list's size
// is read, as CPython's PySlice_Unpack, since that __index__ may change the list.
SliceObj slice_unpacked(const SliceObj& s);
std::string percent_format(Interpreter& in, const std::string& text, const Value& values);   // 'x=%.2f' % x
// Class helpers (classes.cpp).
std::vector<std::shared_ptr<ClassObj>> mro(const std::shared_ptr<ClassObj>& cls);
Value bound_method(const Value& self, const Value& fn, const std::string& name);
// A new class's attributes that define __set_name__ are told their owner and name (classes.cpp).
void set_names(Interpreter& in, const ClassPtr& cls);
void init_subclass(Interpreter& in, const ClassPtr& cls, CallArgs& keywords);   // classes.cpp: type.__new__'s last step
Value getitem_builtin(const Value& obj, const Value& key);   // a list, tuple, str, dict, range item or slice
bool less(const Value& a, const Value& b);                   // a < b of numbers, strings, lists, tuples
Value set_operator(const std::string& op, const SetObj& x, const SetObj& y);   // x | y, &, -, ^ of two sets (protocol.cpp)
Value dict_view(const Value& dict, const std::string& kind);   // d.keys(), d.values(), d.items() (dict_views.cpp)
Value dict_fromkeys(Interpreter& in, CallArgs& a);              // dict.fromkeys(iterable, value=None) (dict_views.cpp)

}  // namespace attn::py
