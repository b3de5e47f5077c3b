// py/value.cpp: constructors, containers, classes and their order, and the repr/str of values
// that need no interpreter (see value.h). The protocol that calls dunders and native hooks is
// protocol.cpp.
#include "py/value.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include "print/pyrepr.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"

namespace attn::py {

namespace {

Value seq(Value::Kind k, std::vector<Value> items) {
  auto o = std::make_shared<SeqObj>();
  o->items = std::move(items);
  Value x;
  x.kind = k;
  x.obj = o;
  return x;
}

}  // namespace

Value Value::integer(const BigInt& v) {
  if (v.fits_int64()) return integer(v.to_int64());
  auto o = std::make_shared<BigIntObj>();
  o->v = v;
  Value x = integer(v.negative() ? INT64_MIN : INT64_MAX);
  x.obj = std::move(o);
  return x;
}

const BigInt& Value::big() const { return static_cast<const BigIntObj*>(obj.get())->v; }

Value Value::list(std::vector<Value> items) { return seq(List, std::move(items)); }
Value Value::tuple(std::vector<Value> items) { return seq(Tuple, std::move(items)); }

Value Value::dict() {
  Value x;
  x.kind = Dict;
  x.obj = std::make_shared<DictObj>();
  return x;
}

Value Value::of_class(ClassPtr cls) {
  Value x;
  x.kind = Class;
  x.obj = std::move(cls);
  return x;
}

Value Value::of_instance(std::shared_ptr<InstanceObj> o) {
  Value x;
  x.kind = Instance;
  x.obj = std::move(o);
  return x;
}

// CPython's "trashcan": the objects a container held are handed to the outermost container
// destructor running on this thread, which frees them one at a time.
namespace {

thread_local std::vector<std::shared_ptr<Obj>>* pending_release = nullptr;

template <class Hand>   // void hand(std::vector<std::shared_ptr<Obj>>& out): moves the objects out
void release_flat(Hand hand) {
  if (pending_release) return hand(*pending_release);
  std::vector<std::shared_ptr<Obj>> local;
  pending_release = &local;   // what `hand` frees at once (hand_over) hands its objects here too
  struct Reset {
    ~Reset() { pending_release = nullptr; }
  } reset;
  hand(local);
  while (!local.empty()) {
    std::shared_ptr<Obj> o = std::move(local.back());
    local.pop_back();
    o.reset();   // a container freed here hands its objects to `local`
  }
}

// An object something else still holds is let go at once (nothing is freed, so nothing
// recurses): [[]] * 10**7 queues one list, not 10^7 references to it.
void hand_over(Value& v, std::vector<std::shared_ptr<Obj>>& out) {
  if (!v.obj) return;
  if (v.obj.use_count() > 1) v.obj.reset();
  else out.push_back(std::move(v.obj));
}

}  // namespace

void release_later(std::shared_ptr<Obj> o) {
  release_flat([&o](auto& out) { out.push_back(std::move(o)); });
}

void release_all_later(std::vector<std::shared_ptr<Obj>> objs) {
  release_flat([&objs](auto& out) {
    for (auto& o : objs)
      if (o) out.push_back(std::move(o));
  });
}

SetObj::~SetObj() {
  release_flat([this](auto& out) {
    for (Value& v : items_) hand_over(v, out);
    if (attrs) out.push_back(std::move(attrs));
  });
}

SeqObj::~SeqObj() {
  release_flat([this](auto& out) {
    for (Value& v : items) hand_over(v, out);
    if (attrs) out.push_back(std::move(attrs));
  });
}

DictObj::~DictObj() {
  release_flat([this](auto& out) {
    for (auto& [key, v] : items) hand_over(key, out), hand_over(v, out);
    if (attrs) out.push_back(std::move(attrs));
  });
}

InstanceObj::~InstanceObj() {
  release_flat([this](auto& out) {
    if (dict) out.push_back(std::move(dict));
  });
}

void SeqObj::gc_traverse(GcVisitor& visit) {
  for (const Value& v : items) visit(v);
  visit(attrs);
  visit(cls);   // an instance of `class L(list)` holds its class (a class is Tracked)
}

void SeqObj::gc_clear() {
  std::vector<Value> gone;
  gone.swap(items);   // the list is empty (valid) before what it held is freed
}

void DictObj::gc_traverse(GcVisitor& visit) {
  for (const auto& kv : items) {
    visit(kv.first);
    visit(kv.second);
  }
  visit(attrs);
  visit(cls);   // an instance of `class D(dict)` holds its class
}

void DictObj::gc_clear() {
  std::vector<std::pair<Value, Value>> gone;
  gone.swap(items);
  clear_index();
}

// ---- dict ----

namespace {

// `a` is still the very value `b` was (same object, or the same plain number or string): what a
// dict lookup checks after a comparison that ran Python, as CPython checks `ep->me_key == startkey`.
bool same_entry(const Value& a, const Value& b) {
  if (a.kind != b.kind || a.obj != b.obj) return false;
  return a.obj || (a.b == b.b && a.i == b.i && std::memcmp(&a.f, &b.f, sizeof a.f) == 0 && a.s == b.s);
}

}  // namespace

// Hashes the items added since the last lookup. A stored key's __hash__ may run Python that
// changes this dict: each key is copied before it is hashed and the index restarts when the key
// at that position is no longer the one hashed.
void DictObj::sync_index() {
  for (;;) {
    if (indexed_ > items.size()) clear_index();   // items were removed behind the index's back: index afresh
    if (indexed_ >= items.size()) return;
    const Value k = items[indexed_].first;
    const int64_t h = py_hash(k);
    if (indexed_ < items.size() && same_entry(items[indexed_].first, k)) index_.emplace(h, indexed_++);
    else clear_index();
  }
}

// The position of `key` in items, or -1. A key's __eq__ may run Python that changes this dict
// (clears it, adds keys): each candidate is compared as a copy, and the lookup starts over when
// the dict changed under the comparison, as CPython's lookdict restarts.
std::ptrdiff_t DictObj::position(const Value& key) {
  const int64_t h = py_hash(key);   // before the index is read: __hash__ may change this dict
  for (bool again = true; again;) {
    again = false;
    sync_index();
    auto [first, last] = index_.equal_range(h);
    std::vector<size_t> candidates;   // copied: a nested lookup in __eq__ may rehash index_
    for (auto it = first; it != last; ++it) candidates.push_back(it->second);
    for (size_t pos : candidates) {
      if (pos >= items.size()) {   // removed by an earlier comparison
        again = true;
        break;
      }
      const Value k = items[pos].first;
      if (k.obj && k.obj == key.obj) return static_cast<std::ptrdiff_t>(pos);   // identity first, as CPython
      const uint64_t generation = generation_;
      const bool eq = equal(k, key);
      if (generation_ != generation || pos >= items.size() || !same_entry(items[pos].first, k)) {
        again = true;   // items removed or moved under __eq__: look again (a key appended is no reason)
        break;
      }
      if (eq) return static_cast<std::ptrdiff_t>(pos);
    }
  }
  return -1;
}

Value* DictObj::find(const Value& key) {
  if (key.kind == Value::Str) return find(key.s);
  const std::ptrdiff_t pos = position(key);
  return pos < 0 ? nullptr : &items[static_cast<size_t>(pos)].second;
}

Value* DictObj::find(const std::string& key) {
  const std::ptrdiff_t pos = str_position(key);
  return pos < 0 ? nullptr : &items[static_cast<size_t>(pos)].second;
}

// The position of a str key, or -1. Comparing two strings runs no Python, but hashing the
// other keys (sync_index) may.
std::ptrdiff_t DictObj::str_position(const std::string& key) {
  constexpr size_t kScan = 16;   // an instance's few attributes: comparing beats hashing
  if (items.size() <= kScan) {
    bool objects = false;   // a key object whose __eq__ may say it equals this str
    for (size_t k = 0; k < items.size(); ++k) {
      if (items[k].first.kind == Value::Str && items[k].first.s == key) return static_cast<std::ptrdiff_t>(k);
      objects = objects || items[k].first.kind == Value::Instance;
    }
    return objects ? position(Value::str(key)) : -1;
  }
  sync_index();
  auto [first, last] = index_.equal_range(py_hash(Value::str(key)));
  for (auto it = first; it != last; ++it) {
    const Value& k = items[it->second].first;
    if (k.kind == Value::Str && k.s == key) return static_cast<std::ptrdiff_t>(it->second);
    if (k.kind == Value::Instance) return position(Value::str(key));   // its __eq__ decides, in table order
  }
  return -1;
}

void DictObj::clear_index() {
  ++generation_;
  index_.clear();
  indexed_ = 0;
}

bool DictObj::erase(const Value& key) {
  return take(key).has_value();
}

std::optional<Value> DictObj::take(const Value& key) {
  const std::ptrdiff_t pos = key.kind == Value::Str ? str_position(key.s) : position(key);
  if (pos < 0) return std::nullopt;
  return erase_at(static_cast<size_t>(pos), false);
}

std::pair<Value, Value> DictObj::pop_last() {
  Value k = items.back().first;
  Value v = *erase_at(items.size() - 1, true);
  return {std::move(k), std::move(v)};
}

// Removes items[pos]: its entry becomes a hole; popitem (`last`) also drops the entries from it
// on, as dict_popitem_impl sets dk_nentries to the popped entry's index.
std::optional<Value> DictObj::erase_at(size_t pos, bool last) {
  sync_layout();
  size_t entry = pos;
  auto it = holes_.begin();
  for (; it != holes_.end() && *it <= entry; ++it) ++entry;
  if (last) {
    holes_.erase(it, holes_.end());
    entries_ = entry;
  } else {
    holes_.insert(it, entry);
  }
  --seen_;
  Value v = std::move(items[pos].second);
  items.erase(items.begin() + static_cast<std::ptrdiff_t>(pos));
  clear_index();   // the positions after it moved: O(n), as the erase itself
  return v;
}

void DictObj::clear() {
  items.clear();
  clear_index();
  table_ = usable_ = entries_ = seen_ = 0;
  holes_.clear();
}

void DictObj::set(const Value& key, Value v) {
  if (Value* slot = find(key)) {
    *slot = std::move(v);
    return;
  }
  py_hash(key);   // an unhashable key raises before it is stored
  items.emplace_back(key, std::move(v));   // indexed by the next find()
  sync_layout();
}

namespace {

size_t usable_fraction(size_t table) { return (table << 1) / 3; }                  // USABLE_FRACTION
// calculate_log2_keysize as CPython 3.11 computes it on x86-64: bit_length((n | 8) - 1), which is
// 16, not 8, for n from 1 to 7 (and 64 for 32): what decides when a dict's table is compacted.
size_t table_for(size_t n) {
  size_t t = 1;
  for (size_t m = (n | 8) - 1; m; m >>= 1) t <<= 1;
  return t;
}

}  // namespace

// One new item at the end, as insertdict: the first goes into a new 8-entry table; one that finds
// no usable entry resizes first (GROWTH_RATE: three times the items), which drops the holes.
void DictObj::added() {
  if (table_ == 0) {
    table_ = 8;
    usable_ = usable_fraction(table_);
  } else if (usable_ == 0) {
    compact(table_for(seen_ * 3));
  }
  ++entries_;
  --usable_;
  ++seen_;
}

// dictresize: a table of `table` entries holding the seen_ items, no holes.
void DictObj::compact(size_t table) {
  table_ = table;
  usable_ = usable_fraction(table) - seen_;
  entries_ = seen_;
  holes_.clear();
}

// Items appended directly are added; items removed behind the table's back (the collector
// clearing the dict) leave a compact table of what is left.
void DictObj::sync_layout() {
  if (seen_ > items.size()) {
    seen_ = items.size();
    if (seen_ == 0) table_ = usable_ = entries_ = 0, holes_.clear();
    else compact(table_for((seen_ * 3 + 1) / 2));
  }
  while (seen_ < items.size()) added();
}

void DictObj::presize(size_t n) {
  if (!items.empty() || n <= usable_fraction(8)) return;   // PyDict_New: the empty keys
  table_ = table_for((n * 3 + 1) / 2);   // estimate_log2_keysize
  usable_ = usable_fraction(table_);
  entries_ = seen_ = 0;
  holes_.clear();
}

bool DictObj::sparse() {
  sync_layout();
  return seen_ < entries_ * 2 / 3;
}

void DictObj::fresh_table() {
  table_ = usable_ = entries_ = seen_ = 0;
  holes_.clear();
  if (!items.empty()) {
    table_ = table_for((items.size() * 3 + 1) / 2);   // estimate_log2_keysize
    usable_ = usable_fraction(table_);
  }
  sync_layout();
}

bool DictObj::merge_start(DictObj& other) {
  sync_layout();
  other.sync_layout();
  const size_t n = other.items.size();
  if (&other == this || n == 0) return false;
  if (items.empty() && other.entries_ == n && (other.table_ == 8 || usable_fraction(other.table_ / 2) < n)) {
    items = other.items;   // clone_combined_dict_keys
    clear_index();
    table_ = other.table_;
    usable_ = other.usable_;
    entries_ = seen_ = n;
    holes_.clear();
    return true;
  }
  if (usable_fraction(table_ == 0 ? 1 : table_) < n) compact(table_for(((items.size() + n) * 3 + 1) / 2));   // estimate_log2_keysize
  return false;
}

std::ptrdiff_t DictObj::live_from(size_t& entry) {
  sync_layout();
  auto it = std::lower_bound(holes_.begin(), holes_.end(), entry);
  for (; it != holes_.end() && *it == entry; ++it) ++entry;
  if (entry >= entries_) return -1;
  return static_cast<std::ptrdiff_t>(entry - static_cast<size_t>(it - holes_.begin()));
}

// ---- classes ----

namespace {

// C3 linearisation, as Python orders a class's bases (single inheritance: the chain of bases).
std::vector<ClassObj*> linearise(const ClassObj* cls) {
  std::vector<std::vector<ClassObj*>> seqs;
  for (const ClassPtr& b : cls->bases) seqs.push_back(b->mro());
  std::vector<ClassObj*> direct;
  for (const ClassPtr& b : cls->bases) direct.push_back(b.get());
  seqs.push_back(direct);
  std::vector<ClassObj*> out{const_cast<ClassObj*>(cls)};
  for (;;) {
    seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](const auto& s) { return s.empty(); }), seqs.end());
    if (seqs.empty()) return out;
    ClassObj* pick = nullptr;
    for (const auto& s : seqs) {
      ClassObj* head = s.front();
      bool in_tail = std::any_of(seqs.begin(), seqs.end(), [&](const auto& t) { return std::find(t.begin() + 1, t.end(), head) != t.end(); });
      if (!in_tail) {
        pick = head;
        break;
      }
    }
    if (!pick) {
      std::string names;
      for (const ClassPtr& b : cls->bases) names += (names.empty() ? "" : ", ") + b->name;
      throw TypeError("Cannot create a consistent method resolution order (MRO) for bases " + names);
    }
    out.push_back(pick);
    for (auto& s : seqs)
      if (s.front() == pick) s.erase(s.begin());
  }
}

}  // namespace

