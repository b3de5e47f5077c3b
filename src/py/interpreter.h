// py/interpreter.h: runs lesson code cells (the Python subset of ast.h) against core tensors.
//
// What it is: a tree-walking interpreter with Python's scoping for the subset (globals plus one
// local frame per call), the `torch` / `torch.nn` / `torch.nn.functional` names the articles use
// (torch_api.cpp, nn_modules.cpp) and Python's builtins (builtins.cpp). print() writes into an
// output buffer the lesson runner reads after each cell. One Interpreter = one Python session.
// What it is not: sandboxed against infinite loops beyond a step limit, or a general Python.
#pragma once

#include <map>
#include <sstream>
#include <string>

#include "core/random.h"
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
};

class Interpreter {
 public:
  Interpreter(core::CpuKernels cpu, core::DropoutRng rng);

  // Parse and run one cell; output of print() accumulates in output(). With `echo_last`, a cell
  // ending in an expression displays its value's repr, as a Jupyter cell does (unless None).
  void run_cell(const std::string& source, bool echo_last = false);
  std::string take_output();

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
  std::vector<Value> iterate(const Value& v);      // for-loops, comprehensions, list()
  Value lookup(const std::string& name);

 private:
  using Frame = std::map<std::string, Value>;
  Frame globals_;
  std::vector<Frame*> frames_;                     // innermost last; empty = module level
  std::map<std::string, Value> builtins_;
  long steps_ = 0;

  Frame& scope() { return frames_.empty() ? globals_ : *frames_.back(); }
  void assign(const Expr& target, const Value& v);
  enum class Flow { next, returned };
  Flow exec(const Block& block, Value* ret);
  Flow exec_stmt(const StmtPtr& s, Value* ret);   // a shared pointer: a `def` keeps its statement
  void exec_import(const Stmt& s);
  void exec_class(const Stmt& s);
  Value eval(const Expr& e);
  Value eval_call(const Expr& e);
  Value eval_subscript(const Expr& e);
  Value eval_compare(const Expr& e);
  Value eval_fstring(const Expr& e);
  Value eval_comprehension(const Expr& e);
  void comprehend(const Expr& e, size_t level, std::vector<Value>& list, Value* dict);
  Value call_function(const FunctionObj& f, CallArgs& args);
  Value instantiate(const std::shared_ptr<ClassObj>& cls, CallArgs& args);
};

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
Value make_torch_namespace();
Value tensor_attribute(Interpreter& in, const Value& self, const std::string& name);
Value str_attribute(const Value& self, const std::string& name);
Value instance_attribute(Interpreter& in, const Value& self, const std::string& name);
void add_nn_modules(NamespaceObj& nn);
void add_torch_environment(NamespaceObj& torch);   // torch_env.cpp: device, cuda, backends, set_printoptions, pi
bool is_device(const Value& v);                    // a torch.device
bool is_cpu_device(const Value& v);                // "cpu", "cpu:0" or torch.device('cpu')
Value builtin(const std::string& name, NativeFn fn);

}  // namespace attn::py
