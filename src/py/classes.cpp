// py/classes.cpp: attributes: of objects, classes, modules and the built-in kinds, and the
// builtins about classes: super() (zero-argument and two-argument), property, staticmethod,
// classmethod, isinstance, issubclass, type, getattr/setattr/hasattr/delattr, callable, repr,
// vars, and object's own methods (object.__setattr__, object.__init__, ...).
//
// What it is: Python's attribute lookup: a native class's getattr hook first (tp_getattro), then
// properties of the class, the instance's own dict, the class's attributes along its method
// resolution order (functions become bound methods; staticmethod, classmethod), then the class's
// __getattr__; setting goes through a native setattr hook, the class's own __setattr__, a
// property's setter, or the instance dict. What it is not: metaclasses, descriptors other than
// property/staticmethod/classmethod, __slots__, __getattribute__ overrides.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/function_attrs.h"
#include "py/interpreter.h"
#include "py/text.h"
#include "py/ints.h"
#include "py/limits.h"
#include "py/signature.h"

namespace attn::py {

namespace {

// A container's method (list.append, dict.get, set.add ...) is a builtin whose closure holds the
// container where the collector cannot see it: `d["get"] = d.get` would be a cycle never freed.
// This builtin holds {container, that method} and shows the collector the closure's `captured`
// references to the container as its own (the inner method is owned by it alone, so they are).
struct CapturingBuiltin : BuiltinObj {
  CapturingBuiltin(const Value& container, Value inner, long captured)
      : BuiltinObj(std::vector<Value>{container, std::move(inner)}), captured_(captured) {}
  void gc_traverse(GcVisitor& visit) override {
    BuiltinObj::gc_traverse(visit);
    if (!held.empty())
      for (long k = 0; k < captured_; ++k) visit(held[0]);
  }

 private:
  long captured_;
};

// `__len__` and its kin: names a plain container answers through builtin_base_attr.
bool is_dunder(const std::string& name) { return name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0; }

// `make()` is a method of `container`, made now; wrapped as above when its closure took references.
template <class Make>
Value seen_by_collector(const Value& container, Make make) {
  const long before = container.obj.use_count();
  Value m = make();
  const long captured = container.obj.use_count() - before;
  if (captured <= 0 || m.kind != Value::Builtin || !container.obj) return m;
  auto o = std::make_shared<CapturingBuiltin>(container, m, captured);
  o->name = static_cast<BuiltinObj*>(m.obj.get())->name;
  o->fn = [me = o.get()](Interpreter& in, CallArgs& a) {
    if (me->held.size() != 2) throw RuntimeError("a method freed by the cycle collector was called");
    const Value inner = me->held[1];   // a copy: the call may drop this method
    return static_cast<BuiltinObj*>(inner.obj.get())->fn(in, a);
  };
  Value v;
  v.kind = Value::Builtin;
  v.obj = std::move(o);
  return v;
}

}  // namespace


namespace {

ClassPtr class_ptr(const Value& v) { return std::static_pointer_cast<ClassObj>(v.obj); }

Value instance_of(const ClassPtr& c) {
  auto o = std::make_shared<InstanceObj>();
  o->cls = c;
  return Value::of_instance(std::move(o));
}

// Built-in classes whose instances wrap a function in a class body, and super's proxy.
const ClassPtr& property_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = make_native_class("property", "builtins");
    cls->no_instance_dict = true;   // fget/fset/fdel live in its dict, set by make_property only
    return cls;
  }();
  return c;
}
const ClassPtr& staticmethod_class() { static const ClassPtr c = make_native_class("staticmethod", "builtins"); return c; }
const ClassPtr& classmethod_class() { static const ClassPtr c = make_native_class("classmethod", "builtins"); return c; }
// super's repr as CPython's super_repr: <super: <class 'B'>, <B object>>.
const ClassPtr& super_class() {
  static const ClassPtr c = [] {
    ClassPtr s = make_native_class("super", "builtins");
    s->slots.repr = [](Interpreter&, const Value& proxy) {
      const auto& o = *static_cast<InstanceObj*>(proxy.obj.get());
      const Value* owner = o.dict->find(std::string("__thisclass__"));
      const Value* self = o.dict->find(std::string("__self__"));
      if (!owner || !self) return std::string("<super: <class 'NULL'>, NULL>");
      const ClassPtr of = self->kind == Value::Class ? std::static_pointer_cast<ClassObj>(self->obj) : type_of(*self);
      return "<super: <class '" + static_cast<ClassObj*>(owner->obj.get())->name + "'>, <" + of->name + " object>>";
    };
    return s;
  }();
  return c;
}

bool is_a(const Value& v, const ClassPtr& c) { return v.kind == Value::Instance && inst(v).cls == c; }
bool is_builtin_container(const ClassObj* c) { return c && builtin_base(*c) == c; }   // list, tuple, dict, set

Value attr_or_none(const Value& v, const char* name) {
  Value* a = inst(v).find(name);
  return a ? *a : Value::none();
}

[[noreturn]] void attribute_error(const std::string& msg) { throw AttributeError(msg); }

Value make_property(Value fget, Value fset) {
  Value p = instance_of(property_class());
  inst(p).set("fget", std::move(fget));
  inst(p).set("fset", std::move(fset));
  return p;
}

Value wrapper(const ClassPtr& cls, const char* attr, const Value& fn) {
  Value w = instance_of(cls);
  inst(w).set(attr, fn);
  return w;
}

}  // namespace

std::vector<ClassPtr> mro(const ClassPtr& cls) {
  std::vector<ClassPtr> out;
  for (ClassObj* c : cls->mro()) out.push_back(c->self_ptr());
  return out;
}

void ClassObj::gc_traverse(GcVisitor& visit) {
  for (const auto& kv : methods) visit(kv.second);
  for (const ClassPtr& b : bases) visit(b);
}

void ClassObj::gc_clear() {   // garbage: its methods go (cycles through them break); bases stay for mro()
  std::map<std::string, Value> gone;
  gone.swap(methods);
}

// self.method: a builtin holding (self, fn) where the collector sees them (BuiltinObj::held), so
// `self.f = self.method` is a cycle it frees. fn reads them through the object that owns it.
Value bound_method(const Value& self, const Value& fn, const std::string& name) {
  auto o = std::make_shared<BuiltinObj>(std::vector<Value>{self, fn});
  o->name = name;
  o->fn = [me = o.get()](Interpreter& in, CallArgs& a) {
    if (me->held.size() != 2) throw RuntimeError("a bound method freed by the cycle collector was called");
    const Value self_v = me->held[0], fn_v = me->held[1];   // copies: the call may drop the method
    CallArgs b = a;
    b.pos.insert(b.pos.begin(), self_v);
    if (!b.pos_text.empty()) b.pos_text.insert(b.pos_text.begin(), "");
    return in.call(fn_v, b);
  };
  Value v;
  v.kind = Value::Builtin;
  v.obj = std::move(o);
  return v;
}