const std::vector<ClassObj*>& ClassObj::mro() const {
  if (mro_.empty()) mro_ = linearise(this);
  return mro_;
}

std::vector<std::string> ClassObj::names_in_order() const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto it = order.rbegin(); it != order.rend(); ++it)   // a name's last place: where it was added again
    if (methods.count(*it) && seen.insert(*it).second) out.push_back(*it);
  std::reverse(out.begin(), out.end());
  for (const auto& [name, v] : methods)
    if (!seen.count(name)) out.push_back(name);
  return out;
}

const Value* ClassObj::find_method(const std::string& n) const {
  for (const ClassObj* c : mro()) {
    auto it = c->methods.find(n);
    if (it != c->methods.end()) return &it->second;
  }
  return nullptr;
}

const void* ClassObj::tag() const {
  for (const ClassObj* c : mro())
    if (c->native_tag) return c->native_tag;
  return nullptr;
}

bool is_subclass(const ClassObj* cls, const ClassObj* base) {
  if (!cls || !base) return false;
  const auto& order = cls->mro();
  return std::find(order.begin(), order.end(), base) != order.end();
}

bool is_subclass(const ClassPtr& cls, const ClassObj* base) { return is_subclass(cls.get(), base); }

bool isinstance(const Value& v, const ClassObj* cls) { return is_subclass(type_of(v), cls); }

