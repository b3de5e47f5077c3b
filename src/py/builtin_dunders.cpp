// builtin_dunders.cpp: a built-in type's dunder methods looked up by name ((3).__mul__,
// [].__len__, int.__add__, hasattr(range(3), "__len__")), as CPython's slot wrappers: only the
// dunders CPython's type has (hasattr(5, "__len__") is False), each calling the code its operator
// or builtin uses. What it is not: the operators themselves (protocol.cpp), the methods of
// classes written in Python, object's own methods (classes.cpp), the dunders attn cannot back
// (__sizeof__, __reduce__, __doc__...: AttributeError, never a wrong method).
#include <fmt/format.h>

#include <map>
#include <set>
#include <sstream>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/value.h"

namespace attn::py {

namespace {

// The dunders each built-in type defines itself (CPython 3.11's vars(T)), object's apart.
const std::set<std::string>& own_dunders(const std::string& type) {
  static const std::map<std::string, std::set<std::string>> table = [] {
    const std::map<std::string, std::string> text = {
        {"int", "abs add and bool ceil divmod eq float floor floordiv format ge getattribute getnewargs gt hash index int "
                "invert le lshift lt mod mul ne neg new or pos pow radd rand rdivmod repr rfloordiv rlshift rmod rmul ror "
                "round rpow rrshift rshift rsub rtruediv rxor sizeof sub truediv trunc xor doc"},
        {"bool", "and doc new or rand repr ror rxor xor"},
        {"float", "abs add bool ceil divmod doc eq float floor floordiv format ge getattribute getformat getnewargs gt hash "
                  "int le lt mod mul ne neg new pos pow radd rdivmod repr rfloordiv rmod rmul round rpow rsub rtruediv "
                  "sub truediv trunc"},
        {"str", "add contains doc eq format ge getattribute getitem getnewargs gt hash iter le len lt mod mul ne new "
                "repr rmod rmul sizeof str"},
        {"list", "add class_getitem contains delitem doc eq ge getattribute getitem gt hash iadd imul init iter le len lt "
                 "mul ne new repr reversed rmul setitem sizeof"},
        {"tuple", "add class_getitem contains doc eq ge getattribute getitem getnewargs gt hash iter le len lt mul ne new "
                  "repr rmul"},
        {"dict", "class_getitem contains delitem doc eq ge getattribute getitem gt hash init ior iter le len lt ne new or "
                 "repr reversed ror setitem sizeof"},
        {"set", "and class_getitem contains doc eq ge getattribute gt hash iand init ior isub iter ixor le len lt ne new "
                "or rand reduce repr ror rsub rxor sizeof sub xor"},
        {"frozenset", "and class_getitem contains doc eq ge getattribute gt hash iter le len lt ne new or rand reduce repr "
                      "ror rsub rxor sizeof sub xor"},
        {"range", "bool contains doc eq ge getattribute getitem gt hash iter le len lt ne new reduce repr reversed"},
        {"slice", "doc eq ge getattribute gt hash le lt ne new reduce repr"},
        {"object", "class delattr dir doc eq format ge getattribute getstate gt hash init init_subclass le lt ne new reduce "
                   "reduce_ex repr setattr sizeof str subclasshook"}};
    std::map<std::string, std::set<std::string>> out;
    for (const auto& [type, names] : text) {
      std::istringstream words(names);
      for (std::string w; words >> w;) out[type].insert("__" + w + "__");
    }
    return out;
  }();
  static const std::set<std::string> none;
  auto it = table.find(type);
  return it == table.end() ? none : it->second;
}

// The dunders of those a value's own type answers here; the rest (__new__, __init__ of a
// container, __getattribute__, __doc__...) are object's, classes.cpp's, or none attn backs.
const std::set<std::string>& backed() {
  static const std::set<std::string> names = [] {
    std::set<std::string> s;
    for (const char* n : {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift", "divmod"}) {
      s.insert(fmt::format("__{}__", n));
      s.insert(fmt::format("__r{}__", n));
      s.insert(fmt::format("__i{}__", n));
    }
    for (const char* n : {"eq", "ne", "lt", "le", "gt", "ge", "neg", "pos", "abs", "invert", "bool", "int", "float", "index",
                          "trunc", "floor", "ceil", "round", "len", "iter", "contains", "getitem", "setitem", "delitem",
                          "reversed", "hash", "repr", "str", "format"})
      s.insert(fmt::format("__{}__", n));
    return s;
  }();
  return names;
}

const std::map<std::string, std::string>& operators() {
  static const std::map<std::string, std::string> ops = {{"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"truediv", "/"},
      {"floordiv", "//"}, {"mod", "%"}, {"pow", "**"}, {"and", "&"}, {"or", "|"}, {"xor", "^"}, {"lshift", "<<"},
      {"rshift", ">>"}, {"divmod", "divmod"}};
  return ops;
}

[[noreturn]] void not_int(const Value& v) {
  throw TypeError(fmt::format("'{}' object cannot be interpreted as an integer", type_name(v)));
}

// Whether the slot wrapper of `type` for operator `key` takes `other`: false gives NotImplemented;
// a sequence's concatenation and repetition raise CPython's TypeError instead.
bool takes(Interpreter& in, const std::string& type, const std::string& key, const Value& self, const Value& other) {
  const bool repeat = key == "mul";
  if (type == "int" || type == "bool") return is_int(other);
  if (type == "float") return is_int(other) || other.kind == Value::Float;
  if (type == "set" || type == "frozenset") return other.kind == Value::Set;
  if (type == "dict") return other.kind == Value::Dict;
  if (repeat) {
    if (!in.index(other)) not_int(other);
    return true;
  }
  if (type == "str" && key == "mod") return true;
  if (other.kind == self.kind) return true;
  if (type == "str") throw TypeError(fmt::format("can only concatenate str (not \"{}\") to str", type_name(other)));
  throw TypeError(fmt::format("can only concatenate {} (not \"{}\") to {}", type, type_name(other), type));
}

Value one_arg(CallArgs& a, const std::string&) {
  if (a.pos.size() != 1 || !a.kw.empty())
    throw TypeError(fmt::format("expected 1 argument, got {}", a.pos.size() + a.kw.size()));
  return a.pos[0];
}

void no_arg(CallArgs& a) {
  if (!a.pos.empty() || !a.kw.empty()) throw TypeError(fmt::format("expected 0 arguments, got {}", a.pos.size() + a.kw.size()));
}

Value call_builtin(Interpreter& in, const std::string& fn, std::vector<Value> args) {
  CallArgs a;
  a.pos = std::move(args);
  return in.call(in.lookup(fn), a);
}

// __add__, __radd__, __iadd__, __divmod__, ... of a built-in value: its operator, or NotImplemented.
Value operator_dunder(const std::string& type, const std::string& name, const Value& self, const std::string& key, char form) {
  const std::string op = operators().at(key);
  return builtin(type + "." + name, [type, name, self, key, form, op](Interpreter& in, CallArgs& a) {
    const Value other = one_arg(a, name);
    if (form == 'r' && (type == "str" || type == "list" || type == "tuple") && key == "mul") {
      if (!in.index(other)) not_int(other);
      return in.binop("*", self, other);
    }
    if (form == 'r' && type == "str") return other.kind == Value::Str ? in.binop(op, other, self) : Value::not_implemented();
    if (form == 'i' && type == "list" && key == "add") {   // list += iterable: extend
      CallArgs one;
      one.pos.push_back(other);
      in.call(in.getattr(self, "extend"), one);
      return self;
    }
    if (form == 'i' && type == "dict") {   // d |= mapping or pairs: update
      CallArgs one;
      one.pos.push_back(other);
      in.call(in.getattr(self, "update"), one);
      return self;
    }
    if (!takes(in, type, key, self, other)) return Value::not_implemented();
    if (form == 'i') return in.inplace_op(op, self, other);
    const Value& l = form == 'r' ? other : self;
    const Value& r = form == 'r' ? self : other;
    return op == "divmod" ? call_builtin(in, "divmod", {l, r}) : in.binop(op, l, r);
  });
}

// Which values a type's comparison takes (NotImplemented for the rest); dict and range order nothing.
bool compares(const std::string& type, const std::string& key, const Value& self, const Value& other) {
  if (type == "int" || type == "bool") return is_int(other);
  if (type == "float") return is_int(other) || other.kind == Value::Float;
  if ((type == "dict" || type == "range") && key != "eq" && key != "ne") return false;
  return self.kind == other.kind;
}

Value compare_dunder(const std::string& type, const std::string& name, const Value& self, const std::string& key) {
  static const std::map<std::string, std::string> cmps = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}};
  return builtin(type + "." + name, [type, name, self, key, op = cmps.at(key)](Interpreter& in, CallArgs& a) {
    const Value other = one_arg(a, name);
    return compares(type, key, self, other) ? in.compare(op, self, other) : Value::not_implemented();
  });
}

// A float's __floor__, __ceil__ and __trunc__: the int it rounds to, as math.floor/ceil/trunc.
Value float_to_int(Interpreter& in, const Value& self, const std::string& key) {
  const double x = self.f;
  const double r = key == "floor" ? std::floor(x) : key == "ceil" ? std::ceil(x) : std::trunc(x);
  return call_builtin(in, "int", {std::isfinite(x) ? Value::number(r) : self});
}

// The one-operand dunders and the container protocol: __len__, __neg__, __getitem__, __round__, ...
Value plain_dunder(const std::string& type, const std::string& name, const Value& self, const std::string& key) {
  return builtin(type + "." + name, [type, name, self, key](Interpreter& in, CallArgs& a) -> Value {
    if (key == "format") {
      const Value spec = one_arg(a, name);
      if (spec.kind != Value::Str) throw TypeError("format() argument must be str, not " + type_name(spec));
      return Value::str(in.format(self, spec.s));
    }
    if (key == "contains") return Value::boolean(in.contains(self, one_arg(a, name)));
    if (key == "getitem") return in.getitem(self, one_arg(a, name));
    if (key == "delitem") {
      in.delitem(self, one_arg(a, name));
      return Value::none();
    }
    if (key == "setitem") {
      if (a.pos.size() != 2 || !a.kw.empty()) throw TypeError(fmt::format("expected 2 arguments, got {}", a.pos.size() + a.kw.size()));
      in.setitem(self, a.pos[0], a.pos[1]);
      return Value::none();
    }
    if (key == "round") {
      if (a.pos.size() > 1 || !a.kw.empty()) throw TypeError(fmt::format("expected at most 1 argument, got {}", a.pos.size() + a.kw.size()));
      std::vector<Value> args = {self};
      if (!a.pos.empty()) args.push_back(a.pos[0]);
      return call_builtin(in, "round", args);
    }
    no_arg(a);
    if (key == "str") return Value::str(in.str_of(self));
    if (key == "repr") return Value::str(in.repr_of(self));
    if (key == "hash") return Value::integer(in.hash(self));
    if (key == "len") return Value::integer(in.len(self));
    if (key == "iter") return in.iter(self);
    if (key == "bool") return Value::boolean(in.truth(self));
    if (key == "neg" || key == "pos" || key == "invert" || key == "abs")
      return in.unary(key == "neg" ? "-" : key == "pos" ? "+" : key == "abs" ? "abs" : "~", self);
    if (type == "float" && (key == "floor" || key == "ceil" || key == "trunc")) return float_to_int(in, self, key);
    if (key == "index" || key == "floor" || key == "ceil" || key == "trunc") return call_builtin(in, "int", {self});
    return call_builtin(in, key, {self});   // int, float, reversed
  });
}

}  // namespace

// The built-in type whose dunders a value has here ("int", "frozenset", ...), "" for other values.
std::string dunder_type(const Value& v) {
  switch (v.kind) {
    case Value::Bool: return "bool";
    case Value::Int: return "int";
    case Value::Float: return "float";
    case Value::Str: return "str";
    case Value::List: return "list";
    case Value::Tuple: return "tuple";
    case Value::Dict: return "dict";
    case Value::Set: return is_frozenset(v) ? "frozenset" : "set";
    case Value::Range: return "range";
    case Value::Slice: return "slice";
    default: return "";
  }
}

static const std::set<std::string>& dunder_type_names() {
  static const std::set<std::string> names = {"int", "bool", "float", "str", "list", "tuple", "dict", "set", "frozenset", "range", "slice"};
  return names;
}

bool own_dunder(const std::string& type, const std::string& name) { return own_dunders(type).count(name) > 0; }

// Whether built-in `type` (or its built-in base: bool's int) has dunder `name` of its own.
bool type_has_dunder(const std::string& type, const std::string& name) {
  if (own_dunders(type).count(name)) return true;
  return type == "bool" && own_dunders("int").count(name);
}

// Whether attn backs `type`'s dunder `name` here, its own or object's (list.__format__, int.__str__);
// false for the ones it cannot (__sizeof__) and the ones classes.cpp answers (__init__, __new__).
bool dunder_backed(const std::string& type, const std::string& name) {
  if (dunder_type_names().count(type) == 0) return false;
  if (!(type_has_dunder(type, name) || own_dunders("object").count(name)) || !backed().count(name)) return false;
  return !(name == "__hash__" && (type == "list" || type == "dict" || type == "set" || type == "slice"));
}

// `name` of `self` (a value dunder_type names) bound to it; nullopt when its type has not that
// dunder of its own or attn cannot back it. list.__hash__ is None, as CPython's.
std::optional<Value> builtin_dunder(Interpreter&, const Value& self, const std::string& name) {
  const std::string type = dunder_type(self);
  if (name == "__hash__" && (type == "list" || type == "dict" || type == "set" || type == "slice")) return Value::none();
  if (!dunder_backed(type, name)) return std::nullopt;
  std::string key = name.substr(2, name.size() - 4);
  char form = ' ';
  if (!operators().count(key) && (key[0] == 'r' || key[0] == 'i') && operators().count(key.substr(1))) {
    form = key[0];
    key = key.substr(1);
  }
  if (operators().count(key)) return operator_dunder(type, name, self, key, form);
  if (key == "eq" || key == "ne" || key == "lt" || key == "le" || key == "gt" || key == "ge") return compare_dunder(type, name, self, key);
  return plain_dunder(type, name, self, key);
}

}  // namespace attn::py
