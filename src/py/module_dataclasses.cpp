// py/module_dataclasses.cpp: Python's `dataclasses` for lesson code, as CPython 3.11 behaves:
// @dataclass and @dataclass(init=, repr=, eq=, match_args=) make __init__ (CPython's argument errors
// word for word), __repr__, __eq__ and __match_args__ from the annotated names of the class and of
// its dataclass bases;
// field(default=, default_factory=, init=, repr=, compare=); fields, asdict, astuple, replace,
// is_dataclass, MISSING. A list, dict or set as a default is CPython's ValueError.
// What it is not: frozen=, order=, unsafe_hash=, kw_only=, slots= (refused by name), InitVar,
// ClassVar, __post_init__'s InitVar arguments (a __post_init__ method is called, without them).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/signature.h"

namespace attn::py {

namespace {

const ClassPtr& missing_class() {
  static const ClassPtr c = make_native_class("_MISSING_TYPE", "dataclasses");
  return c;
}

const Value& missing() {
  static const Value m = [] {
    auto o = std::make_shared<InstanceObj>();
    o->cls = missing_class();
    return Value::of_instance(std::move(o));
  }();
  return m;
}

bool is_missing(const Value& v) { return v.kind == Value::Instance && v.obj == missing().obj; }

const ClassPtr& field_class() {
  static const ClassPtr c = make_native_class("Field", "dataclasses");
  return c;
}

bool is_field(const Value& v) { return v.kind == Value::Instance && static_cast<InstanceObj*>(v.obj.get())->cls == field_class(); }

Value attr(const Value& f, const char* name) {
  const Value* v = static_cast<InstanceObj*>(f.obj.get())->find(name);
  return v ? *v : Value::none();
}

Value new_field(Value def, Value factory, bool init, bool repr, bool compare) {
  auto o = std::make_shared<InstanceObj>();
  o->cls = field_class();
  o->set("name", Value::none());
  o->set("default", std::move(def));
  o->set("default_factory", std::move(factory));
  o->set("init", Value::boolean(init));
  o->set("repr", Value::boolean(repr));
  o->set("compare", Value::boolean(compare));
  return Value::of_instance(std::move(o));
}

// field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
// compare=True, metadata=None, kw_only=MISSING)
Value field_fn(Interpreter&, CallArgs& a) {
  if (!a.pos.empty()) throw TypeError(fmt::format("field() takes 0 positional arguments but {} were given", a.pos.size()));
  Value def = missing(), factory = missing();
  bool init = true, repr = true, compare = true;
  for (const auto& [name, v] : a.kw) {
    if (name == "default") def = v;
    else if (name == "default_factory") factory = v;
    else if (name == "init") init = truthy(v);
    else if (name == "repr") repr = truthy(v);
    else if (name == "compare") compare = truthy(v);
    else if (name == "hash" || name == "metadata" || name == "kw_only") {
      if (!v.is_none() && !(name == "kw_only" && (is_missing(v) || (v.kind == Value::Bool && !v.b))))
        throw NotImplementedError("attn's dataclasses.field() does not implement " + name + "=");
    } else {
      throw TypeError("field() got an unexpected keyword argument '" + name + "'");
    }
  }
  if (!is_missing(def) && !is_missing(factory)) throw ValueError("cannot specify both default and default_factory");
  return new_field(def, factory, init, repr, compare);
}

// The class's fields by name, in order (its __dataclass_fields__), or null if it is no dataclass.
DictObj* fields_of(const ClassObj& cls) {
  const Value* f = cls.find_method("__dataclass_fields__");
  return f && f->kind == Value::Dict ? static_cast<DictObj*>(f->obj.get()) : nullptr;
}

bool has_default(const Value& f) { return !is_missing(attr(f, "default")) || !is_missing(attr(f, "default_factory")); }

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out = names.back();
  if (names.size() > 1) out = fmt::format("{} and {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
  return out;
}

// __init__(self, <the init fields>): CPython's messages for a function named Name.__init__.
void init_instance(Interpreter& in, const ClassObj& cls, CallArgs& a) {
  const std::string fn = cls.name + ".__init__()";
  auto& self = *static_cast<InstanceObj*>(a.pos.at(0).obj.get());
  std::vector<Value> params;   // the Field objects of the parameters
  std::vector<Value> all;
  for (const auto& [k, f] : fields_of(cls)->items) {
    all.push_back(f);
    if (truthy(attr(f, "init"))) params.push_back(f);
  }
  size_t required = 0;
  while (required < params.size() && !has_default(params[required])) ++required;
  const size_t given = a.pos.size() - 1;
  if (given > params.size())
    throw TypeError(fmt::format("{} takes {} positional argument{} but {} {} given", fn,
                                required < params.size() ? fmt::format("from {} to {}", required + 1, params.size() + 1)
                                                         : std::to_string(params.size() + 1),
                                params.size() == 0 && required == params.size() ? "" : "s", given + 1, given ? "were" : "was"));
  std::vector<std::optional<Value>> values(params.size());
  for (size_t k = 0; k < given; ++k) values[k] = a.pos[k + 1];
  for (const auto& [key, v] : a.kw) {
    const std::string& name = key;   // a lambda may not capture a structured binding (clang before 16)
    auto it = std::find_if(params.begin(), params.end(), [&](const Value& f) { return str(attr(f, "name")) == name; });
    if (it == params.end()) throw TypeError(fn + " got an unexpected keyword argument '" + name + "'");
    auto& slot = values[it - params.begin()];
    if (slot) throw TypeError(fn + " got multiple values for argument '" + name + "'");
    slot = v;
  }
  std::vector<std::string> absent;
  for (size_t k = 0; k < params.size(); ++k)
    if (!values[k] && !has_default(params[k])) absent.push_back(fmt::format("'{}'", str(attr(params[k], "name"))));
  if (!absent.empty())
    throw TypeError(fmt::format("{} missing {} required positional argument{}: {}", fn, absent.size(), absent.size() > 1 ? "s" : "",
                                quoted_list(absent)));
  for (const Value& f : all) {
    const std::string name = str(attr(f, "name"));
    auto it = std::find_if(params.begin(), params.end(), [&](const Value& p) { return p.obj == f.obj; });
    if (it != params.end() && values[it - params.begin()]) {
      self.set(name, *values[it - params.begin()]);
    } else if (!is_missing(attr(f, "default"))) {
      self.set(name, attr(f, "default"));
    } else if (!is_missing(attr(f, "default_factory"))) {
      CallArgs none;
      self.set(name, in.call(attr(f, "default_factory"), none));
    }
  }
  if (cls.find_method("__post_init__")) {
    CallArgs none;
    in.call(in.getattr(a.pos[0], "__post_init__"), none);
  }
}

std::string repr_instance(Interpreter& in, const Value& self) {
  auto& o = *static_cast<InstanceObj*>(self.obj.get());
  std::string out = o.cls->name + "(";
  bool first = true;
  for (const auto& [k, f] : fields_of(*o.cls)->items) {
    if (!truthy(attr(f, "repr"))) continue;
    out += (first ? "" : ", ") + str(k) + "=" + in.repr_of(in.getattr(self, str(k)));
    first = false;
  }
  return out + ")";
}

Value compared(Interpreter& in, const Value& self) {
  std::vector<Value> items;
  for (const auto& [k, f] : fields_of(*static_cast<InstanceObj*>(self.obj.get())->cls)->items)
    if (truthy(attr(f, "compare"))) items.push_back(in.getattr(self, str(k)));
  return Value::tuple(std::move(items));
}

void process(const ClassPtr& cls, bool init, bool repr, bool eq, bool match_args) {
  Value fields = Value::dict();
  auto& fd = *static_cast<DictObj*>(fields.obj.get());
  const auto& order = cls->mro();
  for (auto it = order.rbegin(); it != order.rend(); ++it)   // dataclass bases' fields first
    if (*it != cls.get())
      if (auto own = (*it)->methods.find("__dataclass_fields__"); own != (*it)->methods.end() && own->second.kind == Value::Dict)
        for (const auto& [k, f] : static_cast<DictObj*>(own->second.obj.get())->items) fd.set(k, f);
  for (const std::string& name : cls->fields) {
    auto it = cls->methods.find(name);
    Value f = it != cls->methods.end() && is_field(it->second) ? it->second
                                                               : new_field(it != cls->methods.end() ? it->second : missing(), missing(), true, true, true);
    Value def = attr(f, "default");
    if (def.kind == Value::List || def.kind == Value::Dict || (def.kind == Value::Set && !is_frozenset(def)))
      throw ValueError(fmt::format("mutable default {} for field {} is not allowed: use default_factory", class_repr(*type_of(def)), name));
    if (is_missing(def)) cls->methods.erase(name);
    else cls->methods[name] = def;
    static_cast<InstanceObj*>(f.obj.get())->set("name", Value::str(name));
    fd.set(Value::str(name), f);
  }
  bool seen_default = false;
  for (const auto& [k, f] : fd.items) {
    if (!truthy(attr(f, "init"))) continue;
    if (has_default(f)) seen_default = true;
    else if (seen_default) throw TypeError("non-default argument '" + str(k) + "' follows default argument");
  }
  cls->methods["__dataclass_fields__"] = fields;
  // The methods find the class through their instance (never hold it: the class holds them).
  if (init && !cls->methods.count("__init__"))
    cls->methods["__init__"] = method(cls->name + ".__init__", [](Interpreter& in, CallArgs& a) {
      init_instance(in, *static_cast<InstanceObj*>(arg(a, 0, "self").obj.get())->cls, a);
      return Value::none();
    });
  if (repr && !cls->methods.count("__repr__"))
    cls->methods["__repr__"] = method(cls->name + ".__repr__", [](Interpreter& in, CallArgs& a) { return Value::str(repr_instance(in, arg(a, 0, "self"))); });
  if (eq && !cls->methods.count("__eq__"))
    cls->methods["__eq__"] = method(cls->name + ".__eq__", [](Interpreter& in, CallArgs& a) {
      Value self = arg(a, 0, "self"), other = arg(a, 1, "other");
      if (other.kind != Value::Instance || type_of(other) != type_of(self)) return Value::not_implemented();
      return in.compare("==", compared(in, self), compared(in, other));
    });
  if (match_args && !cls->methods.count("__match_args__")) {   // the init fields' names, as CPython's _process_class
    std::vector<Value> names;
    for (const auto& [k, f] : fd.items)
      if (truthy(attr(f, "init"))) names.push_back(k);
    cls->methods["__match_args__"] = Value::tuple(std::move(names));
  }
}

Value dataclass_fn(Interpreter&, CallArgs& a) {
  bool init = true, repr = true, eq = true, match_args = true;
  for (const auto& [name, v] : a.kw) {
    if (name == "init") init = truthy(v);
    else if (name == "match_args") match_args = truthy(v);
    else if (name == "repr") repr = truthy(v);
    else if (name == "eq") eq = truthy(v);
    else if (name == "frozen" || name == "order" || name == "unsafe_hash" || name == "kw_only" || name == "slots") {
      if (truthy(v)) throw NotImplementedError("attn's @dataclass does not implement " + name + "=True (docs/lesson-authors.md: What attn's Python supports)");
    } else {
      throw TypeError("dataclass() got an unexpected keyword argument '" + name + "'");
    }
  }
  auto apply = [init, repr, eq, match_args](const Value& cls) {
    if (cls.kind != Value::Class) throw TypeError("attn's @dataclass decorates a class");
    process(std::static_pointer_cast<ClassObj>(cls.obj), init, repr, eq, match_args);
    return cls;
  };
  if (a.pos.size() == 1 && !a.pos[0].is_none()) return apply(a.pos[0]);
  if (a.pos.size() > 1) throw TypeError(fmt::format("dataclass() takes from 0 to 1 positional arguments but {} were given", a.pos.size()));
  return builtin("dataclasses.dataclass.<locals>.wrap", [apply](Interpreter&, CallArgs& b) { return apply(arg(b, 0, "cls")); });
}

const ClassObj* dataclass_of(const Value& v) {
  if (v.kind == Value::Class) return fields_of(*static_cast<ClassObj*>(v.obj.get())) ? static_cast<ClassObj*>(v.obj.get()) : nullptr;
  if (v.kind == Value::Instance && fields_of(*type_of(v))) return type_of(v).get();
  return nullptr;
}

bool is_instance(const Value& v) { return v.kind == Value::Instance && dataclass_of(v); }

// asdict/astuple's recursion: dataclass instances, lists, tuples and dicts rebuilt, anything else deep-copied.
Value inner(Interpreter& in, const Value& v, bool as_dict) {
  if (is_instance(v)) {
    Value out = as_dict ? Value::dict() : Value::none();
    std::vector<Value> items;
    for (const auto& [k, f] : fields_of(*type_of(v))->items) {
      Value x = inner(in, in.getattr(v, str(k)), as_dict);
      if (as_dict) static_cast<DictObj*>(out.obj.get())->set(k, x);
      else items.push_back(x);
    }
    return as_dict ? out : Value::tuple(std::move(items));
  }
  if (v.kind == Value::List || v.kind == Value::Tuple) {
    std::vector<Value> items;
    for (const Value& x : std::vector<Value>(as_seq(v))) items.push_back(inner(in, x, as_dict));   // a copy: inner() may run Python
    return v.kind == Value::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (v.kind == Value::Dict) {
    Value out = Value::dict();
    for (const auto& [k, x] : std::vector<std::pair<Value, Value>>(static_cast<DictObj*>(v.obj.get())->items))
      static_cast<DictObj*>(out.obj.get())->set(inner(in, k, as_dict), inner(in, x, as_dict));
    return out;
  }
  CallArgs c;
  c.pos.push_back(v);
  return in.call(in.getattr(in.import("copy"), "deepcopy"), c);
}

std::shared_ptr<NamespaceObj> make_dataclasses() {
  auto ns = std::make_shared<NamespaceObj>();
  auto& n = ns->names;
  n["dataclass"] = builtin("dataclasses.dataclass", dataclass_fn);
  n["field"] = builtin("dataclasses.field", field_fn);
  n["Field"] = Value::of_class(field_class());
  n["MISSING"] = missing();
  n["fields"] = builtin("dataclasses.fields", [](Interpreter&, CallArgs& a) {
    const ClassObj* cls = dataclass_of(arg(a, 0, "class_or_instance"));
    if (!cls) throw TypeError("must be called with a dataclass type or instance");
    std::vector<Value> out;
    for (const auto& [k, f] : fields_of(*cls)->items) out.push_back(f);
    return Value::tuple(std::move(out));
  });
  n["is_dataclass"] = builtin("dataclasses.is_dataclass", [](Interpreter&, CallArgs& a) { return Value::boolean(dataclass_of(arg(a, 0, "obj")) != nullptr); });
  n["asdict"] = builtin("dataclasses.asdict", [](Interpreter& in, CallArgs& a) {
    Value obj = arg(a, 0, "obj");
    if (!is_instance(obj)) throw TypeError("asdict() should be called on dataclass instances");
    return inner(in, obj, true);
  });
  n["astuple"] = builtin("dataclasses.astuple", [](Interpreter& in, CallArgs& a) {
    Value obj = arg(a, 0, "obj");
    if (!is_instance(obj)) throw TypeError("astuple() should be called on dataclass instances");
    return inner(in, obj, false);
  });
  n["replace"] = builtin("dataclasses.replace", [](Interpreter& in, CallArgs& a) {
    Value obj = arg(a, 0, "obj");
    if (!is_instance(obj)) throw TypeError("replace() should be called on dataclass instances");
    CallArgs made;
    for (const auto& [k, f] : fields_of(*type_of(obj))->items) {
      const std::string name = str(k);
      auto given = std::find_if(a.kw.begin(), a.kw.end(), [&](const auto& kv) { return kv.first == name; });
      if (!truthy(attr(f, "init"))) {
        if (given != a.kw.end())
          throw ValueError("field " + name + " is declared with init=False, it cannot be specified with replace()");
        continue;
      }
      made.kw.emplace_back(name, given != a.kw.end() ? given->second : in.getattr(obj, name));
    }
    for (const auto& kw : a.kw)
      if (std::none_of(made.kw.begin(), made.kw.end(), [&](const auto& kv) { return kv.first == kw.first; })) made.kw.emplace_back(kw);
    return in.call(Value::of_class(type_of(obj)), made);
  });
  return ns;
}

}  // namespace

void add_dataclasses_module(Interpreter& in) {
  in.add_module("dataclasses", [](Interpreter&) { return module_value("dataclasses", make_dataclasses()); });
}

}  // namespace attn::py
