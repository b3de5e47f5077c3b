// py/lazy_iterators.cpp: itertools.product and heapq.merge as native lazy iterators (lazy_iterator),
// given to itertools.py and heapq.py through _attn_stdlib.
//
// What it is: CPython 3.11's product (Modules/itertoolsmodule.c: the pools read whole when it is
// made, an odometer over them, the last one fastest) and heapq.merge (Lib/heapq.py's generator over
// a heap of [key, order, value, iterator] entries, sifted as Modules/_heapqmodule.c sifts, entries
// compared as lists are: == on the keys first, then < on the keys or on the orders), so results,
// ties, errors and the calls made to the inputs, to key and to the items' comparisons are CPython's.
// What it is not: the other itertools (itertools.py), the heap functions themselves (heapq.py).
#include <fmt/format.h>

#include <utility>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"

namespace attn::py {

namespace {

// product(*iterables, repeat=1): the pools, read whole now, as CPython's product_new.
std::vector<Value> product_pools(Interpreter& in, CallArgs& a) {
  int64_t repeat = 1;
  for (const auto& [name, v] : a.kw) {
    if (name != "repeat") throw TypeError(fmt::format("'{}' is an invalid keyword argument for product()", name));
    if (!is_int(v)) throw TypeError(fmt::format("'{}' object cannot be interpreted as an integer", type_name(v)));
    repeat = to_int(v, "an integer");
    if (repeat < 0) throw ValueError("repeat argument cannot be negative");
  }
  std::vector<Value> pools;
  for (const Value& iterable : a.pos) pools.push_back(Value::tuple(in.iterate(iterable)));
  if (repeat != 0 && pools.size() > (size_t{1} << 28) / static_cast<size_t>(repeat)) throw OverflowError("repeat argument too large");
  std::vector<Value> all;
  for (int64_t r = 0; r < repeat; ++r) all.insert(all.end(), pools.begin(), pools.end());
  check_items("the pools of product()", all.size());
  return all;
}

}  // namespace

Value product_fn(Interpreter& in, CallArgs& a) {
  std::vector<Value> pools = product_pools(in, a);
  bool stopped = false;
  for (const Value& p : pools) stopped = stopped || as_seq(p).empty();
  std::vector<size_t> at;   // the odometer: one index per pool; empty before the first item
  return lazy_iterator("product", std::move(pools), [at, stopped, first = true](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
    if (stopped) return std::nullopt;
    if (first) {
      first = false;
      at.assign(held.size(), 0);
    } else {
      size_t i = held.size();
      while (i > 0 && ++at[i - 1] == as_seq(held[i - 1]).size()) at[--i] = 0;   // carry leftwards
      if (i == 0) {
        stopped = true;
        return std::nullopt;
      }
    }
    std::vector<Value> item;
    item.reserve(held.size());
    for (size_t k = 0; k < held.size(); ++k) item.push_back(as_seq(held[k])[at[k]]);
    return Value::tuple(std::move(item));
  });
}

// ---- heapq.merge ----
namespace {

// held: [iterables (a tuple), key or None, then per heap entry its key, value and iterator].
constexpr size_t kHead = 2;

// heapq.merge's state beside `held` (no Values): each entry's order (its input's position, negated
// for reverse), and where the generator stands.
struct Merge {
  std::vector<int64_t> order;
  bool reverse = false;
  enum Phase { start, heap, last, rest, done } phase = start;
  bool advance = false;   // the top's value was yielded: read its input's next before the next yield
};

Value& entry(std::vector<Value>& held, size_t i, size_t field) { return held.at(kHead + 3 * i + field); }
size_t entries(const std::vector<Value>& held) { return held.size() < kHead ? 0 : (held.size() - kHead) / 3; }

// [key_i, order_i, ...] < [key_j, order_j, ...], as list_richcompare: the keys' == first (identity
// counts as equal), then the orders, else the keys' <.
Value call_key(Interpreter& in, const Value& key, const Value& v) {
  CallArgs c;
  c.pos.push_back(v);
  return in.call(key, c);
}

bool entry_less(Interpreter& in, std::vector<Value>& held, const Merge& m, size_t i, size_t j) {
  const Value ki = entry(held, i, 0), kj = entry(held, j, 0);   // copies: a comparison may run any code
  if (same_object(ki, kj) || in.truth(in.compare("==", ki, kj))) return m.order.at(i) < m.order.at(j);
  return in.truth(in.compare("<", ki, kj));
}

// The heap's order: a min-heap of entries, or for reverse CPython's _max variants (a < b read as b < a).
bool before(Interpreter& in, std::vector<Value>& held, const Merge& m, size_t i, size_t j) {
  return m.reverse ? entry_less(in, held, m, j, i) : entry_less(in, held, m, i, j);
}

void swap_entries(std::vector<Value>& held, Merge& m, size_t i, size_t j) {
  for (size_t f = 0; f < 3; ++f) std::swap(entry(held, i, f), entry(held, j, f));
  std::swap(m.order.at(i), m.order.at(j));
}

// _heapqmodule.c's siftdown and siftup (the swaps are its moves).
void sift_down(Interpreter& in, std::vector<Value>& held, Merge& m, size_t start, size_t pos) {
  while (pos > start) {
    const size_t parent = (pos - 1) >> 1;
    if (!before(in, held, m, pos, parent)) break;
    swap_entries(held, m, parent, pos);
    pos = parent;
  }
}

void sift_up(Interpreter& in, std::vector<Value>& held, Merge& m, size_t pos) {
  const size_t end = entries(held), start = pos, limit = end >> 1;
  while (pos < limit) {
    size_t child = 2 * pos + 1;
    if (child + 1 < end && !before(in, held, m, child, child + 1)) ++child;
    swap_entries(held, m, child, pos);
    pos = child;
  }
  sift_down(in, held, m, start, pos);
}

// The inputs' first items, lazily one input after another (CPython's first loop), then heapify.
void merge_start(Interpreter& in, std::vector<Value>& held, Merge& m) {
  const Value iterables = held.at(0), key = held.at(1);
  const std::vector<Value> inputs = as_seq(iterables);
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Value it = in.iter(inputs[k]);
    std::optional<Value> v = in.next(it);
    if (!v) continue;
    const Value kv = key.is_none() ? *v : call_key(in, key, *v);
    if (held.size() < kHead) return;   // collected meanwhile
    held.insert(held.end(), {kv, *v, it});
    m.order.push_back(m.reverse ? -static_cast<int64_t>(k) : static_cast<int64_t>(k));
  }
  for (size_t i = entries(held) / 2; i-- > 0;) sift_up(in, held, m, i);
}

// The top entry's input read once more: its entry replaced and sifted, or popped at its end.
void merge_advance(Interpreter& in, std::vector<Value>& held, Merge& m) {
  const Value it = entry(held, 0, 2), key = held.at(1);
  std::optional<Value> v = in.next(it);
  if (v) {
    const Value kv = key.is_none() ? *v : call_key(in, key, *v);
    if (entries(held) == 0) return;
    entry(held, 0, 0) = kv;
    entry(held, 0, 1) = *v;
    sift_up(in, held, m, 0);
    return;
  }
  const size_t last = entries(held) - 1;   // heappop: the last entry to the top, sifted
  swap_entries(held, m, 0, last);
  held.resize(held.size() - 3);
  m.order.pop_back();
  if (entries(held) > 0) sift_up(in, held, m, 0);
}

std::optional<Value> merge_step(Interpreter& in, std::vector<Value>& held, Merge& m) {
  if (m.phase == Merge::start) {
    merge_start(in, held, m);
    m.phase = Merge::heap;
  }
  if (m.phase == Merge::heap) {
    if (m.advance) merge_advance(in, held, m);
    m.advance = false;
    if (entries(held) > 1) {
      m.advance = true;
      return entry(held, 0, 1);
    }
    m.phase = entries(held) == 1 ? Merge::last : Merge::done;
  }
  if (m.phase == Merge::last) {   // one input left: its pending value, then its items as they come
    m.phase = Merge::rest;
    return entry(held, 0, 1);
  }
  if (m.phase == Merge::rest) {
    const Value it = entry(held, 0, 2);
    if (std::optional<Value> v = in.next(it)) return v;
  }
  m.phase = Merge::done;
  return std::nullopt;
}

}  // namespace

// heapq.merge(*iterables, key=None, reverse=False), lazily: nothing is read before the first item;
// its type is named generator, as CPython's merge is a generator function.
// An error from an input, key or a comparison ends it, as it ends CPython's generator.
Value merge_fn(Interpreter& in, CallArgs& a) {
  Value key = Value::none();
  bool reverse = false;
  for (const auto& [name, v] : a.kw) {
    if (name == "key") key = v;
    else if (name == "reverse") reverse = in.truth(v);
    else throw TypeError(fmt::format("merge() got an unexpected keyword argument '{}'", name));
  }
  auto m = std::make_shared<Merge>();
  m->reverse = reverse;
  return lazy_iterator("generator", {Value::tuple(a.pos), key}, [m](Interpreter& in, std::vector<Value>& held) -> std::optional<Value> {
    if (m->phase == Merge::done || held.size() < kHead) return std::nullopt;
    try {
      return merge_step(in, held, *m);
    } catch (...) {
      m->phase = Merge::done;
      throw;
    }
  });
}

}  // namespace attn::py
