// py/value.cpp: constructors, accessors and Python-style repr/str for interpreter values.
#include "py/exceptions.h"
#include "py/value.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "print/tensor_str.h"
#include "py/ints.h"
#include "py/limits.h"

namespace attn::py {

Value Value::tensor(core::Tensor t) {
  auto o = std::make_shared<TensorObj>();
  o->t = std::move(t);
  Value x;
  x.kind = Tensor;
  x.obj = o;
  return x;
}

static Value seq(Value::Kind k, std::vector<Value> items) {
  auto o = std::make_shared<SeqObj>();
  o->items = std::move(items);
  Value x;
  x.kind = k;
  x.obj = o;
  return x;
}

Value Value::integer(const BigInt& v) {
  if (v.fits_int64()) return integer(v.to_int64());
  auto o = std::make_shared<BigIntObj>();
  o->v = v;
  Value x = integer(v.negative() ? INT64_MIN : INT64_MAX);
  x.obj = std::move(o);
  return x;
}

const BigInt& Value::big() const { return static_cast<const BigIntObj*>(obj.get())->v; }

// CPython's "trashcan": the objects a container held are handed to the outermost container
// destructor running on this thread, which frees them one at a time.
namespace {

thread_local std::vector<std::shared_ptr<Obj>>* pending_release = nullptr;

template <class Hand>   // void hand(std::vector<std::shared_ptr<Obj>>& out): moves the objects out
void release_flat(Hand hand) {
  if (pending_release) return hand(*pending_release);
  std::vector<std::shared_ptr<Obj>> local;
  hand(local);
  if (local.empty()) return;
  pending_release = &local;
  while (!local.empty()) {
    std::shared_ptr<Obj> o = std::move(local.back());
    local.pop_back();
    o.reset();   // a container freed here hands its objects to `local`
  }
  pending_release = nullptr;
}

void hand_over(Value& v, std::vector<std::shared_ptr<Obj>>& out) {
  if (v.obj) out.push_back(std::move(v.obj));
}

}  // namespace

SeqObj::~SeqObj() {
  release_flat([this](auto& out) { for (Value& v : items) hand_over(v, out); });
}

DictObj::~DictObj() {
  release_flat([this](auto& out) {
    for (auto& [key, v] : items) hand_over(key, out), hand_over(v, out);
  });
}

Value* DictObj::find(const Value& key) {
  if (indexed_ > items.size()) clear_index();   // items were removed behind the index's back: index afresh
  for (; indexed_ < items.size(); ++indexed_) index_.emplace(py_hash(items[indexed_].first), indexed_);
  auto [first, last] = index_.equal_range(py_hash(key));
  for (auto it = first; it != last; ++it)
    if (equal(items[it->second].first, key)) return &items[it->second].second;
  return nullptr;
}

void DictObj::clear_index() {
  index_.clear();
  indexed_ = 0;
}

bool DictObj::erase(const Value& key) {
  find(key);   // brings the index up to date
  auto [first, last] = index_.equal_range(py_hash(key));
  for (auto it = first; it != last; ++it)
    if (equal(items[it->second].first, key)) {
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(it->second));
      clear_index();   // the positions after it moved: O(n), as the erase itself
      return true;
    }
  return false;
}

void DictObj::clear() {
  items.clear();
  clear_index();
}

void DictObj::set(const Value& key, Value v) {
  if (Value* slot = find(key)) {
    *slot = std::move(v);
    return;
  }
  items.emplace_back(key, std::move(v));   // indexed by the next find()
}

InstanceObj::~InstanceObj() {
  release_flat([this](auto& out) { for (auto& [name, v] : attrs) hand_over(v, out); });
}

Value Value::list(std::vector<Value> items) { return seq(List, std::move(items)); }
Value Value::tuple(std::vector<Value> items) { return seq(Tuple, std::move(items)); }
Value Value::size(const core::Shape& shape) {
  std::vector<Value> items;
  for (int64_t d : shape) items.push_back(integer(d));
  return seq(Size, std::move(items));
}

