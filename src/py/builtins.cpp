// py/builtins.cpp: the Python builtins and str/list/dict methods lesson cells use.
//
// What it is: print, len, range, enumerate, zip, sorted, list, dict, tuple, str, int, float,
// round, sum, min, max, abs, format specs, subscripts and comparisons of plain Python values
// (those about classes: classes.cpp). What it is not: the whole standard library.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <cmath>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/signature.h"
#include "py/text.h"
#include "py/unicodedata.h"

namespace attn::py {

// ---- argument helpers ----

const Value* find_arg(CallArgs& a, size_t k, const char* name) {
  if (k < a.pos.size()) return &a.pos[k];
  for (auto& [n, v] : a.kw)
    if (n == name) return &v;
  return nullptr;
}

Value keyword_arg(CallArgs& a, const std::string& name) {
  for (auto& [n, v] : a.kw)
    if (n == name) return v;
  throw KeyError(Value::str(name));
}

Value arg(CallArgs& a, size_t k, const char* name) {
  if (const Value* v = find_arg(a, k, name)) return *v;
  throw TypeError(std::string("missing required argument '") + name + "'");
}

Value arg_or(CallArgs& a, size_t k, const char* name, Value fallback) {
  const Value* v = find_arg(a, k, name);
  return v ? *v : fallback;
}

int64_t to_int(const Value& v, const char* what) {
  if (v.is_big()) throw RuntimeError("Overflow when unpacking long");   // PyTorch's THPUtils_unpackLong
  if (v.kind == Value::Int) return v.i;
  if (v.kind == Value::Bool) return v.b;
  if (v.kind == Value::Instance)
    if (Interpreter* in = Interpreter::current())
      if (std::optional<int64_t> k = in->index(v)) return *k;
  throw TypeError(std::string() + what + " must be an integer, not " + type_name(v));
}

double to_double(const Value& v, const char* what) {
  if (v.kind == Value::Float) return v.f;
  if (v.kind == Value::Int || v.kind == Value::Bool) return int_to_double(v);
  if (v.kind == Value::Instance)
    for (const ClassObj* c : type_of(v)->mro())
      if (c->slots.to_float)
        if (std::optional<double> x = c->slots.to_float(v)) return *x;
  throw TypeError(std::string() + what + " must be a number, not " + type_name(v));
}

namespace {

int64_t index_in(int64_t k, size_t n, const char* what) {
  int64_t m = k < 0 ? k + static_cast<int64_t>(n) : k;
  if (m < 0 || m >= static_cast<int64_t>(n)) throw IndexError(std::string() + what + " index out of range");
  return m;
}

}  // namespace

// Python slice over a sequence of length n -> the selected positions.
std::vector<int64_t> slice_positions(const SliceObj& s, size_t n) {
  int64_t len = static_cast<int64_t>(n);
  int64_t step = s.step.is_none() ? 1 : to_slice_bound(s.step);
  if (step == 0) throw ValueError("slice step cannot be zero");
  auto clip = [&](const Value& v, int64_t dflt) {
    if (v.is_none()) return dflt;
    int64_t x = to_slice_bound(v);
    if (x < 0) x += len;
    return step > 0 ? std::clamp<int64_t>(x, 0, len) : std::clamp<int64_t>(x, -1, len - 1);
  };
  int64_t start = clip(s.start, step > 0 ? 0 : len - 1), stop = clip(s.stop, step > 0 ? len : -1);
  std::vector<int64_t> out;
  for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step) out.push_back(k);
  return out;
}

SliceObj slice_unpacked(const SliceObj& s) {
  SliceObj out;
  for (auto [from, to] : {std::pair{&s.start, &out.start}, {&s.stop, &out.stop}, {&s.step, &out.step}})
    *to = from->kind == Value::Instance ? Value::integer(to_slice_bound(*from)) : *from;
  return out;
}

namespace {

// range(...)[a:b:c] as CPython's compute_slice: the slice's indices over the range's length
// (PySlice_GetLongIndices), mapped through the range: range(10)[2:8:2] is range(2, 8, 2).
Value slice_range(const RangeObj& r, const SliceObj& s) {
  const __int128 len = static_cast<__int128>(r.length());
  if (s.step.is_big()) throw OverflowError("attn's range() takes ints from -2**63 to 2**63 - 1");   // the new step
  const __int128 step = s.step.is_none() ? 1 : to_slice_bound(s.step);
  if (step == 0) throw ValueError("slice step cannot be zero");
  const __int128 lower = step < 0 ? -1 : 0, upper = step < 0 ? len - 1 : len;
  auto bound = [&](const Value& v, __int128 dflt) {
    if (v.is_none()) return dflt;
    if (v.is_big()) return v.big().negative() ? lower : upper;   // beyond every index, even of a range longer than 2**63
    __int128 x = to_slice_bound(v);
    if (x < 0) x += len;
    return x < lower ? lower : x > upper ? upper : x;
  };
  const __int128 start = bound(s.start, step < 0 ? upper : lower), stop = bound(s.stop, step < 0 ? lower : upper);
  const __int128 values[3] = {r.start + start * r.step, r.start + stop * r.step, r.step * step};
  auto out = std::make_shared<RangeObj>();
  int64_t* fields[3] = {&out->start, &out->stop, &out->step};
  for (int k = 0; k < 3; ++k) {
    if (values[k] > INT64_MAX || values[k] < INT64_MIN) throw OverflowError("attn's range() takes ints from -2**63 to 2**63 - 1");
    *fields[k] = static_cast<int64_t>(values[k]);
  }
  Value v;
  v.kind = Value::Range;
  v.obj = std::move(out);
  return v;
}

}  // namespace

