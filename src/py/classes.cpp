// py/classes.cpp: classes and instances of lesson code: attribute lookup through the method
// resolution order (instance attributes, then class attributes and methods: `A.z`, `A().z`,
// bound methods), setting attributes, super() (zero-argument and two-argument), property,
// staticmethod, classmethod, user __str__/__repr__/__call__, and the builtins about classes
// (isinstance, issubclass, type, hasattr, getattr, setattr, callable, repr).
//
// What it is: Python's rules for single and multiple inheritance (C3 order). What it is not:
// metaclasses, descriptors other than property/staticmethod/classmethod, __slots__, __getattr__,
// operator overloading (__add__, __getitem__, __len__ of user classes are not called).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "py/signature.h"

namespace attn::py {

namespace {

using ClassPtr = std::shared_ptr<ClassObj>;

InstanceObj& inst(const Value& v) { return *static_cast<InstanceObj*>(v.obj.get()); }
ClassPtr class_ptr(const Value& v) { return std::static_pointer_cast<ClassObj>(v.obj); }

Value class_val(const ClassPtr& c) {
  Value v;
  v.kind = Value::Class;
  v.obj = c;
  return v;
}

Value instance_of(const ClassPtr& c) {
  auto o = std::make_shared<InstanceObj>();
  o->cls = c;
  Value v;
  v.kind = Value::Instance;
  v.obj = o;
  return v;
}

// Built-in classes whose instances wrap a function in a class body, and super's proxy.
ClassPtr builtin_class(const char* name) {
  auto c = std::make_shared<ClassObj>();
  c->name = name;
  c->module = "builtins";
  return c;
}
const ClassPtr& property_class() { static const ClassPtr c = builtin_class("property"); return c; }
const ClassPtr& staticmethod_class() { static const ClassPtr c = builtin_class("staticmethod"); return c; }
const ClassPtr& classmethod_class() { static const ClassPtr c = builtin_class("classmethod"); return c; }
const ClassPtr& super_class() { static const ClassPtr c = builtin_class("super"); return c; }
const ClassPtr& object_class() { static const ClassPtr c = builtin_class("object"); return c; }   // class A(object):

bool is_a(const Value& v, const ClassPtr& c) { return v.kind == Value::Instance && inst(v).cls == c; }

Value attr_or_none(const Value& v, const char* name) {
  Value* a = inst(v).find(name);
  return a ? *a : Value::none();
}

[[noreturn]] void attribute_error(const std::string& msg) { throw AttributeError(msg); }


}  // namespace

// C3 linearisation, as Python orders a class's bases (single inheritance: the chain of bases).
std::vector<ClassPtr> mro(const ClassPtr& cls) {
  std::vector<std::vector<ClassPtr>> seqs;
  for (const ClassPtr& b : cls->bases) seqs.push_back(mro(b));
  seqs.push_back(cls->bases);
  std::vector<ClassPtr> out{cls};
  for (;;) {
    seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](const auto& s) { return s.empty(); }), seqs.end());
    if (seqs.empty()) return out;
    ClassPtr pick;
    for (const auto& s : seqs) {
      const ClassPtr& head = s.front();
      bool in_tail = std::any_of(seqs.begin(), seqs.end(), [&](const auto& t) { return std::find(t.begin() + 1, t.end(), head) != t.end(); });
      if (!in_tail) {
        pick = head;
        break;
      }
    }
    if (!pick) throw TypeError("Cannot create a consistent method resolution order (MRO) for bases of " + cls->name);
    out.push_back(pick);
    for (auto& s : seqs)
      if (s.front() == pick) s.erase(s.begin());
  }
}

bool is_subclass(const ClassPtr& cls, const ClassObj* base) {
  if (!cls || !base) return false;
  if (cls.get() == base) return true;
  return std::any_of(cls->bases.begin(), cls->bases.end(), [&](const ClassPtr& b) { return is_subclass(b, base); });
}

Value bound_method(const Value& self, const Value& fn, const std::string& name) {
  return builtin(name, [self, fn](Interpreter& in, CallArgs& a) {
    CallArgs b = a;
    b.pos.insert(b.pos.begin(), self);
    return in.call(fn, b);
  });
}