ClassPtr make_native_class(const std::string& name, const std::string& module, std::vector<ClassPtr> bases) {
  auto c = std::make_shared<ClassObj>();
  c->name = name;
  c->module = module;
  c->bases = bases.empty() ? std::vector<ClassPtr>{builtin_class("object")} : std::move(bases);
  c->immutable = true;
  return c;
}

namespace {

// Python's own classes, made once and shared by every session (immutable, as in CPython).
const std::map<std::string, ClassPtr>& builtin_classes() {
  static const std::map<std::string, ClassPtr> all = [] {
    std::map<std::string, ClassPtr> m;
    auto object = std::make_shared<ClassObj>();
    object->name = "object";
    object->module = "builtins";
    object->immutable = true;
    m["object"] = object;
    auto add = [&](const char* name, const char* base) {
      auto c = std::make_shared<ClassObj>();
      c->name = name;
      c->module = "builtins";
      c->bases = {m.at(base)};
      c->immutable = true;
      m[name] = c;
    };
    for (const char* n : {"type", "int", "float", "str", "list", "tuple", "dict", "set", "frozenset", "NoneType", "function",
                          "builtin_function_or_method", "module", "slice", "range", "ellipsis", "NotImplementedType"})
      add(n, "object");
    add("bool", "int");
    return m;
  }();
  return all;
}

}  // namespace

