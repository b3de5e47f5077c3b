// py/value.h: the runtime values of the lesson interpreter: Python's objects and classes.
//
// What it is: a tagged Value with reference semantics for mutable objects (lists, dicts,
// instances), as in Python. Every value has a class (type_of): the built-in ones (int, str,
// list, ...) are ClassObj too, so `type(3).__name__` is 'int' and isinstance() is one subclass
// test. A class may carry native hooks (Slots: attribute get/set, items, operators, iteration,
// len, truth, hash, repr/str, call, construction), as CPython's tp_* slots, Wren's foreign
// classes and Lua's metatables do, and its instances a native payload (a C++ subclass of
// InstanceObj). That is how a host library (attn's torch layer, src/torch) adds its types
// without this interpreter knowing them. User classes get the same behaviour through their
// dunder methods (__add__, __getitem__, __len__, ...), found along the class's method
// resolution order (protocol.cpp).
// A class written in Python may derive from list, tuple, dict or set (class Vocab(dict)): its
// instances are values of that kind tagged with the class (SeqObj::cls, DictObj::cls,
// SetObj::cls) with their attributes beside them (`attrs`), so every built-in operation works on
// them and the class's dunders override it (py_subclass, attrs_of).
// What it is not: metaclasses, descriptors other than property/staticmethod/classmethod,
// __slots__, or subclasses of str, int, float written in Python.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "print/unicode.h"
#include "py/ast.h"
#include "py/bigint.h"

namespace attn::py {

struct Obj {
  virtual ~Obj() = default;
  bool gc_tracked = false;       // a Tracked (below): the cycle collector counts references to it
};

// What the cycle collector (py/gc.h) is shown of an object: each strong reference it holds.
struct GcVisitor {
  virtual void visit(Obj* held) = 0;   // null (an int, a str ...) is skipped by each visitor
  void operator()(const struct Value& v);
  template <class T>
  void operator()(const std::shared_ptr<T>& p) { if (p) visit(p.get()); }

 protected:
  ~GcVisitor() = default;
};

class GcHeap;
// An object that can hold others and so be part of a reference cycle (a list, dict, set,
// instance, function, scope): it links itself, when made, into the heap of the session running
// on this thread (none: never collected) and out when freed; the heap frees unreachable cycles
// of them (py/gc.h). Its owner must be a shared_ptr (the collector reads use_count()).
struct Tracked : Obj, std::enable_shared_from_this<Tracked> {
  Tracked();
  enum Untracked { untracked };
  explicit Tracked(Untracked) {}   // never linked: an object that holds no lesson values (most builtins)
  Tracked(const Tracked& other);
  Tracked& operator=(const Tracked&) { return *this; }   // the links stay this object's own
  ~Tracked() override;
  // Each strong reference this object holds to another object (a list holding x twice: twice).
  // Never a weak reference, never one counted twice: the collector subtracts what it is shown.
  virtual void gc_traverse(GcVisitor& visit) = 0;
  // Drops those references, leaving a valid, empty object (CPython's tp_clear): called only on
  // objects nothing outside the garbage refers to.
  virtual void gc_clear() = 0;
  // Runs before any garbage is cleared (CPython's tp_finalize): true if this object handed work
  // that needs the objects whole (a suspended generator, to be closed and run its `finally`) to
  // the session; then nothing is cleared in this collection, and the next one frees the rest.
  virtual bool gc_finalize() { return false; }
  GcHeap* gc_heap = nullptr;     // the heap's bookkeeping (gc.cpp)
  Tracked* gc_prev = nullptr;
  Tracked* gc_next = nullptr;
  int64_t gc_refs = 0;
  int gc_state = 0;
};

struct ClassObj;
using ClassPtr = std::shared_ptr<ClassObj>;

// Frees `o` (when this was its last owner) through CPython's "trashcan" (value.cpp): inside
// another container's destructor it is queued and freed by the outermost one, so a chain of
// objects of any length (generators over generators) frees without recursion.
void release_later(std::shared_ptr<Obj> o);
void release_all_later(std::vector<std::shared_ptr<Obj>> objs);   // as release_later, each of them

struct Value {
  enum Kind { None, Bool, Int, Float, Str, List, Tuple, Dict, Set, Slice,
              Function, Builtin, Class, Instance, Namespace,
              Ellipsis,                 // the one value `...` (x[..., 0])
              NotImplemented,           // what a binary dunder returns to let the other operand try
              Range } kind = None;      // range(...): lazy, its items made as they are iterated
  bool b = false;
  int64_t i = 0;                 // Int: the value; an int beyond int64 (is_big) keeps INT64_MAX/MIN here;
                                 // Str: its length in code points (py/text.h), counted when made
  double f = 0;
  std::string s;                 // Str value; Namespace name
  std::shared_ptr<Obj> obj;