namespace {

// A class attribute as seen through an instance `self` of a class in whose order `owner` is.
Value through_instance(Interpreter& in, const Value& self, const ClassPtr& cls, const Value& attr, const std::string& name) {
  bool method = attr.kind == Value::Function || (attr.kind == Value::Builtin && static_cast<BuiltinObj*>(attr.obj.get())->method);
  if (method) return bound_method(self, attr, cls->name + "." + name);
  if (is_a(attr, property_class())) {
    Value fget = attr_or_none(attr, "fget");
    if (fget.is_none()) attribute_error(fmt::format("property '{}' of '{}' object has no getter", name, cls->name));
    CallArgs a;
    a.pos.push_back(self);
    return in.call(fget, a);
  }
  if (is_a(attr, staticmethod_class())) return attr_or_none(attr, "__func__");
  if (is_a(attr, classmethod_class())) return bound_method(class_val(cls), attr_or_none(attr, "__func__"), cls->name + "." + name);
  return attr;
}

// super().name: the first class after `owner` in the order of self's class that has `name`.
Value super_attribute(Interpreter& in, const Value& proxy, const std::string& name) {
  ClassPtr owner = class_ptr(attr_or_none(proxy, "__thisclass__"));
  Value self = attr_or_none(proxy, "__self__");
  ClassPtr cls = self.kind == Value::Instance ? inst(self).cls : class_ptr(self);
  std::vector<ClassPtr> order = mro(cls);
  auto start = std::find(order.begin(), order.end(), owner);
  if (start != order.end()) ++start;
  for (auto it = start; it != order.end(); ++it) {
    auto m = (*it)->methods.find(name);
    if (m != (*it)->methods.end()) return self.kind == Value::Instance ? through_instance(in, self, cls, m->second, name) : m->second;
  }
  if (name == "__init__" && self.kind == Value::Instance) {
    for (auto it = start; it != order.end(); ++it)
      if ((*it)->native_init)   // a built-in base: nn.Linear, Exception, ...
        return builtin((*it)->name + ".__init__", [self, init = (*it)->native_init](Interpreter& inner, CallArgs& a) {
          Value s = self;
          init(inner, s, a);
          return Value::none();
        });
    return builtin("object.__init__", [](Interpreter&, CallArgs& a) {   // object.__init__
      if (!a.pos.empty() || !a.kw.empty())
        throw TypeError("object.__init__() takes exactly one argument (the instance to initialize)");
      return Value::none();
    });
  }
  if (name == "forward" && self.kind == Value::Instance)
    for (auto it = start; it != order.end(); ++it)
      if ((*it)->native_forward)
        return builtin((*it)->name + ".forward", [self, fwd = (*it)->native_forward](Interpreter& inner, CallArgs& a) {
          Value s = self;
          return fwd(inner, s, a);
        });
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
    ClassPtr of = self.kind == Value::Instance ? inst(self).cls : self.kind == Value::Class ? class_ptr(self) : nullptr;
    if (!is_subclass(of, owner.get())) throw TypeError("super(type, obj): obj must be an instance or subtype of type");
  } else if (a.pos.empty() && a.kw.empty()) {
    if (!in.current_method(owner, self)) throw RuntimeError("super(): no arguments");
  } else {
    throw TypeError("attn's super() takes no arguments, or a class and an instance");
  }
  Value proxy = instance_of(super_class());
  inst(proxy).set("__thisclass__", class_val(owner));
  inst(proxy).set("__self__", self);
  return proxy;
}

Value wrapper(const ClassPtr& cls, const char* attr, const Value& fn) {
  Value w = instance_of(cls);
  inst(w).set(attr, fn);
  return w;
}

Value make_property(Value fget, Value fset) {
  Value p = instance_of(property_class());
  inst(p).set("fget", std::move(fget));
  inst(p).set("fset", std::move(fset));
  return p;
}

// torch.Tensor and torch.nn.Parameter as classes: what type() of a tensor returns (printed
// <class 'torch.Tensor'>) and what isinstance() compares with. Not constructors: torch.tensor().
ClassPtr tensor_class(bool parameter) {
  static const ClassPtr tensor = [] {
    auto c = std::make_shared<ClassObj>();
    c->name = "Tensor";
    c->module = "torch";
    c->native_init = [](Interpreter&, Value&, CallArgs&) {
      throw NotImplementedError("attn does not implement the torch.Tensor(...) constructor: use torch.tensor(...)");
    };
    return c;
  }();
  static const ClassPtr param = [] {
    auto c = std::make_shared<ClassObj>();
    c->name = "Parameter";
    c->module = "torch.nn.parameter";
    c->bases.push_back(tensor);
    return c;
  }();
  return parameter ? param : tensor;
}