const ClassPtr& builtin_class(const std::string& name) { return builtin_classes().at(name); }

ClassPtr type_of(const Value& v) {
  switch (v.kind) {
    case Value::None: return builtin_class("NoneType");
    case Value::Bool: return builtin_class("bool");
    case Value::Int: return builtin_class("int");
    case Value::Float: return builtin_class("float");
    case Value::Str: return builtin_class("str");
    case Value::List: case Value::Tuple: {
      const auto& c = static_cast<const SeqObj*>(v.obj.get())->cls;
      return c ? c : builtin_class(v.kind == Value::List ? "list" : "tuple");
    }
    case Value::Dict: {
      const auto& c = static_cast<const DictObj*>(v.obj.get())->cls;
      return c ? c : builtin_class("dict");
    }
    case Value::Set: {
      const auto& c = static_cast<const SetObj*>(v.obj.get())->cls;
      return c ? c : builtin_class("set");
    }
    case Value::Slice: return builtin_class("slice");
    case Value::Range: return builtin_class("range");
    case Value::Function: return builtin_class("function");
    case Value::Builtin: return builtin_class("builtin_function_or_method");
    case Value::Class: return builtin_class("type");
    case Value::Instance: return static_cast<const InstanceObj*>(v.obj.get())->cls;
    case Value::Namespace: return builtin_class("module");
    case Value::Ellipsis: return builtin_class("ellipsis");
    case Value::NotImplemented: return builtin_class("NotImplementedType");
  }
  return builtin_class("object");
}

