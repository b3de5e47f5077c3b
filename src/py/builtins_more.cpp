// py/builtins_more.cpp: the builtins tutorials' helper code uses beyond builtins.cpp's: any,
// all, map, filter, reversed, iter, next, bool, hash, chr, ord; the list, dict, tuple and str
// methods beyond append/get/items/split/join; and the refusals of Python builtins and methods
// attn lacks, in one line naming them (never a NameError that reads like the user's typo).
//
// What it is: Python 3.11's behaviour and messages for these. map, filter, reversed and iter
// return iterator objects that next() steps and a loop uses up; their items are computed when
// the iterator is made (attn has no lazy iteration), which only shows if the mapped function
// prints. What it is not: the whole standard library, or lazy evaluation.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <cctype>
#include <set>
#include <string_view>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/text.h"

namespace attn::py {

namespace {

using ClassPtr = std::shared_ptr<ClassObj>;

DictObj& dict_of(const Value& v) { return *static_cast<DictObj*>(v.obj.get()); }

// ---- iterators: an instance of a built-in class (map, filter, list_iterator, ...) holding the
// items still to come ----


// it.__next__() and it.__iter__() of a built-in iterator, by name ([].__iter__().__next__()).
void add_iterator_dunders(ClassObj& c) {
  c.methods["__next__"] = method(c.name + ".__next__", [](Interpreter&, CallArgs& a) {
    if (std::optional<Value> v = iterator_step(a.pos.at(0))) return *v;
    throw StopIteration("");
  });
  c.methods["__iter__"] = method(c.name + ".__iter__", [](Interpreter&, CallArgs& a) { return a.pos.at(0); });
}

const ClassPtr& iterator_class(const std::string& name) {
  static std::map<std::string, ClassPtr> classes;
  ClassPtr& c = classes[name];
  if (!c) {
    c = make_native_class(name, "builtins");
    add_iterator_dunders(*c);
    c->slots.repr = [name](Interpreter&, const Value&) { return "<" + name + " object>"; };   // Python adds the address
  }
  return c;
}

Value make_iterator(const std::string& kind, std::vector<Value> items) {
  auto o = std::make_shared<InstanceObj>();
  o->cls = iterator_class(kind);
  o->set("__items__", Value::list(std::move(items)));
  o->set("__position__", Value::integer(0));
  Value v;
  v.kind = Value::Instance;
  v.obj = o;
  return v;
}

int64_t& position(const Value& it) { return inst(it).find("__position__")->i; }

// A lazy iterator (enumerate, zip, map, filter over a generator or another iterator): its items
// are made one by one as it is stepped. What it steps over (the iterators, the function) is in
// `held`, which the cycle collector sees into; `step` holds no Value itself.
int lazy_tag;
struct LazyIterObj : InstanceObj {
  LazyStep step;
  std::vector<Value> held;
  bool done = false;
  ~LazyIterObj() override {   // through the trashcan: map(f, map(f, ...)) 300,000 deep
    std::vector<std::shared_ptr<Obj>> gone;
    for (Value& v : held) gone.push_back(std::move(v.obj));
    release_all_later(std::move(gone));
  }
  void gc_traverse(GcVisitor& visit) override {
    InstanceObj::gc_traverse(visit);
    for (const Value& v : held) visit(v);
  }
  void gc_clear() override {
    std::vector<Value> gone;
    gone.swap(held);
    done = true;   // nothing left to step over
  }
};

LazyIterObj* lazy_of(const Value& v) { return native_cast<LazyIterObj>(v, &lazy_tag); }

}  // namespace

Value lazy_iterator(const std::string& name, std::vector<Value> held, LazyStep step) {
  static std::map<std::string, ClassPtr> classes;
  ClassPtr& c = classes[name];
  if (!c) {
    c = make_native_class(name, "builtins");
    c->native_tag = &lazy_tag;
    add_iterator_dunders(*c);
    c->slots.repr = [name](Interpreter&, const Value&) { return "<" + name + " object>"; };
  }
  auto o = std::make_shared<LazyIterObj>();
  o->cls = c;
  o->step = std::move(step);
  o->held = std::move(held);
  return Value::of_instance(std::move(o));
}

bool is_iterator(const Value& v) {
  return v.kind == Value::Instance && (lazy_of(v) || (inst(v).find("__items__") && inst(v).cls->module == "builtins"));
}

std::vector<Value> drain_iterator(const Value& it) {
  if (lazy_of(it)) {
    std::vector<Value> out;
    while (std::optional<Value> v = iterator_step(it)) {
      out.push_back(std::move(*v));
      check_items("the items of an iterator", out.size());
    }
    return out;
  }
  const std::vector<Value>& items = as_seq(*inst(it).find("__items__"));
  int64_t& k = position(it);
  std::vector<Value> rest(items.begin() + std::min<int64_t>(k, static_cast<int64_t>(items.size())), items.end());
  k = static_cast<int64_t>(items.size());
  return rest;
}

std::optional<Value> iterator_step(const Value& it) {
  if (LazyIterObj* lazy = lazy_of(it)) {   // the caller holds `it`: the object lives while it steps
    if (lazy->done) return std::nullopt;
    Interpreter& in = *Interpreter::current();
    in.tick();
    check_stack();   // map(f, map(f, ...)) 300,000 deep steps each inner one: a limit, not a stack overflow
    std::optional<Value> v = lazy->step(in, lazy->held);
    if (!v) lazy->done = true;   // used up: it stays so
    return v;
  }
  const std::vector<Value>& items = as_seq(*inst(it).find("__items__"));
  int64_t& k = position(it);
  if (k < static_cast<int64_t>(items.size())) return items[static_cast<size_t>(k++)];
  return std::nullopt;
}

namespace {

Value next_fn(Interpreter& in, CallArgs& a) {
  if (a.pos.empty() || a.pos.size() > 2 || !a.kw.empty())
    throw TypeError(fmt::format("next expected at least 1 argument, got {}", a.pos.size()));
  const Value& it = a.pos[0];
  if (!is_iterator(it)) {   // an object with __next__
    const Value* next = it.kind == Value::Instance ? type_of(it)->find_method("__next__") : nullptr;
    if (!next) throw TypeError("'" + type_name(it) + "' object is not an iterator");
    try {
      CallArgs self;
      self.pos.push_back(it);
      return in.call(*next, self);
    } catch (const PyError& e) {
      if (a.pos.size() == 2 && is_instance_of(e, "StopIteration")) return a.pos[1];
      throw;
    }
  }
  if (std::optional<Value> v = iterator_step(it)) return *v;
  if (a.pos.size() == 2) return a.pos[1];
  throw StopIteration("");
}

// map(f, *iterables): f over the items in step, as long as the shortest iterable lasts.
Value map_fn(Interpreter& in, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("map() takes no keyword arguments");
  if (a.pos.size() < 2) throw TypeError("map() must have at least two arguments.");
  // Lazily, as CPython's map: each item when asked for, over the live iterables.
  std::vector<Value> its;   // held: the function, then the iterators
  its.push_back(a.pos[0]);
  for (size_t k = 1; k < a.pos.size(); ++k) its.push_back(in.iter(a.pos[k]));
  return lazy_iterator("map", std::move(its), [](Interpreter& in, std::vector<Value>& held) -> std::optional<Value> {
    const std::vector<Value> fn_its = held;   // a step may clear `held` (a collection inside fn)
    CallArgs c;
    for (size_t k = 1; k < fn_its.size(); ++k) {
      std::optional<Value> v = in.next(fn_its[k]);
      if (!v) return std::nullopt;
      c.pos.push_back(std::move(*v));
    }
    return in.call(fn_its[0], c);
  });
}

Value filter_fn(Interpreter& in, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError("filter() takes no keyword arguments");
  if (a.pos.size() != 2) throw TypeError(fmt::format("filter expected 2 arguments, got {}", a.pos.size()));
  return lazy_iterator("filter", {a.pos[0], in.iter(a.pos[1])}, [](Interpreter& in, std::vector<Value>& held) -> std::optional<Value> {
    const Value fn = held.at(0), it = held.at(1);
    while (std::optional<Value> v = in.next(it)) {
      CallArgs c;
      c.pos.push_back(*v);
      if (fn.is_none() ? in.truth(*v) : in.truth(in.call(fn, c))) return v;
    }
    return std::nullopt;
  });
}

// iter(list): by position, the size re-read at each step, as CPython's listiterator, so a loop
// body that appends or removes sees the list as it is now.
Value list_live_iterator(const Value& list) {
  return lazy_iterator("list_iterator", {list}, [next = size_t{0}](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
    if (held.empty()) return std::nullopt;   // used up: it stays so, the list let go of
    const std::vector<Value>& items = as_seq(held[0]);
    if (next < items.size()) return items[next++];
    held.clear();
    return std::nullopt;
  });
}

// iter(str): one code point a step, as CPython's str iterators: nothing made ahead, so
// `for c in s: break` over a 10^8-char str costs one item.
Value str_live_iterator(const Value& text) {
  return lazy_iterator(str_ascii(text) ? "str_ascii_iterator" : "str_iterator", {text},
                       [pos = size_t{0}](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
                         if (held.empty()) return std::nullopt;   // used up, or cleared by the collector
                         const std::string& t = held[0].s;
                         if (pos >= t.size()) {
                           held.clear();
                           return std::nullopt;
                         }
                         const size_t start = pos;
                         uc::next(t, pos);
                         return Value::str(t.substr(start, pos - start));
                       });
}

// reversed(list): from the last position down, as CPython's listreviter (a shrunk list ends it).
Value list_reverse_iterator(const Value& list) {
  const int64_t last = static_cast<int64_t>(as_seq(list).size()) - 1;
  return lazy_iterator("list_reverseiterator", {list}, [k = last](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
    const std::vector<Value>& items = as_seq(held[0]);
    if (k < 0 || k >= static_cast<int64_t>(items.size())) return std::nullopt;
    return items[static_cast<size_t>(k--)];
  });
}

}  // namespace

// An iterator over `held`, a snapshot of dict or set `container`'s keys (values, items), with
// CPython's RuntimeError once the size changed (checked before the end, as dictiter_iternextkey).
// An OrderedDict's checks after the end instead, and also sees keys removed or moved
// (odictiter_nextkey's od_state).
Value checked_iterator(const std::string& name, std::vector<Value> held, const Value& container) {
  const size_t n = held.size();
  held.push_back(container);   // last
  const bool ordered = container.kind == Value::Dict && static_cast<const DictObj*>(container.obj.get())->ordered;
  const uint64_t generation = container.kind == Value::Dict ? static_cast<const DictObj*>(container.obj.get())->generation() : 0;
  return lazy_iterator(name, std::move(held), [next = size_t{0}, n, ordered, generation](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
    if (next > n) return std::nullopt;
    const Value& c = held.back();
    if (ordered) {
      if (next == n) return std::nullopt;
      const auto& d = *static_cast<const DictObj*>(c.obj.get());
      if (d.items.size() != n || d.generation() != generation) {
        next = n + 1;   // CPython's odict iterator is done after this error
        throw RuntimeError("OrderedDict mutated during iteration");
      }
      return held[next++];
    }
    if (Interpreter::container_size(c) != n) Interpreter::changed_size_during_iteration(c);
    if (next == n) {
      ++next;
      return std::nullopt;
    }
    return held[next++];
  });
}

// By entry position in CPython's table (DictObj::live_from), as dictiter_iternextkey: the size
// checked first (and again at every later call), then an item found after as many as the dict
// had is "keys changed"; the end of the table, or that error, ends it for good.
Value dict_live_iterator(const std::string& name, const Value& dict, int what) {
  const size_t n = static_cast<const DictObj*>(dict.obj.get())->items.size();
  return lazy_iterator(name, {dict}, [entry = size_t{0}, used = n, left = n, what, done = false](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
    if (done) return std::nullopt;
    auto& d = *static_cast<DictObj*>(held[0].obj.get());
    if (d.items.size() != used) {
      used = SIZE_MAX;   // sticky, as di_used = -1
      throw RuntimeError("dictionary changed size during iteration");
    }
    const std::ptrdiff_t pos = d.live_from(entry);
    done = pos < 0 || left == 0;
    if (pos < 0) return std::nullopt;
    if (left == 0) throw RuntimeError("dictionary keys changed during iteration");
    ++entry;
    --left;
    const auto& [k, v] = d.items[static_cast<size_t>(pos)];
    return what == 0 ? k : what == 1 ? v : Value::tuple({k, v});
  });
}

// A set's, as setiter_iternext: the size checked first (and at every later call), then the next
// live item in the table as it is now, so a number added where the walk has not been yet is met.
Value set_live_iterator(const Value& set) {
  const auto& s = *static_cast<const SetObj*>(set.obj.get());
  return lazy_iterator("set_iterator", {set}, [pos = size_t{0}, used = s.size(), by_slot = s.all_numbers(), added = s.added(), done = false](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
    if (done) return std::nullopt;
    const auto& s = *static_cast<const SetObj*>(held[0].obj.get());
    if (s.size() != used) {
      used = SIZE_MAX;   // sticky, as si_used = -1
      throw RuntimeError("Set changed size during iteration");
    }
    std::optional<Value> item = s.live_from(pos, by_slot, added);
    done = !item;
    return item;
  });
}

namespace {

bool is_ordered_dict(const Value& v) { return v.kind == Value::Dict && static_cast<const DictObj*>(v.obj.get())->ordered; }

// A range's iterator (iter or reversed), as CPython's range_iterator: each int made when it is
// asked for, so next(enumerate(range(10**12))) costs one int, not a list of 10**12.
Value range_iterator(const Value& range, bool backwards) {
  const Count n = static_cast<const RangeObj*>(range.obj.get())->length();
  return lazy_iterator("range_iterator", {range}, [k = Count{0}, n, backwards](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
    if (k >= n) return std::nullopt;
    const auto& r = *static_cast<const RangeObj*>(held[0].obj.get());   // a range never changes
    const Count at = backwards ? n - 1 - k : k;
    ++k;
    return Value::integer(r.at(at));
  });
}

// reversed() of a class with __getitem__ (and no __reversed__), as CPython's reversed_new and
// reversediter_next: len() asked once (its TypeError if there is no __len__), then self[n-1] down
// to self[0], one a call, stopping early at an IndexError or StopIteration.
Value sequence_reversed(Interpreter& in, const Value& seq) {
  const int64_t n = in.len(seq);
  return lazy_iterator("reversed", {seq}, [k = n - 1](Interpreter& in, std::vector<Value>& held) mutable -> std::optional<Value> {
    if (k < 0) return std::nullopt;
    try {
      Value item = in.getitem(held[0], Value::integer(k));
      --k;
      return item;
    } catch (const PyError& e) {
      if (!is_instance_of(e, "IndexError") && !is_instance_of(e, "StopIteration")) throw;
      k = -1;
      return std::nullopt;
    }
  });
}

Value reversed_fn(Interpreter& in, CallArgs& a) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError(fmt::format("reversed expected 1 argument, got {}", a.pos.size() + a.kw.size()));
  const Value& v = a.pos[0];
  switch (v.kind) {
    case Value::List: case Value::Tuple: case Value::Str: case Value::Dict: case Value::Range: break;
    default:
      if (const Value* rev = v.kind == Value::Instance ? type_of(v)->find_method("__reversed__") : nullptr) {
        if (rev->kind == Value::None) throw TypeError("'" + type_name(v) + "' object is not reversible");
        CallArgs self;
        self.pos.push_back(v);
        return in.call(*rev, self);
      }
      if (v.kind == Value::Instance && type_of(v)->find_method("__getitem__") && !type_of(v)->tag()) return sequence_reversed(in, v);
      if (v.kind == Value::Instance && !is_iterator(v) && !is_generator(v) && in.iterable(v) && type_of(v)->tag()) break;   // a native sequence (a host library's array)
      throw TypeError("'" + type_name(v) + "' object is not reversible");
  }
  if (v.kind == Value::List) return list_reverse_iterator(v);
  if (v.kind == Value::Range) return range_iterator(v, true);
  std::vector<Value> items = in.iterate(v);
  std::reverse(items.begin(), items.end());
  if (v.kind == Value::Dict) return checked_iterator(is_ordered_dict(v) ? "odict_iterator" : "dict_reversekeyiterator", std::move(items), v);
  return make_iterator("reversed", std::move(items));
}

Value iter_fn(Interpreter& in, CallArgs& a) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw NotImplementedError("attn's iter() takes one argument, an iterable");
  const Value& v = a.pos[0];
  if (is_iterator(v)) return v;   // iter(it) is it
  if (v.kind == Value::Instance)
    if (const Value* own = type_of(v)->find_method("__iter__")) {   // a class's own iterator
      CallArgs self;
      self.pos.push_back(v);
      return in.call(*own, self);
    }
  if (v.kind == Value::Instance)
    for (const ClassObj* c : type_of(v)->mro())
      if (c->slots.iter) {   // a native class: its lazy iterator as it is (a dict view's checks its dict's size)
        Value it = c->slots.iter(in, v);
        return is_iterator(it) ? it : make_iterator("iterator", in.iterate(it));
      }
  if (v.kind == Value::List) return list_live_iterator(v);
  if (v.kind == Value::Range) return range_iterator(v, false);
  if (v.kind == Value::Dict && !is_ordered_dict(v)) return dict_live_iterator("dict_keyiterator", v, 0);
  if (v.kind == Value::Set && !is_frozenset(v)) return set_live_iterator(v);
  if (v.kind == Value::Dict || v.kind == Value::Set)
    return checked_iterator(v.kind == Value::Set ? "set_iterator" : is_ordered_dict(v) ? "odict_iterator" : "dict_keyiterator", in.iterate(v), v);
  static const std::map<Value::Kind, const char*> kinds = {{Value::Tuple, "tuple_iterator"},
      {Value::Str, "str_ascii_iterator"}, {Value::Dict, "dict_keyiterator"}, {Value::Set, "set_iterator"}};
  auto k = kinds.find(v.kind);
  if (v.kind == Value::Str) return str_live_iterator(v);
  std::vector<Value> items = in.iterate(v);   // raises TypeError for what is not iterable
  return make_iterator(k != kinds.end() ? k->second : "iterator", std::move(items));
}