namespace {

// The lists and dicts being copied by snapshot() on this thread, with their copies: a list met
// again inside itself (a.append(a)) becomes its copy, so the copy has the same shape.
thread_local std::vector<std::pair<const Obj*, std::shared_ptr<Obj>>> copying;

struct Copying {
  Copying(const Obj* original, std::shared_ptr<Obj> copy) { copying.emplace_back(original, std::move(copy)); }
  ~Copying() { copying.pop_back(); }
  Copying(const Copying&) = delete;
  Copying& operator=(const Copying&) = delete;
};

}  // namespace

Value snapshot(const Value& v) {
  std::optional<ValueDepthGuard> guard;
  if (v.obj && v.kind != Value::Tensor) guard.emplace("while copying a printed value");
  for (const auto& [original, copy] : copying)
    if (original == v.obj.get()) {
      Value c = v;
      c.obj = copy;
      return c;
    }
  switch (v.kind) {
    case Value::Tensor: return Value::tensor(as_tensor(v).clone());   // the elements as they are now
    case Value::List: case Value::Tuple: case Value::Size: {
      auto o = std::make_shared<SeqObj>();
      Copying now(v.obj.get(), o);
      for (const Value& x : as_seq(v)) o->items.push_back(snapshot(x));
      Value c = v;
      c.obj = o;
      return c;
    }
    case Value::Dict: {
      auto o = std::make_shared<DictObj>();
      o->ordered = static_cast<const DictObj*>(v.obj.get())->ordered;
      Copying now(v.obj.get(), o);
      for (const auto& [key, x] : static_cast<const DictObj*>(v.obj.get())->items)
        o->items.emplace_back(snapshot(key), snapshot(x));
      Value d = v;
      d.obj = o;
      return d;
    }
    case Value::Set: {
      // Numbers cannot change: a copy, hash table and all, prints in the same (CPython's) order.
      // Any other set prints in the order its items were added, which re-adding them keeps.
      const SetObj& s = *static_cast<const SetObj*>(v.obj.get());
      auto o = s.all_numbers() ? std::make_shared<SetObj>(s) : std::make_shared<SetObj>();
      if (!s.all_numbers())
        for (const Value& x : s.ordered()) o->add(snapshot(x));
      Value c = v;
      c.obj = o;
      return c;
    }
    default: return v;
  }
}

const Value* ClassObj::find_method(const std::string& n) const {
  auto it = methods.find(n);
  if (it != methods.end()) return &it->second;
  for (const auto& b : bases)
    if (const Value* m = b->find_method(n)) return m;
  return nullptr;
}

Value* InstanceObj::find(const std::string& n) {
  for (auto& [k, v] : attrs)
    if (k == n) return &v;
  return nullptr;
}

void InstanceObj::set(const std::string& n, Value v) {
  if (Value* old = find(n)) *old = std::move(v);
  else attrs.emplace_back(n, std::move(v));
}

std::string type_name(const Value& v) {
  switch (v.kind) {
    case Value::None: return "NoneType";
    case Value::Bool: return "bool";
    case Value::Int: return "int";
    case Value::Float: return "float";
    case Value::Str: return "str";
    case Value::List: return "list";
    case Value::Tuple: return "tuple";
    case Value::Dict: return "dict";
    case Value::Tensor: return "Tensor";
    case Value::Size: return "torch.Size";
    case Value::Slice: return "slice";
    case Value::Function: return "function";
    case Value::Builtin: return "builtin_function_or_method";
    case Value::Class: return "type";
    case Value::Instance: return static_cast<InstanceObj*>(v.obj.get())->cls->name;
    case Value::Namespace: return "module";
    case Value::Dtype: return "torch.dtype";
    case Value::Set: return "set";
    case Value::Ellipsis: return "ellipsis";
    case Value::Range: return "range";
  }
  return "object";
}

core::Tensor& as_tensor(const Value& v) {
  if (v.kind != Value::Tensor) throw TypeError("expected a Tensor, got " + type_name(v));
  return static_cast<TensorObj*>(v.obj.get())->t;
}

std::vector<Value>& as_seq(const Value& v) {
  if (v.kind != Value::List && v.kind != Value::Tuple && v.kind != Value::Size)
    throw TypeError("'" + type_name(v) + "' object is not a sequence");
  return static_cast<SeqObj*>(v.obj.get())->items;
}

static std::string join_repr(const std::vector<Value>& items, const print::PrintOptions& opts) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + repr(items[k], opts);
  return out;
}