// isinstance(obj, classinfo) for one class: user classes by their order; built-in types by name.
bool instance_check(const Value& v, const Value& c) {
  if (c.kind == Value::Class && class_ptr(c) == object_class()) return true;
  if (c.kind == Value::Class && v.kind == Value::Tensor)
    return class_ptr(c) == tensor_class(false) || (class_ptr(c) == tensor_class(true) && as_tensor(v).is_parameter());
  if (c.kind == Value::Class) return v.kind == Value::Instance && is_subclass(inst(v).cls, static_cast<ClassObj*>(c.obj.get()));
  if (c.kind == Value::Builtin) {
    const std::string& n = static_cast<BuiltinObj*>(c.obj.get())->name;
    return n == type_name(v) || (n == "int" && v.kind == Value::Bool);
  }
  if (c.kind == Value::Tuple) {
    for (const Value& x : as_seq(c))
      if (instance_check(v, x)) return true;
    return false;
  }
  throw TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union");
}

}  // namespace

Value Interpreter::getattr_instance(const Value& obj, const std::string& name) {
  InstanceObj& o = inst(obj);
  if (o.cls == super_class()) return super_attribute(*this, obj, name);
  if (Value* v = o.find(name)) return *v;
  if (name == "__class__") return class_val(o.cls);
  for (const ClassPtr& c : mro(o.cls)) {
    auto it = c->methods.find(name);
    if (it != c->methods.end()) return through_instance(*this, obj, o.cls, it->second, name);
  }
  if (o.cls == property_class() && name == "setter")
    return builtin("property.setter", [obj](Interpreter&, CallArgs& a) { return make_property(attr_or_none(obj, "fget"), arg(a, 0, "fset")); });
  return instance_attribute(*this, obj, name);   // nn.Module's own: forward, parameters(), eval(), ...
}

Value Interpreter::getattr_class(const Value& cls_value, const std::string& name) {
  ClassPtr cls = class_ptr(cls_value);
  if (name == "__name__" || name == "__qualname__") return Value::str(cls->name);
  if (name == "__module__") return Value::str(cls->module);
  if (name == "__mro__") {   // every class ends in object, a base attn leaves implicit
    std::vector<Value> out;
    for (const ClassPtr& c : mro(cls))
      if (c != object_class()) out.push_back(class_val(c));
    out.push_back(class_val(object_class()));
    return Value::tuple(out);
  }
  for (const ClassPtr& c : mro(cls)) {
    auto it = c->methods.find(name);
    if (it == c->methods.end()) continue;
    if (is_a(it->second, staticmethod_class())) return attr_or_none(it->second, "__func__");
    if (is_a(it->second, classmethod_class())) return bound_method(cls_value, attr_or_none(it->second, "__func__"), cls->name + "." + name);
    return it->second;
  }
  attribute_error("type object '" + cls->name + "' has no attribute '" + name + "'");
}

void Interpreter::setattr(const Value& obj, const std::string& name, Value v) {
  if (obj.kind == Value::Tensor) return set_tensor_attribute(obj, name, v);   // x.grad = None
  if (obj.kind == Value::Class) {
    ClassPtr cls = class_ptr(obj);
    if (cls->module == "builtins")
      throw TypeError("cannot set '" + name + "' attribute of immutable type '" + cls->name + "'");
    cls->methods[name] = std::move(v);
    return;
  }
  if (obj.kind == Value::Namespace && static_cast<NamespaceObj*>(obj.obj.get())->names.count("__file__")) {
    static_cast<NamespaceObj*>(obj.obj.get())->names[name] = std::move(v);   // helper.X = ...: an imported file's global
    return;
  }
  if (obj.kind != Value::Instance) throw AttributeError("cannot set '" + name + "' on a " + type_name(obj));
  for (const ClassPtr& c : mro(inst(obj).cls)) {
    auto it = c->methods.find(name);
    if (it == c->methods.end()) continue;
    if (!is_a(it->second, property_class())) break;
    Value fset = attr_or_none(it->second, "fset");
    if (fset.is_none()) attribute_error(fmt::format("property '{}' of '{}' object has no setter", name, inst(obj).cls->name));
    CallArgs a;
    a.pos = {obj, std::move(v)};
    call(fset, a);
    return;
  }
  inst(obj).set(name, std::move(v));
}

std::string Interpreter::str_of(const Value& v) {
  if (v.kind == Value::Instance)
    for (const char* dunder : {"__str__", "__repr__"})
      for (const ClassPtr& c : mro(inst(v).cls)) {
        auto it = c->methods.find(dunder);
        if (it == c->methods.end() || it->second.kind != Value::Function) continue;
        CallArgs none;
        Value s = call(bound_method(v, it->second, dunder), none);
        if (s.kind != Value::Str) throw TypeError(std::string() + dunder + " returned non-string (type " + type_name(s) + ")");
        return s.s;
      }
  return v.kind == Value::List || v.kind == Value::Tuple || v.kind == Value::Dict ? repr_of(v) : str(v, state.print_options);
}