bool is_frozenset(const Value& v) {
  static const ClassObj* const frozen = builtin_class("frozenset").get();
  return v.kind == Value::Set && static_cast<const SetObj*>(v.obj.get())->cls.get() == frozen;
}

Value frozen(Value set) {
  static const ClassPtr frozen = builtin_class("frozenset");
  static_cast<SetObj*>(set.obj.get())->cls = frozen;
  return set;
}

ClassObj* py_subclass(const Value& v) {
  ClassObj* c = nullptr;
  switch (v.kind) {
    case Value::List: case Value::Tuple: c = static_cast<const SeqObj*>(v.obj.get())->cls.get(); break;
    case Value::Dict: c = static_cast<const DictObj*>(v.obj.get())->cls.get(); break;
    case Value::Set: c = static_cast<const SetObj*>(v.obj.get())->cls.get(); break;
    default: break;
  }
  return c && !c->immutable ? c : nullptr;
}

std::shared_ptr<DictObj> attrs_of(const Value& v) {
  if (v.kind == Value::Instance) return static_cast<InstanceObj*>(v.obj.get())->dict;
  if (!py_subclass(v)) return nullptr;
  std::shared_ptr<DictObj>& a = v.kind == Value::Dict ? static_cast<DictObj*>(v.obj.get())->attrs
                                : v.kind == Value::Set ? static_cast<SetObj*>(v.obj.get())->attrs
                                                       : static_cast<SeqObj*>(v.obj.get())->attrs;
  if (!a) a = std::make_shared<DictObj>();
  return a;
}