Value getitem_builtin(const Value& obj, const Value& key) {
  if (obj.kind == Value::Range) {
    const auto& r = *static_cast<const RangeObj*>(obj.obj.get());
    if (key.kind == Value::Slice) return slice_range(r, *static_cast<const SliceObj*>(key.obj.get()));
    int64_t k = to_index(key, "range index");
    unsigned __int128 n = r.length();
    __int128 pos = k < 0 ? __int128(n) + k : __int128(k);
    if (pos < 0 || pos >= __int128(n)) throw IndexError("range object index out of range");
    return Value::integer(r.at(static_cast<unsigned __int128>(pos)));
  }
  if (obj.kind == Value::Dict) {
    if (Value* v = static_cast<DictObj*>(obj.obj.get())->find(key)) return *v;
    throw KeyError(key);
  }
  if (obj.kind != Value::Str && obj.kind != Value::List && obj.kind != Value::Tuple)
    throw TypeError("'" + type_name(obj) + "' object is not subscriptable");
  bool is_str = obj.kind == Value::Str;
  if (key.kind == Value::Slice) {
    const SliceObj s = slice_unpacked(*static_cast<SliceObj*>(key.obj.get()));   // before the size: __index__ may change the list
    const size_t n = is_str ? static_cast<size_t>(str_len(obj)) : as_seq(obj).size();
    std::vector<int64_t> pos = slice_positions(s, n);
    if (is_str) return str_slice(obj, pos);
    std::vector<Value> items;
    for (int64_t p : pos) items.push_back(as_seq(obj)[p]);
    return obj.kind == Value::List ? Value::list(items) : Value::tuple(items);
  }
  if (!is_int(key) && is_str) throw TypeError("string indices must be integers, not '" + type_name(key) + "'");
  if (!is_int(key)) throw TypeError(fmt::format("{} indices must be integers or slices, not {}", type_name(obj), type_name(key)));
  const size_t n = is_str ? static_cast<size_t>(str_len(obj)) : as_seq(obj).size();
  int64_t k = index_in(to_index(key, "index"), n, is_str ? "string" : type_name(obj).c_str());
  return is_str ? str_item(obj, k) : as_seq(obj)[k];
}

namespace {

// print(..., file=f) with a file other than None: f.write of each piece, as CPython (a StringIO,
// sys.stderr); nothing of it is recorded as the cell's output.
Value print_to(Interpreter& in, CallArgs& a, const Value& file, const std::string& sep, const std::string& end) {
  const Value write = in.getattr(file, "write");
  auto put = [&](const std::string& text) {
    CallArgs w;
    w.pos.push_back(Value::str(text));
    in.call(write, w);
  };
  for (size_t k = 0; k < a.pos.size(); ++k) {
    if (k) put(sep);
    put(in.str_of(a.pos[k]));
  }
  put(end);
  return Value::none();
}

// What print() writes goes out as UTF-8, which has no lone surrogates ('\ud800', kept in a str
// as its three bytes ED A0 80): CPython's strict encoder raises, naming the run of them by
// code point position, and nothing invalid reaches stdout, a JSON document or a notebook.
void check_encodable(const std::string& text) {
  size_t first = std::string::npos, last = 0, position = 0;
  uint32_t first_cp = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b & 0xC0) == 0x80) continue;   // a continuation byte: not a new code point
    const bool surrogate = b == 0xED && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0xA0;
    if (surrogate && first == std::string::npos) {
      first = position;
      first_cp = 0xD000u | ((static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6) | (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
    }
    if (surrogate) last = position;
    if (!surrogate && first != std::string::npos) break;
    ++position;
  }
  if (first == std::string::npos) return;
  if (last == first)
    throw error("UnicodeEncodeError", fmt::format("'utf-8' codec can't encode character '\\u{:04x}' in position {}: surrogates not allowed", first_cp, first));
  throw error("UnicodeEncodeError", fmt::format("'utf-8' codec can't encode characters in position {}-{}: surrogates not allowed", first, last));
}

