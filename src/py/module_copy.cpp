// py/module_copy.cpp: Python's `copy` module (copy.copy, copy.deepcopy) and the
// builtin id() the memo of a __deepcopy__(self, memo) is keyed by.
//
// What it is: CPython 3.11's Lib/copy.py for attn's values: numbers, strings, functions, classes
// and ranges are atomic; lists, tuples, dicts (OrderedDict too) and sets are copied item by item;
// an instance goes through its class's __copy__/__deepcopy__ when it has one, else a new
// instance of its class (no __init__ call) gets its __dict__ (copied, for deepcopy), as
// copyreg's __reduce_ex__(4) path does. deepcopy keeps a memo {id(x): copy} so shared and
// cyclic structures come out shared and cyclic. A host library gives its native classes a
// __deepcopy__ method (src/torch does).
// What it is not: pickling (__reduce_ex__, __getstate__/__setstate__, copyreg), or a copy of a
// native object without __deepcopy__ (TypeError: cannot pickle 'X' object, as CPython says).
#include <fmt/format.h>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/signature.h"

namespace attn::py {

namespace {

Value id_of(const Value& v) {
  if (v.obj) return Value::integer(static_cast<int64_t>(reinterpret_cast<uintptr_t>(v.obj.get())));
  // No object behind it: a value equal to another of its kind is the same object (as small ints are)
  // (in uint64: a str's hash times 31 overflows int64, which is undefined)
  return Value::integer(static_cast<int64_t>(static_cast<uint64_t>(py_hash(v)) * 31u + static_cast<uint64_t>(v.kind)));
}

bool atomic(const Value& x) {
  switch (x.kind) {
    case Value::None: case Value::Bool: case Value::Int: case Value::Float: case Value::Str: case Value::Function:
    case Value::Builtin: case Value::Class: case Value::Ellipsis: case Value::NotImplemented: case Value::Range:
    case Value::Slice:
      return true;
    default:
      return false;
  }
}

[[noreturn]] void cannot_pickle(const Value& x) { throw TypeError("cannot pickle '" + type_name(x) + "' object"); }

// A new object of x's class without calling __init__ (copyreg.__newobj__: cls.__new__(cls)).
Value new_instance(const Value& x) {
  const auto& o = *static_cast<InstanceObj*>(x.obj.get());
  if (o.cls->tag()) cannot_pickle(x);   // a native payload this module cannot copy
  auto made = std::make_shared<InstanceObj>();
  made->cls = o.cls;
  return Value::of_instance(std::move(made));
}

// x's class's method `name` bound to x, if the class (not the instance) has one.
std::optional<Value> class_hook(Interpreter& in, const Value& x, const char* name) {
  if (x.kind != Value::Instance) return std::nullopt;
  if (!static_cast<InstanceObj*>(x.obj.get())->cls->find_method(name)) return std::nullopt;
  return in.getattr(x, name);
}

// A copy of a list, tuple, dict or set of a class written in Python (class L(list)) is one of
// that class too, with x's attributes (each through `each`: itself, or its deep copy).
template <class Each>
Value keep_class(const Value& x, Value y, Each each) {
  if (!py_subclass(x)) return y;
  ClassPtr cls = type_of(x);
  if (y.kind == Value::List || y.kind == Value::Tuple) static_cast<SeqObj*>(y.obj.get())->cls = cls;
  else if (y.kind == Value::Dict) static_cast<DictObj*>(y.obj.get())->cls = cls;
  else static_cast<SetObj*>(y.obj.get())->cls = cls;
  std::shared_ptr<DictObj> to = attrs_of(y);
  for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(attrs_of(x)->items)) to->set(k, each(v));
  return y;
}

Value shallow(Interpreter& in, const Value& x) {
  if (atomic(x) || x.kind == Value::Tuple || is_frozenset(x)) return x;
  auto same = [](const Value& v) { return v; };
  switch (x.kind) {
    case Value::List: return keep_class(x, Value::list(static_cast<SeqObj*>(x.obj.get())->items), same);
    case Value::Set: return keep_class(x, Value::set(static_cast<SetObj*>(x.obj.get())->ordered()), same);
    case Value::Dict: {
      auto* d = static_cast<DictObj*>(x.obj.get());
      Value out = Value::dict();
      auto* o = static_cast<DictObj*>(out.obj.get());
      for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(d->items)) o->set(k, v);   // a copy: a key's __eq__ may change d
      o->ordered = d->ordered;
      o->cls = d->cls;
      return keep_class(x, out, same);
    }
    case Value::Instance: {
      if (const std::string* b = bytes_data(x)) return is_bytearray(x) ? make_bytes(*b, true) : x;
      if (std::optional<Value> hook = class_hook(in, x, "__copy__")) {
        CallArgs none;
        return in.call(*hook, none);
      }
      const auto& o = *static_cast<InstanceObj*>(x.obj.get());
      Value made = new_instance(x);
      auto& m = *static_cast<InstanceObj*>(made.obj.get());
      for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(o.dict->items)) m.dict->set(k, v);
      return made;
    }
    default: cannot_pickle(x);
  }
}