  static Value none() { return {}; }
  static Value boolean(bool v) { Value x; x.kind = Bool; x.b = v; return x; }
  static Value integer(int64_t v) { Value x; x.kind = Int; x.i = v; return x; }
  static Value integer(const BigInt& v);   // the int64 form when it fits (ints.h)
  static Value number(double v) { Value x; x.kind = Float; x.f = v; return x; }
  static Value str(std::string v) { Value x; x.kind = Str; x.i = print::unicode::length(v); x.s = std::move(v); return x; }
  static Value list(std::vector<Value> items);
  static Value tuple(std::vector<Value> items);
  static Value set(const std::vector<Value>& items);   // set(items): added in order (set.cpp)
  static Value set_literal(const std::vector<Value>& constants);   // {1, 2, 3} of 3+ constants
  static Value dict();                                 // {}
  static Value not_implemented() { Value x; x.kind = NotImplemented; return x; }
  static Value of_class(ClassPtr cls);                 // the class itself, as a value
  static Value of_instance(std::shared_ptr<struct InstanceObj> o);

  bool is_none() const { return kind == None; }
  // An Int beyond int64: its digits are a BigInt in `obj` (ints.h has the operations). Every int
  // that fits int64 is held in `i`, so !is_big() means `i` is the whole value.
  bool is_big() const { return kind == Int && obj != nullptr; }
  const BigInt& big() const;
  bool is_number() const { return kind == Int || kind == Float || kind == Bool; }
};

inline void GcVisitor::operator()(const Value& v) {
  visit(v.obj.get());   // null too: a collector counts every reference it looks at as work
}

struct BigIntObj : Obj { BigInt v; };                      // an Int beyond int64 (immutable)
// The containers free what they hold without recursing (value.cpp): a list nested 100,000
// deep (x = [x] in a loop) is freed one level at a time, not on 100,000 C++ frames.
struct SeqObj : Tracked {        // List, Tuple
  std::vector<Value> items;
  ClassPtr cls;                  // a subclass of list/tuple the value belongs to (torch.Size, class L(list)); null: plain
  std::shared_ptr<struct DictObj> attrs;   // a Python subclass's instance attributes (attrs_of)
  ~SeqObj() override;
  void gc_traverse(GcVisitor& visit) override;
  void gc_clear() override;
};
// A dict: its items in insertion order, found by a hash index (hash() and ==, as CPython), so
// a 100,000-key comprehension takes milliseconds. Add keys with set(); an item appended to
// `items` directly is indexed on the next find() (its key must not be there already).
struct DictObj : Tracked {
  std::vector<std::pair<Value, Value>> items;
  bool ordered = false;                    // an OrderedDict: printed OrderedDict([(k, v), ...])
  ClassPtr cls;                            // a subclass of dict the value belongs to (OrderedDict, class D(dict)); null: plain
  std::shared_ptr<DictObj> attrs;          // a Python subclass's instance attributes (attrs_of)
  Value* find(const Value& key);           // nullptr if absent; TypeError for an unhashable key
  Value* find(const std::string& key);     // a str key (instance attributes): no hashing for small dicts
  void set(const Value& key, Value v);     // a new key goes last; an existing key keeps its place
  bool erase(const Value& key);            // del d[key]: false if absent
  std::optional<Value> take(const Value& key);   // d.pop(key): its value, removed; nullopt if absent
  void clear();
  std::pair<Value, Value> pop_last();      // d.popitem(): the last item, removed (the dict is not empty)
  uint64_t generation() const { return generation_; }   // changes when items are removed or moved
  // CPython 3.11's table of entries, as its iterators see it (dictiter_iternextkey walks entries
  // by position): a removed item leaves a hole until a resize compacts the table, and a resize
  // comes when an insertion finds no usable entry left, so `for k in d: del d[k]; d[k2] = 1`
  // sees the new keys, or raises, or stops, when CPython does.
  void presize(size_t n);                  // an empty dict about to take n keys (dict_new_presized)
  void fresh_table();                      // its items in a new table: a copy of a sparse dict (PyDict_Copy's dict_merge)
  // dict_merge's start (d.update(other)): an empty dict takes a clean other's items and table as
  // they are, no key compared (true); otherwise one resize for both when it is too small.
  bool merge_start(DictObj& other);
  bool sparse();                           // fewer than 2/3 of its entries are items: copy() compacts
  std::ptrdiff_t live_from(size_t& entry); // the item at entry index `entry` or the first after it (entry moves there); -1: none
  ~DictObj() override;
  void gc_traverse(GcVisitor& visit) override;
  void gc_clear() override;
 private:
  std::unordered_multimap<int64_t, size_t> index_;   // hash(key) -> position in items
  size_t indexed_ = 0;                               // items[0, indexed_) are in index_
  uint64_t generation_ = 0;                          // counts clear_index(): items removed or moved
  size_t table_ = 0;       // dk_size; 0: CPython's shared empty keys
  size_t usable_ = 0;      // dk_usable: insertions left before a resize
  size_t entries_ = 0;     // dk_nentries: items and holes
  size_t seen_ = 0;        // items the table accounts for (one appended to items directly is added on the next look)
  std::vector<size_t> holes_;   // entry indices of removed items since the last resize, ascending
  void sync_layout();
  void added();
  void compact(size_t n);
  std::optional<Value> erase_at(size_t pos, bool last);
  void clear_index();
  void sync_index();
  std::ptrdiff_t position(const Value& key);
  std::ptrdiff_t str_position(const std::string& key);
};

// A set (set.cpp): each item once, by Python's == and hash (1, 1.0 and True are one item; a
// list, dict or set is unhashable: TypeError), in CPython 3.11's hash table, replayed slot for
// slot. It iterates and prints in CPython's order when every item is a number ({10, 1} is
// {1, 10}; small ints come out sorted); with any other item (str, tuple, an object, ...) in the
// order the items were added, as CPython's order there rests on string hashes it randomises.
class SetObj : public Tracked {
 public:
  bool add(const Value& v);                  // set.add(v); false if an equal item is in already
  bool discard(const Value& v);              // set.discard(v); false if it was not in
  void discard_all(const std::vector<Value>& items);   // set_difference_update_internal: then compacts a table over 1/4 dummies
  bool contains(const Value& v) const;
  size_t size() const { return used_; }
  std::vector<Value> ordered() const;        // iteration and printing order
  // A live iterator's step (setiter_iternext): the first item at or after `pos`, by table slot
  // (`by_slot`: CPython's order, numbers) or by the order added, then only among the first
  // `added` items (CPython's order of strings rests on their random hashes: a walk that met each
  // item added during it would never end where CPython's does); pos moves past it.
  std::optional<Value> live_from(size_t& pos, bool by_slot, size_t added) const;
  size_t added() const { return items_.size(); }   // items ever added (the order-added walk's bound)
  void merge(const SetObj& other);           // set(other) into this empty set, as set_merge does
  void reserve(size_t more);                 // set_update_internal's resize before adding a dict
  bool all_numbers() const;                  // ints, bools, floats but NaN: CPython's order shows
  int64_t frozen_hash() const;               // hash(frozenset(self)): CPython 3.11's frozenset_hash
  ~SetObj() override;                        // through the trashcan: frozensets nested 300,000 deep
  ClassPtr cls;                              // a Python subclass of set the value belongs to; null: plain
  std::shared_ptr<struct DictObj> attrs;     // its instance attributes (attrs_of)
  void gc_traverse(GcVisitor& visit) override;
  void gc_clear() override;
 private:
  std::vector<Value> items_;                 // in the order they were added (removed ones stay, not alive)
  std::vector<int64_t> hashes_;              // py_hash(items_[k])
  std::vector<bool> alive_;                  // items_[k] is in the set
  std::vector<int64_t> table_ = std::vector<int64_t>(8, -1);   // slot -> index in items_; -1: empty, -2: dummy (removed)
  size_t used_ = 0, fill_ = 0;               // live items; live + dummy slots (CPython's so->used, so->fill)
  int64_t find_slot(const Value& v, int64_t h) const;   // the slot holding an equal item, or -1
  void place(size_t item);
  void resize(size_t min_used);
};
// hash(v): CPython's for numbers, strings' consistent with ==, a tuple's from its items, an
// object's __hash__ (or its identity). TypeError for an unhashable value.
int64_t py_hash(const Value& v);
// CPython 3.11's hash of a str and of bytes under PYTHONHASHSEED=0 (siphash13; what hash() prints).
int64_t str_hash(const std::string& s);
int64_t bytes_hash(const std::string& data);
// The first k in [start, stop) with items[k] == x (identity first, as CPython), or -1; and how
// many items equal x. An == may run Python that shrinks or grows `items` (a list's own items'
// __eq__): each item is compared as a copy and the size re-read after each comparison.
std::ptrdiff_t find_equal(const std::vector<Value>& items, const Value& x, size_t start = 0, size_t stop = SIZE_MAX);
size_t count_equal(const std::vector<Value>& items, const Value& x);
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

// A builtin is Tracked only when it holds lesson values the collector must see (a bound method:
// `self.f = self.method` is a cycle); the others (torch.rand, list.append) stay out of the heap.
struct BuiltinObj : Tracked {
  BuiltinObj() : Tracked(Tracked::untracked) {}
  explicit BuiltinObj(std::vector<Value> values) : held(std::move(values)) {}   // tracked
  std::string name;              // shown in error messages, e.g. "torch.rand"
  NativeFn fn;
  bool method = false;           // in a class's methods: called with the instance first
  std::vector<Value> held;       // what fn reads (a bound method: self, function); fn holds no Value itself
  void gc_traverse(GcVisitor& visit) override { for (const Value& v : held) visit(v); }
  void gc_clear() override { std::vector<Value> gone; gone.swap(held); }
};

struct Scope;                    // a function call's local names (interpreter.h)
struct NamespaceObj;

struct FunctionObj : Tracked {   // a `def` or lambda from a lesson cell or an imported file
  // The Def statement, owned: a function (a printed dict key, a class's method, a value kept by
  // the caller) may outlive the Interpreter and the cell whose syntax tree it came from.
  std::shared_ptr<const Stmt> def;
  std::vector<Value> defaults;   // evaluated once, when the `def` ran (aligned to the last params)
  std::map<std::string, Value> kwdefaults;   // keyword-only parameters' defaults
  std::string qualname;          // "f", "A.forward", "f.<locals>.g", "<lambda>" (error messages)
  std::shared_ptr<Scope> closure;          // the enclosing function's scope; null at module level
  std::weak_ptr<NamespaceObj> module;      // its module's names (the Interpreter owns modules)
  std::string file;              // "" for lesson code, else the imported file's path
  std::weak_ptr<ClassObj> owner; // the class whose body defined it: what super() starts after
  ~FunctionObj() override;       // through the trashcan: a chain of closures 100,000+ long (calls.cpp)
  void gc_traverse(GcVisitor& visit) override;   // calls.cpp
  void gc_clear() override;
};

// The native hooks of a class. An empty hook means "not this class's": the next class in the
// method resolution order is asked, then the interpreter's default (object's behaviour). A
// Python dunder method of a class earlier in that order wins over a later class's hook, so a
// user subclass overrides what it defines. Binary and comparison hooks return nullopt for
// NotImplemented: Python then tries the other operand's reflected form.
struct Slots {
  // cls(...): makes the object (tp_new); the default makes a plain InstanceObj of cls.
  std::function<Value(Interpreter&, const ClassPtr& cls, CallArgs&)> make;
  // __init__ (tp_init): runs after make on the new object; the default takes no arguments.
  std::function<void(Interpreter&, const Value& self, CallArgs&)> init;
  // self.name before the instance's own attributes (tp_getattro); nullopt: not the hook's.
  std::function<std::optional<Value>(Interpreter&, const Value& self, const std::string& name)> getattr;
  // self.name = v; false: not the hook's (then the instance dict takes it).
  std::function<bool(Interpreter&, const Value& self, const std::string& name, const Value& v)> setattr;
  std::function<Value(Interpreter&, const Value& self, const Value& key)> getitem;
  std::function<void(Interpreter&, const Value& self, const Value& key, const Value& v)> setitem;
  // self op other (reflected: other op self), op as written: "+", "@", "**", "&", ...
  std::function<std::optional<Value>(Interpreter&, const std::string& op, const Value& self, const Value& other, bool reflected)> binary;
  // self op= other, in place; nullopt: fall back to binary.
  std::function<std::optional<Value>(Interpreter&, const std::string& op, const Value& self, const Value& other)> inplace;
  std::function<std::optional<Value>(Interpreter&, const std::string& op, const Value& self)> unary;   // "-", "+", "~"
  // self op other for "==", "!=", "<", "<=", ">", ">=".
  std::function<std::optional<Value>(Interpreter&, const std::string& op, const Value& self, const Value& other)> compare;
  std::function<Value(Interpreter&, const Value& self)> iter;   // an iterable (or iterator) of its items
  std::function<int64_t(Interpreter&, const Value& self)> len;
  std::function<bool(Interpreter&, const Value& self)> truth;
  std::function<int64_t(const Value& self)> hash;
  std::function<std::string(Interpreter&, const Value& self)> repr;
  std::function<std::string(Interpreter&, const Value& self)> str;
  std::function<Value(Interpreter&, const Value& self, CallArgs&)> call;
  // isinstance(obj, cls) when cls has it, as a metaclass's __instancecheck__ (torch.LongTensor).
  std::function<bool(const Value& obj)> instancecheck;
  std::function<bool(Interpreter&, const Value& self, const Value& item)> contains;
  // operator.index(self) (__index__: list indices, range(), slices); nullopt: not an integer.
  std::function<std::optional<int64_t>(const Value& self)> index;
  // float(self) (__float__); nullopt: not a number.
  std::function<std::optional<double>(const Value& self)> to_float;
  // format(self, spec) (__format__); nullopt: the default (str(self) for an empty spec).
  std::function<std::optional<std::string>(Interpreter&, const Value& self, const std::string& spec)> format;
};

// A class is Tracked: `class A: pass; A.me = A()` (an instance in its class's attributes), or a
// method that closes over the scope naming its class, is a cycle the collector frees. Clearing
// one empties `methods` only: bases and the mro stay valid for instances freed after it.
struct ClassObj : Tracked {   // a class: user-defined (methods) or built-in / native (slots)
  std::string name;
  std::string qualname;              // a class statement's (outer.<locals>.A); "" for name's
  std::string module = "__main__";   // "builtins" for Python's own classes (printed <class 'ValueError'>)
  std::vector<ClassPtr> bases;       // every class but object has at least one (object, when none is written)
  std::map<std::string, Value> methods;   // the class body's names: methods and class attributes
  std::vector<std::string> order;    // names of `methods` as they were added (body, then C.x = ...); a name
                                     // added again after a del comes again, later (its last place counts)
  std::vector<std::string> names_in_order() const;   // methods' names: `order`'s, then the rest by name (__dict__)
  std::vector<std::string> fields;   // the body's annotated names (`x: int = 0`), in order: dataclass fields
  Slots slots;                       // native hooks (none for a class written in Python)
  bool immutable = false;            // built-in and native classes: `C.x = 1` raises, as in Python
  bool qualified_name = false;       // messages name it module.name, as CPython names a C type ('torch.Size' object ...)
  bool no_instance_dict = false;     // its own instances take no new attributes (a generator, a property): AttributeError
  // Instances of a native class are a C++ subclass of InstanceObj, made by slots.make; this tag
  // (inherited by subclasses) says which, so native code can check before it casts.
  const void* native_tag = nullptr;
  // The method resolution order (C3), this class first, computed once: bases never change.
  const std::vector<ClassObj*>& mro() const;
  const Value* find_method(const std::string& n) const;   // along mro()
  const void* tag() const;           // native_tag of the first class in mro() that has one
  std::shared_ptr<ClassObj> self_ptr() { return std::static_pointer_cast<ClassObj>(shared_from_this()); }
  void gc_traverse(GcVisitor& visit) override;   // classes.cpp
  void gc_clear() override;
 private:
  mutable std::vector<ClassObj*> mro_;
};

// An object of a class: its attributes in a dict (its __dict__, shared with what `vars()` and
// `obj.__dict__` return). A native class's instances derive from this with their payload.
// A native payload that holds Values overrides gc_traverse (calling this one); one that does not
// keeps what it holds alive as a reference from outside would (never freed wrongly, maybe leaked).
struct InstanceObj : Tracked {
  ClassPtr cls;
  std::shared_ptr<DictObj> dict = std::make_shared<DictObj>();   // insertion order: parameters() order
  ~InstanceObj() override;
  void gc_traverse(GcVisitor& visit) override { visit(dict); visit(cls); }
  void gc_clear() override {}   // its dict, if garbage too, is cleared itself
  Value* find(const std::string& n) { return dict->find(n); }
  void set(const std::string& n, Value v) { dict->set(Value::str(n), std::move(v)); }
  bool erase(const std::string& n) { return dict->erase(Value::str(n)); }
};
// The instance `v` holds (v.kind == Value::Instance; unchecked). Shared by the files that used to
// define it each in their own anonymous namespace, which collided in a unity build.
inline InstanceObj& inst(const Value& v) { return *static_cast<InstanceObj*>(v.obj.get()); }

struct NamespaceObj : Obj {      // a module: `math`, `torch`, an imported file
  std::map<std::string, Value> names;
};

// The class of a value: int, str, list, ... for the built-in kinds, the class of an instance,
// the native class a tagged list or tuple belongs to.
ClassPtr type_of(const Value& v);
// The built-in classes by name: "int", "list", "object", "type", "NoneType", "function", ...
const ClassPtr& builtin_class(const std::string& name);
bool is_subclass(const ClassObj* cls, const ClassObj* base);
bool is_subclass(const ClassPtr& cls, const ClassObj* base);
bool isinstance(const Value& v, const ClassObj* cls);
// A frozenset is a set value tagged with the built-in class frozenset: hashable, never changed.
bool is_frozenset(const Value& v);
Value frozen(Value set);                          // the set, made a frozenset (a new set: nobody else holds it)
// The class written in Python a tagged list, tuple, dict or set belongs to (class L(list)), or
// nullptr: a plain one, or one a native class tags (torch.Size, OrderedDict).
ClassObj* py_subclass(const Value& v);
// The instance attributes (__dict__) of an object or of a value py_subclass tags, made when
// first asked for; nullptr for other values.
std::shared_ptr<DictObj> attrs_of(const Value& v);
// The checks of a new class's bases, with CPython's errors: a base that cannot be one (bool),
// one attn refuses (str, int, float, frozenset), an order C3 cannot make, a layout conflict
// (list and dict). interpreter.cpp.
void check_bases(const ClassObj& cls);
// The built-in container class (list, tuple, dict, set) a class derives from, or nullptr.
const ClassObj* builtin_base(const ClassObj& cls);
// The object of a native class, if `v` is one whose class carries `tag`; else nullptr.
template <class T>
T* native_cast(const Value& v, const void* tag) {
  if (v.kind != Value::Instance) return nullptr;
  auto* o = static_cast<InstanceObj*>(v.obj.get());
  return o->cls->tag() == tag ? static_cast<T*>(o) : nullptr;
}
// A new class `name` of `module` deriving from `bases` (object when empty), immutable.
ClassPtr make_native_class(const std::string& name, const std::string& module, std::vector<ClassPtr> bases = {});

// ---- accessors that raise Python's errors ----
std::vector<Value>& as_seq(const Value& v);       // a list's or tuple's items
std::string type_name(const Value& v);            // type(v).__name__

// repr() and str() of values that need no interpreter: numbers, strings, containers of them,
// classes, functions. The interpreter's repr_of/str_of also call user __repr__ and native hooks.
std::string repr(const Value& v);
std::string str(const Value& v);
// repr() without the value's own __repr__ or hook (object's default for an instance); the items
// of a container still go through repr().
std::string plain_repr(const Value& v);
std::string class_repr(const ClassObj& c);        // <class 'torch.Size'>
bool truthy(const Value& v);                      // without __bool__/__len__ of instances
bool equal(const Value& a, const Value& b);       // ==, through __eq__ when an interpreter runs
// `a is b`. Ints, strs and floats are plain values here, so what CPython's small-int cache,
// constant sharing and interning make one object is decided by value: equal ints and strs are
// the same object (a computed big int or string is another object in CPython); a float never is.
bool same_object(const Value& a, const Value& b);

}  // namespace attn::py