Value print_fn(Interpreter& in, CallArgs& a) {
  std::string sep = " ", end = "\n";
  Value file;
  for (auto& [n, v] : a.kw) {
    if ((n == "sep" || n == "end") && !v.is_none() && v.kind != Value::Str)
      throw TypeError(fmt::format("{} must be None or a string, not {}", n, type_name(v)));
    if (n == "sep") sep = v.is_none() ? " " : v.s;
    else if (n == "end") end = v.is_none() ? "\n" : v.s;
    else if (n == "file") file = v;
    else if (n != "flush") throw TypeError("'" + n + "' is an invalid keyword argument for print()");
  }
  if (!file.is_none()) return print_to(in, a, file, sep, end);
  for (size_t k = 0; k < a.pos.size(); ++k) {
    const std::string text = in.str_of(a.pos[k]);
    if (k) {
      check_encodable(sep);
      in.out << sep;
    }
    check_encodable(text);
    in.out << text;
    in.record_printed(k < a.pos_text.size() ? a.pos_text[k] : "", a.pos[k], text);
  }
  check_encodable(end);
  in.out << end;
  // A cell's printout is held until the cell ends (the walkthrough shows it under its code):
  // a loop printing for a minute would hold gigabytes.
  if (static_cast<size_t>(in.out.tellp()) > limits::kMaxPrintedBytes)
    throw LimitError(0, fmt::format("MemoryError: {} printed more than {} characters (attn's limit, limits::kMaxPrintedBytes)",
                                    in.code_name(), with_commas(limits::kMaxPrintedBytes)));
  return Value::none();
}

// range(stop) / range(start, stop[, step]): lazy (RangeObj), bounds within int64.
Value range_fn(Interpreter&, CallArgs& a) {
  if (a.pos.empty() || a.pos.size() > 3 || !a.kw.empty())
    throw TypeError(fmt::format("range expected 1 to 3 positional arguments, got {}", a.pos.size()));
  auto bound = [](const Value& v) {
    if (v.is_big()) throw OverflowError("attn's range() takes ints from -2**63 to 2**63 - 1");
    if (v.kind == Value::Instance)
      if (std::optional<int64_t> k = Interpreter::current()->index(v)) return *k;   // an object's __index__
    if (!is_int(v)) throw TypeError("'" + type_name(v) + "' object cannot be interpreted as an integer");
    return small_of(v);
  };
  auto r = std::make_shared<RangeObj>();
  if (a.pos.size() == 1) r->stop = bound(a.pos[0]);
  else {
    r->start = bound(a.pos[0]);
    r->stop = bound(a.pos[1]);
    if (a.pos.size() > 2) r->step = bound(a.pos[2]);
  }
  if (r->step == 0) throw ValueError("range() arg 3 must not be zero");
  Value v;
  v.kind = Value::Range;
  v.obj = std::move(r);
  return v;
}

// key < other as Python's `<`: plain ints, floats and strs directly (a sort of 10^7 of them makes
// 2*10^8 comparisons), anything else through the interpreter's compare.
bool sort_less(const Value& a, const Value& b) {
  if (a.kind == b.kind && !a.obj && !b.obj) {
    if (a.kind == Value::Int) return a.i < b.i;
    if (a.kind == Value::Float) return a.f < b.f;
    if (a.kind == Value::Str) return a.s < b.s;   // UTF-8 bytes order as code points do
  }
  return less(a, b);
}

// list.sort as CPython's listobject.c orders it for fewer than 64 items (one run: count_run,
// then binary insertion), so a class's __lt__ sees the same pairs in the same order and a failed
// comparison names the same two types; a longer list is a stable sort. It sorts `order`, the
// positions of `keys` (8 bytes an item, not two Values: issue 20, sorted(range(10**7)) took 3.5 GB).
void cpython_sort(std::vector<size_t>& v, const std::vector<Value>& keys) {
  const size_t n = v.size();
  auto lt = [&keys](size_t x, size_t y) { return sort_less(keys[x], keys[y]); };
  if (n < 2) return;
  if (n >= 64) return std::stable_sort(v.begin(), v.end(), lt);
  size_t run = 2;
  if (lt(v[1], v[0])) {   // a strictly descending run is reversed
    while (run < n && lt(v[run], v[run - 1])) ++run;
    std::reverse(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(run));
  } else {
    while (run < n && !lt(v[run], v[run - 1])) ++run;
  }
  for (size_t start = run; start < n; ++start) {   // binarysort
    size_t l = 0, r = start;
    const size_t pivot = v[start];
    while (l < r) {
      size_t p = l + ((r - l) >> 1);
      if (lt(pivot, v[p])) r = p;
      else l = p + 1;
    }
    for (size_t p = start; p > l; --p) v[p] = v[p - 1];
    v[l] = pivot;
  }
}

// items[k] = the old items[order[k]] for every k, in place, one cycle of the permutation at a
// time (order is used up: each done place is marked as its own).
void permute(std::vector<Value>& items, std::vector<size_t>& order) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (order[i] == i) continue;
    Value first = std::move(items[i]);
    size_t j = i;
    while (order[j] != i) {
      const size_t from = order[j];
      items[j] = std::move(items[from]);
      order[j] = j;
      j = from;
    }
    items[j] = std::move(first);
    order[j] = j;
  }
}