class DeepCopy {
 public:
  DeepCopy(Interpreter& in, Value memo) : in_(in), memo_(std::move(memo)) {}

  Value copy(const Value& x) {
    if (atomic(x)) return x;
    in_.tick();
    ValueDepthGuard guard("while calling a Python object");   // CPython's words: its deepcopy recurses in Python
    Value key = id_of(x);
    if (Value* seen = memo().find(key)) return *seen;
    Value y = fresh(x, key);
    if (!memo().find(key)) memo().set(key, y);
    return y;
  }

 private:
  Interpreter& in_;
  Value memo_;
  DictObj& memo() { return *static_cast<DictObj*>(memo_.obj.get()); }

  Value fresh(const Value& x, const Value& key) {
    switch (x.kind) {
      case Value::List: {
        Value y = Value::list({});
        memo().set(key, y);   // before the items: a list that holds itself
        for (const Value& item : std::vector<Value>(static_cast<SeqObj*>(x.obj.get())->items))
          static_cast<SeqObj*>(y.obj.get())->items.push_back(copy(item));
        return keep_class(x, y, [this](const Value& v) { return copy(v); });
      }
      case Value::Tuple: {
        const auto& src = *static_cast<SeqObj*>(x.obj.get());
        std::vector<Value> items;
        bool same = true;
        for (const Value& item : src.items) {
          items.push_back(copy(item));
          same = same && items.back().kind == item.kind && items.back().obj == item.obj;
        }
        if (Value* seen = memo().find(key)) return *seen;   // the tuple was reached through its items
        if (same) return x;                                 // all atomic: the tuple itself, as CPython
        Value y = Value::tuple(std::move(items));
        static_cast<SeqObj*>(y.obj.get())->cls = src.cls;
        return keep_class(x, y, [this](const Value& v) { return copy(v); });
      }
      case Value::Dict: {
        auto* d = static_cast<DictObj*>(x.obj.get());
        Value y = Value::dict();
        auto* o = static_cast<DictObj*>(y.obj.get());
        o->ordered = d->ordered;
        o->cls = d->cls;
        memo().set(key, y);
        for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(d->items)) {
          Value ck = copy(k);
          o->set(ck, copy(v));
        }
        return keep_class(x, y, [this](const Value& v) { return copy(v); });
      }
      case Value::Set: {
        std::vector<Value> items;
        for (const Value& item : static_cast<SetObj*>(x.obj.get())->ordered()) items.push_back(copy(item));
        if (is_frozenset(x)) return frozen(Value::set(items));
        return keep_class(x, Value::set(items), [this](const Value& v) { return copy(v); });
      }
      case Value::Instance:
        if (const std::string* b = bytes_data(x)) return is_bytearray(x) ? make_bytes(*b, true) : x;
        return instance(x, key);
      default: cannot_pickle(x);
    }
  }

  Value instance(const Value& x, const Value& key) {
    if (std::optional<Value> hook = class_hook(in_, x, "__deepcopy__")) {
      CallArgs a;
      a.pos.push_back(memo_);
      return in_.call(*hook, a);
    }
    const auto& o = *static_cast<InstanceObj*>(x.obj.get());
    if (is_exception(x)) cannot_pickle(x);
    Value y = new_instance(x);
    memo().set(key, y);
    auto& m = *static_cast<InstanceObj*>(y.obj.get());
    for (const auto& [k, v] : std::vector<std::pair<Value, Value>>(o.dict->items)) m.dict->set(copy(k), copy(v));
    return y;
  }
};

std::shared_ptr<NamespaceObj> make_copy() {
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["copy"] = builtin("copy.copy", [](Interpreter& in, CallArgs& a) {
    static const Signature sig = Signature::parse("def copy(x)");
    Args b = bind_args(sig, a, "copy");
    return shallow(in, b.get("x"));
  });
  ns->names["deepcopy"] = builtin("copy.deepcopy", [](Interpreter& in, CallArgs& a) {
    static const Signature sig = Signature::parse("def deepcopy(x, memo=None, _nil=[])");
    Args b = bind_args(sig, a, "deepcopy");
    Value memo = b.get("memo");
    b.get("_nil");
    if (memo.is_none()) memo = Value::dict();
    if (memo.kind != Value::Dict) throw TypeError("attn's copy.deepcopy takes memo as a dict");
    return DeepCopy(in, memo).copy(b.get("x"));
  });
  return ns;
}

}  // namespace

Value id_builtin() {
  return builtin("id", [](Interpreter&, CallArgs& a) {
    static const Signature sig = Signature::parse("def id(obj, /)");
    Args b = bind_args(sig, a, "id");
    return id_of(b.get("obj"));
  });
}

void add_copy_module(Interpreter& in) {
  in.add_module("copy", [](Interpreter&) { return module_value("copy", make_copy()); });
}

}  // namespace attn::py