namespace {

// A class attribute as seen through `self` (an instance of `cls`, or the class itself).
// The descriptor method (__get__, __set__, __delete__, __set_name__) of a class attribute that is
// an object of a class written in Python, or nullptr.
const Value* descriptor_method(const Value& attr, const char* name) {
  if (attr.kind != Value::Instance) return nullptr;
  const ClassPtr& c = static_cast<InstanceObj*>(attr.obj.get())->cls;
  return c->immutable ? nullptr : c->find_method(name);
}

Value through(Interpreter& in, const Value& self, const ClassPtr& cls, const Value& attr, const std::string& name, bool instance) {
  bool is_method = attr.kind == Value::Function || (attr.kind == Value::Builtin && static_cast<BuiltinObj*>(attr.obj.get())->method);
  if (is_method) return instance ? bound_method(self, attr, cls->name + "." + name) : attr;
  if (is_a(attr, property_class())) {
    if (!instance) return attr;
    Value fget = attr_or_none(attr, "fget");
    if (fget.is_none()) attribute_error(fmt::format("property '{}' of '{}' object has no getter", name, cls->name));
    CallArgs a;
    a.pos.push_back(self);
    return in.call(fget, a);
  }
  if (is_a(attr, staticmethod_class())) return attr_or_none(attr, "__func__");
  if (is_a(attr, classmethod_class())) return bound_method(Value::of_class(cls), attr_or_none(attr, "__func__"), cls->name + "." + name);
  if (const Value* get = descriptor_method(attr, "__get__")) {   // a descriptor written in Python
    CallArgs a;
    a.pos = {attr, instance ? self : Value::none(), Value::of_class(cls)};
    return in.call(*get, a);
  }
  return attr;
}

// An object of a class with __set__ or __delete__ (a data descriptor): it wins over the instance dict.
bool is_data_descriptor(const Value& attr) {
  return is_a(attr, property_class()) || descriptor_method(attr, "__set__") || descriptor_method(attr, "__delete__");
}

// A native class's method as a bound builtin: `super().__init__(...)` reaching a native __init__.
Value native_dunder(const ClassObj& c, const Value& self, const std::string& name) {
  if (name == "__init__" && c.slots.init)
    return builtin(c.name + ".__init__", [self, init = c.slots.init](Interpreter& in, CallArgs& a) {
      init(in, self, a);
      return Value::none();
    });
  if (name == "__repr__" && c.slots.repr)
    return builtin(c.name + ".__repr__", [self, f = c.slots.repr](Interpreter& in, CallArgs&) { return Value::str(f(in, self)); });
  if (name == "__str__" && c.slots.str)
    return builtin(c.name + ".__str__", [self, f = c.slots.str](Interpreter& in, CallArgs&) { return Value::str(f(in, self)); });
  if (name == "__getattr__" && c.slots.getattr)
    return builtin(c.name + ".__getattr__", [self, f = c.slots.getattr](Interpreter& in, CallArgs& a) {
      const std::string n = str(arg(a, 0, "name"));
      if (std::optional<Value> v = f(in, self, n)) return *v;
      throw AttributeError("'" + type_name(self) + "' object has no attribute '" + n + "'");
    });
  return Value();
}

// super().name: the first class after `owner` in the order of self's class that has `name`.
Value super_attribute(Interpreter& in, const Value& proxy, const std::string& name) {
  ClassPtr owner = class_ptr(attr_or_none(proxy, "__thisclass__"));
  Value self = attr_or_none(proxy, "__self__");
  const bool instance = self.kind != Value::Class;
  ClassPtr cls = instance ? type_of(self) : class_ptr(self);
  const auto& order = cls->mro();
  auto start = std::find(order.begin(), order.end(), owner.get());
  if (start != order.end()) ++start;
  for (auto it = start; it != order.end(); ++it) {
    if (is_builtin_container(*it) && (instance || name == "__new__")) return seen_by_collector(self, [&] { return in.builtin_base_attr(self, **it, name); });
    auto m = (*it)->methods.find(name);
    if (m != (*it)->methods.end()) return through(in, self, cls, m->second, name, instance);
    if (instance) {
      Value native = native_dunder(**it, self, name);
      if (native.kind != Value::None) return native;
    }
  }
  attribute_error("'super' object has no attribute '" + name + "'");
}

// super() in a method: the class whose body defined the method, and its first argument;
// super(Class, obj) names both.
Value super_fn(Interpreter& in, CallArgs& a) {
  ClassPtr owner;
  Value self;
  if (a.pos.size() == 2) {
    if (a.pos[0].kind != Value::Class) throw TypeError("super() argument 1 must be a type, not " + type_name(a.pos[0]));
    owner = class_ptr(a.pos[0]);
    self = a.pos[1];
    ClassPtr of = self.kind == Value::Class ? class_ptr(self) : type_of(self);
    if (!is_subclass(of, owner.get())) throw TypeError("super(type, obj): obj must be an instance or subtype of type");
  } else if (a.pos.empty() && a.kw.empty()) {
    if (!in.current_method(owner, self)) throw RuntimeError("super(): no arguments");
  } else {
    throw NotImplementedError("attn's super() takes no arguments, or a class and an instance");
  }
  Value proxy = instance_of(super_class());
  inst(proxy).set("__thisclass__", Value::of_class(owner));
  inst(proxy).set("__self__", self);
  return proxy;
}

// An object of types.py's class `name` (UnionType: int | str; GenericAlias: list[int]).
bool of_types_class(const Value& v, const char* name) {
  return v.kind == Value::Instance && type_of(v)->name == name && type_of(v)->module == "types";
}

// What isinstance / issubclass check against: a union's members (int | str is (int, str)); a
// generic alias is CPython's TypeError.
Value class_info(const Value& c, const char* fn) {
  if (of_types_class(c, "GenericAlias")) throw TypeError(std::string(fn) + "() argument 2 cannot be a parameterized generic");
  if (!of_types_class(c, "UnionType")) return c;
  const Value* members = inst(c).find("__args__");
  return members ? *members : c;
}

// isinstance(obj, classinfo) for one class or a tuple of them (or a union).
bool instance_check(const Value& v, const Value& info) {
  const Value c = class_info(info, "isinstance");
  if (c.kind == Value::Class) {
    const auto* cls = static_cast<ClassObj*>(c.obj.get());
    return cls->slots.instancecheck ? cls->slots.instancecheck(v) : isinstance(v, cls);
  }
  if (c.kind == Value::Tuple) {
    for (const Value& x : as_seq(c))
      if (instance_check(v, x)) return true;
    return false;
  }
  throw TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union");
}

// The __getattr__ of a class written in Python (after the normal lookup failed), if it has one.
const Value* python_getattr(const ClassObj& cls) {
  static const ClassObj* const object = builtin_class("object").get();
  for (const ClassObj* c : cls.mro()) {
    if (c == object) break;
    auto it = c->methods.find("__getattr__");
    if (it != c->methods.end()) return &it->second;
  }
  return nullptr;
}

// range.index(x) and range.count(x): arithmetic for an int, as CPython's range_index and
// range_count; any other value is compared with each item (within the step limit).
Value range_method(const Value& range, const std::string& name) {
  return builtin("range." + name, [range, name](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError(fmt::format("range.{}() takes exactly one argument ({} given)", name, a.pos.size()));
    const Value& x = a.pos[0];
    const auto& r = *static_cast<const RangeObj*>(range.obj.get());
    std::optional<unsigned __int128> at;
    if (is_int(x) && x.kind != Value::Bool) {
      if (!x.is_big() && in.contains(range, x))
        at = static_cast<unsigned __int128>((static_cast<__int128>(small_of(x)) - r.start) / r.step);
    } else {
      for (unsigned __int128 k = 0, n = r.length(); k < n && !at; ++k) {
        in.tick();
        if (equal(Value::integer(r.at(k)), x)) at = k;
      }
    }
    if (name == "count") return Value::integer(at ? 1 : 0);
    if (!at && is_int(x) && x.kind != Value::Bool) throw ValueError(in.repr_of(x) + " is not in range");
    if (!at) throw ValueError("sequence.index(x): x not in sequence");
    if (*at > static_cast<unsigned __int128>(INT64_MAX)) return Value::integer(BigInt::from_uint64(static_cast<uint64_t>(*at)));
    return Value::integer(static_cast<int64_t>(*at));
  });
}

// type(name, bases, dict): the class a class statement with that body would make (its functions
// have no __class__ cell: a zero-argument super() in them finds no class, as in CPython).
Value make_type(Interpreter& in, const Value& name, const Value& bases, const Value& dict) {
  if (name.kind != Value::Str) throw TypeError("type.__new__() argument 1 must be str, not " + type_name(name));
  if (bases.kind != Value::Tuple) throw TypeError("type.__new__() argument 2 must be tuple, not " + type_name(bases));
  if (dict.kind != Value::Dict) throw TypeError("type.__new__() argument 3 must be dict, not " + type_name(dict));
  auto cls = std::make_shared<ClassObj>();
  cls->name = name.s;
  try {
    Value module = in.lookup("__name__");
    if (module.kind == Value::Str) cls->module = module.s;
  } catch (const PyError&) {   // a module without __name__: __main__
  }
  for (const Value& b : as_seq(bases)) {
    if (b.kind != Value::Class)
      throw TypeError("metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases");
    cls->bases.push_back(class_ptr(b));
  }
  if (cls->bases.empty()) cls->bases.push_back(builtin_class("object"));
  check_bases(*cls);
  for (const auto& [k, v] : static_cast<DictObj*>(dict.obj.get())->items)
    if (k.kind == Value::Str) cls->methods[k.s] = v;   // a key that is no name is no attribute either
  if (cls->methods.count("__eq__") && !cls->methods.count("__hash__")) cls->methods["__hash__"] = Value::none();   // __eq__ alone: unhashable
  set_names(in, cls);
  CallArgs none;
  init_subclass(in, cls, none);
  return Value::of_class(cls);
}

Value call_method(Interpreter& in, const Value& fn, const Value& self, const Value& arg) {
  CallArgs a;
  a.pos = {self, arg};
  return in.call(fn, a);
}

// An attribute of a list, tuple, dict or set of a class written in Python (class L(list)): the
// class's own attributes along its order before the built-in base (a property first), the
// instance's attributes, the base's methods, then the class's __getattr__.
// A method of a class that comes after the built-in base in the MRO (class T(tuple, Mixin)):
// found once the base has no such attribute, as CPython's MRO walk finds it.
const Value* after_base_method(const ClassObj& cls, const ClassObj& base, const std::string& name) {
  bool past = false;
  for (const ClassObj* c : cls.mro()) {
    if (c == &base) {
      past = true;
      continue;
    }
    if (!past) continue;
    auto it = c->methods.find(name);
    if (it != c->methods.end()) return &it->second;
  }
  return nullptr;
}

Value subclass_getattr(Interpreter& in, const Value& obj, const std::string& name) {
  ClassPtr cls = type_of(obj);
  std::shared_ptr<DictObj> attrs = attrs_of(obj);
  if (name == "__class__") return Value::of_class(cls);
  if (name == "__dict__") {
    Value d;
    d.kind = Value::Dict;
    d.obj = attrs;
    return d;
  }
  const ClassObj* base = builtin_base(*cls);
  const Value* in_class = nullptr;
  for (const ClassObj* c : cls->mro()) {
    if (c == base) break;
    if (c->slots.getattr)
      if (std::optional<Value> v = c->slots.getattr(in, obj, name)) return *v;
    auto it = c->methods.find(name);
    if (it != c->methods.end()) {
      in_class = &it->second;
      break;
    }
  }
  const Value* fallback = python_getattr(*cls);
  try {   // an AttributeError of a property's getter goes to __getattr__, as CPython
    if (in_class && is_data_descriptor(*in_class)) return through(in, obj, cls, *in_class, name, true);
    if (Value* v = attrs->find(name)) return *v;
    if (in_class) return through(in, obj, cls, *in_class, name, true);
  } catch (const PyError& e) {
    if (!fallback || !is_instance_of(e, "AttributeError")) throw;
    return call_method(in, *fallback, obj, Value::str(name));
  }
  try {
    return seen_by_collector(obj, [&] { return in.builtin_base_attr(obj, *base, name); });
  } catch (const PyError& e) {
    if (!is_instance_of(e, "AttributeError")) throw;
  }
  if (const Value* later = after_base_method(*cls, *base, name)) return through(in, obj, cls, *later, name, true);
  if (!fallback) attribute_error("'" + cls->name + "' object has no attribute '" + name + "'");
  return call_method(in, *fallback, obj, Value::str(name));
}

// base.__new__ as a bound builtin: tuple.__new__(cls, iterable) makes an instance of cls.
Value builtin_new(const ClassObj& base) {
  const ClassObj* b = &base;
  return builtin(base.name + ".__new__", [b](Interpreter& in, CallArgs& a) {
    if (a.pos.empty()) throw TypeError(fmt::format("{}.__new__(): not enough arguments", b->name));
    if (a.pos[0].kind != Value::Class)
      throw TypeError(fmt::format("{}.__new__(X): X is not a type object ({})", b->name, type_name(a.pos[0])));
    CallArgs rest = a;
    rest.pos.erase(rest.pos.begin());
    if (!rest.pos_text.empty()) rest.pos_text.erase(rest.pos_text.begin());
    ClassPtr cls = class_ptr(a.pos[0]);
    if (cls.get() == b) return b->slots.make(in, cls, rest);
    return in.new_builtin_subclass(*b, cls, rest);
  });
}

}  // namespace

