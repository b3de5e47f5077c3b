// py/value.h: the runtime values of the lesson interpreter (Python objects, tensors, modules).
//
// What it is: a tagged Value with reference semantics for mutable objects (lists, dicts,
// tensors, module instances), as in Python, and repr()/str() that print like Python 1.13-era
// PyTorch. What it is not: a Python object model (no metaclasses, no descriptors).
#pragma once

#include <functional>
#include <map>
#include <unordered_map>
#include <memory>
#include <string>
#include <vector>

#include "core/ops.h"
#include "print/tensor_str.h"
#include "py/ast.h"
#include "py/bigint.h"

namespace attn::py {

struct Obj {
  virtual ~Obj() = default;
};

struct Value {
  enum Kind { None, Bool, Int, Float, Str, List, Tuple, Dict, Tensor, Size, Slice,
              Function, Builtin, Class, Instance, Namespace, Dtype, Set,
              Ellipsis,                 // the one value `...` (x[..., 0])
              Range } kind = None;      // range(...): lazy, its items made as they are iterated
  bool b = false;
  int64_t i = 0;                 // Int: the value; an int beyond int64 (is_big) keeps INT64_MAX/MIN here
  double f = 0;
  std::string s;                 // Str value; Dtype / Namespace name
  std::shared_ptr<Obj> obj;

  static Value none() { return {}; }
  static Value boolean(bool v) { Value x; x.kind = Bool; x.b = v; return x; }
  static Value integer(int64_t v) { Value x; x.kind = Int; x.i = v; return x; }
  static Value integer(const BigInt& v);   // the int64 form when it fits (ints.h)
  static Value number(double v) { Value x; x.kind = Float; x.f = v; return x; }
  static Value str(std::string v) { Value x; x.kind = Str; x.s = std::move(v); return x; }
  static Value tensor(core::Tensor t);
  static Value list(std::vector<Value> items);
  static Value tuple(std::vector<Value> items);
  static Value size(const core::Shape& shape);
  static Value set(const std::vector<Value>& items);   // set(items): added in order (set.cpp)
  static Value set_literal(const std::vector<Value>& constants);   // {1, 2, 3} of 3+ constants
  static Value dtype(std::string name) { Value x; x.kind = Dtype; x.s = std::move(name); return x; }

  bool is_none() const { return kind == None; }
  // An Int beyond int64: its digits are a BigInt in `obj` (ints.h has the operations). Every int
  // that fits int64 is held in `i`, so !is_big() means `i` is the whole value.
  bool is_big() const { return kind == Int && obj != nullptr; }
  const BigInt& big() const;
  bool is_number() const { return kind == Int || kind == Float || kind == Bool; }
};

struct BigIntObj : Obj { BigInt v; };                      // an Int beyond int64 (immutable)
// The containers free what they hold without recursing (value.cpp): a list nested 100,000
// deep (x = [x] in a loop) is freed one level at a time, not on 100,000 C++ frames.
struct SeqObj : Obj { std::vector<Value> items; ~SeqObj() override; };     // List, Tuple, Size (ints)
// A dict: its items in insertion order, found by a hash index (hash() and ==, as CPython), so
// a 100,000-key comprehension takes milliseconds. Add keys with set(); an item appended to
// `items` directly is indexed on the next find() (its key must not be there already).
struct DictObj : Obj {
  std::vector<std::pair<Value, Value>> items;
  bool ordered = false;                    // an OrderedDict (Module.state_dict()): printed OrderedDict([(k, v), ...])
  Value* find(const Value& key);           // nullptr if absent; TypeError for an unhashable key
  void set(const Value& key, Value v);     // a new key goes last; an existing key keeps its place
  bool erase(const Value& key);            // del d[key], d.pop(key): false if absent
  void clear();
  ~DictObj() override;
 private:
  std::unordered_multimap<int64_t, size_t> index_;   // hash(key) -> position in items
  size_t indexed_ = 0;                               // items[0, indexed_) are in index_
  void clear_index();
};
struct TensorObj : Obj { core::Tensor t; };

// A set (set.cpp): each item once, by Python's == and hash (1, 1.0 and True are one item; a
// list, dict or set is unhashable: TypeError), in CPython 3.11's hash table, replayed slot for
// slot. It iterates and prints in CPython's order when every item is a number ({10, 1} is
// {1, 10}; small ints come out sorted); with any other item (str, tuple, tensor, ...) in the
// order the items were added, as CPython's order there rests on string hashes it randomises.
class SetObj : public Obj {
 public:
  bool add(const Value& v);                  // set.add(v); false if an equal item is in already
  bool contains(const Value& v) const;
  size_t size() const { return items_.size(); }
  std::vector<Value> ordered() const;        // iteration and printing order
  void merge(const SetObj& other);           // set(other) into this empty set, as set_merge does
  void reserve(size_t more);                 // set_update_internal's resize before adding a dict
  bool all_numbers() const;                  // ints, bools, floats but NaN: CPython's order shows
 private:
  std::vector<Value> items_;                 // in the order they were added
  std::vector<int64_t> hashes_;              // py_hash(items_[k])
  std::vector<int64_t> table_ = std::vector<int64_t>(8, -1);   // slot -> index in items_; -1: empty
  void place(size_t item);
  void resize(size_t min_used);
};
int64_t py_hash(const Value& v);   // hash(v): CPython's for numbers; for the rest, consistent with equal()
struct SliceObj : Obj { Value start, stop, step; };
// range(start, stop, step) with int64 bounds: holds three numbers, whatever its length, so
// range(-2**63, 2**63 - 1) allocates nothing; a `for` loop or comprehension walks it item by item.
struct RangeObj : Obj {
  int64_t start = 0, stop = 0, step = 1;   // step != 0
  unsigned __int128 length() const;
  int64_t at(unsigned __int128 k) const { return static_cast<int64_t>(static_cast<__int128>(start) + static_cast<__int128>(k) * step); }
};

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
  bool method = false;           // in a built-in class's methods: called with the instance first
};