Value sorted_fn(Interpreter& in, CallArgs& a) {
  static const Signature sig = Signature::parse("def sorted(iterable, /, *, key=None, reverse=False)");
  for (auto& [name, v] : a.kw)   // CPython's own words for sorted(), a C function
    if (name != "key" && name != "reverse") throw TypeError("'" + name + "' is an invalid keyword argument for sort()");
  if (a.pos.size() != 1) throw TypeError(fmt::format("sorted expected 1 argument, got {}", a.pos.size()));
  Args b = bind_args(sig, a, "sorted");
  std::vector<Value> items = in.iterate(b.get("iterable"));
  Value key = b.get("key");
  bool reverse = b.flag("reverse");
  std::vector<Value> keys;   // only with a key function; else the items are their own keys
  if (!key.is_none()) {
    keys.reserve(items.size());
    for (const Value& v : items) {
      CallArgs ka;
      ka.pos.push_back(v);
      keys.push_back(in.call(key, ka));
    }
  }
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (reverse) std::reverse(order.begin(), order.end());   // as CPython: reversed, sorted, reversed (stable)
  cpython_sort(order, key.is_none() ? items : keys);
  if (reverse) std::reverse(order.begin(), order.end());
  keys = {};
  permute(items, order);
  return Value::list(std::move(items));
}

// enumerate(iterable, start): lazily, as CPython's, over the live iterable.
Value enumerate_fn(Interpreter& in, CallArgs& a) {
  int64_t start = to_int(arg_or(a, 1, "start", Value::integer(0)), "start");
  return lazy_iterator("enumerate", {in.iter(arg(a, 0, "iterable"))}, [k = start](Interpreter& in, std::vector<Value>& held) mutable -> std::optional<Value> {
    const Value it = held.at(0);
    std::optional<Value> v = in.next(it);
    if (!v) return std::nullopt;
    return Value::tuple({Value::integer(k++), *v});
  });
}

// zip(*iterables): lazily, as CPython's, the rows over the live iterables while every one lasts
// (an endless one beside a list ends with the list).
// zip(strict=True)'s ValueError when argument k (0-based) ran out first (shorter) or, after the
// first ran out, still had items (longer), worded as CPython's.
[[noreturn]] void zip_uneven(size_t k, bool shorter) {
  throw ValueError(fmt::format("zip() argument {} is {} than argument{}{}", k + 1, shorter ? "shorter" : "longer", k > 1 ? "s 1-" : " ", k));
}

Value zip_fn(Interpreter& in, CallArgs& a) {
  bool strict = false;
  for (const auto& [name, v] : a.kw) {
    if (name != "strict") throw TypeError("'" + name + "' is an invalid keyword argument for zip()");
    strict = in.truth(v);
  }
  std::vector<Value> its;
  for (const Value& v : a.pos) its.push_back(in.iter(v));
  return lazy_iterator("zip", std::move(its), [strict](Interpreter& in, std::vector<Value>& held) -> std::optional<Value> {
    const std::vector<Value> its = held;   // a step may clear `held` (a collection inside next)
    if (its.empty()) return std::nullopt;   // zip(): nothing
    std::vector<Value> row;
    for (size_t k = 0; k < its.size(); ++k) {
      std::optional<Value> v = in.next(its[k]);
      if (v) {
        row.push_back(std::move(*v));
        continue;
      }
      if (strict && k > 0) zip_uneven(k, true);
      if (strict)
        for (size_t j = 1; j < its.size(); ++j)
          if (in.next(its[j])) zip_uneven(j, false);
      return std::nullopt;
    }
    return Value::tuple(row);
  });
}

Value len_fn(Interpreter& in, CallArgs& a) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError(fmt::format("len() takes exactly one argument ({} given)", a.pos.size() + a.kw.size()));
  return Value::integer(in.len(a.pos[0]));
}

Value sum_fn(Interpreter& in, CallArgs& a) {
  Value acc = arg_or(a, 1, "start", Value::integer(0));
  if (acc.kind == Value::Str) throw TypeError("sum() can't sum strings [use ''.join(seq) instead]");
  if (acc.kind == Value::Instance && (type_name(acc) == "bytes" || type_name(acc) == "bytearray"))
    throw TypeError(fmt::format("sum() can't sum {} [use b''.join(seq) instead]", type_name(acc)));
  in.for_each(arg(a, 0, "iterable"), [&](const Value& v) {   // a range item by item, not made into a list
    acc = in.binop("+", acc, v);
    return true;
  });
  return acc;
}

// min/max(iterable or several values, *, key=None, default=...), as CPython's min_max: the first
// of equal extremes wins.
Value minmax(Interpreter& in, CallArgs& a, bool want_max) {
  const char* name = want_max ? "max" : "min";
  Value key = Value::none();
  const Value* dflt = nullptr;
  for (auto& [k, v] : a.kw) {
    if (k == "key") key = v;
    else if (k == "default") dflt = &v;
    else throw TypeError(fmt::format("'{}' is an invalid keyword argument for {}()", k, name));
  }
  if (a.pos.empty()) throw TypeError(fmt::format("{} expected at least 1 argument, got 0", name));
  if (dflt && a.pos.size() > 1)
    throw TypeError(fmt::format("Cannot specify a default for {}() with multiple positional arguments", name));
  auto keyed = [&](const Value& v) {
    if (key.is_none()) return v;
    CallArgs c;
    c.pos.push_back(v);
    return in.call(key, c);
  };
  bool any = false;
  Value best, best_key;
  auto consider = [&](const Value& v) {
    Value kv = keyed(v);
    if (!any || (want_max ? less(best_key, kv) : less(kv, best_key))) {
      best = v;
      best_key = std::move(kv);
      any = true;
    }
    return true;
  };
  if (a.pos.size() == 1) in.for_each(a.pos[0], consider);   // a range item by item, not made into a list
  else for (const Value& v : a.pos) consider(v);
  if (!any) {
    if (dflt) return *dflt;
    throw ValueError(fmt::format("{}() arg is an empty sequence", name));
  }
  return best;
}