void set_names(Interpreter& in, const ClassPtr& cls) {
  std::vector<std::pair<std::string, Value>> attrs;   // a copy, in definition order, as type_new_set_names
  for (const std::string& name : cls->names_in_order()) attrs.emplace_back(name, cls->methods.at(name));
  for (const auto& [name, attr] : attrs)
    if (const Value* set_name = descriptor_method(attr, "__set_name__")) {
      CallArgs a;
      a.pos = {attr, Value::of_class(cls), Value::str(name)};
      in.call(*set_name, a);
    }
}

// What type.__new__ does after __set_name__: an __init_subclass__ written as a plain function is a
// classmethod (a __class_getitem__ is called with its class already: protocol.cpp); then the next
// class in the MRO that has __init_subclass__ gets the class statement's keywords (object's takes none).
void init_subclass(Interpreter& in, const ClassPtr& cls, CallArgs& keywords) {
  auto own = cls->methods.find("__init_subclass__");
  if (own != cls->methods.end() && own->second.kind == Value::Function) own->second = wrapper(classmethod_class(), "__func__", own->second);
  const auto& order = cls->mro();
  for (size_t k = 1; k < order.size(); ++k) {
    auto it = order[k]->methods.find("__init_subclass__");
    if (it == order[k]->methods.end()) continue;
    if (order[k] == builtin_class("object").get()) {
      if (!keywords.kw.empty()) throw TypeError(cls->name + ".__init_subclass__() takes no keyword arguments");
      return;
    }
    in.call(through(in, Value::of_class(cls), cls, it->second, "__init_subclass__", false), keywords);
    return;
  }
}

Value Interpreter::new_builtin_subclass(const ClassObj& base, const ClassPtr& cls, CallArgs& args) {
  if (!is_subclass(cls.get(), &base))
    throw TypeError(fmt::format("{}.__new__({}): {} is not a subtype of {}", base.name, cls->name, cls->name, base.name));
  if (cls->tag() || builtin_base(*cls) != &base)
    throw TypeError(fmt::format("{}.__new__({}) is not safe, use {}.__new__()", base.name, cls->name, cls->name));
  Value v;
  if (base.name == "tuple") {
    Value made = base.slots.make(*this, builtin_class("tuple"), args);
    v = Value::tuple(as_seq(made));   // a new tuple: tuple(t) may be t itself
    static_cast<SeqObj*>(v.obj.get())->cls = cls;
  } else if (base.name == "list") {
    v = Value::list({});
    static_cast<SeqObj*>(v.obj.get())->cls = cls;
  } else if (base.name == "dict") {
    v = Value::dict();
    static_cast<DictObj*>(v.obj.get())->cls = cls;
  } else {
    v = Value::set({});
    static_cast<SetObj*>(v.obj.get())->cls = cls;
  }
  return v;
}

namespace {

// A plain list, tuple, dict, set or frozenset with the items of `v` (of a subclass of one).
Value plain_copy(const Value& v) {
  if (v.kind == Value::List) return Value::list(as_seq(v));
  if (v.kind == Value::Tuple) return Value::tuple(as_seq(v));
  if (v.kind == Value::Set) {
    Value s = Value::set(static_cast<SetObj*>(v.obj.get())->ordered());
    return is_frozenset(v) ? frozen(s) : s;
  }
  Value d = Value::dict();
  for (const auto& [k, x] : std::vector<std::pair<Value, Value>>(static_cast<DictObj*>(v.obj.get())->items)) static_cast<DictObj*>(d.obj.get())->set(k, x);
  return d;
}

// A dunder of the built-in base of a subclass's value (class L(list), OrderedDict): the base's own
// code, not the subclass's overrides: on a plain copy of its items, and an in-place one through
// the base's own update methods on the value itself.
Value subclass_dunder(Interpreter& in, const Value& self, const ClassObj& base, const std::string& name) {
  static const std::map<std::string, std::string> in_place = {{"__iadd__", "extend"}, {"__ior__", "update"},
      {"__iand__", "intersection_update"}, {"__isub__", "difference_update"}, {"__ixor__", "symmetric_difference_update"}};
  const std::string qual = base.name + "." + name;
  if (name == "__imul__")
    return builtin(qual, [self](Interpreter& i, CallArgs& a) {
      const Value repeated = *builtin_dunder(i, Value::list(as_seq(self)), "__mul__");
      std::vector<Value> items = as_seq(i.call(repeated, a));
      static_cast<SeqObj*>(self.obj.get())->items = std::move(items);
      return self;
    });
  auto update = in_place.find(name);
  if (update == in_place.end()) return *builtin_dunder(in, plain_copy(self), name);
  const ClassObj* b = &base;
  return builtin(qual, [self, b, m = update->second](Interpreter& i, CallArgs& a) {
    const Value other = arg(a, 0, "value");
    if (self.kind == Value::Set && other.kind != Value::Set) return Value::not_implemented();
    CallArgs one;
    one.pos.push_back(other);
    i.call(seen_by_collector(self, [&] { return i.builtin_base_attr(self, *b, m); }), one);
    return self;
  });
}

}  // namespace