Value any_all(Interpreter& in, CallArgs& a, bool any) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError(fmt::format("{}() takes exactly one argument ({} given)", any ? "any" : "all", a.pos.size() + a.kw.size()));
  bool found = false;   // lazily: any(x > 3 for x in endless()) stops, as CPython
  in.for_each(a.pos[0], [&](const Value& v) {
    found = in.truth(v) == any;
    return !found;
  });
  return Value::boolean(found ? any : !any);
}

// hash(): a str, a bytes and a tuple holding them hash as CPython's do under PYTHONHASHSEED=0
// (CPython's default seed changes from run to run, so no printed value can be relied on; this
// one is CPython's own for one fixed seed, so dedupe-by-hash code runs); the rest by in.hash.
int64_t seeded_hash(Interpreter& in, const Value& x) {
  if (x.kind == Value::Str) return str_hash(x.s);
  if (const std::string* data = bytes_data(x); data && !is_bytearray(x)) return bytes_hash(*data);
  if (x.kind != Value::Tuple || py_subclass(x)) return in.hash(x);
  ValueDepthGuard guard("while hashing a tuple");   // a tuple nested 100,000 deep: no C++ stack overflow
  const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
  uint64_t acc = p5;   // tuplehash (Objects/tupleobject.c)
  const std::vector<Value>& items = as_seq(x);
  for (const Value& item : items) {
    acc += static_cast<uint64_t>(seeded_hash(in, item)) * p2;
    acc = (acc << 31) | (acc >> 33);
    acc *= p1;
  }
  acc += static_cast<uint64_t>(items.size()) ^ (p5 ^ 3527539ULL);
  return acc == static_cast<uint64_t>(-1) ? 1546275796 : static_cast<int64_t>(acc);
}

