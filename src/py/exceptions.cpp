// py/exceptions.cpp: the built-in exception classes and the mapping of attn's errors onto them
// (see exceptions.h).
#include "py/exceptions.h"

#include <algorithm>
#include <cctype>

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
    {"FileNotFoundError", "OSError"},
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
  if (!a.kw.empty()) throw std::runtime_error("TypeError: " + inst(self).cls->name + "() takes no keyword arguments");
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

// The key a KeyError message shows (its repr), read back: 'k' -> 'k', 3 -> 3; else the text.
Value key_from_repr(const std::string& text) {
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front() &&
      text.find('\\') == std::string::npos && text.find(text.front(), 1) == text.size() - 1)
    return Value::str(text.substr(1, text.size() - 2));
  bool digits = !text.empty() && text.find_first_not_of("-0123456789") == std::string::npos && text.find('-', 1) == std::string::npos;
  if (digits && text.size() < 19) return Value::integer(std::stoll(text));
  return Value::str(text);
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

Value caught_exception(const ScriptError& e) {
  if (const auto* raised = dynamic_cast<const PyException*>(&e)) return raised->exc;
  const std::string text = e.what();
  size_t colon = text.find(": ");
  std::string kind = text.substr(0, colon);   // "ValueError", "importlib.metadata.PackageNotFoundError"
  bool identifier = !kind.empty() && std::all_of(kind.begin(), kind.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.'; });
  if (identifier && kind.find('.') != std::string::npos) {
    auto cls = exception_class(kind.substr(kind.rfind('.') + 1));
    identifier = cls && kind == cls->module + "." + cls->name;
    if (identifier) kind = cls->name;
  }
  if (!identifier || !exception_class(kind)) return new_exception("RuntimeError", {Value::str(text)});
  if (colon == std::string::npos) return new_exception(kind, {});
  std::string message = text.substr(colon + 2);
  return new_exception(kind, {kind == "KeyError" ? key_from_repr(message) : Value::str(message)});
}

std::string exception_text(const Value& exc, const std::string& message) {
  const ClassObj& cls = *inst(exc).cls;   // module-qualified as a traceback shows it, but for builtins and __main__
  std::string name = cls.module == "builtins" || cls.module == "__main__" ? cls.name : cls.module + "." + cls.name;
  return message.empty() ? name : name + ": " + message;
}

}  // namespace attn::py