Value Interpreter::builtin_base_attr(const Value& self, const ClassObj& base, const std::string& name) {
  const std::string qual = base.name + "." + name;
  const std::string type = dunder_type(self);
  if (is_dunder(name) && !type_has_dunder(type, name) && !builtin_class("object")->methods.count(name) && name != "__class__")
    attribute_error("'" + type_name(self) + "' object has no attribute '" + name + "'");   // hasattr([], "__next__") is False
  if (name == "__new__") return builtin_new(base);
  if (name == "__init__" && base.slots.init)
    return builtin(qual, [self, init = base.slots.init](Interpreter& in, CallArgs& a) {
      init(in, self, a);
      return Value::none();
    });
  if (name == "__getitem__")
    return builtin(qual, [self](Interpreter& in, CallArgs& a) {
      const Value key = arg(a, 0, "key");
      if (self.kind == Value::Dict && !static_cast<DictObj*>(self.obj.get())->find(key))
        if (std::optional<Value> r = missing_item(in, self, key)) return *r;
      return getitem_builtin(self, key);
    });
  if (name == "__setitem__")
    return builtin(qual, [self](Interpreter& in, CallArgs& a) {
      in.setitem_builtin(self, arg(a, 0, "key"), arg(a, 1, "value"));
      return Value::none();
    });
  if (name == "__delitem__")
    return builtin(qual, [self](Interpreter& in, CallArgs& a) {
      in.delitem_builtin(self, arg(a, 0, "key"));
      return Value::none();
    });
  if (name == "__len__")
    return builtin(qual, [self](Interpreter&, CallArgs&) {
      if (self.kind == Value::Dict) return Value::integer(static_cast<int64_t>(static_cast<DictObj*>(self.obj.get())->items.size()));
      if (self.kind == Value::Set) return Value::integer(static_cast<int64_t>(static_cast<SetObj*>(self.obj.get())->size()));
      return Value::integer(static_cast<int64_t>(as_seq(self).size()));
    });
  if (name == "__contains__")
    return builtin(qual, [self](Interpreter&, CallArgs& a) {
      const Value item = arg(a, 0, "key");
      if (self.kind == Value::Dict) return Value::boolean(static_cast<DictObj*>(self.obj.get())->find(item) != nullptr);
      if (self.kind == Value::Set) return Value::boolean(static_cast<SetObj*>(self.obj.get())->contains(item));
      return Value::boolean(find_equal(as_seq(self), item) >= 0);   // safe when == changes the list
    });
  if (name == "__repr__" || name == "__str__")
    return builtin(qual, [self](Interpreter&, CallArgs&) { return Value::str(plain_repr(self)); });
  if (name == "__iter__")   // the container's own iterator, whatever a subclass's __iter__ does
    return builtin(qual, [self](Interpreter& in, CallArgs&) {
      CallArgs one;
      one.pos.push_back(self.kind == Value::Tuple ? Value::tuple(as_seq(self)) : self);
      return in.call(in.lookup("iter"), one);
    });
  if (name == "__eq__" || name == "__ne__")
    return builtin(qual, [self, eq = name == "__eq__"](Interpreter&, CallArgs& a) {
      const Value other = arg(a, 0, "value");
      if (other.kind != self.kind) return Value::not_implemented();   // list.__eq__ takes lists (and their subclasses'), set.__eq__ frozensets
      return Value::boolean(equal(self, other) == eq);
    });
  if (name == "__hash__") {
    const bool mutable_kind = self.kind == Value::List || self.kind == Value::Dict || (self.kind == Value::Set && !is_frozenset(self));
    if (mutable_kind) return Value::none();   // list.__hash__ is None: calling it is "'NoneType' object is not callable"
    return builtin(qual, [self](Interpreter&, CallArgs&) { return Value::integer(py_hash(self)); });
  }
  if (is_dunder(name) && dunder_backed(type, name)) {   // __add__, __lt__, __ior__, ...
    if (!py_subclass(self) && !type_of(self)->tag()) return *builtin_dunder(*this, self, name);
    return subclass_dunder(*this, self, base, name);
  }
  return self.kind == Value::Set ? more_seq_method(self, name) : seq_method(self, name);
}


// object.__getattribute__: properties, the instance dict, the class's attributes; nullopt when
// none has the name (no C++ exception: a class's __getattr__ is asked often, self.weight of an
// nn.Module is one).
std::optional<Value> Interpreter::find_attribute(const Value& obj, const std::string& name) {
  InstanceObj& o = inst(obj);
  if (name == "__class__") return Value::of_class(o.cls);
  if (name == "__dict__") {
    if (o.cls->no_instance_dict || o.cls == builtin_class("object")) return std::nullopt;   // object(), a generator: no __dict__
    Value d;
    d.kind = Value::Dict;
    d.obj = o.dict;
    return d;
  }
  const Value* in_class = o.cls->find_method(name);
  if (in_class && is_data_descriptor(*in_class)) return through(*this, obj, o.cls, *in_class, name, true);   // a data descriptor first
  if (Value* v = o.find(name)) return *v;
  if (in_class) return through(*this, obj, o.cls, *in_class, name, true);
  return std::nullopt;
}

Value Interpreter::generic_getattr(const Value& obj, const std::string& name) {
  if (std::optional<Value> v = find_attribute(obj, name)) return *v;
  attribute_error("'" + inst(obj).cls->name + "' object has no attribute '" + name + "'");
}

Value Interpreter::getattr_instance(const Value& obj, const std::string& name) {
  InstanceObj& o = inst(obj);
  if (o.cls == super_class()) return super_attribute(*this, obj, name);
  for (const ClassObj* c : o.cls->mro())
    if (c->slots.getattr)
      if (std::optional<Value> v = c->slots.getattr(*this, obj, name)) return *v;
  if (o.cls == property_class() && name == "setter")
    return builtin("property.setter", [obj](Interpreter&, CallArgs& a) { return make_property(attr_or_none(obj, "fget"), arg(a, 0, "fset")); });
  const Value* fallback = python_getattr(*o.cls);
  if (!fallback) {
    if (std::optional<Value> v = find_attribute(obj, name)) return *v;
    attribute_error("'" + o.cls->name + "' object has no attribute '" + name + "'");
  }
  try {   // an AttributeError of the normal lookup (a property's getter) goes to __getattr__, as CPython
    if (std::optional<Value> v = find_attribute(obj, name)) return *v;
  } catch (const PyError& e) {
    if (!is_instance_of(e, "AttributeError")) throw;
  }
  return call_dunder(*fallback, obj, {Value::str(name)});
}

namespace {

// CPython's error for a built-in type's method called through the class on an object of another
// type (list.__init__({}), bytes.hex("a")): a slot wrapper's wording for the dunders that are
// slots, a method descriptor's for the rest.
[[noreturn]] void wrong_self(const ClassObj& cls, const std::string& name, const Value& self) {
  static const std::set<std::string> method_dunders = {"__getitem__", "__contains__", "__reversed__", "__sizeof__", "__format__",
      "__getnewargs__", "__reduce__", "__reduce_ex__", "__ceil__", "__floor__", "__round__", "__trunc__", "__bytes__", "__dir__",
      "__getstate__"};
  if (is_dunder(name) && !method_dunders.count(name))
    throw TypeError(fmt::format("descriptor '{}' requires a '{}' object but received a '{}'", name, cls.name, type_name(self)));
  throw TypeError(fmt::format("descriptor '{}' for '{}' objects doesn't apply to a '{}' object", name, cls.name, type_name(self)));
}

// A built-in type's method taken from the class (str.join, list.__init__, bytes.hex): checks its
// first argument is of that type, then calls what `get` gives for it with the rest (`with_self`:
// the first argument kept, for a method of the class's table).
Value unbound_checked(const ClassObj& cls, const std::string& name, std::function<Value(Interpreter&, const Value&)> get, bool with_self = false) {
  const ClassObj* c = &cls;
  const std::string type = cls.name;
  return builtin(type + "." + name, [c, type, name, get, with_self](Interpreter& in, CallArgs& a) {
    if (a.pos.empty()) {
      if (is_dunder(name)) throw TypeError(fmt::format("descriptor '{}' of '{}' object needs an argument", name, type));
      throw TypeError(fmt::format("unbound method {}.{}() needs an argument", type, name));
    }
    if (!is_subclass(type_of(a.pos[0]), c)) wrong_self(*c, name, a.pos[0]);
    Value f = get(in, a.pos[0]);
    if (with_self) return in.call(f, a);
    CallArgs rest = a;
    rest.pos.erase(rest.pos.begin());
    return in.call(f, rest);
  });
}

// Whether a native class's slots answer the dunder `name` (Cls.__add__: slots.binary), for the
// unbound form of an operator whose instances give the bound one.
bool slot_backs(const Slots& s, const std::string& name) {
  static const std::set<std::string> binary = {"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
      "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__",
      "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__lshift__", "__rlshift__", "__rshift__", "__rrshift__"};
  static const std::set<std::string> inplace = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
      "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"};
  static const std::set<std::string> compare = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"};
  static const std::set<std::string> unary = {"__neg__", "__pos__", "__invert__", "__abs__"};
  if (binary.count(name)) return bool(s.binary);
  if (inplace.count(name)) return bool(s.inplace);
  if (compare.count(name)) return bool(s.compare);
  if (unary.count(name)) return bool(s.unary);
  if (name == "__getitem__") return bool(s.getitem);
  if (name == "__setitem__") return bool(s.setitem);
  if (name == "__len__") return bool(s.len);
  if (name == "__iter__") return bool(s.iter);
  if (name == "__bool__") return bool(s.truth);
  return false;
}

}  // namespace