// round(x, -places) of a finite float, as CPython's double_round: the exact decimal value of x
// rounded half to even to a multiple of 10**places, read back correctly rounded (x * 10**-places
// rounded and divided back loses the last digits of a big x: round(-1.81e294, -1)).
static double round_to_tens(double x, int places) {
  // |x| >= 1 has at most 52 binary places below its units: 52 decimal places show it exactly.
  std::string digits = fmt::format("{:.52f}", std::fabs(x));
  const size_t point = digits.find('.');
  std::string whole = digits.substr(0, point), frac = digits.substr(point + 1);
  if (whole.size() < static_cast<size_t>(places) + 1) whole.insert(0, static_cast<size_t>(places) + 1 - whole.size(), '0');
  const size_t keep = whole.size() - static_cast<size_t>(places);   // digits kept, at least one
  const std::string dropped = whole.substr(keep) + frac;
  std::string kept = whole.substr(0, keep);
  const bool above_half = dropped[0] > '5' || (dropped[0] == '5' && dropped.find_first_not_of('0', 1) != std::string::npos);
  const bool half = dropped[0] == '5' && dropped.find_first_not_of('0', 1) == std::string::npos;
  if (above_half || (half && (kept.back() - '0') % 2 == 1)) {   // add one to the kept digits
    size_t k = kept.size();
    while (k > 0 && kept[k - 1] == '9') kept[--k] = '0';
    if (k == 0) kept.insert(0, 1, '1');
    else ++kept[k - 1];
  }
  const double r = std::strtod((kept + std::string(static_cast<size_t>(places), '0')).c_str(), nullptr);
  if (std::isinf(r)) throw OverflowError("rounded value too large to represent");
  return std::copysign(r, x);
}

Value round_fn(Interpreter&, CallArgs& a) {
  Value v = arg(a, 0, "number");
  const Value* nd = find_arg(a, 1, "ndigits");
  bool no_digits = !nd || nd->is_none();
  if (is_int(v)) return no_digits ? Value::integer(big_of(v)) : round_int(v, *nd);
  double x = to_double(v, "number");
  if (no_digits) return int_from_double(std::nearbyint(x));   // Python rounds half to even too
  if (!is_int(*nd)) throw TypeError("'" + type_name(*nd) + "' object cannot be interpreted as an integer");
  if (nd->is_big() || std::llabs(nd->i) > 400)   // 10**400 is past every float: x itself, or a signed zero
    return Value::number(nd->is_big() ? (nd->big().negative() ? 0.0 * x : x) : nd->i > 0 ? x : 0.0 * x);
  if (nd->i >= 0 && std::isfinite(x)) {
    // CPython's double_round: the exact decimal value of x rounded (half to even) to ndigits
    // places, read back: round(2.675, 2) is 2.67, as 2.675 is 2.67499999... in binary.
    const std::string text = fmt::format("{:.{}f}", x, nd->i);
    const double r = std::strtod(text.c_str(), nullptr);
    return Value::number(r == 0 ? std::copysign(0.0, x) : r);
  }
  if (!std::isfinite(x)) return Value::number(x);
  return Value::number(round_to_tens(x, static_cast<int>(-nd->i)));
}

// The text int() and float() parse, as CPython's _PyUnicode_TransformDecimalAndSpaceToASCII:
// a Unicode space is ' ', a decimal digit ('١', '３') its ASCII digit, any other non-ASCII
// character '?' (invalid). An ASCII str is itself.
std::string ascii_numeral(const Value& v) {
  if (str_ascii(v)) return v.s;
  std::string out;
  for (size_t pos = 0; pos < v.s.size();) {
    const char32_t c = uc::next(v.s, pos);
    if (c < 128) out += static_cast<char>(c);
    else if (uc::is_space(c)) out += ' ';
    else if (const int d = ucd::numeric(c).decimal; d >= 0) out += static_cast<char>('0' + d);
    else out += '?';
  }
  return out;
}

// float(text): Python's float literal, inf/infinity/nan in any case, spaces around, single
// underscores between digits; a value past the float range is inf, as in Python.
Value float_from_string(const Value& v) {
  const std::string text = ascii_numeral(v);
  size_t b = text.find_first_not_of(" \t\n\r\f\v"), e = text.find_last_not_of(" \t\n\r\f\v");
  std::string s;
  if (b != std::string::npos)
    for (size_t k = b; k <= e; ++k) {
      bool between_digits = k > b && k < e && std::isdigit(static_cast<unsigned char>(text[k - 1])) && std::isdigit(static_cast<unsigned char>(text[k + 1]));
      if (text[k] == '_' && between_digits) continue;
      s += text[k];
    }
  std::string lower = s;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t sign = !lower.empty() && (lower[0] == '+' || lower[0] == '-') ? 1 : 0;
  std::string word = lower.substr(sign);
  if (word == "inf" || word == "infinity" || word == "nan") {
    double x = word == "nan" ? std::nan("") : HUGE_VAL;
    return Value::number(lower[0] == '-' ? -x : x);
  }
  bool shape_ok = !word.empty() && word.find_first_not_of("0123456789.e+-") == std::string::npos && word.find_first_of("0123456789") != std::string::npos;
  char* end = nullptr;
  double x = shape_ok ? std::strtod(s.c_str(), &end) : 0;
  if (!shape_ok || !end || *end != '\0') throw ValueError("could not convert string to float: " + repr(v));
  return Value::number(x);
}