Value hash_fn(Interpreter& in, CallArgs& a) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError(fmt::format("hash() takes exactly one argument ({} given)", a.pos.size() + a.kw.size()));
  return Value::integer(seeded_hash(in, a.pos[0]));
}

Value chr_fn(Interpreter&, CallArgs& a) {
  int64_t i = to_int(arg(a, 0, "i"), "chr()");
  if (i < 0 || i > 0x10ffff) throw ValueError("chr() arg not in range(0x110000)");
  return Value::str(uc::encode(static_cast<char32_t>(i)));
}

Value ord_fn(Interpreter&, CallArgs& a) {
  Value c = arg(a, 0, "c");
  if (c.kind != Value::Str) throw TypeError("ord() expected string of length 1, but " + type_name(c) + " found");
  if (str_len(c) != 1) throw TypeError(fmt::format("ord() expected a character, but string of length {} found", str_len(c)));
  size_t pos = 0;
  return Value::integer(uc::next(c.s, pos));
}

// The builtins of Python 3.11 attn does not have: naming one is refused by name.
const std::set<std::string>& python_builtins() {
  static const std::set<std::string> names = {
      "aiter", "anext", "breakpoint", "compile", "complex", "dir",
      "eval", "exec", "exit", "globals", "help", "input", "locals", "memoryview",
      "open", "quit", "__import__"};
  return names;
}