static std::optional<Value> float_number_attr(const Value& obj, const std::string& name);
static Value float_fromhex(Interpreter&, CallArgs& a);

Value Interpreter::getattr_class(const Value& cls_value, const std::string& name) {
  ClassPtr cls = class_ptr(cls_value);
  if (name == "__name__") return Value::str(cls->name);
  if (name == "__qualname__") return Value::str(cls->qualname.empty() ? cls->name : cls->qualname);
  if (name == "__module__") return Value::str(cls->module);
  if (name == "__class__") return Value::of_class(builtin_class("type"));   // list.__class__: every class's is type
  if (name == "__mro__") {
    std::vector<Value> out;
    for (const ClassPtr& c : mro(cls)) out.push_back(Value::of_class(c));
    return Value::tuple(out);
  }
  if (name == "__bases__") {
    std::vector<Value> out;
    for (const ClassPtr& b : cls->bases) out.push_back(Value::of_class(b));
    return Value::tuple(out);
  }
  if (name == "__dict__") {
    Value d = Value::dict();
    for (const std::string& k : cls->names_in_order()) static_cast<DictObj*>(d.obj.get())->set(Value::str(k), cls->methods.at(k));
    return d;
  }
  if (name == "__new__" && is_builtin_container(cls.get())) return builtin_new(*cls);   // before object's
  if (name == "__init__" && cls->module == "builtins" && (cls->name == "list" || cls->name == "dict" || cls->name == "set"))
    return unbound_checked(*cls, name, [name](Interpreter& in, const Value& self) { return in.getattr(self, name); });
  for (const ClassObj* c : cls->mro()) {   // int.__add__, list.__len__, L.__hash__ of class L(list): a built-in type's own dunder
    if (!is_dunder(name) || c->methods.count(name)) break;
    if (c->module != "builtins" || !own_dunder(c->name, name)) continue;
    if (name == "__hash__" && (c->name == "list" || c->name == "dict" || c->name == "set" || c->name == "slice")) return Value::none();
    if (!dunder_backed(c->name, name)) break;
    const ClassPtr& owner = builtin_class(c->name);
    return unbound_checked(*owner, name, [name, owner](Interpreter& in, const Value& self) {
      return py_subclass(self) ? seen_by_collector(self, [&] { return in.builtin_base_attr(self, *owner, name); }) : in.getattr(self, name);
    });
  }
  for (const ClassObj* c : cls->mro()) {
    auto it = c->methods.find(name);
    if (it == c->methods.end()) continue;
    const Value& m = it->second;
    if (m.kind == Value::Builtin && static_cast<BuiltinObj*>(m.obj.get())->method && name != "__new__" && name != "__class_getitem__" &&
        name != "__init_subclass__" && name != "__subclasshook__")
      return unbound_checked(*c, name, [m](Interpreter&, const Value&) { return m; }, true);   // a native method reads its self as its own kind
    return through(*this, cls_value, cls, m, name, false);
  }
  if (std::optional<Value> v = bytes_class_attribute(*cls, name)) return *v;
  if (is_dunder(name))   // a native class's operator slot by its dunder's name, unbound (as CPython's slot wrappers)
    for (const ClassObj* c : cls->mro())   // (not the built-in types': builtin_dunders.cpp knows which they have)
      if (c->module != "builtins" && slot_backs(c->slots, name))
        return unbound_checked(*c, name, [name](Interpreter& in, const Value& self) { return in.getattr(self, name); });
  if (cls->module == "builtins" && cls->name == "int" && name == "from_bytes") return builtin("int.from_bytes", int_from_bytes);
  if (cls->module == "builtins" && cls->name == "float" && name == "fromhex") return builtin("float.fromhex", float_fromhex);
  if (cls->module == "builtins" && cls->name == "float" && float_number_attr(Value::number(0.0), name) && name != "real" && name != "imag")
    return unbound_checked(*cls, name, [name](Interpreter& in, const Value& self) { return in.getattr(self, name); });   // float.hex(x)
  static const std::set<std::string> int_methods = {"bit_length", "bit_count", "to_bytes", "conjugate", "as_integer_ratio"};
  if (cls->module == "builtins" && (cls->name == "int" || cls->name == "bool") && int_methods.count(name))   // int.bit_length(5)
    return unbound_checked(*builtin_class("int"), name, [name](Interpreter& in, const Value& self) { return in.getattr(self, name); });
  if (cls->module == "builtins" && cls->name == "str" && name == "maketrans") return builtin("str.maketrans", str_maketrans);
  if (cls->module == "builtins" && cls->name == "dict" && name == "fromkeys") return builtin("dict.fromkeys", dict_fromkeys);
  if (name == "fromkeys" && is_subclass(cls, builtin_class("dict").get()))   // OrderedDict, class D(dict): cls(), then d[key] = value
    return builtin(cls->name + ".fromkeys", [cls](Interpreter& in, CallArgs& a) {
      const Value plain = dict_fromkeys(in, a);   // its argument checks, the keys in order
      CallArgs none;
      Value d = in.call(Value::of_class(cls), none);
      for (const auto& kv : std::vector<std::pair<Value, Value>>(static_cast<DictObj*>(plain.obj.get())->items)) in.setitem(d, kv.first, kv.second);
      return d;
    });
  if (cls->module == "builtins" && (cls->name == "str" || cls->name == "list" || cls->name == "dict" || cls->name == "tuple" || cls->name == "set") &&
      !is_dunder(name)) {
    // str.join, list.append, dict.items, ...: the method of the first argument, unbound
    const std::string type = cls->name;
    return unbound_checked(*cls, name, [name, cls](Interpreter& in, const Value& self) {
      return py_subclass(self) ? seen_by_collector(self, [&] { return in.builtin_base_attr(self, *cls, name); }) : in.getattr(self, name);
    });
  }
  if (name == "__or__" || name == "__ror__") {   // type's own: float.__or__(None) is float | None (PEP 604)
    const bool reflected = name == "__ror__";
    Value fn = builtin("type." + name, [reflected](Interpreter& in, CallArgs& a) {
      if (a.pos.size() != 2 || !a.kw.empty()) throw TypeError(fmt::format("expected 1 argument, got {}", a.pos.size() + a.kw.size() - 1));
      std::optional<Value> r = reflected ? in.type_union(a.pos[1], a.pos[0]) : in.type_union(a.pos[0], a.pos[1]);
      return r ? *r : Value::not_implemented();
    });
    return bound_method(cls_value, fn, name);
  }
  attribute_error("type object '" + cls->name + "' has no attribute '" + name + "'");
}

// The numbers protocol of an int or bool (x.real, x.numerator, x.conjugate(), ...): an int is its
// own real part and numerator; bool's answers are ints.
static std::optional<Value> int_number_attr(const Value& obj, const std::string& name) {
  const Value self = obj.kind == Value::Bool ? Value::integer(obj.b ? 1 : 0) : obj;
  if (name == "real" || name == "numerator") return self;
  if (name == "imag") return Value::integer(0);
  if (name == "denominator") return Value::integer(1);
  const std::string type = obj.kind == Value::Bool ? "bool" : "int";
  if (name == "conjugate")
    return builtin(type + ".conjugate", [self](Interpreter&, CallArgs& a) { no_args(a, "conjugate"); return self; });
  if (name == "as_integer_ratio")
    return builtin(type + ".as_integer_ratio", [self](Interpreter&, CallArgs& a) {
      no_args(a, "as_integer_ratio");
      return Value::tuple({self, Value::integer(1)});
    });
  if (name == "bit_count")
    return builtin(type + ".bit_count", [self](Interpreter&, CallArgs& a) {
      no_args(a, "bit_count");
      const std::string bits = big_of(self).magnitude_in_base(2);
      return Value::integer(static_cast<int64_t>(std::count(bits.begin(), bits.end(), '1')));
    });
  return std::nullopt;
}

// float.hex(), as CPython's float_hex: 0x1.999999999999ap-4, subnormals as 0x0.xxxp-1022.
static std::string float_hex(double x) {
  if (std::isnan(x) || std::isinf(x)) return std::isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(x) ? "-" : "";
  if (x == 0) return sign + "0x0.0p+0";
  int e = 0;
  double m = std::frexp(std::fabs(x), &e);
  const int shift = 1 - std::max(-1021 - e, 0);   // DBL_MIN_EXP = -1021
  m = std::ldexp(m, shift);
  e -= shift;
  std::string out = sign + "0x";
  auto digit = [&] { const int d = static_cast<int>(m); m -= d; out += "0123456789abcdef"[d]; };
  digit();
  out += '.';
  for (int k = 0; k < 13; ++k) { m *= 16; digit(); }   // (53 - 1) / 4 digits after the point
  return out + fmt::format("p{}{}", e < 0 ? "-" : "+", std::abs(e));
}

