// py/bytes.cpp: the classes bytes (immutable) and bytearray (mutable), as CPython 3.11's.
//
// What it is: a native class each (one payload, a std::string of raw bytes) with Python's
// protocol: the constructors, indexing (ints) and slicing, len, iteration, `in` (an int or a
// bytes-like), + and *, comparisons, hash (bytes only, as str's), repr b'..' / bytearray(b'..')
// with CPython's quoting, and bytearray's item and slice assignment. The methods are in
// bytes_methods.cpp, the codecs in codecs.cpp. What it is not: memoryview or the buffer
// protocol, bytes % formatting, or subclasses of bytes written in Python.
#include <fmt/format.h>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"

namespace attn::py {

namespace {

int bytes_tag;

BytesObj* bytes_obj(const Value& v) { return native_cast<BytesObj>(v, &bytes_tag); }

// bytes(x) / bytearray(x) of one argument that is not a str.
std::string bytes_from_object(Interpreter& in, const Value& x, bool mut) {
  const char* kind = mut ? "bytearray" : "bytes";
  if (const std::string* d = bytes_data(x)) return *d;
  if (x.kind == Value::Int || x.kind == Value::Bool) {
    int64_t n = to_index(x, kind);
    if (n < 0) throw ValueError("negative count");
    if (n > static_cast<int64_t>(limits::kMaxStrBytes)) throw MemoryError("");   // what CPython's failed allocation raises
    return std::string(static_cast<size_t>(n), '\0');
  }
  if (x.kind == Value::Float || x.kind == Value::None || !in.iterable(x))
    throw TypeError(fmt::format("cannot convert '{}' object to {}", type_name(x), kind));
  std::string out;
  for (const Value& item : in.iterate(x)) out += static_cast<char>(byte_value(item, mut));
  return out;
}

Value construct(Interpreter& in, const ClassPtr& cls, CallArgs& a) {
  const bool mut = cls.get() == bytearray_class().get();
  const char* kind = mut ? "bytearray" : "bytes";
  if (a.pos.size() > 3) throw TypeError(fmt::format("{}() takes at most 3 arguments ({} given)", kind, a.pos.size()));
  const Value* source = find_arg(a, 0, "source");
  const Value* encoding = find_arg(a, 1, "encoding");
  const Value* errors = find_arg(a, 2, "errors");
  if (!source) {
    if (encoding || errors) throw TypeError(encoding ? "encoding without a string argument" : "errors without a string argument");
    return make_bytes("", mut);
  }
  if (source->kind == Value::Str) {
    if (!encoding) throw TypeError(errors ? "string argument without an encoding" : "string argument without an encoding");
    return make_bytes(encode_text(source->s, *encoding, errors ? *errors : Value::str("strict")), mut);
  }
  if (encoding || errors) throw TypeError(encoding ? "encoding without a string argument" : "errors without a string argument");
  return make_bytes(bytes_from_object(in, *source, mut), mut);
}

int64_t item_index(const Value& self, const Value& key) {
  int64_t k = 0;
  if (key.kind == Value::Instance) {   // its __index__ first: it may change a bytearray
    std::optional<int64_t> i = Interpreter::current()->index(key);
    if (!i) throw TypeError(fmt::format("{} indices must be integers or slices, not {}", is_bytearray(self) ? "bytearray" : "byte", type_name(key)));
    k = *i;
  } else {
    k = to_index(key, is_bytearray(self) ? "bytearray indices" : "byte indices");
  }
  const int64_t n = static_cast<int64_t>(bytes_data(self)->size());
  if (k < 0) k += n;
  if (k < 0 || k >= n) throw IndexError(is_bytearray(self) ? "bytearray index out of range" : "index out of range");
  return k;
}

Value getitem(Interpreter&, const Value& self, const Value& key) {
  const std::string& d = *bytes_data(self);
  if (key.kind == Value::Slice) {
    std::string out;
    for (int64_t k : slice_positions(*static_cast<SliceObj*>(key.obj.get()), d.size())) out += d[static_cast<size_t>(k)];
    return make_bytes(std::move(out), is_bytearray(self));
  }
  if (key.kind != Value::Int && key.kind != Value::Bool && key.kind != Value::Instance)
    throw TypeError(fmt::format("{} indices must be integers or slices, not {}", is_bytearray(self) ? "bytearray" : "byte", type_name(key)));
  return Value::integer(static_cast<unsigned char>(d[static_cast<size_t>(item_index(self, key))]));
}

// bytearray[k] = int, bytearray[a:b] = bytes-like or iterable of ints (any length for a plain
// slice; the same length for an extended one, as CPython).
void setitem(Interpreter& in, const Value& self, const Value& key, const Value& v) {
  std::string& d = bytes_obj(self)->data;
  if (key.kind != Value::Slice) {
    const int64_t k = item_index(self, key);
    d[static_cast<size_t>(k)] = static_cast<char>(byte_value(v, true));
    return;
  }
  if (v.kind == Value::Int) throw TypeError("can assign only bytes, buffers, or iterables of ints in range(0, 256)");
  const std::string src = bytes_from_object(in, v, true);
  const auto& s = *static_cast<SliceObj*>(key.obj.get());
  if (s.step.is_none() || (s.step.kind == Value::Int && s.step.i == 1)) {
    const std::vector<int64_t> pos = slice_positions(s, d.size());
    int64_t start = s.start.is_none() ? 0 : to_slice_bound(s.start);
    const int64_t n = static_cast<int64_t>(d.size());
    if (start < 0) start = std::max<int64_t>(start + n, 0);
    start = std::min(start, n);
    check_bytes("a bytearray", static_cast<Count>(d.size() - pos.size() + src.size()));
    d.replace(static_cast<size_t>(start), pos.size(), src);
    return;
  }
  const std::vector<int64_t> pos = slice_positions(s, d.size());
  if (pos.size() != src.size())
    throw ValueError(fmt::format("attempt to assign bytes of size {} to extended slice of size {}", src.size(), pos.size()));
  for (size_t k = 0; k < pos.size(); ++k) d[static_cast<size_t>(pos[k])] = src[k];
}

std::optional<Value> binary(Interpreter&, const std::string& op, const Value& self, const Value& other, bool reflected) {
  const std::string& d = *bytes_data(self);
  if (op == "+" && !reflected) {
    const std::string* o = bytes_data(other);
    if (!o) throw TypeError(fmt::format("can't concat {} to {}", type_name(other), type_name(self)));
    check_bytes(std::string("a ") + type_name(self), static_cast<Count>(d.size() + o->size()));
    return make_bytes(d + *o, is_bytearray(self));
  }
  if (op == "*" && (other.kind == Value::Int || other.kind == Value::Bool)) {
    const int64_t n = std::max<int64_t>(to_count(other), 0);
    if (n > 0 && static_cast<Count>(d.size()) * n > static_cast<Count>(limits::kMaxStrBytes)) throw MemoryError("");
    std::string out;
    out.reserve(d.size() * static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) out += d;
    return make_bytes(std::move(out), is_bytearray(self));
  }
  return std::nullopt;
}

std::optional<Value> inplace(Interpreter& in, const std::string& op, const Value& self, const Value& other) {
  if (!is_bytearray(self)) return std::nullopt;
  std::string& d = bytes_obj(self)->data;
  if (op == "+") {
    const std::string* o = bytes_data(other);
    if (!o) throw TypeError(fmt::format("can't concat {} to bytearray", type_name(other)));
    check_bytes("a bytearray", static_cast<Count>(d.size() + o->size()));
    d += *o;
    return self;
  }
  if (op == "*" && (other.kind == Value::Int || other.kind == Value::Bool)) {
    std::optional<Value> r = binary(in, op, self, other, false);
    d = bytes_obj(*r)->data;
    return self;
  }
  return std::nullopt;
}

std::optional<Value> compare(Interpreter&, const std::string& op, const Value& self, const Value& other) {
  const std::string* o = bytes_data(other);
  if (!o) return std::nullopt;
  const int c = bytes_data(self)->compare(*o);
  const bool r = op == "==" ? c == 0 : op == "!=" ? c != 0 : op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0;
  return Value::boolean(r);
}

bool contains(Interpreter&, const Value& self, const Value& item) {
  const std::string& d = *bytes_data(self);
  if (const std::string* o = bytes_data(item)) return d.find(*o) != std::string::npos;
  if (item.kind == Value::Int || item.kind == Value::Bool) {
    int64_t b = to_index(item, "byte");
    if (b < 0 || b > 255) throw ValueError("byte must be in range(0, 256)");
    return d.find(static_cast<char>(b)) != std::string::npos;
  }
  if (item.kind == Value::Instance && type_of(item)->slots.index) return contains(*Interpreter::current(), self, Value::integer(to_index(item, "byte")));
  throw TypeError(fmt::format("a bytes-like object is required, not '{}'", type_name(item)));
}

// iter(b): one byte a step, the size re-read each time (a bytearray may change under it), as
// CPython's bytes_iterator / bytearray_iterator: nothing made ahead.
Value iterate_items(Interpreter&, const Value& self) {
  return lazy_iterator(is_bytearray(self) ? "bytearray_iterator" : "bytes_iterator", {self},
                       [pos = size_t{0}](Interpreter&, std::vector<Value>& held) mutable -> std::optional<Value> {
                         if (held.empty()) return std::nullopt;
                         const std::string& d = *bytes_data(held[0]);
                         if (pos >= d.size()) {
                           held.clear();
                           return std::nullopt;
                         }
                         return Value::integer(static_cast<unsigned char>(d[pos++]));
                       });
}

ClassPtr make_class(const std::string& name) {
  ClassPtr c = make_native_class(name, "builtins");
  c->native_tag = &bytes_tag;
  c->slots.make = construct;
  c->slots.getitem = getitem;
  c->slots.binary = binary;
  c->slots.inplace = inplace;
  c->slots.compare = compare;
  c->slots.contains = contains;
  c->slots.iter = iterate_items;
  c->slots.len = [](Interpreter&, const Value& self) { return static_cast<int64_t>(bytes_data(self)->size()); };
  c->slots.truth = [](Interpreter&, const Value& self) { return !bytes_data(self)->empty(); };
  c->slots.repr = [](Interpreter&, const Value& self) { return bytes_repr(self); };
  c->slots.str = [](Interpreter&, const Value& self) { return bytes_repr(self); };
  if (name == "bytearray") {
    c->slots.setitem = setitem;
    c->slots.hash = [](const Value&) -> int64_t { throw TypeError("unhashable type: 'bytearray'"); };
  } else {
    c->slots.hash = [](const Value& self) { return bytes_hash(*bytes_data(self)); };   // hash(b"a") as CPython's
  }
  add_bytes_methods(*c, name == "bytearray");
  return c;
}

}  // namespace

const ClassPtr& bytes_class() {
  static const ClassPtr c = make_class("bytes");
  return c;
}

const ClassPtr& bytearray_class() {
  static const ClassPtr c = make_class("bytearray");
  return c;
}

Value make_bytes(std::string data, bool mut) {
  auto o = std::make_shared<BytesObj>();
  o->cls = mut ? bytearray_class() : bytes_class();
  o->data = std::move(data);
  return Value::of_instance(std::move(o));
}

const std::string* bytes_data(const Value& v) {
  BytesObj* o = bytes_obj(v);
  return o ? &o->data : nullptr;
}

std::string* bytearray_data(const Value& v) {
  BytesObj* o = bytes_obj(v);
  return o && o->cls.get() == bytearray_class().get() ? &o->data : nullptr;
}

bool is_bytearray(const Value& v) { return bytearray_data(v) != nullptr; }

int byte_value(const Value& v, bool mut) {
  if (v.kind != Value::Int && v.kind != Value::Bool && !(v.kind == Value::Instance && type_of(v)->slots.index))
    throw TypeError(fmt::format("'{}' object cannot be interpreted as an integer", type_name(v)));
  const int64_t b = to_index(v, "byte");
  if (b < 0 || b > 255) throw ValueError(mut ? "byte must be in range(0, 256)" : "bytes must be in range(0, 256)");
  return static_cast<int>(b);
}

// CPython's bytes_repr: single quotes unless the bytes hold a ' and no ", then \t \n \r \\ the
// quote and non-printable bytes (below 0x20, 0x7f and above) as \xhh. bytearray_repr escapes
// a ' inside double quotes too (escape_single).
std::string bytes_literal(const std::string& d, bool escape_single) {
  const bool dq = d.find('\'') != std::string::npos && d.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  std::string out = "b";
  out += q;
  for (char ch : d) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == static_cast<unsigned char>(q) || c == '\\' || (escape_single && c == '\'')) { out += '\\'; out += ch; }
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c >= 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += ch;
  }
  out += q;
  return out;
}

std::string bytes_repr(const Value& v) {
  const std::string lit = bytes_literal(*bytes_data(v), is_bytearray(v));
  return is_bytearray(v) ? "bytearray(" + lit + ")" : lit;
}

}  // namespace attn::py