// nn.Module.__repr__: "Name(\n  (child): repr\n)" with nested indentation.
static std::string module_repr(const Value& v) {
  auto* inst = static_cast<InstanceObj*>(v.obj.get());
  for (auto c = inst->cls; c; c = c->bases.empty() ? nullptr : c->bases.front())
    if (c->native_repr) return c->native_repr(v);
  // An object of a class that is no nn.Module: Python's <__main__.A object at 0x7f...>, without
  // the address (it changes from run to run).
  if (!inst->cls->is_module) return "<" + inst->cls->module + "." + inst->cls->name + " object>";
  std::string out = inst->cls->name + "(";
  bool any = false;
  for (const auto& [name, child] : inst->attrs) {
    if (child.kind != Value::Instance) continue;
    std::string r = repr(child);
    std::string indented;
    for (char ch : r) indented += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
    out += "\n  (" + name + "): " + indented;
    any = true;
  }
  return out + (any ? "\n)" : ")");
}

namespace {

// The lists, dicts and sets whose repr is being written on this thread: one met again inside
// itself is written "[...]" ("{...}"), as CPython's Py_ReprEnter does.
thread_local std::vector<const Obj*> repr_active;

struct ReprEnter {
  const Obj* obj;
  bool again;
  explicit ReprEnter(const Obj* o) : obj(o), again(std::find(repr_active.begin(), repr_active.end(), o) != repr_active.end()) {
    if (!again) repr_active.push_back(o);
  }
  ~ReprEnter() {
    if (!again) repr_active.pop_back();
  }
};

}  // namespace

std::string repr(const Value& v, const print::PrintOptions& opts) {
  std::optional<ValueDepthGuard> guard;
  std::optional<ReprEnter> enter;
  if (v.kind == Value::List || v.kind == Value::Dict || v.kind == Value::Tuple || v.kind == Value::Set || v.kind == Value::Instance) {
    guard.emplace("while getting the repr of an object");
    enter.emplace(v.obj.get());
    if (enter->again) return v.kind == Value::List ? "[...]" : "{...}";   // tuples and instances cannot contain themselves here
  }
  switch (v.kind) {
    case Value::None: return "None";
    case Value::Bool: return v.b ? "True" : "False";
    case Value::Int: return int_repr(v);
    case Value::Float: return print::py_float_repr(v.f);
    case Value::Str: return print::py_str_repr(v.s);
    // append(), not "[" + ... + "]": GCC 12 warns -Wrestrict on that once inlined (GCC bug 105651)
    case Value::List: return std::string("[").append(join_repr(as_seq(v), opts)).append("]");
    case Value::Tuple: {
      auto& items = as_seq(v);
      return std::string("(").append(join_repr(items, opts)).append(items.size() == 1 ? ",)" : ")");
    }
    case Value::Size: {
      core::Shape shape;
      for (const Value& d : as_seq(v)) shape.push_back(d.i);
      return print::size_repr(shape);
    }
    case Value::Dict: {
      auto& items = static_cast<DictObj*>(v.obj.get())->items;
      if (static_cast<DictObj*>(v.obj.get())->ordered) {   // Python 3.11's OrderedDict repr
        if (items.empty()) return "OrderedDict()";
        std::string out = "OrderedDict([";
        for (size_t k = 0; k < items.size(); ++k)
          out += (k ? ", (" : "(") + repr(items[k].first, opts) + ", " + repr(items[k].second, opts) + ")";
        return out + "])";
      }
      std::string out = "{";
      for (size_t k = 0; k < items.size(); ++k)
        out += (k ? ", " : "") + repr(items[k].first, opts) + ": " + repr(items[k].second, opts);
      return out + "}";
    }
    case Value::Set: {
      std::vector<Value> items = static_cast<SetObj*>(v.obj.get())->ordered();
      return items.empty() ? "set()" : std::string("{").append(join_repr(items, opts)).append("}");
    }
    case Value::Tensor: {
      return print::tensor_repr(as_tensor(v), opts);   // adds "Parameter containing:" itself
    }
    case Value::Instance: return module_repr(v);
    case Value::Class: {
      const ClassObj& c = *static_cast<ClassObj*>(v.obj.get());
      return "<class '" + (c.module == "builtins" ? "" : c.module + ".") + c.name + "'>";
    }
    case Value::Function: return "<function " + static_cast<FunctionObj*>(v.obj.get())->def->name + ">";
    case Value::Builtin: {   // int, float, ... are builtins here and classes in Python: type(3) is <class 'int'>
      const std::string& name = static_cast<BuiltinObj*>(v.obj.get())->name;
      static const std::set<std::string> types = {"int", "float", "str", "list", "tuple", "dict", "set", "bool"};
      return types.count(name) ? "<class '" + name + "'>" : "<built-in function " + name + ">";
    }
    case Value::Namespace: return "<module '" + v.s + "'>";
    case Value::Dtype: return v.s;
    case Value::Slice: return "slice(...)";
    case Value::Ellipsis: return "Ellipsis";
    case Value::Range: {
      const auto& r = *static_cast<const RangeObj*>(v.obj.get());
      return r.step == 1 ? fmt::format("range({}, {})", r.start, r.stop) : fmt::format("range({}, {}, {})", r.start, r.stop, r.step);
    }
  }
  return "?";
}