// float.fromhex(s), as CPython's float_fromhex: [sign] (inf | infinity | nan | [0x] digits [. digits] [p exp]),
// spaces around; rounded half to even by strtod, OverflowError past the largest float.
static Value float_fromhex(Interpreter&, CallArgs& a) {
  const Value arg0 = arg(a, 0, "string");
  if (arg0.kind != Value::Str) throw TypeError("bad argument type for built-in operation");
  std::string t = arg0.s;
  const char* space = " \t\n\r\v\f";
  t.erase(0, t.find_first_not_of(space));
  t.erase(t.find_last_not_of(space) + 1);
  std::string lower = t;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t k = lower.size() && (lower[0] == '+' || lower[0] == '-') ? 1 : 0;
  const std::string sign = k ? lower.substr(0, 1) : "";
  const std::string word = lower.substr(k);
  if (word == "inf" || word == "infinity" || word == "nan") return Value::number(std::strtod(lower.c_str(), nullptr));
  if (word.rfind("0x", 0) == 0) k += 2;
  const size_t digits_at = k;
  size_t digits = 0;
  for (; k < lower.size() && std::isxdigit(static_cast<unsigned char>(lower[k])); ++k) ++digits;
  if (k < lower.size() && lower[k] == '.')
    for (++k; k < lower.size() && std::isxdigit(static_cast<unsigned char>(lower[k])); ++k) ++digits;
  const std::string mantissa = lower.substr(digits_at, k - digits_at);
  std::string exponent = "p0";
  if (digits && k < lower.size() && lower[k] == 'p') {
    const size_t at = k++;
    if (k < lower.size() && (lower[k] == '+' || lower[k] == '-')) ++k;
    const size_t first = k;
    while (k < lower.size() && std::isdigit(static_cast<unsigned char>(lower[k]))) ++k;
    exponent = k > first ? lower.substr(at, k - at) : "";
  }
  if (!digits || exponent.empty() || k != lower.size()) throw ValueError("invalid hexadecimal floating-point string");
  const double x = std::strtod((sign + "0x" + mantissa + exponent).c_str(), nullptr);
  if (std::isinf(x)) throw OverflowError("hexadecimal value too large to represent as a float");
  return Value::number(x);
}

// The numbers protocol of a float: x.real, x.imag, conjugate(), is_integer(), as_integer_ratio(), hex().
static std::optional<Value> float_number_attr(const Value& obj, const std::string& name) {
  const double x = obj.f;
  if (name == "real") return obj;
  if (name == "imag") return Value::number(0.0);
  auto method = [&](const std::string& m, std::function<Value()> f) {
    return builtin("float." + m, [m, f](Interpreter&, CallArgs& a) { no_args(a, m.c_str()); return f(); });
  };
  if (name == "conjugate") return method(name, [obj] { return obj; });
  if (name == "is_integer") return method(name, [x] { return Value::boolean(std::isfinite(x) && std::floor(x) == x); });
  if (name == "hex") return method(name, [x] { return Value::str(float_hex(x)); });
  if (name == "as_integer_ratio")
    return method(name, [x] {
      if (std::isinf(x)) throw OverflowError("cannot convert Infinity to integer ratio");
      if (std::isnan(x)) throw ValueError("cannot convert NaN to integer ratio");
      int e = 0;
      double m = std::frexp(x, &e);
      for (int k = 0; k < 300 && m != std::floor(m); ++k) { m *= 2; --e; }   // m an integer, x = m * 2**e
      BigInt num = BigInt::from_double(m), den(1);
      if (e > 0) num = num.shifted_left(static_cast<uint64_t>(e));
      else den = den.shifted_left(static_cast<uint64_t>(-e));
      return Value::tuple({Value::integer(num), Value::integer(den)});
    });
  return std::nullopt;
}

Value Interpreter::getattr(const Value& obj, const std::string& name) {
  // A built-in type's classmethod through an instance: the class's (OrderedDict().fromkeys makes
  // an OrderedDict, (5).from_bytes an int, b"".fromhex bytes), as CPython binds it to type(obj).
  if ((name == "fromkeys" && obj.kind == Value::Dict) || (name == "from_bytes" && is_int(obj)) ||
      ((name == "fromhex" || name == "maketrans") && (type_of(obj) == bytes_class() || type_of(obj) == bytearray_class())) ||
      (name == "fromhex" && obj.kind == Value::Float)) {
    if (obj.kind != Value::Bool) return getattr_class(Value::of_class(type_of(obj)), name);
    const Value f = getattr_class(Value::of_class(builtin_class("int")), name);   // bool.from_bytes: a bool
    return builtin("bool.from_bytes", [f](Interpreter& in, CallArgs& a) { return Value::boolean(in.truth(in.call(f, a))); });
  }
  // x.__class__ is type(x) for every object (object's data descriptor: before a module's names)
  if (name == "__class__" && obj.kind != Value::Instance && obj.kind != Value::Class) return Value::of_class(type_of(obj));
  switch (obj.kind) {
    case Value::Namespace: {
      auto& names = names_of(obj).names;
      auto it = names.find(name);
      if (it == names.end() && name != "__getattr__" && names.count("__getattr__")) {   // a module's __getattr__ (PEP 562)
        CallArgs a;
        a.pos.push_back(Value::str(name));
        Value fallback = names.at("__getattr__");
        return call(fallback, a);
      }
      if (it == names.end())
        throw AttributeError("module '" + obj.s + "' has no attribute '" + name + "'" +
                             (names.count("__file__") ? "" : " (attn implements the parts of it the lessons use)"));
      return it->second;
    }
    case Value::Str:
      if (is_dunder(name) && type_has_dunder("str", name)) {
        if (std::optional<Value> d = builtin_dunder(*this, obj, name)) return *d;
        attribute_error("'str' object has no attribute '" + name + "'");
      }
      return str_attribute(obj, name);
    case Value::Bool: case Value::Int: {
      if (std::optional<Value> v = int_number_attr(obj, name)) return *v;
      const Value self = obj.kind == Value::Bool ? Value::integer(obj.b ? 1 : 0) : obj;   // True.bit_length(): int's
      if (name == "to_bytes") return builtin("int.to_bytes", [self](Interpreter&, CallArgs& a) { return int_to_bytes(self, a); });
      if (name == "bit_length")
        return builtin("int.bit_length", [self](Interpreter&, CallArgs& a) { no_args(a, "bit_length"); return Value::integer(static_cast<int64_t>(big_of(self).bit_length())); });
      break;
    }
    case Value::Float:
      if (std::optional<Value> v = float_number_attr(obj, name)) return *v;
      break;
    case Value::Instance: return getattr_instance(obj, name);
    case Value::Class: return getattr_class(obj, name);
    case Value::Function: {
      const auto& f = *static_cast<FunctionWithAttrs*>(obj.obj.get());
      if (f.attrs)
        if (Value* own = f.attrs->find(name)) return *own;
      if (name == "__name__") return Value::str(f.def->name);
      if (name == "__qualname__") return Value::str(f.qualname);
      if (name == "__doc__") return Value::none();
      if (name == "__module__") {
        std::shared_ptr<NamespaceObj> m = f.module.lock();
        return m && m->names.count("__name__") ? m->names.at("__name__") : Value::str("__main__");
      }
      throw AttributeError("'function' object has no attribute '" + name + "'");
    }
    case Value::Builtin:
      if (name == "__name__" || name == "__qualname__") {
        const std::string& n = static_cast<BuiltinObj*>(obj.obj.get())->name;
        return Value::str(n.substr(n.rfind('.') + 1));
      }
      throw AttributeError("'builtin_function_or_method' object has no attribute '" + name + "'");
    case Value::List: case Value::Tuple: case Value::Dict: {
      if (py_subclass(obj)) return subclass_getattr(*this, obj, name);
      // torch.Size's and OrderedDict's own methods
      if (const auto& tag = (obj.kind == Value::Dict ? static_cast<DictObj*>(obj.obj.get())->cls : static_cast<SeqObj*>(obj.obj.get())->cls)) {
        for (const ClassObj* c : tag->mro()) {
          if (c->module == "builtins" && is_dunder(name) && dunder_backed(dunder_type(obj), name)) break;   // dict.__eq__, not object's
          if (c->slots.getattr)
            if (std::optional<Value> v = c->slots.getattr(*this, obj, name)) return *v;
          auto it = c->methods.find(name);
          if (it != c->methods.end()) return through(*this, obj, tag, it->second, name, true);
        }
      }
      if (is_dunder(name))   // [1].__len__(), d.__getitem__(k): what a subclass's super() gets
        return seen_by_collector(obj, [&] { return builtin_base_attr(obj, *type_of(obj), name); });
      return seen_by_collector(obj, [&] { return seq_method(obj, name); });
    }
    case Value::Set:
      if (py_subclass(obj)) return subclass_getattr(*this, obj, name);
      if (is_dunder(name)) return seen_by_collector(obj, [&] { return builtin_base_attr(obj, *type_of(obj), name); });
      return seen_by_collector(obj, [&] { return more_seq_method(obj, name); });
    case Value::Slice: {
      const auto& s = *static_cast<SliceObj*>(obj.obj.get());
      if (name == "start") return s.start;
      if (name == "stop") return s.stop;
      if (name == "step") return s.step;
      break;
    }
    case Value::Range: {
      const auto& r = *static_cast<RangeObj*>(obj.obj.get());
      if (name == "start") return Value::integer(r.start);
      if (name == "stop") return Value::integer(r.stop);
      if (name == "step") return Value::integer(r.step);
      if (name == "index" || name == "count") return range_method(obj, name);
      break;
    }
    default: break;
  }
  if (name == "__class__") return Value::of_class(type_of(obj));
  if (is_dunder(name))
    if (std::optional<Value> d = builtin_dunder(*this, obj, name)) return *d;
  throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
}