Value dict_fn(Interpreter& in, CallArgs& a) {
  Value d = Value::dict();
  auto* obj = static_cast<DictObj*>(d.obj.get());
  if (a.pos.size() > 1) throw TypeError(fmt::format("dict expected at most 1 argument, got {}", a.pos.size()));
  if (!a.pos.empty() && a.pos[0].kind == Value::Dict) {
    const auto from = static_cast<DictObj*>(a.pos[0].obj.get())->items;   // a copy: a key's __eq__ may change it
    for (const auto& [k, v] : from) obj->set(k, v);
  } else if (!a.pos.empty() && a.pos[0].kind == Value::Instance && type_of(a.pos[0])->find_method("keys")) {
    CallArgs none;   // a mapping (Counter): its keys(), then self[key], as PyDict_Merge
    for (const Value& k : in.iterate(in.call(in.getattr(a.pos[0], "keys"), none))) obj->set(k, in.getitem(a.pos[0], k));
  } else if (!a.pos.empty()) {
    size_t n = 0;
    for (const Value& kv : in.iterate(a.pos[0])) {   // a repeated key: its last value
      std::vector<Value> pair = update_pair(in, kv, n);
      obj->set(pair[0], pair[1]);
      ++n;
    }
  }
  for (auto& [k, v] : a.kw) obj->set(Value::str(k), v);
  return d;
}

Value set_fn(Interpreter& in, CallArgs& a) {   // as set_update_internal fills a new set
  if (a.pos.size() > 1 || !a.kw.empty())
    throw TypeError(fmt::format("set expected at most 1 argument, got {}", a.pos.size() + a.kw.size()));
  if (a.pos.empty() || (a.pos[0].kind != Value::Set && a.pos[0].kind != Value::Dict)) return Value::set(a.pos.empty() ? std::vector<Value>{} : in.iterate(a.pos[0]));
  Value s = Value::set({});
  auto* into = static_cast<SetObj*>(s.obj.get());
  if (a.pos[0].kind == Value::Set) {
    into->merge(*static_cast<SetObj*>(a.pos[0].obj.get()));
  } else {
    std::vector<Value> keys = in.iterate(a.pos[0]);
    into->reserve(keys.size());
    for (const Value& k : keys) into->add(k);
  }
  return s;
}

// int(text, base): base 0 (the literal's prefix decides) or 2 to 36, an optional prefix that
// matches the base, underscores between digits, as CPython's PyLong_FromString.
Value int_with_base(const Value& v, const Value& base_value) {
  if (v.kind != Value::Str) throw TypeError("int() can't convert non-string with explicit base");
  int64_t base = to_int(base_value, "int() base");
  if (base != 0 && (base < 2 || base > 36)) throw ValueError("int() base must be >= 2 and <= 36, or 0");
  const int64_t given = base;   // the message names the base asked for: 0, not the one the prefix chose
  auto invalid = [&] { throw ValueError(fmt::format("invalid literal for int() with base {}: {}", given, repr(v))); };
  const std::string text = ascii_numeral(v);
  size_t b = text.find_first_not_of(" \t\n\r\f\v"), e = text.find_last_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) invalid();
  std::string t = text.substr(b, e - b + 1);
  bool negative = !t.empty() && t[0] == '-';
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.erase(0, 1);
  int64_t prefixed = 0;
  if (t.size() > 1 && t[0] == '0') {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(t[1])));
    prefixed = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
  }
  if (prefixed && (base == 0 || base == prefixed)) {
    base = prefixed;
    t.erase(0, 2);
    if (!t.empty() && t[0] == '_') t.erase(0, 1);
  } else if (base == 0) {
    if (t.size() > 1 && t[0] == '0' && t.find_first_not_of("0_") != std::string::npos) invalid();
    base = 10;
  }
  BigInt out(0);
  bool digit_before = false;
  for (size_t k = 0; k < t.size(); ++k) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(t[k])));
    if (c == '_' && digit_before && k + 1 < t.size() && t[k + 1] != '_') continue;
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::isalpha(static_cast<unsigned char>(c)) ? c - 'a' + 10 : 99;
    if (d >= base) invalid();
    out = out * BigInt(base) + BigInt(d);
    digit_before = true;
  }
  if (!digit_before) invalid();
  return Value::integer(negative ? -out : out);
}

// A user class's own __int__ / __float__ (int(x), float(x)); nullopt when it has none.
std::optional<Value> own_conversion(Interpreter& in, const Value& v, const char* dunder) {
  if (v.kind != Value::Instance || !type_of(v)->find_method(dunder)) return std::nullopt;
  CallArgs none;
  return in.call(in.getattr(v, dunder), none);
}

