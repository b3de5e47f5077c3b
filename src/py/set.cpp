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
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/text.h"
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

// CPython's siphash13 (Python/pyhash.c) with the key PYTHONHASHSEED=0 gives: all zeros.
static uint64_t siphash13_zero_key(const unsigned char* in, size_t size) {
  auto rotl = [](uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
  uint64_t v0 = 0x736f6d6570736575ULL, v1 = 0x646f72616e646f6dULL, v2 = 0x6c7967656e657261ULL, v3 = 0x7465646279746573ULL;
  auto round = [&] {
    v0 += v1; v2 += v3; v1 = rotl(v1, 13) ^ v0; v3 = rotl(v3, 16) ^ v2; v0 = rotl(v0, 32);
    v2 += v1; v0 += v3; v1 = rotl(v1, 17) ^ v2; v3 = rotl(v3, 21) ^ v0; v2 = rotl(v2, 32);
  };
  uint64_t b = static_cast<uint64_t>(size) << 56;
  for (; size >= 8; size -= 8, in += 8) {
    uint64_t m = 0;
    for (int k = 7; k >= 0; --k) m = (m << 8) | in[k];   // little-endian
    v3 ^= m;
    round();
    v0 ^= m;
  }
  uint64_t t = 0;
  for (size_t k = size; k-- > 0;) t = (t << 8) | in[k];
  b |= t;
  v3 ^= b;
  round();
  v0 ^= b;
  v2 ^= 0xff;
  round();
  round();
  round();
  return (v0 ^ v1) ^ (v2 ^ v3);
}

int64_t bytes_hash(const std::string& data) {   // _Py_HashBytes: 0 for empty, -1 becomes -2
  if (data.empty()) return 0;
  const auto h = static_cast<int64_t>(siphash13_zero_key(reinterpret_cast<const unsigned char*>(data.data()), data.size()));
  return h == -1 ? -2 : h;
}

// A str hashes its code points in CPython's compact form: 1, 2 or 4 bytes each by the widest
// (an ASCII str: its own bytes).
int64_t str_hash(const std::string& s) {
  if (std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return bytes_hash(s);
  std::u32string cps;
  for (size_t at = 0; at < s.size();) cps.push_back(uc::next(s, at));
  char32_t widest = 0;
  for (char32_t c : cps) widest = std::max(widest, c);
  const size_t kind = widest < 0x100 ? 1 : widest < 0x10000 ? 2 : 4;
  std::string data;
  for (char32_t c : cps)
    for (size_t k = 0; k < kind; ++k) data.push_back(static_cast<char>((c >> (8 * k)) & 0xFF));
  return bytes_hash(data);
}

int64_t py_hash(const Value& v) {
  switch (v.kind) {
    case Value::Bool: return v.b ? 1 : 0;
    case Value::Int: return int_hash(v);
    case Value::Float: return hash_float(v.f);
    case Value::None: return 0x5eed;
    case Value::Str: return str_hash(v.s);   // CPython's (PYTHONHASHSEED=0): hash(K()) may return hash("a")
    case Value::Tuple: {   // CPython 3.11's tuplehash (xxHash's mixing, Objects/tupleobject.c)
      ValueDepthGuard guard("while hashing a tuple");
      constexpr uint64_t kPrime1 = 11400714785074694791ULL, kPrime2 = 14029467366897019727ULL, kPrime5 = 2870177450012600261ULL;
      const std::vector<Value>& items = as_seq(v);
      uint64_t acc = kPrime5;
      for (const Value& x : items) {
        acc += static_cast<uint64_t>(py_hash(x)) * kPrime2;
        acc = (acc << 31) | (acc >> 33);
        acc *= kPrime1;
      }
      acc += items.size() ^ (kPrime5 ^ 3527539ULL);
      return acc == uint64_t(-1) ? 1546275796 : static_cast<int64_t>(acc);
    }
    case Value::Range: {   // CPython's range_hash: equal ranges hash equal
      const auto& r = *static_cast<const RangeObj*>(v.obj.get());
      const unsigned __int128 n = r.length();
      Value len = n > static_cast<unsigned __int128>(INT64_MAX) ? Value::integer(BigInt::from_uint64(static_cast<uint64_t>(n)))
                                                                 : Value::integer(static_cast<int64_t>(n));
      if (n == 0) return py_hash(Value::tuple({len, Value::none(), Value::none()}));
      if (n == 1) return py_hash(Value::tuple({len, Value::integer(r.start), Value::none()}));
      return py_hash(Value::tuple({len, Value::integer(r.start), Value::integer(r.step)}));
    }
    case Value::Set:
      if (is_frozenset(v)) {
        ValueDepthGuard guard("while hashing a frozenset");
        return static_cast<const SetObj*>(v.obj.get())->frozen_hash();
      }
      [[fallthrough]];
    case Value::List: case Value::Dict: case Value::Slice:
      throw TypeError("unhashable type: '" + type_name(v) + "'");
    case Value::Instance:
      if (Interpreter* in = Interpreter::current()) return in->hash(v);   // __hash__, or unhashable
      return static_cast<int64_t>(std::hash<const void*>()(v.obj.get()));
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

// An item's __eq__ may run Python that changes this set (clears it, adds items): the item is
// compared as a copy, and the search starts over when the table or that slot changed under the
// comparison, as CPython's set_lookkey does.
int64_t SetObj::find_slot(const Value& v, int64_t h) const {
  for (;;) {
    int64_t at = -1;
    bool changed = false;
    const size_t size = table_.size();
    probe(size, h, [&](size_t slot) {
      if (table_.size() != size) return changed = true;
      int64_t k = table_[slot];
      if (k == -1) return true;   // an empty slot ends the search; a dummy (-2) does not
      if (k >= 0 && hashes_[static_cast<size_t>(k)] == h) {
        const Value x = items_[static_cast<size_t>(k)];
        if (x.obj && x.obj == v.obj) at = static_cast<int64_t>(slot);   // identity first, as CPython
        else if (equal(x, v)) at = static_cast<int64_t>(slot);
        if (table_.size() != size || table_[slot] != k || static_cast<size_t>(k) >= items_.size() || items_[static_cast<size_t>(k)].obj != x.obj)
          return changed = true;
      }
      return at >= 0;
    });
    if (!changed) return at;
  }
}

void SetObj::gc_traverse(GcVisitor& visit) {
  for (const Value& v : items_) visit(v);   // removed items too: the vector still holds them
  visit(attrs);
  visit(cls);   // an instance of `class S(set)` holds its class
}

void SetObj::gc_clear() {
  std::vector<Value> gone;
  gone.swap(items_);
  hashes_.clear();
  alive_.clear();
  table_.assign(8, -1);
  used_ = fill_ = 0;
}

bool SetObj::contains(const Value& v) const { return find_slot(v, py_hash(v)) >= 0; }

// set_insert_clean: the first empty slot along the probe sequence (no dummies in a fresh table).
void SetObj::place(size_t item) {
  probe(table_.size(), hashes_[item], [&](size_t slot) {
    if (table_[slot] != -1) return false;
    table_[slot] = static_cast<int64_t>(item);
    return true;
  });
}

// set_table_resize: the smallest power of two (at least 8) above min_used, the live items
// re-inserted in the old table's slot order; the dummies go.
void SetObj::discard_all(const std::vector<Value>& items) {
  for (const Value& v : items) discard(v);
  if (fill_ - used_ > (table_.size() - 1) / 4) resize(used_ > 50000 ? used_ * 2 : used_ * 4);
}

void SetObj::resize(size_t min_used) {
  size_t size = 8;
  while (size <= min_used) size <<= 1;
  std::vector<int64_t> old(size, -1);
  old.swap(table_);
  for (int64_t item : old)
    if (item >= 0) place(static_cast<size_t>(item));
  fill_ = used_;
}

// set_add_entry: an equal item found, or the last dummy slot met reused, else the empty slot
// that ended the search; a table 3/5 full (counting dummies) grows.
bool SetObj::add(const Value& v) {
  const int64_t h = py_hash(v);
  int64_t free_slot = -1, empty_slot = -1;
  bool found = false, changed = true;
  while (changed) {   // an item's __eq__ changed the set: search again (find_slot says why)
    free_slot = empty_slot = -1;
    found = changed = false;
    const size_t size = table_.size();
    probe(size, h, [&](size_t slot) {
      int64_t k = table_[slot];
      if (k == -1) {
        empty_slot = static_cast<int64_t>(slot);
        return true;
      }
      if (k == -2) {   // a dummy: the last one met takes the item (CPython 3.11's set_add_entry: freeslot = entry)
        free_slot = static_cast<int64_t>(slot);
        return false;
      }
      if (hashes_[static_cast<size_t>(k)] != h) return false;
      const Value x = items_[static_cast<size_t>(k)];
      found = (x.obj && x.obj == v.obj) || equal(x, v);
      if (table_.size() != size || table_[slot] != k || static_cast<size_t>(k) >= items_.size() || items_[static_cast<size_t>(k)].obj != x.obj)
        return changed = true;
      return found;
    });
  }
  if (found) return false;
  items_.push_back(v);
  hashes_.push_back(h);
  alive_.push_back(true);
  ++used_;
  const int64_t index = static_cast<int64_t>(items_.size() - 1);
  if (free_slot >= 0) {
    table_[static_cast<size_t>(free_slot)] = index;
    return true;
  }
  table_[static_cast<size_t>(empty_slot)] = index;
  ++fill_;
  if (fill_ * 5 >= (table_.size() - 1) * 3) resize(used_ > 50000 ? used_ * 2 : used_ * 4);
  return true;
}

bool SetObj::discard(const Value& v) {
  int64_t slot = find_slot(v, py_hash(v));
  if (slot < 0) return false;
  alive_[static_cast<size_t>(table_[static_cast<size_t>(slot)])] = false;
  table_[static_cast<size_t>(slot)] = -2;
  --used_;
  return true;
}

void SetObj::reserve(size_t more) {
  if ((fill_ + more) * 5 >= (table_.size() - 1) * 3) resize((used_ + more) * 2);
}

// set_merge: into an empty set, other's live items inserted clean in other's slot order (its
// table copied when the sizes agree and other has no dummies); otherwise added one by one.
// Objects/setobject.c's frozenset_hash: the items' shuffled hashes xor-ed (the empty and dummy
// slots it also visits cancel out), the size factored in, then dispersed.
int64_t SetObj::frozen_hash() const {
  auto shuffle = [](uint64_t h) { return ((h ^ 89869747ULL) ^ (h << 16)) * 3644798167ULL; };
  uint64_t h = 0;
  for (size_t k = 0; k < items_.size(); ++k)
    if (alive_[k]) h ^= shuffle(static_cast<uint64_t>(hashes_[k]));
  h ^= (static_cast<uint64_t>(used_) + 1) * 1927868237ULL;
  h ^= (h >> 11) ^ (h >> 25);
  h = h * 69069U + 907133923ULL;
  return h == uint64_t(-1) ? 590923713 : static_cast<int64_t>(h);
}

void SetObj::merge(const SetObj& other) {
  reserve(other.size());
  if (fill_ == 0 && table_.size() == other.table_.size() && other.fill_ == other.used_) {
    ClassPtr keep_cls = cls;   // the items, not the class: set(s) of a set subclass is a set
    std::shared_ptr<DictObj> keep_attrs = attrs;
    *this = other;
    cls = keep_cls;
    attrs = keep_attrs;
    return;
  }
  const bool clean = fill_ == 0;
  for (int64_t item : other.table_) {
    if (item < 0) continue;
    if (clean) {
      const size_t k = static_cast<size_t>(item);
      items_.push_back(other.items_[k]);
      hashes_.push_back(other.hashes_[k]);
      alive_.push_back(true);
      ++used_;
      ++fill_;
      place(items_.size() - 1);
    } else {
      add(other.items_[static_cast<size_t>(item)]);
    }
  }
}

bool SetObj::all_numbers() const {
  for (size_t k = 0; k < items_.size(); ++k)
    if (alive_[k] && !(items_[k].is_number() && !(items_[k].kind == Value::Float && std::isnan(items_[k].f)))) return false;
  return true;
}

std::vector<Value> SetObj::ordered() const {
  std::vector<Value> out;
  if (!all_numbers()) {
    for (size_t k = 0; k < items_.size(); ++k)
      if (alive_[k]) out.push_back(items_[k]);
    return out;
  }
  for (int64_t item : table_)
    if (item >= 0) out.push_back(items_[static_cast<size_t>(item)]);
  return out;
}

std::optional<Value> SetObj::live_from(size_t& pos, bool by_slot, size_t added) const {
  if (by_slot) {
    for (; pos < table_.size(); ++pos)
      if (table_[pos] >= 0) return items_[static_cast<size_t>(table_[pos++])];
    return std::nullopt;
  }
  for (; pos < std::min(added, items_.size()); ++pos)
    if (alive_[pos]) return items_[pos++];
  return std::nullopt;
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