// object.__setattr__: a property's setter, else the instance dict.
void Interpreter::generic_setattr(const Value& obj, const std::string& name, Value v) {
  if (obj.kind != Value::Instance && !py_subclass(obj))
    throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
  const ClassPtr cls = type_of(obj);
  if (const Value* attr = cls->find_method(name); attr && descriptor_method(*attr, "__set__")) {   // descriptor.__set__(obj, v)
    CallArgs a;
    a.pos = {*attr, obj, std::move(v)};
    call(*descriptor_method(*attr, "__set__"), a);
    return;
  }
  if (const Value* attr = cls->find_method(name); attr && is_a(*attr, property_class())) {
    Value fset = attr_or_none(*attr, "fset");
    if (fset.is_none()) attribute_error(fmt::format("property '{}' of '{}' object has no setter", name, cls->name));
    CallArgs a;
    a.pos = {obj, std::move(v)};
    call(fset, a);
    return;
  }
  if (name == "__class__" || name == "__dict__") throw TypeError("attn does not let a program replace an object's " + name);
  if (cls->no_instance_dict || cls == builtin_class("object"))   // object() has no __dict__: a sentinel takes no attributes
    throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
  attrs_of(obj)->set(Value::str(name), std::move(v));
}

void Interpreter::setattr(const Value& obj, const std::string& name, Value v) {
  if (obj.kind == Value::Class) {
    ClassPtr cls = class_ptr(obj);
    if (cls->immutable) throw TypeError("cannot set '" + name + "' attribute of immutable type '" + cls->name + "'");
    if (name == "__bases__" || name == "__mro__") throw NotImplementedError("attn does not let a program replace a class's " + name);
    if (!cls->methods.count(name)) cls->order.push_back(name);
    cls->methods[name] = std::move(v);
    return;
  }
  if (obj.kind == Value::Namespace) {   // helper.X = ..., nn.LazyLinear = MyLazyLinear: a module's global
    names_of(obj).names[name] = std::move(v);   // (each session makes its own modules: nothing shared changes)
    return;
  }
  if (obj.kind == Value::Function) {   // a function's own attributes (functools.wraps, f.cache = ...)
    auto& f = *static_cast<FunctionWithAttrs*>(obj.obj.get());
    if (!f.attrs) f.attrs = std::make_shared<DictObj>();
    f.attrs->set(Value::str(name), std::move(v));
    return;
  }
  if (obj.kind != Value::Instance && !py_subclass(obj))
    throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
  static const ClassObj* const object = builtin_class("object").get();
  const ClassPtr cls = type_of(obj);
  for (const ClassObj* c : cls->mro()) {
    if (c == object) break;
    if (c->slots.setattr && c->slots.setattr(*this, obj, name, v)) return;
    auto it = c->methods.find("__setattr__");
    if (it != c->methods.end()) {
      call_dunder(it->second, obj, {Value::str(name), std::move(v)});
      return;
    }
  }
  generic_setattr(obj, name, std::move(v));
}

void Interpreter::delattr(const Value& obj, const std::string& name) {
  if (obj.kind == Value::Instance || py_subclass(obj)) {
    static const ClassObj* const object = builtin_class("object").get();
    const ClassPtr cls = type_of(obj);
    for (const ClassObj* c : cls->mro()) {
      if (c == object) break;
      auto it = c->methods.find("__delattr__");
      if (it != c->methods.end()) {
        call_dunder(it->second, obj, {Value::str(name)});
        return;
      }
    }
    if (attrs_of(obj)->erase(Value::str(name))) return;
  }
  if (obj.kind == Value::Class && !class_ptr(obj)->immutable && class_ptr(obj)->methods.erase(name)) return;
  if (obj.kind == Value::Namespace && names_of(obj).names.erase(name)) return;
  throw AttributeError("'" + type_name(obj) + "' object has no attribute '" + name + "'");
}

namespace {

// object's methods, reachable through super() and `object.__setattr__(self, name, value)`.
// object.__new__(T) makes a plain instance: for a class whose instances carry a built-in or
// native payload (bytes, list, a generator, a host library's class ...) that would be a half-built
// object native code later reads, so it is CPython's TypeError, naming the first class that does
// not write __new__.
void check_object_new_safe(const ClassObj& cls) {
  bool unsafe = false;
  for (const ClassObj* c : cls.mro()) {
    if (c->name != "object" && c->immutable && (c->slots.make || c->native_tag || c->module == "builtins")) unsafe = true;
  }
  if (!unsafe) return;
  const ClassObj* base = &cls;
  while (!base->immutable && base->methods.count("__new__") && !base->bases.empty()) base = base->bases[0].get();
  auto named = [](const ClassObj& c) { return c.qualified_name ? c.module + "." + c.name : c.name; };
  throw TypeError(fmt::format("object.__new__({}) is not safe, use {}.__new__()", named(cls), named(*base)));
}

void add_object_methods() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& m = builtin_class("object")->methods;
    m["__init__"] = method("object.__init__", [](Interpreter&, CallArgs& a) {
      if (a.pos.size() > 1 || !a.kw.empty())
        throw TypeError("object.__init__() takes exactly one argument (the instance to initialize)");
      return Value::none();
    });
    m["__setattr__"] = method("object.__setattr__", [](Interpreter& in, CallArgs& a) {
      if (a.pos.size() != 3 || !a.kw.empty()) throw TypeError(fmt::format("expected 2 arguments, got {}", a.pos.size() ? a.pos.size() - 1 : 0));
      if (a.pos[1].kind != Value::Str) throw TypeError("attribute name must be string, not '" + type_name(a.pos[1]) + "'");
      in.generic_setattr(a.pos[0], a.pos[1].s, a.pos[2]);
      return Value::none();
    });
    m["__getattribute__"] = method("object.__getattribute__", [](Interpreter& in, CallArgs& a) {
      if (a.pos.size() != 2 || a.pos[1].kind != Value::Str) throw TypeError("object.__getattribute__ takes an attribute name");
      if (a.pos[0].kind != Value::Instance) return in.getattr(a.pos[0], a.pos[1].s);
      return in.generic_getattr(a.pos[0], a.pos[1].s);
    });
    m["__delattr__"] = method("object.__delattr__", [](Interpreter&, CallArgs& a) {
      if (a.pos.size() != 2 || a.pos[1].kind != Value::Str) throw TypeError("object.__delattr__ takes an attribute name");
      if (a.pos[0].kind != Value::Instance || !inst(a.pos[0]).erase(a.pos[1].s))
        throw AttributeError("'" + type_name(a.pos[0]) + "' object has no attribute '" + a.pos[1].s + "'");
      return Value::none();
    });
    m["__repr__"] = method("object.__repr__", [](Interpreter&, CallArgs& a) { return Value::str(plain_repr(arg(a, 0, "self"))); });
    m["__str__"] = method("object.__str__", [](Interpreter& in, CallArgs& a) { return Value::str(in.repr_of(arg(a, 0, "self"))); });
    m["__eq__"] = method("object.__eq__", [](Interpreter&, CallArgs& a) {
      return a.pos.size() == 2 && a.pos[0].obj == a.pos[1].obj ? Value::boolean(true) : Value::not_implemented();
    });
    m["__ne__"] = method("object.__ne__", [](Interpreter& in, CallArgs& a) {
      if (a.pos.size() != 2) throw TypeError("expected 1 argument");
      return Value::boolean(!in.truth(in.compare("==", a.pos[0], a.pos[1])));
    });
    m["__hash__"] = method("object.__hash__", [](Interpreter&, CallArgs& a) {
      return Value::integer(static_cast<int64_t>(reinterpret_cast<uintptr_t>(arg(a, 0, "self").obj.get()) >> 4));
    });
    m["__format__"] = method("object.__format__", [](Interpreter& in, CallArgs& a) {
      if (a.pos.size() != 2) throw TypeError("expected 1 argument");
      if (!str(a.pos[1]).empty()) throw TypeError("unsupported format string passed to " + type_name(a.pos[0]) + ".__format__");
      return Value::str(in.str_of(a.pos[0]));
    });
    m["__new__"] = builtin("object.__new__", [](Interpreter&, CallArgs& a) {
      if (a.pos.empty() || a.pos[0].kind != Value::Class) throw TypeError("object.__new__(X): X is not a type object");
      check_object_new_safe(*class_ptr(a.pos[0]));
      return instance_of(class_ptr(a.pos[0]));
    });
    m["__init_subclass__"] = builtin("object.__init_subclass__", [](Interpreter&, CallArgs&) { return Value::none(); });
  });
}

}  // namespace