std::string Interpreter::repr_of(const Value& v) {
  // Nested values count their depth (limits.h); a list or dict met again inside itself is [...]
  // or {...}, as CPython's Py_ReprEnter.
  thread_local std::vector<const Obj*> active;
  std::optional<ValueDepthGuard> guard;
  bool entered = false;
  if (v.kind == Value::List || v.kind == Value::Tuple || v.kind == Value::Dict) {
    if (std::find(active.begin(), active.end(), v.obj.get()) != active.end()) return v.kind == Value::Dict ? "{...}" : "[...]";
    guard.emplace("while getting the repr of an object");
    active.push_back(v.obj.get());
    entered = true;
  }
  struct Leave {
    bool on;
    ~Leave() { if (on) active.pop_back(); }
  } leave{entered};
  if (v.kind == Value::List || v.kind == Value::Tuple) {   // a user __repr__ inside a list or tuple
    const std::vector<Value>& items = as_seq(v);
    std::string out;
    for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + repr_of(items[k]);
    if (v.kind == Value::List) return "[" + out + "]";
    return "(" + out + (items.size() == 1 ? ",)" : ")");
  }
  if (v.kind == Value::Dict && static_cast<DictObj*>(v.obj.get())->ordered) {   // Python 3.11's OrderedDict repr
    std::string out;
    for (const auto& [k, x] : static_cast<DictObj*>(v.obj.get())->items) out += (out.empty() ? "(" : ", (") + repr_of(k) + ", " + repr_of(x) + ")";
    return out.empty() ? "OrderedDict()" : "OrderedDict([" + out + "])";
  }
  if (v.kind == Value::Dict) {
    std::string out;
    for (const auto& [k, x] : static_cast<DictObj*>(v.obj.get())->items) out += (out.empty() ? "" : ", ") + repr_of(k) + ": " + repr_of(x);
    return "{" + out + "}";
  }
  if (v.kind == Value::Instance)
    for (const ClassPtr& c : mro(inst(v).cls)) {
      auto it = c->methods.find("__repr__");
      if (it == c->methods.end() || it->second.kind != Value::Function) continue;
      CallArgs none;
      Value s = call(bound_method(v, it->second, "__repr__"), none);
      if (s.kind != Value::Str) throw TypeError("__repr__ returned non-string (type " + type_name(s) + ")");
      return s.s;
    }
  return repr(v, state.print_options);
}

void add_class_builtins(std::map<std::string, Value>& b) {
  b["super"] = builtin("super", super_fn);
  b["object"] = class_val(object_class());
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
    std::vector<Value> bases = a.pos[1].kind == Value::Tuple ? as_seq(a.pos[1]) : std::vector<Value>{a.pos[1]};
    for (const Value& c : bases) {
      if (c.kind != Value::Class) throw TypeError("issubclass() arg 2 must be a class, a tuple of classes, or a union");
      if (class_ptr(c) == object_class() || is_subclass(class_ptr(a.pos[0]), static_cast<ClassObj*>(c.obj.get()))) return Value::boolean(true);
    }
    return Value::boolean(false);
  });
  b["type"] = builtin("type", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError("attn's type() takes one argument (it does not make classes)");
    const Value& v = a.pos[0];
    if (v.kind == Value::Instance) return class_val(inst(v).cls);
    if (v.kind == Value::Tensor) return class_val(tensor_class(as_tensor(v).is_parameter()));
    static const std::set<std::string> plain = {"int", "float", "str", "list", "tuple", "dict", "set", "bool"};
    if (plain.count(type_name(v))) return in.lookup(type_name(v));
    throw NotImplementedError("attn's type() knows instances of classes and int, float, str, bool, list, "
                             "tuple, dict, set, not " + type_name(v) + ": use isinstance()");
  });
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
    try {
      in.getattr(a.pos[0], a.pos[1].s);
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
  b["callable"] = builtin("callable", [](Interpreter&, CallArgs& a) {
    Value v = arg(a, 0, "obj");
    bool yes = v.kind == Value::Function || v.kind == Value::Builtin || v.kind == Value::Class;
    if (v.kind == Value::Instance) {
      yes = inst(v).cls->is_module;
      for (const ClassPtr& c : mro(inst(v).cls)) yes = yes || c->methods.count("__call__");
    }
    return Value::boolean(yes);
  });
  b["repr"] = builtin("repr", [](Interpreter& in, CallArgs& a) { return Value::str(in.repr_of(arg(a, 0, "obj"))); });
}

Value torch_tensor_class() { return class_val(tensor_class(false)); }

}  // namespace attn::py