struct Scope;                    // a function call's local names (interpreter.h)
struct ClassObj;
struct NamespaceObj;

struct FunctionObj : Obj {       // a `def` or lambda from a lesson cell or an imported file
  // The Def statement, owned: a function (a printed dict key, a class's method, a value in a
  // LessonRun) may outlive the Interpreter and the cell whose syntax tree it came from.
  std::shared_ptr<const Stmt> def;
  std::vector<Value> defaults;   // evaluated once, when the `def` ran (aligned to the last params)
  std::map<std::string, Value> kwdefaults;   // keyword-only parameters' defaults
  std::string qualname;          // "f", "A.forward", "f.<locals>.g", "<lambda>" (error messages)
  std::shared_ptr<Scope> closure;          // the enclosing function's scope; null at module level
  std::weak_ptr<NamespaceObj> module;      // its module's names (the Interpreter owns modules)
  std::string file;              // "" for lesson code, else the imported file's path
  std::weak_ptr<ClassObj> owner; // the class whose body defined it: what super() starts after
};

struct ClassObj : Obj {          // a class: user-defined (methods) or built-in (native hooks)
  std::string name;
  std::string module = "__main__";   // "builtins" for Python's own classes (printed <class 'ValueError'>)
  std::vector<std::shared_ptr<ClassObj>> bases;
  std::map<std::string, Value> methods;   // the class body's names: methods and class attributes
  bool is_module = false;        // derives from nn.Module
  std::vector<std::string> fields;   // the body's annotated names (`x: int = 0`), in order: dataclass fields
  std::function<void(Interpreter&, Value& self, CallArgs&)> native_init;
  std::function<Value(Interpreter&, Value& self, CallArgs&)> native_forward;
  std::function<std::string(const Value& self)> native_repr;   // e.g. "Linear(in_features=3, ...)"
  std::function<std::string(const Value& self)> native_str;    // str(), when it differs from repr (exceptions)
  const Value* find_method(const std::string& n) const;
};

struct InstanceObj : Obj {
  std::shared_ptr<ClassObj> cls;
  std::vector<std::pair<std::string, Value>> attrs;   // in assignment order (parameters() order)
  bool training = true;
  ~InstanceObj() override;
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
  Value value;           // snapshot(v) when printed: later changes to v do not show
  std::string text;      // exactly what was printed for it
};

// A copy of `v` as it is now, owning its own data: tensors, lists, tuples, torch.Size, dicts and
// sets are copied at every depth (keys too), printing in the same order. Other values are
// shared: numbers, strings and functions cannot change, and a module instance is printed as its
// repr text only (its JSON is null).
Value snapshot(const Value& v);

// ---- accessors that raise Python-like errors ----
core::Tensor& as_tensor(const Value& v);
std::vector<Value>& as_seq(const Value& v);
std::string type_name(const Value& v);

// repr() and str() as Python prints them; tensors as PyTorch prints them, with the run's
// torch.set_printoptions (the Interpreter's RunState::print_options; PyTorch's defaults if none).
std::string repr(const Value& v, const print::PrintOptions& opts = {});
std::string str(const Value& v, const print::PrintOptions& opts = {});
bool truthy(const Value& v);
bool equal(const Value& a, const Value& b);

}  // namespace attn::py