void add_class_builtins(Interpreter& in, std::map<std::string, Value>& b) {
  (void)in;
  add_object_methods();
  b["super"] = builtin("super", super_fn);
  b["object"] = Value::of_class(builtin_class("object"));
  b["property"] = builtin("property", [](Interpreter&, CallArgs& a) {
    static const Signature sig = Signature::parse("def property(fget=None, fset=None, fdel=None, doc=None)");
    Args p = bind_args(sig, a, "property");
    if (!p.get("fdel").is_none()) p.unsupported("fdel");
    p.get("doc");
    return make_property(p.get("fget"), p.get("fset"));
  });
  b["staticmethod"] = builtin("staticmethod", [](Interpreter&, CallArgs& a) { return wrapper(staticmethod_class(), "__func__", arg(a, 0, "function")); });
  b["classmethod"] = builtin("classmethod", [](Interpreter&, CallArgs& a) { return wrapper(classmethod_class(), "__func__", arg(a, 0, "function")); });
  b["isinstance"] = builtin("isinstance", [](Interpreter&, CallArgs& a) {
    if (a.pos.size() != 2) throw TypeError(fmt::format("isinstance expected 2 arguments, got {}", a.pos.size()));
    return Value::boolean(instance_check(a.pos[0], a.pos[1]));
  });
  b["issubclass"] = builtin("issubclass", [](Interpreter&, CallArgs& a) {
    if (a.pos.size() != 2) throw TypeError(fmt::format("issubclass expected 2 arguments, got {}", a.pos.size()));
    if (a.pos[0].kind != Value::Class) throw TypeError("issubclass() arg 1 must be a class");
    const Value info = class_info(a.pos[1], "issubclass");
    std::vector<Value> bases = info.kind == Value::Tuple ? as_seq(info) : std::vector<Value>{info};
    for (const Value& given : bases) {
      const Value c = class_info(given, "issubclass");
      if (c.kind != Value::Class) throw TypeError("issubclass() arg 2 must be a class, a tuple of classes, or a union");
      if (is_subclass(class_ptr(a.pos[0]), static_cast<ClassObj*>(c.obj.get()))) return Value::boolean(true);
    }
    return Value::boolean(false);
  });
  b["type"] = Value::of_class(builtin_class("type"));
  static const bool type_made = [] {
    builtin_class("type")->slots.make = [](Interpreter& in, const ClassPtr&, CallArgs& a) {
      if (a.pos.size() == 1 && a.kw.empty()) return Value::of_class(type_of(a.pos[0]));
      if (a.pos.size() == 3 && a.kw.empty()) return make_type(in, a.pos[0], a.pos[1], a.pos[2]);
      throw TypeError("type() takes 1 or 3 arguments");
    };
    return true;
  }();
  (void)type_made;
  b["getattr"] = builtin("getattr", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() < 2 || a.pos.size() > 3) throw TypeError(fmt::format("getattr expected 2 or 3 arguments, got {}", a.pos.size()));
    if (a.pos[1].kind != Value::Str) throw TypeError("attribute name must be string, not '" + type_name(a.pos[1]) + "'");
    try {
      return in.getattr(a.pos[0], a.pos[1].s);
    } catch (const PyError& e) {
      if (a.pos.size() == 3 && is_instance_of(e, "AttributeError")) return a.pos[2];
      throw;
    }
  });
  b["hasattr"] = builtin("hasattr", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 2) throw TypeError(fmt::format("hasattr expected 2 arguments, got {}", a.pos.size()));
    if (a.pos[1].kind != Value::Str) throw TypeError("attribute name must be string, not '" + type_name(a.pos[1]) + "'");
    const Value& obj = a.pos[0];
    const std::string& name = a.pos[1].s;
    if (obj.kind == Value::Class) {   // a class's own order: no exception for a missing name
      for (const ClassObj* c : class_ptr(obj)->mro())
        if (c->methods.count(name)) return Value::boolean(true);
      const bool special = name == "__name__" || name == "__qualname__" || name == "__module__" || name == "__mro__" ||
                           name == "__bases__" || name == "__dict__" || name == "__class__" ||
                           name == "__or__" || name == "__ror__";   // type's own (PEP 604 unions)
      const ClassObj& c = *class_ptr(obj);
      const bool unbound_method = c.module == "builtins" && (c.name == "str" || c.name == "list" || c.name == "dict" || c.name == "tuple" ||
                                                             c.name == "int" || c.name == "bool" || c.name == "float");
      if (special) return Value::boolean(true);
      bool builtin_dunder = false;   // a built-in base's own dunder (OrderedDict: dict's __len__)
      for (const ClassObj* k : c.mro()) {
        if (!is_dunder(name)) break;
        if (k->module != "builtins" && slot_backs(k->slots, name)) return Value::boolean(true);   // an operator slot's (getattr_class)
        builtin_dunder = builtin_dunder || (k->module == "builtins" && type_has_dunder(k->name, name));
      }
      if (!unbound_method && !builtin_dunder) return Value::boolean(false);
    }
    try {
      in.getattr(obj, name);
      return Value::boolean(true);
    } catch (const PyError& e) {
      if (is_instance_of(e, "AttributeError")) return Value::boolean(false);
      throw;
    }
  });
  b["setattr"] = builtin("setattr", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 3) throw TypeError(fmt::format("setattr expected 3 arguments, got {}", a.pos.size()));
    if (a.pos[1].kind != Value::Str) throw TypeError("attribute name must be string, not '" + type_name(a.pos[1]) + "'");
    in.setattr(a.pos[0], a.pos[1].s, a.pos[2]);
    return Value::none();
  });
  b["delattr"] = builtin("delattr", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 2) throw TypeError(fmt::format("delattr expected 2 arguments, got {}", a.pos.size()));
    if (a.pos[1].kind != Value::Str) throw TypeError("attribute name must be string, not '" + type_name(a.pos[1]) + "'");
    in.delattr(a.pos[0], a.pos[1].s);
    return Value::none();
  });
  b["callable"] = builtin("callable", [](Interpreter&, CallArgs& a) {
    Value v = arg(a, 0, "obj");
    bool yes = v.kind == Value::Function || v.kind == Value::Builtin || v.kind == Value::Class;
    if (v.kind == Value::Instance)
      for (const ClassObj* c : type_of(v)->mro()) yes = yes || c->methods.count("__call__") || bool(c->slots.call);
    return Value::boolean(yes);
  });
  b["repr"] = builtin("repr", [](Interpreter& in, CallArgs& a) { return Value::str(in.repr_of(arg(a, 0, "obj"))); });
  b["ascii"] = builtin("ascii", [](Interpreter& in, CallArgs& a) { return Value::str(ascii_escaped(in.repr_of(arg(a, 0, "obj")))); });
  b["vars"] = builtin("vars", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 1 || !a.kw.empty()) throw NotImplementedError("attn's vars() takes one object");
    const Value& v = a.pos[0];
    if (v.kind == Value::Instance && !py_subclass(v)) {
      if (std::optional<Value> d = in.find_attribute(v, "__dict__")) return *d;
      throw TypeError("vars() argument must have __dict__ attribute");
    }
    if (py_subclass(v)) return in.getattr(v, "__dict__");
    if (v.kind == Value::Class) return in.getattr(v, "__dict__");
    throw TypeError("vars() argument must have __dict__ attribute");
  });
}

}  // namespace attn::py
