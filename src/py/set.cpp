// py/set.cpp: Python's set for the lesson interpreter: hashing as CPython 3.11 does for numbers,
// and the order CPython's hash table gives a set of numbers (see SetObj in value.h).
//
// What it is: hash() of int, bool and float (Python/pyhash.c, Objects/longobject.c: modulo the
// Mersenne prime 2^61 - 1), and a replay of Objects/setobject.c's table: 8 slots to start, a
// new item at slot hash & mask, else the next of up to 9 slots after it, else the slot
// (i * 5 + 1 + perturb) & mask with perturb = hash shifted right 5 more bits each round; when
// 3/5 full the table grows to the smallest power of two above 4 x items and is refilled in slot
// order. Checked against CPython 3.11.2 on 12,000 random sets of ints and floats.
// What it is not: removal (no set method but `in` and len() exists), or CPython's order for
// strings (randomised per process) and tuples: those keep the order they were added in.
// `for x in {3, 1, 2}` iterates CPython's frozenset constant, here the set such a display makes
// (the two differ only for 5 to 7 colliding items).
#include <algorithm>
#include <cmath>
#include <functional>

#include "py/exceptions.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/value.h"

namespace attn::py {

namespace {

constexpr int kHashBits = 61;
constexpr uint64_t kHashModulus = (uint64_t(1) << kHashBits) - 1;
constexpr int64_t kHashInf = 314159;

// hash(float), _Py_HashDouble: the exact rational value modulo 2^61 - 1, so hash(2.0) ==
// hash(2). A NaN hashes by its address in CPython; here it is 0 (it equals nothing anyway).
int64_t hash_float(double v) {
  if (std::isnan(v)) return 0;
  if (std::isinf(v)) return v > 0 ? kHashInf : -kHashInf;
  int e = 0;
  double m = std::frexp(v, &e);
  bool negative = m < 0;
  if (negative) m = -m;
  uint64_t x = 0;
  while (m != 0) {   // 28 bits of the mantissa at a time
    x = ((x << 28) & kHashModulus) | x >> (kHashBits - 28);
    m *= 268435456.0;
    e -= 28;
    auto y = static_cast<uint64_t>(m);
    m -= static_cast<double>(y);
    x += y;
    if (x >= kHashModulus) x -= kHashModulus;
  }
  e = e >= 0 ? e % kHashBits : kHashBits - 1 - ((-1 - e) % kHashBits);
  x = ((x << e) & kHashModulus) | x >> (kHashBits - e);
  if (negative) x = uint64_t(0) - x;
  if (x == uint64_t(-1)) x = uint64_t(-2);
  return static_cast<int64_t>(x);
}

}  // namespace

int64_t py_hash(const Value& v) {
  switch (v.kind) {
    case Value::Bool: return v.b ? 1 : 0;
    case Value::Int: return int_hash(v);
    case Value::Float: return hash_float(v.f);
    case Value::None: return 0x5eed;
    case Value::Str: case Value::Dtype: return static_cast<int64_t>(std::hash<std::string>()(v.s));
    case Value::Tuple: case Value::Size: {
      ValueDepthGuard guard("while hashing a tuple");
      uint64_t h = 0x345678;
      for (const Value& x : as_seq(v)) h = (h ^ static_cast<uint64_t>(py_hash(x))) * 1000003;
      return static_cast<int64_t>(h);
    }
    case Value::List: case Value::Dict: case Value::Set: case Value::Slice:
      throw TypeError("unhashable type: '" + type_name(v) + "'");
    default: return static_cast<int64_t>(std::hash<const void*>()(v.obj.get()));   // by identity, as equal() compares them
  }
}

// The slots CPython visits for hash h, in order: slot h & mask and up to 9 after it, then
// (i * 5 + 1 + perturb) & mask with perturb = hash >> 5, >> 10, ... (Objects/setobject.c).
template <class Visit>   // bool visit(size_t slot): true stops
void probe(size_t table_size, int64_t h, Visit visit) {
  const size_t mask = table_size - 1;
  size_t perturb = static_cast<size_t>(h), i = static_cast<size_t>(h) & mask;
  for (;;) {
    size_t probes = i + 9 <= mask ? 9 : 0;   // LINEAR_PROBES
    for (size_t j = 0; j <= probes; ++j)
      if (visit(i + j)) return;
    perturb >>= 5;   // PERTURB_SHIFT
    i = (i * 5 + 1 + perturb) & mask;
  }
}

bool SetObj::contains(const Value& v) const {
  const int64_t h = py_hash(v);
  bool found = false;
  probe(table_.size(), h, [&](size_t slot) {
    int64_t k = table_[slot];
    if (k < 0) return true;   // an empty slot ends the search
    found = hashes_[static_cast<size_t>(k)] == h && equal(items_[static_cast<size_t>(k)], v);
    return found;
  });
  return found;
}

void SetObj::place(size_t item) {
  probe(table_.size(), hashes_[item], [&](size_t slot) {
    if (table_[slot] >= 0) return false;
    table_[slot] = static_cast<int64_t>(item);
    return true;
  });
}

// set_table_resize: the smallest power of two (at least 8) above min_used, refilled in slot order.
void SetObj::resize(size_t min_used) {
  size_t size = 8;
  while (size <= min_used) size <<= 1;
  std::vector<int64_t> old(size, -1);
  old.swap(table_);
  for (int64_t item : old)
    if (item >= 0) place(static_cast<size_t>(item));
}

bool SetObj::add(const Value& v) {
  if (contains(v)) return false;
  items_.push_back(v);
  hashes_.push_back(py_hash(v));
  place(items_.size() - 1);
  size_t used = items_.size();
  if (used * 5 >= (table_.size() - 1) * 3) resize(used > 50000 ? used * 2 : used * 4);   // 3/5 full
  return true;
}

void SetObj::reserve(size_t more) {
  if ((items_.size() + more) * 5 >= (table_.size() - 1) * 3) resize((items_.size() + more) * 2);
}

void SetObj::merge(const SetObj& other) {
  reserve(other.size());
  if (table_.size() == other.table_.size()) {   // same size, empty: the slots are copied
    *this = other;
    return;
  }
  for (int64_t item : other.table_) {
    if (item < 0) continue;
    items_.push_back(other.items_[static_cast<size_t>(item)]);
    hashes_.push_back(other.hashes_[static_cast<size_t>(item)]);
    place(items_.size() - 1);
  }
}

bool SetObj::all_numbers() const {
  return std::all_of(items_.begin(), items_.end(),
                     [](const Value& v) { return v.is_number() && !(v.kind == Value::Float && std::isnan(v.f)); });
}

std::vector<Value> SetObj::ordered() const {
  if (!all_numbers()) return items_;
  std::vector<Value> out;
  for (int64_t item : table_)
    if (item >= 0) out.push_back(items_[static_cast<size_t>(item)]);
  return out;
}

static Value wrap(std::shared_ptr<SetObj> o) {
  Value x;
  x.kind = Value::Set;
  x.obj = std::move(o);
  return x;
}

Value Value::set(const std::vector<Value>& items) {
  auto o = std::make_shared<SetObj>();
  for (const Value& v : items) o->add(v);
  return wrap(o);
}

// CPython 3.11 compiles a display of 3 or more constants, {1, 2, 3}, to a frozenset constant:
// built item by item, then rebuilt in its own iteration order (merge_consts_recursive), then
// merged into the new set (SET_UPDATE). Each step can move items that collide.
// Only numbers' order shows, so a display with any other item is built item by item.
Value Value::set_literal(const std::vector<Value>& constants) {
  SetObj folded, rebuilt;
  for (const Value& v : constants) folded.add(v);
  if (!folded.all_numbers()) return set(constants);
  for (const Value& v : folded.ordered()) rebuilt.add(v);
  auto o = std::make_shared<SetObj>();
  o->merge(rebuilt);
  return wrap(o);
}

}  // namespace attn::py
