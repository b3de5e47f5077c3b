// py/exceptions.cpp: the built-in exception classes and PyError (see exceptions.h).
#include "py/exceptions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>

#include "py/interpreter.h"

namespace attn::py {

namespace {

// Python 3.11's hierarchy (the part a lesson can meet), each class after its base.
const std::vector<std::pair<const char*, const char*>> kHierarchy = {
    {"BaseException", ""},          {"Exception", "BaseException"},   {"KeyboardInterrupt", "BaseException"},
    {"GeneratorExit", "BaseException"},
    {"ArithmeticError", "Exception"}, {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"}, {"FloatingPointError", "ArithmeticError"},
    {"AssertionError", "Exception"}, {"AttributeError", "Exception"}, {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"}, {"LookupError", "Exception"}, {"IndexError", "LookupError"},
    {"KeyError", "LookupError"},     {"NameError", "Exception"},      {"UnboundLocalError", "NameError"},
    {"RuntimeError", "Exception"},   {"NotImplementedError", "RuntimeError"}, {"RecursionError", "RuntimeError"},
    {"SystemError", "Exception"},
    {"StopIteration", "Exception"},  {"SyntaxError", "Exception"},    {"IndentationError", "SyntaxError"},
    {"TypeError", "Exception"},      {"ValueError", "Exception"},     {"OSError", "Exception"},
    {"FileNotFoundError", "OSError"}, {"TimeoutError", "OSError"},    {"MemoryError", "Exception"},
    {"Warning", "Exception"},        {"UserWarning", "Warning"},      {"DeprecationWarning", "Warning"},
    {"PendingDeprecationWarning", "Warning"}, {"SyntaxWarning", "Warning"}, {"RuntimeWarning", "Warning"},
    {"FutureWarning", "Warning"},    {"ImportWarning", "Warning"},    {"UnicodeWarning", "Warning"},
    {"BytesWarning", "Warning"},     {"ResourceWarning", "Warning"},
    {"SystemExit", "BaseException"}, {"EOFError", "Exception"},      {"UnicodeError", "ValueError"},
    {"UnicodeEncodeError", "UnicodeError"}, {"UnicodeDecodeError", "UnicodeError"},
    {"BufferError", "Exception"},    {"TabError", "IndentationError"}, {"PermissionError", "OSError"},
    // importlib.metadata's, not a builtin: what version() raises for a package attn does not have.
    {"PackageNotFoundError", "ModuleNotFoundError"}};


const std::vector<Value>& args_of(const Value& self) {
  static const std::vector<Value> none;
  const Value* a = inst(self).find("args");
  return a && a->kind == Value::Tuple ? as_seq(*a) : none;
}

bool derives_from(const ClassObj* c, const std::string& name) {
  for (const ClassObj* b : c->mro())
    if (b->name == name && b->module == "builtins") return true;
  return false;
}

// BaseException.__str__: "" for no args, str(arg) for one, the tuple's repr for more; KeyError
// shows its one arg's repr.
std::string exception_str(const Value& self) {
  if (derives_from(inst(self).cls.get(), "OSError")) {   // OSError(errno, strerror[, filename[, winerror[, filename2]]])
    const Value* no = inst(self).find("errno");
    const Value* why = inst(self).find("strerror");
    const Value* file = inst(self).find("filename");
    const Value* file2 = inst(self).find("filename2");
    if (no && why && !no->is_none() && !why->is_none()) {
      std::string out = fmt::format("[Errno {}] {}", str(*no), str(*why));
      if (file && !file->is_none()) out += ": " + repr(*file);
      if (file2 && !file2->is_none()) out += " -> " + repr(*file2);
      return out;
    }
  }
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

// StopIteration(x).value is x (None without arguments): a generator's return value.
// SystemExit(x).code is x (None without arguments, the args tuple with several): sys.exit's status.
void keep_stop_value(InstanceObj& o) {
  bool stop = false, exit = false;
  for (const ClassObj* c : o.cls->mro()) {
    stop = stop || (c->module == "builtins" && c->name == "StopIteration");
    exit = exit || (c->module == "builtins" && c->name == "SystemExit");
  }
  if (derives_from(o.cls.get(), "OSError")) {
    std::vector<Value> a = as_seq(*o.find("args"));
    const bool fields = a.size() >= 2 && a.size() <= 5;
    o.set("errno", fields ? a[0] : Value::none());
    o.set("strerror", fields ? a[1] : Value::none());
    o.set("filename", fields && a.size() >= 3 ? a[2] : Value::none());
    o.set("filename2", fields && a.size() == 5 ? a[4] : Value::none());
    if (fields && a.size() >= 3) o.set("args", Value::tuple({a[0], a[1]}));   // CPython's args keep errno and strerror
  }
  if (!stop && !exit) return;
  const Value args = *o.find("args");
  const std::vector<Value>& a = as_seq(args);
  if (stop) o.set("value", a.empty() ? Value::none() : a[0]);
  else o.set("code", a.empty() ? Value::none() : a.size() == 1 ? a[0] : args);
}

// BaseException.__new__ and __init__ both keep the arguments as `args`.
void exception_init(Interpreter&, const Value& self, CallArgs& a) {
  if (!a.kw.empty()) throw TypeError(inst(self).cls->name + "() takes no keyword arguments");
  inst(self).set("args", Value::tuple(a.pos));
  keep_stop_value(inst(self));
}

const std::map<std::string, std::shared_ptr<ClassObj>>& classes();

Value exception_make(Interpreter& in, const ClassPtr& cls, CallArgs& a) {
  auto o = std::make_shared<InstanceObj>();
  o->cls = cls;
  // OSError(2, ...) is a FileNotFoundError (CPython maps errno to the subclasses attn has)
  if (cls->name == "OSError" && cls->module == "builtins" && a.pos.size() >= 2 && a.pos.size() <= 5 && a.pos[0].kind == Value::Int) {
    const int64_t no = a.pos[0].i;
    const char* sub = no == ENOENT ? "FileNotFoundError" : no == EACCES || no == EPERM ? "PermissionError" : no == ETIMEDOUT ? "TimeoutError" : nullptr;
    if (sub) o->cls = classes().at(sub);
  }
  Value self = Value::of_instance(std::move(o));
  exception_init(in, self, a);
  return self;
}

const std::map<std::string, std::shared_ptr<ClassObj>>& classes() {
  static const std::map<std::string, std::shared_ptr<ClassObj>> all = [] {
    std::map<std::string, std::shared_ptr<ClassObj>> m;
    for (const auto& [name, base] : kHierarchy) {
      auto c = make_native_class(name, std::string(name) == "PackageNotFoundError" ? "importlib.metadata" : "builtins",
                                 *base ? std::vector<ClassPtr>{m.at(base)} : std::vector<ClassPtr>{});
      if (std::string(name) == "BaseException") {
        c->slots.make = exception_make;
        c->slots.init = exception_init;
        c->slots.str = [](Interpreter&, const Value& self) { return exception_str(self); };
        c->slots.repr = [](Interpreter&, const Value& self) { return exception_repr(self); };
        // raise ... from sets an instance's own; an exception raised without `from` has None
        for (const char* n : {"__cause__", "__context__"}) c->methods[n] = Value::none();
        c->methods["__suppress_context__"] = Value::boolean(false);
        // BaseException.__new__(cls, *args): super().__new__(cls) of an exception class reaches
        // this, not object.__new__ (which refuses an exception class, as CPython)
        c->methods["__new__"] = builtin("BaseException.__new__", [base_class = c.get()](Interpreter& in, CallArgs& a) {
          if (a.pos.empty() || a.pos[0].kind != Value::Class) throw TypeError("BaseException.__new__(X): X is not a type object");
          const ClassPtr cls = std::static_pointer_cast<ClassObj>(a.pos[0].obj);
          if (!is_subclass(cls, base_class)) throw TypeError(fmt::format("BaseException.__new__({}): {} is not a subtype of BaseException", cls->name, cls->name));
          CallArgs rest;
          rest.pos.assign(a.pos.begin() + 1, a.pos.end());
          rest.kw = a.kw;
          return exception_make(in, cls, rest);
        });
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
    builtins[name] = Value::of_class(cls);
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
  if (!o->cls) o->cls = exception_class("SystemError");   // a name no class has: attn's mistake, never a null class
  o->set("args", Value::tuple(std::move(args)));
  keep_stop_value(*o);
  Value v = Value::of_instance(o);
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