// ---- methods ----

Value bound(const std::string& qualname, NativeFn fn) { return builtin(qualname, std::move(fn)); }   // a method of one value

}  // namespace

[[noreturn]] void no_method(const std::string& type, const std::string& name) {
  static const std::map<std::string, std::set<std::string>> python = {
      {"str", {}},
      {"list", {}},
      {"dict", {}},
      {"tuple", {}},
      {"set", {}}};
  auto it = python.find(type);
  if (it != python.end() && it->second.count(name))
    throw AttributeError("attn does not support " + type + "." + name + "() (docs/lesson-authors.md: What attn's Python supports)");
  throw AttributeError("'" + type + "' object has no attribute '" + name + "'");
}

void no_args(CallArgs& a, const std::string& name) {
  if (!a.pos.empty() || !a.kw.empty()) throw TypeError(fmt::format("{}() takes no arguments ({} given)", name, a.pos.size() + a.kw.size()));
}

// [start, end) of str.find/count/startswith... and list.index: CPython's ADJUST_INDICES (a
// negative index counts from the end, then both are clipped to [0, n]); start may pass end.
namespace {
int64_t slice_index(const Value* v, int64_t fallback) {
  if (!v || v->is_none()) return fallback;
  if (!is_int(*v) && (v->kind == Value::Float || v->kind == Value::Str || v->kind == Value::List || v->kind == Value::Tuple))
    throw TypeError("slice indices must be integers or None or have an __index__ method");
  return to_int(*v, "slice index");
}
}  // namespace

Span span_of(CallArgs& a, size_t first, int64_t n) {
  int64_t start = slice_index(find_arg(a, first, "start"), 0), end = slice_index(find_arg(a, first + 1, "end"), n);
  if (end > n) end = n;
  else if (end < 0) end = std::max<int64_t>(end + n, 0);
  if (start < 0) start = std::max<int64_t>(start + n, 0);
  return {start, end};
}

namespace {

// list.index(x, start, end), tuple.index(...): the first equal item in items[start:end].
int64_t index_of(const std::vector<Value>& items, CallArgs& a, const std::string& type) {
  const Value x = arg(a, 0, "value");
  const Span sp = span_of(a, 1, static_cast<int64_t>(items.size()));
  const Value* end = find_arg(a, 2, "end");
  const bool open_end = !end || end->is_none();   // to the list's end, however long an __eq__ makes it
  if (open_end || sp.start < sp.end) {
    const std::ptrdiff_t k = find_equal(items, x, static_cast<size_t>(sp.start), open_end ? SIZE_MAX : static_cast<size_t>(sp.end));
    if (k >= 0) return k;
  }
  throw ValueError(type == "list" ? repr(x) + " is not in list" : "tuple.index(x): x not in tuple");
}

int64_t count_of(const std::vector<Value>& items, const Value& x) {
  return static_cast<int64_t>(count_equal(items, x));
}

Value list_method(const Value& obj, const std::string& name) {
  std::vector<Value>& items = as_seq(obj);
  const std::string q = "list." + name;
  if (name == "extend")
    return bound(q, [obj](Interpreter& in, CallArgs& a) {
      list_extend(in, obj, arg(a, 0, "iterable"));
      return Value::none();
    });
  if (name == "insert")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      int64_t k = to_int(arg(a, 0, "index"), "index");   // first: __index__ may change the list
      std::vector<Value>& xs = as_seq(obj);
      const int64_t n = static_cast<int64_t>(xs.size());
      k = k < 0 ? std::max<int64_t>(0, k + n) : std::min(k, n);
      xs.insert(xs.begin() + k, arg(a, 1, "object"));
      return Value::none();
    });
  if (name == "pop")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      int64_t k = to_int(arg_or(a, 0, "index", Value::integer(-1)), "index");   // first: __index__ may change the list
      std::vector<Value>& xs = as_seq(obj);
      if (xs.empty()) throw IndexError("pop from empty list");
      const int64_t n = static_cast<int64_t>(xs.size());
      if (k < 0) k += n;
      if (k < 0 || k >= n) throw IndexError("pop index out of range");
      Value v = xs[static_cast<size_t>(k)];
      xs.erase(xs.begin() + k);
      return v;
    });
  if (name == "remove")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      std::vector<Value>& xs = as_seq(obj);
      const std::ptrdiff_t k = find_equal(xs, arg(a, 0, "value"));
      if (k >= 0 && static_cast<size_t>(k) < xs.size()) {
        xs.erase(xs.begin() + k);
        return Value::none();
      }
      throw ValueError("list.remove(x): x not in list");
    });
  if (name == "index") return bound(q, [obj](Interpreter&, CallArgs& a) { return Value::integer(index_of(as_seq(obj), a, "list")); });
  if (name == "count") return bound(q, [obj](Interpreter&, CallArgs& a) { return Value::integer(count_of(as_seq(obj), arg(a, 0, "value"))); });
  if (name == "sort")
    return bound(q, [obj](Interpreter& in, CallArgs& a) {   // as sorted(), in place
      if (!a.pos.empty()) throw TypeError(fmt::format("sort() takes no positional arguments"));
      // The list is empty while it sorts, as CPython's: a key or __lt__ that changes it changes
      // an empty list, and that is "list modified during sort" afterwards.
      Value mine = Value::list({});
      as_seq(mine).swap(as_seq(obj));
      CallArgs s = a;
      s.pos.push_back(mine);
      Value sorted;
      try {
        sorted = in.call(in.lookup("sorted"), s);
      } catch (...) {
        as_seq(obj) = std::move(as_seq(mine));
        throw;
      }
      const bool modified = !as_seq(obj).empty();
      if (sorted.kind == Value::List && sorted.obj.use_count() == 1) as_seq(obj) = std::move(as_seq(sorted));   // sorted()'s own new list
      else as_seq(obj) = as_seq(sorted);
      if (modified) throw ValueError("list modified during sort");
      return Value::none();
    });
  if (name == "reverse")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      no_args(a, "list.reverse");
      std::reverse(as_seq(obj).begin(), as_seq(obj).end());
      return Value::none();
    });
  if (name == "copy") return bound(q, [obj](Interpreter&, CallArgs& a) { no_args(a, "list.copy"); return Value::list(as_seq(obj)); });
  if (name == "clear") return bound(q, [obj](Interpreter&, CallArgs& a) { no_args(a, "list.clear"); as_seq(obj).clear(); return Value::none(); });
  (void)items;
  no_method("list", name);
}