std::string str(const Value& v, const print::PrintOptions& opts) {
  if (v.kind == Value::Instance)
    for (auto c = static_cast<InstanceObj*>(v.obj.get())->cls; c; c = c->bases.empty() ? nullptr : c->bases.front())
      if (c->native_str) return c->native_str(v);
  return v.kind == Value::Str ? v.s : repr(v, opts);
}

bool truthy(const Value& v) {
  switch (v.kind) {
    case Value::None: return false;
    case Value::Bool: return v.b;
    case Value::Int: return v.is_big() || v.i != 0;
    case Value::Float: return v.f != 0.0;
    case Value::Str: return !v.s.empty();
    case Value::List: case Value::Tuple: case Value::Size: return !as_seq(v).empty();
    case Value::Dict: return !static_cast<DictObj*>(v.obj.get())->items.empty();
    case Value::Set: return static_cast<SetObj*>(v.obj.get())->size() > 0;
    case Value::Range: return static_cast<const RangeObj*>(v.obj.get())->length() > 0;
    case Value::Tensor: {
      const core::Tensor& t = as_tensor(v);
      if (t.numel() != 1)
        throw RuntimeError("Boolean value of Tensor with more than one value is ambiguous");
      return t.at(0) != 0.0;
    }
    default: return true;
  }
}

bool equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;   // exact: 2**53 + 1 != 2.0**53
  if (a.kind != b.kind) {
    bool seqs = (a.kind == Value::Tuple || a.kind == Value::Size) && (b.kind == Value::Tuple || b.kind == Value::Size);
    if (!seqs) return false;
  }
  switch (a.kind) {
    case Value::None: return true;
    case Value::Str: case Value::Dtype: return a.s == b.s;
    case Value::List: case Value::Tuple: case Value::Size: {
      if (a.obj == b.obj) return true;   // CPython compares items by identity first: a list equals itself
      ValueDepthGuard guard("in comparison");
      auto &x = as_seq(a), &y = as_seq(b);
      if (x.size() != y.size()) return false;
      for (size_t k = 0; k < x.size(); ++k)
        if (!equal(x[k], y[k])) return false;
      return true;
    }
    case Value::Set: {
      auto *x = static_cast<SetObj*>(a.obj.get()), *y = static_cast<SetObj*>(b.obj.get());
      if (x->size() != y->size()) return false;
      for (const Value& item : x->ordered())
        if (!y->contains(item)) return false;
      return true;
    }
    case Value::Range: {   // as sequences: range(0) == range(2, 2), range(0, 3, 5) == range(0, 1)
      auto &x = *static_cast<const RangeObj*>(a.obj.get()), &y = *static_cast<const RangeObj*>(b.obj.get());
      auto n = x.length();
      return n == y.length() && (n == 0 || (x.start == y.start && (n == 1 || x.step == y.step)));
    }
    default: return a.obj == b.obj;
  }
}

unsigned __int128 RangeObj::length() const {
  __int128 span = step > 0 ? __int128(stop) - start : __int128(start) - stop, size = step > 0 ? __int128(step) : -__int128(step);
  return span <= 0 ? 0 : static_cast<unsigned __int128>((span + size - 1) / size);
}

}  // namespace attn::py
