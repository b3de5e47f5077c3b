// py/value.h: the runtime values of the lesson interpreter (Python objects, tensors, modules).
//
// What it is: a tagged Value with reference semantics for mutable objects (lists, dicts,
// tensors, module instances), as in Python, and repr()/str() that print like Python 1.13-era
// PyTorch. What it is not: a Python object model (no metaclasses, no descriptors).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "py/ast.h"

namespace attn::py {

struct Obj {
  virtual ~Obj() = default;
};

struct Value {
  enum Kind { None, Bool, Int, Float, Str, List, Tuple, Dict, Tensor, Size, Slice,
              Function, Builtin, Class, Instance, Namespace, Dtype } kind = None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;                 // Str value; Dtype / Namespace name
  std::shared_ptr<Obj> obj;

  static Value none() { return {}; }
  static Value boolean(bool v) { Value x; x.kind = Bool; x.b = v; return x; }
  static Value integer(int64_t v) { Value x; x.kind = Int; x.i = v; return x; }
  static Value number(double v) { Value x; x.kind = Float; x.f = v; return x; }
  static Value str(std::string v) { Value x; x.kind = Str; x.s = std::move(v); return x; }
  static Value tensor(core::Tensor t);
  static Value list(std::vector<Value> items);
  static Value tuple(std::vector<Value> items);
  static Value size(const core::Shape& shape);
  static Value dtype(std::string name) { Value x; x.kind = Dtype; x.s = std::move(name); return x; }

  bool is_none() const { return kind == None; }
  bool is_number() const { return kind == Int || kind == Float || kind == Bool; }
};

struct SeqObj : Obj { std::vector<Value> items; };          // List, Tuple, Size (ints)
struct DictObj : Obj { std::vector<std::pair<Value, Value>> items; };  // insertion order
struct TensorObj : Obj { core::Tensor t; };
struct SliceObj : Obj { Value start, stop, step; };

class Interpreter;
struct CallArgs {
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
  std::vector<std::string> pos_text;   // source text of each positional argument, when known
};
using NativeFn = std::function<Value(Interpreter&, CallArgs&)>;

struct BuiltinObj : Obj {
  std::string name;              // shown in error messages, e.g. "torch.rand"
  NativeFn fn;
};

struct FunctionObj : Obj {       // a `def` from a lesson cell
  const Stmt* def = nullptr;
  std::vector<Value> defaults;
  std::shared_ptr<Stmt> keep;    // keeps the syntax tree alive
};

struct ClassObj : Obj {          // a class: user-defined (methods) or built-in (native hooks)
  std::string name;
  std::vector<std::shared_ptr<ClassObj>> bases;
  std::map<std::string, Value> methods;
  bool is_module = false;        // derives from nn.Module
  std::function<void(Interpreter&, Value& self, CallArgs&)> native_init;
  std::function<Value(Interpreter&, Value& self, CallArgs&)> native_forward;
  std::function<std::string(const Value& self)> native_repr;   // e.g. "Linear(in_features=3, ...)"
  const Value* find_method(const std::string& n) const;
};

struct InstanceObj : Obj {
  std::shared_ptr<ClassObj> cls;
  std::vector<std::pair<std::string, Value>> attrs;   // in assignment order (parameters() order)
  bool training = true;
  Value* find(const std::string& n);
  void set(const std::string& n, Value v);
};

struct NamespaceObj : Obj {      // `torch`, `torch.nn`, `F`: a module of names
  std::map<std::string, Value> names;
};

// A value a cell printed (print() argument or Jupyter echo), kept for JSON output, export and
// grading. Labels such as "keys.shape:" are plain strings and are not kept.
struct PrintedValue {
  std::string name;      // the source text it was printed from: "attn_weights", "sa(x)"
  Value value;           // a snapshot: a tensor is copied, later in-place changes do not show
  std::string text;      // exactly what was printed for it
};

// ---- accessors that raise Python-like errors ----
core::Tensor& as_tensor(const Value& v);
std::vector<Value>& as_seq(const Value& v);
std::string type_name(const Value& v);

// repr() and str() as Python prints them; tensors as PyTorch prints them.
std::string repr(const Value& v);
std::string str(const Value& v);
bool truthy(const Value& v);
bool equal(const Value& a, const Value& b);

}  // namespace attn::py