const ClassObj* builtin_base(const ClassObj& cls) {
  for (const ClassObj* c : cls.mro())
    if (c->module == "builtins" && (c->name == "list" || c->name == "tuple" || c->name == "dict" || c->name == "set")) return c;
  return nullptr;
}

std::string type_name(const Value& v) {
  const ClassPtr c = type_of(v);
  return c->qualified_name ? c->module + "." + c->name : c->name;
}

std::vector<Value>& as_seq(const Value& v) {
  if (v.kind != Value::List && v.kind != Value::Tuple) throw TypeError(fmt::format("'{}' object is not a sequence", type_name(v)));
  return static_cast<SeqObj*>(v.obj.get())->items;
}

// ---- repr, str, truth, == of plain values ----

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

std::string join_repr(const std::vector<Value>& items) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) {
    std::string item = repr(items[k]);
    check_bytes("a str", static_cast<Count>(out.size()) + item.size() + 2);   // str([s] * 12): before it grows
    out.append(k ? ", " : "").append(item);
  }
  return out;
}

}  // namespace

std::string class_repr(const ClassObj& c) {
  return "<class '" + (c.module == "builtins" ? "" : c.module + ".") + (c.qualname.empty() ? c.name : c.qualname) + "'>";
}

std::string repr(const Value& v) {
  if (Interpreter* in = Interpreter::current()) return in->repr_of(v);   // user __repr__ and native hooks
  return plain_repr(v);
}