void dict_put(DictObj& d, const Value& key, const Value& v) {
  if (key.kind == Value::List || key.kind == Value::Dict || (key.kind == Value::Set && !is_frozenset(key))) throw TypeError("unhashable type: '" + type_name(key) + "'");
  d.set(key, v);
}

}  // namespace

// l.extend(x) and l += x: a list or tuple at once (l.extend(l) doubles l), any other iterable
// item by item, as CPython's list_extend, so a generator over l sees what it appended.
void list_extend(Interpreter& in, const Value& list, const Value& iterable) {
  const bool exact = (iterable.kind == Value::List || iterable.kind == Value::Tuple) && !py_subclass(iterable);
  if (exact || iterable.obj == list.obj) {
    const std::vector<Value> more = as_seq(iterable);   // a copy: l.extend(l)
    check_items("a list", static_cast<Count>(as_seq(list).size()) + more.size());
    as_seq(list).insert(as_seq(list).end(), more.begin(), more.end());
    return;
  }
  in.for_each(iterable, [&](const Value& item) {
    as_seq(list).push_back(item);
    check_items("a list", as_seq(list).size());
    return true;
  });
}

namespace {

Value dict_method(const Value& obj, const std::string& name) {
  if (name == "fromkeys") return bound("dict.fromkeys", dict_fromkeys);
  const std::string q = "dict." + name;
  if (name == "popitem")
    return bound(q, [obj](Interpreter&, CallArgs& a) {   // the last item, LIFO as CPython
      no_args(a, "dict.popitem");
      DictObj& d = dict_of(obj);
      if (d.items.empty()) throw KeyError(Value::str("popitem(): dictionary is empty"));
      auto [k, v] = d.pop_last();
      return Value::tuple({k, v});
    });
  if (name == "update")
    return bound(q, [obj](Interpreter& in, CallArgs& a) {
      if (a.pos.size() > 1) throw TypeError(fmt::format("update expected at most 1 argument, got {}", a.pos.size()));
      if (!a.pos.empty()) {
        if (a.pos[0].kind == Value::Dict) {
          const auto from = dict_of(a.pos[0]).items;   // a copy: a key's __hash__/__eq__ may change either dict
          if (!dict_of(obj).merge_start(dict_of(a.pos[0])))   // an empty dict clones a clean one: no key compared
            for (const auto& [k, v] : from) dict_put(dict_of(obj), k, v);
        } else if (a.pos[0].kind == Value::Instance && type_of(a.pos[0])->find_method("keys")) {
          CallArgs none;   // a mapping: keys() once, then self[key] for each, as PyDict_Merge
          for (const Value& k : in.iterate(in.call(in.getattr(a.pos[0], "keys"), none))) {
            Value v = in.getitem(a.pos[0], k);
            dict_put(dict_of(obj), k, v);
          }
        } else {
          size_t n = 0;
          for (const Value& kv : in.iterate(a.pos[0])) {
            std::vector<Value> pair = update_pair(in, kv, n);
            dict_put(dict_of(obj), pair[0], pair[1]);
            ++n;
          }
        }
      }
      for (const auto& [k, v] : a.kw) dict_put(dict_of(obj), Value::str(k), v);
      return Value::none();
    });
  if (name == "pop")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      Value key = arg(a, 0, "key");
      if (std::optional<Value> v = dict_of(obj).take(key)) return *v;
      if (a.pos.size() > 1) return a.pos[1];
      throw KeyError(key);
    });
  if (name == "setdefault")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      Value key = arg(a, 0, "key");
      if (Value* found = dict_of(obj).find(key)) return *found;
      Value v = arg_or(a, 1, "default", Value::none());
      dict_put(dict_of(obj), key, v);
      return v;
    });
  if (name == "copy")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      no_args(a, "dict.copy");
      auto d = std::make_shared<DictObj>(dict_of(obj));   // a dense dict's table is cloned, holes and all
      if (dict_of(obj).sparse()) d->fresh_table();
      Value v;
      v.kind = Value::Dict;
      v.obj = d;
      return v;
    });
  if (name == "clear") return bound(q, [obj](Interpreter&, CallArgs& a) { no_args(a, "dict.clear"); dict_of(obj).clear(); return Value::none(); });
  no_method("dict", name);
}

Value tuple_method(const Value& obj, const std::string& name) {
  if (name == "index") return bound("tuple.index", [obj](Interpreter&, CallArgs& a) { return Value::integer(index_of(as_seq(obj), a, "tuple")); });
  if (name == "count") return bound("tuple.count", [obj](Interpreter&, CallArgs& a) { return Value::integer(count_of(as_seq(obj), arg(a, 0, "value"))); });
  no_method("tuple", name);
}

}  // namespace

SetObj& set_of(const Value& v) { return *static_cast<SetObj*>(v.obj.get()); }

// Objects/setobject.c's set_update_internal into s: a set merged (set_merge), an exact dict's
// keys after one resize, any other iterable item by item; each lays the table out as CPython.
void set_update_from(Interpreter& in, SetObj& s, const Value& other) {
  if (other.kind == Value::Set) {
    if (&set_of(other) == &s) return;   // s.update(s)
    const SetObj copy = set_of(other);   // a copy: an item's __eq__ may change other
    s.merge(copy);
  } else if (other.kind == Value::Dict && !py_subclass(other)) {
    const auto items = static_cast<DictObj*>(other.obj.get())->items;
    s.reserve(items.size());
    for (const auto& kv : items) s.add(kv.first);
  } else {
    for (const Value& x : in.iterate(other)) s.add(x);
  }
}

Value set_copy(const Value& so) {   // set_copy: make_new_set from so (set_merge)
  Value c = Value::set({});
  set_of(c).merge(set_of(so));
  return c;
}

// set_intersection(so, other): a set through the & operator's algorithm, another iterable item
// by item kept when so holds it.
Value set_intersect(Interpreter& in, const Value& so, const Value& other) {
  if (other.obj == so.obj) return set_copy(so);
  if (other.kind == Value::Set) return set_operator("&", set_of(so), set_of(other));
  Value r = Value::set({});
  for (const Value& x : in.iterate(other))
    if (set_of(so).contains(x)) set_of(r).add(x);
  return r;
}

// set_difference_update_internal: other's items discarded from s, then a table over 1/4
// dummies compacted.
void set_discard_from(Interpreter& in, SetObj& s, const Value& other) {
  if (other.kind == Value::Set) {
    const SetObj copy = set_of(other);   // a copy: s -= s
    s.discard_all(copy.ordered());
  } else {
    s.discard_all(in.iterate(other));
  }
}

