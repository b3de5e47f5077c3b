// py/exceptions.cpp: the built-in exception classes and PyError (see exceptions.h).
#include "py/exceptions.h"

#include <algorithm>

#include "py/interpreter.h"

namespace attn::py {

namespace {

// Python 3.11's hierarchy (the part a lesson can meet), each class after its base.
const std::vector<std::pair<const char*, const char*>> kHierarchy = {
    {"BaseException", ""},          {"Exception", "BaseException"},   {"KeyboardInterrupt", "BaseException"},
    {"ArithmeticError", "Exception"}, {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"}, {"FloatingPointError", "ArithmeticError"},
    {"AssertionError", "Exception"}, {"AttributeError", "Exception"}, {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"}, {"LookupError", "Exception"}, {"IndexError", "LookupError"},
    {"KeyError", "LookupError"},     {"NameError", "Exception"},      {"UnboundLocalError", "NameError"},
    {"RuntimeError", "Exception"},   {"NotImplementedError", "RuntimeError"}, {"RecursionError", "RuntimeError"},
    {"StopIteration", "Exception"},  {"SyntaxError", "Exception"},    {"IndentationError", "SyntaxError"},
    {"TypeError", "Exception"},      {"ValueError", "Exception"},     {"OSError", "Exception"},
    {"FileNotFoundError", "OSError"}, {"TimeoutError", "OSError"},    {"MemoryError", "Exception"},
    // importlib.metadata's, not a builtin: what version() raises for a package attn does not have.
    {"PackageNotFoundError", "ModuleNotFoundError"}};

InstanceObj& inst(const Value& v) { return *static_cast<InstanceObj*>(v.obj.get()); }

const std::vector<Value>& args_of(const Value& self) {
  static const std::vector<Value> none;
  const Value* a = inst(self).find("args");
  return a && a->kind == Value::Tuple ? as_seq(*a) : none;
}

bool derives_from(const ClassObj* c, const std::string& name) {
  for (; c; c = c->bases.empty() ? nullptr : c->bases.front().get())
    if (c->name == name && c->module == "builtins") return true;
  return false;
}

// BaseException.__str__: "" for no args, str(arg) for one, the tuple's repr for more; KeyError
// shows its one arg's repr.
std::string exception_str(const Value& self) {
  const std::vector<Value>& a = args_of(self);
  if (a.empty()) return "";
  if (a.size() == 1) return derives_from(inst(self).cls.get(), "KeyError") ? repr(a[0]) : str(a[0]);
  return repr(Value::tuple(a));
}

std::string exception_repr(const Value& self) {
  std::string out = inst(self).cls->name + "(";
  const std::vector<Value>& a = args_of(self);
  for (size_t k = 0; k < a.size(); ++k) out += (k ? ", " : "") + repr(a[k]);
  return out + ")";
}

void exception_init(Interpreter&, Value& self, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError(inst(self).cls->name + "() takes no keyword arguments");
  inst(self).set("args", Value::tuple(a.pos));
}

const std::map<std::string, std::shared_ptr<ClassObj>>& classes() {
  static const std::map<std::string, std::shared_ptr<ClassObj>> all = [] {
    std::map<std::string, std::shared_ptr<ClassObj>> m;
    for (const auto& [name, base] : kHierarchy) {
      auto c = std::make_shared<ClassObj>();
      c->name = name;
      c->module = std::string(name) == "PackageNotFoundError" ? "importlib.metadata" : "builtins";
      if (*base) c->bases.push_back(m.at(base));
      if (std::string(name) == "BaseException") {
        c->native_init = exception_init;
        c->native_str = exception_str;
        c->native_repr = exception_repr;
      }
      m[name] = c;
    }
    return m;
  }();
  return all;
}

}  // namespace

void add_exception_classes(std::map<std::string, Value>& builtins) {
  for (const auto& [name, cls] : classes()) {
    if (cls->module != "builtins") continue;
    Value v;
    v.kind = Value::Class;
    v.obj = cls;
    builtins[name] = v;
  }
}

std::shared_ptr<ClassObj> exception_class(const std::string& name) {
  auto it = classes().find(name);
  return it == classes().end() ? nullptr : it->second;
}

bool is_exception_class(const std::shared_ptr<ClassObj>& cls) { return is_subclass(cls, exception_class("BaseException").get()); }

bool is_exception(const Value& v) { return v.kind == Value::Instance && is_exception_class(inst(v).cls); }

Value new_exception(const std::string& cls, std::vector<Value> args) {
  auto o = std::make_shared<InstanceObj>();
  o->cls = exception_class(cls);
  o->set("args", Value::tuple(std::move(args)));
  Value v;
  v.kind = Value::Instance;
  v.obj = o;
  return v;
}

PyError::PyError(Value exc, std::string text, int line, std::string file)
    : ScriptError(line, std::move(text), std::move(file)), exc_(std::move(exc)) {}

const std::string& PyError::text() const {
  if (text_.empty()) text_ = exception_text(exc_, exception_str(exc_));
  return text_;
}

PyError error(const std::string& cls, std::vector<Value> args) { return PyError(new_exception(cls, std::move(args))); }

PyError error(const std::string& cls, std::string message) {
  std::vector<Value> args;
  if (!message.empty()) args.push_back(Value::str(std::move(message)));
  return error(cls, std::move(args));
}

bool is_instance_of(const PyError& e, const std::string& cls) {
  return is_exception(e.exc()) && is_subclass(inst(e.exc()).cls, exception_class(cls).get());
}

std::string exception_text(const Value& exc, const std::string& message) {
  const ClassObj& cls = *inst(exc).cls;   // module-qualified as a traceback shows it, but for builtins and __main__
  std::string name = cls.module == "builtins" || cls.module == "__main__" ? cls.name : cls.module + "." + cls.name;
  return message.empty() ? name : name + ": " + message;
}

}  // namespace attn::py