std::string plain_repr(const Value& v) {
  std::optional<ValueDepthGuard> guard;
  std::optional<ReprEnter> enter;
  if (v.kind == Value::List || v.kind == Value::Dict || v.kind == Value::Tuple || v.kind == Value::Set) {
    guard.emplace("while getting the repr of an object");
    enter.emplace(v.obj.get());
    if (enter->again) return v.kind == Value::List ? "[...]" : "{...}";
  }
  switch (v.kind) {
    case Value::None: return "None";
    case Value::Bool: return v.b ? "True" : "False";
    case Value::Int: return int_repr(v);
    case Value::Float: return print::py_float_repr(v.f);
    case Value::Str:   // up to 10 bytes a character: the size is checked before it is built
      if (v.s.size() > limits::kMaxStrBytes / 4) check_bytes("a str", print::py_str_repr_size(v.s));
      return print::py_str_repr(v.s);
    // append(), not "[" + ... + "]": GCC 12 warns -Wrestrict on that once inlined (GCC bug 105651)
    case Value::List: return std::string("[").append(join_repr(as_seq(v))).append("]");
    case Value::Tuple: {
      auto& items = as_seq(v);
      return std::string("(").append(join_repr(items)).append(items.size() == 1 ? ",)" : ")");
    }
    case Value::Dict: {
      auto& items = static_cast<DictObj*>(v.obj.get())->items;
      if (static_cast<DictObj*>(v.obj.get())->ordered) {   // Python 3.11's OrderedDict repr
        const std::string name = type_of(v)->name;   // OrderedDict, or a subclass's name
        if (items.empty()) return name + "()";
        std::string out = name + "([";
        for (size_t k = 0; k < items.size(); ++k) out += (k ? ", (" : "(") + repr(items[k].first) + ", " + repr(items[k].second) + ")";
        return out + "])";
      }
      std::string out = "{";
      for (size_t k = 0; k < items.size(); ++k) {
        out += (k ? ", " : "") + repr(items[k].first) + ": " + repr(items[k].second);
        check_bytes("a str", out.size());
      }
      return out + "}";
    }
    case Value::Set: {
      std::vector<Value> items = static_cast<SetObj*>(v.obj.get())->ordered();
      if (const ClassObj* sub = py_subclass(v))   // class S(set): S({1, 2}), S()
        return sub->name + (items.empty() ? "()" : std::string("({").append(join_repr(items)).append("})"));
      if (is_frozenset(v)) return items.empty() ? "frozenset()" : std::string("frozenset({").append(join_repr(items)).append("})");
      return items.empty() ? "set()" : std::string("{").append(join_repr(items)).append("}");
    }
    case Value::Instance: {   // Python's <__main__.A object at 0x7f...>, without the address (it changes from run to run)
      const ClassObj& c = *static_cast<InstanceObj*>(v.obj.get())->cls;
      return "<" + (c.module == "builtins" ? "" : c.module + ".") + c.name + " object>";   // <object object>
    }
    case Value::Class: return class_repr(*static_cast<ClassObj*>(v.obj.get()));
    case Value::Function: return "<function " + static_cast<FunctionObj*>(v.obj.get())->qualname + ">";
    case Value::Builtin: return "<built-in function " + static_cast<BuiltinObj*>(v.obj.get())->name + ">";
    case Value::Namespace: return "<module '" + v.s + "'>";
    case Value::Slice: {
      const auto& s = *static_cast<const SliceObj*>(v.obj.get());
      return "slice(" + repr(s.start) + ", " + repr(s.stop) + ", " + repr(s.step) + ")";
    }
    case Value::Ellipsis: return "Ellipsis";
    case Value::NotImplemented: return "NotImplemented";
    case Value::Range: {
      const auto& r = *static_cast<const RangeObj*>(v.obj.get());
      return r.step == 1 ? fmt::format("range({}, {})", r.start, r.stop) : fmt::format("range({}, {}, {})", r.start, r.stop, r.step);
    }
  }
  return "?";
}

std::string str(const Value& v) {
  if (v.kind == Value::Str) return v.s;
  if (Interpreter* in = Interpreter::current(); in && v.kind == Value::Instance) return in->str_of(v);
  return repr(v);
}

bool truthy(const Value& v) {
  switch (v.kind) {
    case Value::None: return false;
    case Value::Bool: return v.b;
    case Value::Int: return v.is_big() || v.i != 0;
    case Value::Float: return v.f != 0.0;
    case Value::Str: return !v.s.empty();
    case Value::List: case Value::Tuple: return !as_seq(v).empty();
    case Value::Dict: return !static_cast<DictObj*>(v.obj.get())->items.empty();
    case Value::Set: return static_cast<SetObj*>(v.obj.get())->size() > 0;
    case Value::Range: return static_cast<const RangeObj*>(v.obj.get())->length() > 0;
    case Value::Instance:
      if (Interpreter* in = Interpreter::current()) return in->truth(v);
      return true;
    default: return true;
  }
}