// set_union, set_intersection_multi, set_difference_multi, set_symmetric_difference: so is not
// changed; the result is a new set (the caller makes it a frozenset for a frozenset).
Value set_combine(Interpreter& in, const Value& so, const std::string& name, const std::vector<Value>& args) {
  if (name == "union" || args.empty()) {
    Value r = set_copy(so);
    for (const Value& other : args)
      if (other.obj != so.obj) set_update_from(in, set_of(r), other);
    return r;
  }
  if (name == "intersection") {
    Value r = so;
    for (const Value& other : args) r = set_intersect(in, r, other);
    return r;
  }
  if (name == "difference") {   // set_difference for the first, then set_difference_update_internal
    const Value& other = args[0];
    const bool sized = other.kind == Value::Set || (other.kind == Value::Dict && !py_subclass(other));
    const size_t other_size = other.kind == Value::Set ? set_of(other).size() : sized ? static_cast<DictObj*>(other.obj.get())->items.size() : 0;
    Value r;
    if (other.kind == Value::Set && (set_of(so).size() >> 2) <= other_size) {
      r = set_operator("-", set_of(so), set_of(other));
    } else if (sized && (set_of(so).size() >> 2) <= other_size) {   // a dict: so's items not among its keys
      r = Value::set({});
      for (const Value& x : set_of(so).ordered())
        if (!in.contains(other, x)) set_of(r).add(x);
    } else {   // set_copy_and_difference
      r = set_copy(so);
      set_discard_from(in, set_of(r), other);
    }
    for (size_t k = 1; k < args.size(); ++k) set_discard_from(in, set_of(r), args[k]);
    return r;
  }
  // symmetric_difference: a new set of other (set_update_internal), so's items toggled in it
  if (args[0].kind == Value::Set) return set_operator("^", set_of(so), set_of(args[0]));
  Value r = Value::set({});
  set_update_from(in, set_of(r), args[0]);
  for (const Value& v : set_of(so).ordered())
    if (!set_of(r).discard(v)) set_of(r).add(v);
  return r;
}

Value set_method(const Value& obj, const std::string& name) {
  const bool frozen_set = is_frozenset(obj);
  const std::string q = (frozen_set ? "frozenset." : "set.") + name;
  static const std::set<std::string> unchanging = {"copy", "isdisjoint", "symmetric_difference", "union", "intersection",
                                                   "difference", "issubset", "issuperset"};
  if (frozen_set && !unchanging.count(name)) no_method("frozenset", name);
  if (name == "union" || name == "intersection" || name == "difference" || name == "symmetric_difference")
    return bound(q, [obj, name, q, frozen_set](Interpreter& in, CallArgs& a) {
      if (!a.kw.empty()) throw TypeError(q + "() takes no keyword arguments");
      if (name == "symmetric_difference" && a.pos.size() != 1)
        throw TypeError(fmt::format("{}() takes exactly one argument ({} given)", q, a.pos.size()));
      Value r = set_combine(in, obj, name, a.pos);
      if (r.obj == obj.obj) r = set_copy(obj);   // s.intersection(): a copy
      return frozen_set ? frozen(r) : r;
    });
  if (frozen_set && name != "isdisjoint" && name != "issubset" && name != "issuperset" && name != "copy") {
    return bound(q, [obj, name](Interpreter& in, CallArgs& a) {
      Value as_set = Value::set({});   // a set's result, as a frozenset
      set_of(as_set).merge(set_of(obj));
      return frozen(in.call(set_method(as_set, name), a));
    });
  }
  if (frozen_set && name == "copy") return bound(q, [obj](Interpreter&, CallArgs& a) { no_args(a, "frozenset.copy"); return obj; });
  if (name == "add") return bound(q, [obj](Interpreter&, CallArgs& a) { set_of(obj).add(arg(a, 0, "elem")); return Value::none(); });
  if (name == "discard") return bound(q, [obj](Interpreter&, CallArgs& a) { set_of(obj).discard(arg(a, 0, "elem")); return Value::none(); });
  if (name == "remove")
    return bound(q, [obj](Interpreter&, CallArgs& a) {
      Value x = arg(a, 0, "elem");
      if (!set_of(obj).discard(x)) throw KeyError(x);
      return Value::none();
    });
  if (name == "update")
    return bound(q, [obj](Interpreter& in, CallArgs& a) {
      for (const Value& other : a.pos) set_update_from(in, set_of(obj), other);
      return Value::none();
    });
  if (name == "copy") return bound(q, [obj](Interpreter&, CallArgs& a) {
      no_args(a, "set.copy");
      Value c = Value::set({});
      set_of(c).merge(set_of(obj));
      return c;
    });
  if (name == "clear") return bound(q, [obj](Interpreter&, CallArgs& a) {
      no_args(a, "set.clear");
      set_of(obj) = SetObj();
      return Value::none();
    });
  if (name == "pop")
    return bound(q, [obj](Interpreter&, CallArgs& a) {   // the first item in iteration order
      no_args(a, "set.pop");
      if (set_of(obj).size() == 0) throw KeyError(Value::str("pop from an empty set"));
      Value v = set_of(obj).ordered().front();
      set_of(obj).discard(v);
      return v;
    });
  if (name == "isdisjoint")
    return bound(q, [obj](Interpreter& in, CallArgs& a) {
      for (const Value& x : in.iterate(arg(a, 0, "other")))
        if (set_of(obj).contains(x)) return Value::boolean(false);
      return Value::boolean(true);
    });
  if (name == "intersection_update" || name == "difference_update" || name == "symmetric_difference_update")
    return bound(q, [obj, name](Interpreter& in, CallArgs& a) {   // s &= t, s -= t, s ^= t, with any iterables
      if (name[0] == 's' && a.pos.size() != 1) throw TypeError(fmt::format("set.symmetric_difference_update() takes exactly one argument ({} given)", a.pos.size()));
      if (name[0] == 'd') {
        for (const Value& other : a.pos) set_discard_from(in, set_of(obj), other);
      } else if (name[0] == 'i') {   // set_intersection_update_multi: the intersection's table swapped in
        Value r = set_combine(in, obj, "intersection", a.pos);
        if (r.obj != obj.obj) {
          ClassPtr cls = set_of(obj).cls;   // a set subclass's instance stays one
          std::shared_ptr<DictObj> attrs = set_of(obj).attrs;
          set_of(obj) = SetObj(set_of(r));
          set_of(obj).cls = cls;
          set_of(obj).attrs = attrs;
        }
      } else if (a.pos[0].kind == Value::Set) {
        in.inplace_op("^", obj, a.pos[0]);   // toggles other's items in place (s ^= s clears s)
      } else {   // an exact dict's keys toggled in s as they are; another iterable's set's items
        std::vector<Value> keys;
        if (a.pos[0].kind == Value::Dict && !py_subclass(a.pos[0])) {
          for (const auto& kv : static_cast<DictObj*>(a.pos[0].obj.get())->items) keys.push_back(kv.first);
        } else {
          Value other = Value::set({});
          set_update_from(in, set_of(other), a.pos[0]);
          keys = set_of(other).ordered();
        }
        for (const Value& v : keys)
          if (!set_of(obj).discard(v)) set_of(obj).add(v);
      }
      return Value::none();
    });
  if (name == "issubset" || name == "issuperset")
    return bound(q, [obj, name](Interpreter& in, CallArgs& a) {
      Value other = Value::set(in.iterate(arg(a, 0, "other")));
      return in.compare(name == "issubset" ? "<=" : ">=", obj, other);
    });
  no_method("set", name);
}