Value convert(Interpreter& in, CallArgs& a, const std::string& to) {
  if (to == "int" && (a.pos.size() == 2 || (a.pos.size() == 1 && a.kw.size() == 1 && a.kw[0].first == "base")))
    return int_with_base(a.pos[0], a.pos.size() == 2 ? a.pos[1] : a.kw[0].second);
  if (!a.kw.empty() && to != "int") throw TypeError(to + "() takes no keyword arguments");
  if (a.pos.size() > 1 && to != "int" && to != "str")
    throw TypeError(fmt::format("{} expected at most 1 argument, got {}", to, a.pos.size()));
  if (a.pos.empty()) {
    if (to == "list") return Value::list({});
    if (to == "tuple") return Value::tuple({});
    if (to == "str") return Value::str("");
    return to == "float" ? Value::number(0.0) : Value::integer(0);
  }
  const Value& v = a.pos[0];
  if (to == "list") return Value::list(in.iterate(v));
  if (to == "tuple") return Value::tuple(in.iterate(v));
  if (to == "str" && a.pos.size() > 1) {   // str(b, encoding[, errors]): b.decode(...)
    if (a.pos.size() > 3) throw TypeError(fmt::format("str() takes at most 3 arguments ({} given)", a.pos.size()));
    const std::string* data = bytes_data(v);
    if (!data)
      throw TypeError(v.kind == Value::Str ? std::string("decoding str is not supported")
                                           : "decoding to str: need a bytes-like object, " + type_name(v) + " found");
    return Value::str(decode_bytes(*data, a.pos[1], a.pos.size() > 2 ? a.pos[2] : Value::str("strict")));
  }
  if (to == "str") return Value::str(in.str_of(v));
  if (to == "float" || to == "int")
    if (std::optional<Value> own = own_conversion(in, v, to == "int" ? "__int__" : "__float__")) {   // CPython checks what it returns
      if (to == "int" && !is_int(*own)) throw TypeError("__int__ returned non-int (type " + type_name(*own) + ")");
      if (to == "int") return Value::integer(big_of(*own));   // a bool: its int
      if (own->kind != Value::Float) throw TypeError(type_name(v) + ".__float__ returned non-float (type " + type_name(*own) + ")");
      return *own;
    }
  if (to == "float") return v.kind == Value::Str ? float_from_string(v) : Value::number(to_double(v, "float() argument"));
  if (v.kind == Value::Str) return int_from_string(ascii_numeral(v), &v);
  if (is_int(v)) return Value::integer(big_of(v));
  if (v.kind == Value::Instance)   // __index__, else __float__ truncated, as int() does
    if (std::optional<int64_t> k = in.index(v)) return Value::integer(*k);
  if (v.kind != Value::Float && v.kind != Value::Instance)
    throw TypeError("int() argument must be a string, a bytes-like object or a real number, not '" + type_name(v) + "'");
  return int_from_double(to_double(v, "int() argument"));
}

}  // namespace

// Methods of list / dict / tuple values, looked up by Interpreter::getattr.
Value seq_method(const Value& obj, const std::string& name) {
  if (obj.kind == Value::List && name == "append")
    return builtin("list.append", [obj](Interpreter&, CallArgs& b) { as_seq(obj).push_back(arg(b, 0, "object")); return Value::none(); });
  if (obj.kind == Value::Dict && (name == "items" || name == "keys" || name == "values"))
    return builtin("dict." + name, [obj, name](Interpreter&, CallArgs& a) {
      no_args(a, "dict." + name);
      return dict_view(obj, name);
    });
  if (obj.kind == Value::Dict && name == "get")
    return builtin("dict.get", [obj](Interpreter&, CallArgs& b) {
      if (Value* v = static_cast<DictObj*>(obj.obj.get())->find(arg(b, 0, "key"))) return *v;
      return arg_or(b, 1, "default", Value::none());
    });
  if (obj.kind == Value::List || obj.kind == Value::Dict || obj.kind == Value::Tuple) return more_seq_method(obj, name);
  throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
}