bool same_object(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::None: case Value::Ellipsis: case Value::NotImplemented: return true;
    case Value::Bool: return a.b == b.b;
    case Value::Int: return a.obj || b.obj ? a.obj == b.obj : a.i == b.i;   // a big int: its object
    case Value::Str: return a.s == b.s;
    case Value::Float: return false;
    case Value::Tuple: {   // () is one object
      auto empty = [](const Value& v) { auto* t = static_cast<const SeqObj*>(v.obj.get()); return t && t->items.empty() && !t->cls; };
      return a.obj == b.obj || (empty(a) && empty(b));
    }
    default: return a.obj && a.obj == b.obj;
  }
}

bool equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;   // exact: 2**53 + 1 != 2.0**53
  if (a.kind == Value::Instance || b.kind == Value::Instance) {
    if (a.obj == b.obj) return true;
    if (Interpreter* in = Interpreter::current()) return truthy(in->compare("==", a, b));
    return false;
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::None: case Value::Ellipsis: case Value::NotImplemented: return true;
    case Value::Str: return a.s == b.s;
    case Value::List: case Value::Tuple: {
      if (a.obj == b.obj) return true;   // CPython compares items by identity first: a list equals itself
      ValueDepthGuard guard("in comparison");
      auto &x = as_seq(a), &y = as_seq(b);
      if (x.size() != y.size()) return false;
      // As CPython's list_richcompare: copies of the items, both sizes re-read after each ==
      // (which may run Python that shrinks or grows either list).
      for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
        const Value xk = x[k], yk = y[k];
        if (!(xk.obj && xk.obj == yk.obj) && !equal(xk, yk)) return false;
      }
      return x.size() == y.size();
    }
    case Value::Dict: {
      if (a.obj == b.obj) return true;
      ValueDepthGuard guard("in comparison");
      auto *x = static_cast<DictObj*>(a.obj.get()), *y = static_cast<DictObj*>(b.obj.get());
      if (x->items.size() != y->items.size()) return false;
      for (size_t n = 0; n < x->items.size(); ++n) {   // by position, on copies: == may run Python that changes x or y
        const Value k = x->items[n].first, v = x->items[n].second;
        Value* w = y->find(k);
        if (!w) return false;
        const Value wv = *w;
        if (!equal(v, wv)) return false;
      }
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
    case Value::Slice: {   // as the tuples (start, stop, step)
      auto &x = *static_cast<const SliceObj*>(a.obj.get()), &y = *static_cast<const SliceObj*>(b.obj.get());
      return a.obj == b.obj || (equal(x.start, y.start) && equal(x.stop, y.stop) && equal(x.step, y.step));
    }
    default: return a.obj == b.obj;
  }
}

std::ptrdiff_t find_equal(const std::vector<Value>& items, const Value& x, size_t start, size_t stop) {
  for (size_t k = start; k < stop && k < items.size(); ++k) {
    const Value item = items[k];
    if ((item.obj && item.obj == x.obj) || equal(item, x)) return static_cast<std::ptrdiff_t>(k);
  }
  return -1;
}

size_t count_equal(const std::vector<Value>& items, const Value& x) {
  size_t n = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    const Value item = items[k];
    if ((item.obj && item.obj == x.obj) || equal(item, x)) ++n;
  }
  return n;
}

unsigned __int128 RangeObj::length() const {
  __int128 span = step > 0 ? __int128(stop) - start : __int128(start) - stop, size = step > 0 ? __int128(step) : -__int128(step);
  return span <= 0 ? 0 : static_cast<unsigned __int128>((span + size - 1) / size);
}

}  // namespace attn::py