Value more_seq_method(const Value& obj, const std::string& name) {
  if (obj.kind == Value::Set) return set_method(obj, name);
  if (obj.kind == Value::List) return list_method(obj, name);
  if (obj.kind == Value::Dict) return dict_method(obj, name);
  if (obj.kind == Value::Tuple) return tuple_method(obj, name);
  throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
}

namespace {

// '%c' % v: a str of one character, or an int code point.
std::string percent_char(const Value& v) {
  if (v.kind == Value::Str && str_len(v) == 1) return v.s;
  if (!is_int(v)) throw TypeError("%c requires int or char");
  const int64_t c = v.is_big() ? -1 : small_of(v);   // small_of: True is 1
  if (c < 0 || c > 0x10FFFF) throw OverflowError("%c arg not in range(0x110000)");
  return uc::encode(static_cast<char32_t>(c));
}

// '%.4d' % n and its kin: the digits of n zero-padded to the precision, after the sign and the
// 0x/0o prefix, then padded to the width (with zeros after the prefix for the 0 flag).
std::string percent_int_digits(std::string digits, char type, const std::string& sign_flag, bool alt, bool left, bool zero,
                               const std::string& width, const std::string& precision) {
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  const size_t prec = std::stoul(precision);
  if (digits.size() < prec) digits.insert(0, prec - digits.size(), '0');
  const std::string head = (negative ? "-" : sign_flag) + (alt && type != 'd' ? std::string("0") + type : "");
  const size_t w = width.empty() ? 0 : std::stoul(width), have = head.size() + digits.size();
  if (w <= have) return head + digits;
  if (left) return head + digits + std::string(w - have, ' ');
  return zero ? head + std::string(w - have, '0') + digits : std::string(w - have, ' ') + head + digits;
}

}  // namespace

// 'text %d' % x, 'a %s b %.2f' % (x, y): printf-style formatting as CPython's
// PyUnicode_Format does it for the flags (- + space # 0), widths, precisions and conversions
// (d i u s r a f F e E g G x X o c %), `*` widths and precisions, and %(key)s of a mapping.
std::string percent_format(Interpreter& in, const std::string& text, const Value& values) {
  std::vector<Value> args = values.kind == Value::Tuple ? as_seq(values) : std::vector<Value>{values};
  // a mapping (not a tuple or str) may be read by %(key)s; then unused arguments are no error
  const bool mapping = values.kind == Value::Dict || (values.kind == Value::Instance && type_of(values)->find_method("__getitem__"));
  size_t next = 0;
  auto take = [&]() -> const Value& {
    if (next >= args.size()) throw TypeError("not enough arguments for format string");
    return args[next++];
  };
  auto star = [&](bool& negative) {   // a '*' width or precision: the next argument, an int
    const Value& n = take();
    if (!is_int(n)) throw TypeError("* wants int");
    negative = to_int(n, "*") < 0;
    return std::to_string(std::llabs(to_int(n, "*")));
  };
  std::string out;
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] != '%') {
      out += text[k];
      continue;
    }
    ++k;
    if (k < text.size() && text[k] == '%') {   // "%%" only: '%5%' is an unsupported '%' (3.11)
      out += '%';
      continue;
    }
    if (k < text.size() && text[k] == '(') {
      size_t depth = 1, start = ++k;
      for (; k < text.size() && depth > 0; ++k) depth += text[k] == '(' ? 1 : text[k] == ')' ? -1 : 0;
      if (depth > 0) throw ValueError("incomplete format key");
      if (!mapping) throw TypeError("format requires a mapping");
      args = {in.getitem(values, Value::str(text.substr(start, k - 1 - start)))};   // as CPython: what follows reads this value
      next = 0;
    }
    std::string flags;
    while (k < text.size() && std::string("-+ #0").find(text[k]) != std::string::npos) flags += text[k++];
    std::string width, precision;
    bool negative = false;
    if (k < text.size() && text[k] == '*') {
      ++k;
      width = star(negative);
      if (negative) flags += '-';
    }
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) width += text[k++];
    Count padded = 0;   // '%1000000000d': refused before it is padded
    for (char d : width) padded = std::min<Count>(padded * 10 + static_cast<Count>(d - '0'), Count{1} << 100);
    check_bytes("a str", padded);
    if (k < text.size() && text[k] == '.') {
      ++k;
      precision = "0";
      if (k < text.size() && text[k] == '*') {
        ++k;
        precision = star(negative);
        if (negative) precision = "0";
      }
      while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) precision += text[k++];
    }
    if (k >= text.size()) throw ValueError("incomplete format");
    const char type = text[k];
    const Value v = take();   // the argument first, then the format character checked, as CPython
    if (std::string("diusrafFeEgGxXoc").find(type) == std::string::npos) {
      size_t at = k;
      const char32_t c = uc::next(text, at);
      throw ValueError(fmt::format("unsupported format character '{}' (0x{:x}) at index {}", c >= 32 && c <= 126 ? static_cast<char>(c) : '?',
                                   static_cast<uint32_t>(c), cp_count(text, k)));
    }
    const bool left = flags.find('-') != std::string::npos, zero = !left && flags.find('0') != std::string::npos;
    std::string sign = flags.find('+') != std::string::npos ? "+" : flags.find(' ') != std::string::npos ? " " : "";
    std::string alt = flags.find('#') != std::string::npos ? "#" : "";
    if (type == 's' || type == 'r' || type == 'a' || type == 'c') {
      std::string body = type == 'c' ? percent_char(v) : type == 's' ? in.str_of(v) : type == 'a' ? ascii_escaped(in.repr_of(v)) : in.repr_of(v);
      if (!precision.empty()) body = body.substr(0, uc::offset_of(body, static_cast<int64_t>(std::stoul(precision))));
      const int64_t pad = width.empty() ? 0 : static_cast<int64_t>(std::stoul(width)) - uc::length(body);
      if (pad > 0) body = left ? body + std::string(static_cast<size_t>(pad), ' ') : std::string(static_cast<size_t>(pad), ' ') + body;
      check_append(out, body.size());   // "%s%s" % (a, a): the limit before it is built
      out += body;
      continue;
    }
    if (!v.is_number() && v.kind != Value::Instance)   // CPython's two wordings (an object: its __float__)
      throw TypeError(std::string("diuxXo").find(type) != std::string::npos ? fmt::format("%{} format: a real number is required, not {}", type, type_name(v))
                                                                       : "must be real number, not " + type_name(v));
    std::string spec = std::string(left ? "<" : zero ? "" : ">") + sign + alt + (zero ? "0" : "") + width;
    const bool int_type = std::string("diuxXo").find(type) != std::string::npos;
    if (int_type && v.kind == Value::Float && type != 'd' && type != 'i' && type != 'u')
      throw TypeError(fmt::format("%{} format: an integer is required, not float", type));
    if (int_type) {   // as format(int(v), spec): big ints whole, '%#o' is 0o17
      CallArgs one;
      one.pos.push_back(v);
      Value n = is_int(v) ? v : in.call(Value::of_class(builtin_class("int")), one);
      const char t = type == 'i' || type == 'u' ? 'd' : type;
      out += precision.empty() ? in.format(n, std::string(left ? "<" : "") + sign + alt + (zero ? "0" : "") + width + t)
                               : percent_int_digits(in.format(n, std::string(1, t)), t, sign, !alt.empty(), left, zero, width, precision);
    } else {
      CallArgs one;
      one.pos.push_back(v);
      double x = v.kind == Value::Instance ? in.call(Value::of_class(builtin_class("float")), one).f : to_double(v, "must be real number");
      out += fmt::format(fmt::runtime("{:" + spec + "." + (precision.empty() ? "6" : precision) + type + "}"), x);
    }
  }
  if (next < args.size() && !mapping) throw TypeError("not all arguments converted during string formatting");
  return out;
}