void add_python_builtins(std::map<std::string, Value>& b) {
  b["print"] = builtin("print", print_fn);
  b["sorted"] = builtin("sorted", sorted_fn);
  b["enumerate"] = builtin("enumerate", enumerate_fn);
  b["zip"] = builtin("zip", zip_fn);
  b["len"] = builtin("len", len_fn);
  b["sum"] = builtin("sum", sum_fn);
  b["min"] = builtin("min", [](Interpreter& in, CallArgs& a) { return minmax(in, a, false); });
  b["max"] = builtin("max", [](Interpreter& in, CallArgs& a) { return minmax(in, a, true); });
  b["abs"] = builtin("abs", [](Interpreter& in, CallArgs& a) {
    Value v = arg(a, 0, "x");
    if (v.kind == Value::Instance && type_of(v)->find_method("__abs__")) {
      CallArgs none;
      return in.call(in.getattr(v, "__abs__"), none);
    }
    if (v.kind == Value::Instance) return in.unary("abs", v);   // a native class's unary hook, or abs()'s TypeError
    if (v.kind == Value::Str || v.kind == Value::List || v.kind == Value::Tuple || v.kind == Value::Dict || v.kind == Value::None)
      throw TypeError("bad operand type for abs(): '" + type_name(v) + "'");
    return is_int(v) ? int_abs(v) : Value::number(std::fabs(to_double(v, "abs() argument")));
  });
  b["round"] = builtin("round", round_fn);
  b["format"] = builtin("format", [](Interpreter& in, CallArgs& a) {
    const Value spec = arg_or(a, 1, "format_spec", Value::str(""));
    if (spec.kind != Value::Str) throw TypeError("format() argument 2 must be str, not " + type_name(spec));
    return Value::str(in.format(arg(a, 0, "value"), spec.s));
  });
  // The built-in types are classes: int(x) makes an int, type(3) is int, isinstance(x, int).
  static const bool made = [] {
    for (const char* t : {"list", "tuple", "str", "int", "float"})
      builtin_class(t)->slots.make = [t = std::string(t)](Interpreter& in, const ClassPtr&, CallArgs& a) { return convert(in, a, t); };
    builtin_class("dict")->slots.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) { return dict_fn(in, a); };
    builtin_class("set")->slots.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) { return set_fn(in, a); };
    builtin_class("frozenset")->slots.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) {
      if (!a.kw.empty()) throw TypeError("frozenset() takes no keyword arguments");
      if (a.pos.size() > 1) throw TypeError(fmt::format("frozenset expected at most 1 argument, got {}", a.pos.size()));
      if (a.pos.size() == 1 && is_frozenset(a.pos[0])) return a.pos[0];   // frozenset(f) is f, as CPython
      return frozen(set_fn(in, a));
    };
    // __init__ of list, dict and set fills an instance of a subclass (class L(list)) that
    // __new__ made empty, or re-fills a list or set (updates a dict) it is called on by name
    // (l.__init__([1])); list(x) itself is whole after make and is not initialised again.
    builtin_class("list")->slots.init = [](Interpreter& in, const Value& self, CallArgs& a) {
      if (!a.kw.empty()) throw TypeError("list() takes no keyword arguments");
      if (a.pos.size() > 1) throw TypeError(fmt::format("list expected at most 1 argument, got {}", a.pos.size()));
      std::vector<Value> items = a.pos.empty() ? std::vector<Value>{} : in.iterate(a.pos[0]);
      as_seq(self) = std::move(items);
    };
    builtin_class("dict")->slots.init = [](Interpreter& in, const Value& self, CallArgs& a) {
      Value made = dict_fn(in, a);
      auto* d = static_cast<DictObj*>(self.obj.get());
      for (const auto& [k, v] : static_cast<DictObj*>(made.obj.get())->items) d->set(k, v);
    };
    builtin_class("set")->slots.init = [](Interpreter& in, const Value& self, CallArgs& a) {
      Value made = set_fn(in, a);
      SetObj& x = *static_cast<SetObj*>(self.obj.get());
      ClassPtr cls = x.cls;
      std::shared_ptr<DictObj> attrs = x.attrs;
      x = SetObj();
      x.merge(*static_cast<SetObj*>(made.obj.get()));
      x.cls = cls;
      x.attrs = attrs;
    };
    builtin_class("bool")->slots.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) {
      if (a.pos.size() > 1 || !a.kw.empty()) throw TypeError(fmt::format("bool expected at most 1 argument, got {}", a.pos.size() + a.kw.size()));
      return Value::boolean(!a.pos.empty() && in.truth(a.pos[0]));
    };
    builtin_class("range")->slots.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) { return range_fn(in, a); };
    builtin_class("slice")->slots.make = [](Interpreter&, const ClassPtr&, CallArgs& a) {   // slice(stop), slice(start, stop[, step])
      if (a.pos.empty() || a.pos.size() > 3 || !a.kw.empty())
        throw TypeError(fmt::format("slice expected at least 1 argument, got {}", a.pos.size()));
      auto s = std::make_shared<SliceObj>();
      if (a.pos.size() == 1) s->stop = a.pos[0];
      else {
        s->start = a.pos[0];
        s->stop = a.pos[1];
        if (a.pos.size() == 3) s->step = a.pos[2];
      }
      Value v;
      v.kind = Value::Slice;
      v.obj = std::move(s);
      return v;
    };
    return true;
  }();
  (void)made;
  for (const char* t : {"list", "tuple", "str", "int", "float", "dict", "set", "frozenset", "bool", "range", "slice"}) b[t] = Value::of_class(builtin_class(t));
}

// Item n of what dict(x) / d.update(x) walks: a (key, value) pair, CPython's errors when it is not
// an iterable (dict_merge_from_seq2's PySequence_Fast) or not of two items.
std::vector<Value> update_pair(Interpreter& in, const Value& kv, size_t n) {
  if (!in.iterable(kv)) throw TypeError(fmt::format("cannot convert dictionary update sequence element #{} to a sequence", n));
  std::vector<Value> pair = in.iterate(kv);
  if (pair.size() != 2) throw ValueError(fmt::format("dictionary update sequence element #{} has length {}; 2 is required", n, pair.size()));
  return pair;
}

}  // namespace attn::py