bool is_unsupported_builtin(const std::string& name) { return python_builtins().count(name) > 0; }

Value id_builtin();   // module_copy.cpp: the key of copy.deepcopy's memo

// ---- numbers: bin, oct, hex, divmod, pow ----
namespace {

// An int for bin/oct/hex: an int or bool, or an object with __index__.
Value index_value(const Value& v) {
  if (is_int(v)) return v;
  if (v.kind == Value::Float || v.kind == Value::Str || v.kind == Value::None || v.kind == Value::List ||
      v.kind == Value::Tuple || v.kind == Value::Dict || v.kind == Value::Set)
    throw TypeError("'" + type_name(v) + "' object cannot be interpreted as an integer");
  return Value::integer(to_int(v, "an integer"));
}

NativeFn base_fn(const char* name, const char* spec) {
  return [name, spec](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 1 || !a.kw.empty())
      throw TypeError(fmt::format("{}() takes exactly one argument ({} given)", name, a.pos.size() + a.kw.size()));
    return Value::str(in.format(index_value(a.pos[0]), spec));
  };
}

Value divmod_fn(Interpreter& in, CallArgs& a) {
  if (a.pos.size() != 2 || !a.kw.empty()) throw TypeError(fmt::format("divmod expected 2 arguments, got {}", a.pos.size() + a.kw.size()));
  const Value &x = a.pos[0], &y = a.pos[1];
  if ((x.kind == Value::Float || y.kind == Value::Float) && (x.is_number() || x.kind == Value::Bool) &&
      (y.is_number() || y.kind == Value::Bool) && to_double(y, "divmod") == 0)
    throw ZeroDivisionError("float divmod()");
  return Value::tuple({in.binop("//", x, y), in.binop("%", x, y)});
}

BigInt py_mod(const BigInt& x, const BigInt& m) {   // x % m, the sign of m
  BigInt q, r;
  BigInt::divmod(x, m, q, r);
  return r;
}

// The inverse of x modulo m > 0 (extended Euclid), as pow(x, -1, m).
BigInt mod_inverse(const BigInt& x, const BigInt& m) {
  BigInt old_r = py_mod(x, m), r = m, old_s(1), s(0);
  while (!r.is_zero()) {
    BigInt q, rem;
    BigInt::divmod(old_r, r, q, rem);
    old_r = r;
    r = rem;
    BigInt next_s = old_s - q * s;
    old_s = s;
    s = next_s;
  }
  if (!(old_r == BigInt(1))) throw ValueError("base is not invertible for the given modulus");
  return py_mod(old_s, m);
}

// pow(base, exp, mod) of ints: square and multiply modulo |mod|, the result with mod's sign.
Value pow_mod(Interpreter& in, const Value& base, const Value& exp, const Value& mod) {
  if (!is_int(base) || !is_int(exp) || !is_int(mod)) throw TypeError("pow() 3rd argument not allowed unless all arguments are integers");
  BigInt m = big_of(mod), e = big_of(exp);
  if (m.is_zero()) throw ValueError("pow() 3rd argument cannot be 0");
  BigInt am = m.abs(), b = py_mod(big_of(base), am), r = py_mod(BigInt(1), am);
  if (e.negative()) {
    b = mod_inverse(b, am);
    e = -e;
  }
  const std::string bits = e.is_zero() ? "" : e.magnitude_in_base(2);
  for (auto it = bits.rbegin(); it != bits.rend(); ++it) {
    in.check_limits();   // a 4,000-digit modulus: seconds of products
    if (*it == '1') r = py_mod(r * b, am);
    b = py_mod(b * b, am);
  }
  return Value::integer(py_mod(r, m));
}

Value pow_fn(Interpreter& in, CallArgs& a) {
  if (a.pos.size() + a.kw.size() > 3) throw TypeError(fmt::format("pow expected at most 3 arguments, got {}", a.pos.size() + a.kw.size()));
  Value base = arg(a, 0, "base"), exp = arg(a, 1, "exp"), mod = arg_or(a, 2, "mod", Value::none());
  if (mod.kind == Value::None) return in.binop("**", base, exp);
  return pow_mod(in, base, exp, mod);
}

}  // namespace

void add_more_builtins(std::map<std::string, Value>& b) {
  b["id"] = id_builtin();
  b["any"] = builtin("any", [](Interpreter& in, CallArgs& a) { return any_all(in, a, true); });
  b["all"] = builtin("all", [](Interpreter& in, CallArgs& a) { return any_all(in, a, false); });
  b["map"] = builtin("map", map_fn);
  b["filter"] = builtin("filter", filter_fn);
  b["reversed"] = builtin("reversed", reversed_fn);
  b["iter"] = builtin("iter", iter_fn);
  b["next"] = builtin("next", next_fn);
  b["hash"] = builtin("hash", hash_fn);
  b["bytes"] = Value::of_class(bytes_class());
  b["bytearray"] = Value::of_class(bytearray_class());
  b["chr"] = builtin("chr", chr_fn);
  b["ord"] = builtin("ord", ord_fn);
  b["bin"] = builtin("bin", base_fn("bin", "#b"));
  b["oct"] = builtin("oct", base_fn("oct", "#o"));
  b["hex"] = builtin("hex", base_fn("hex", "#x"));
  b["divmod"] = builtin("divmod", divmod_fn);
  b["pow"] = builtin("pow", pow_fn);
}

}  // namespace attn::py
