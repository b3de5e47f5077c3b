// py/exceptions.h: Python's exceptions in the lesson interpreter, as objects.
//
// What it is: the built-in exception classes in Python 3.11's hierarchy (so `except LookupError`
// catches a KeyError), and PyError, the C++ exception a Python exception travels as: it carries
// the exception object itself (its class and its arguments, the real values), is raised by
// `raise`, by builtins (`throw TypeError("...")`) and by native code, and is caught as that object
// by `except`. `KeyError((1, 2))` comes back as KeyError((1, 2)). The text Python's traceback ends
// with ("KeyError: (1, 2)") is made once, where it is printed (PyError::text()).
// What it is not: tracebacks, exception chaining (`raise ... from` is accepted, the cause is not
// kept), exception groups; nor attn's own limits (LimitError, ast.h), which no except clause sees.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "py/value.h"

namespace attn::py {

// A Python exception in flight. `line`/`file` (ScriptError) are where it was raised: the first
// statement it passed through fills them in (Interpreter::rethrow_at).
class PyError : public ScriptError {
 public:
  // `text`: when the exception's class has its own __str__ in Python, the interpreter made the
  // text already (it needs the interpreter to); otherwise it is made from the object when read.
  explicit PyError(Value exc, std::string text = "", int line = 0, std::string file = "");
  const Value& exc() const { return exc_; }
  const std::string& text() const override;   // "ValueError: message", or "ValueError"

 private:
  Value exc_;
};

// An exception of the built-in class `cls` ("TypeError") with these arguments, as `cls(*args)`.
PyError error(const std::string& cls, std::vector<Value> args);
// ... with one str argument, the message; none when the message is empty (`raise StopIteration`).
PyError error(const std::string& cls, std::string message);

// The raising shorthands native code uses: `throw TypeError("...")`.
#define ATTN_PY_ERROR(Name) \
  inline PyError Name(std::string message) { return error(#Name, std::move(message)); }
ATTN_PY_ERROR(TypeError)
ATTN_PY_ERROR(ValueError)
ATTN_PY_ERROR(RuntimeError)
ATTN_PY_ERROR(NotImplementedError)
ATTN_PY_ERROR(AttributeError)
ATTN_PY_ERROR(SyntaxError)
ATTN_PY_ERROR(OverflowError)
ATTN_PY_ERROR(NameError)
ATTN_PY_ERROR(IndexError)
ATTN_PY_ERROR(ZeroDivisionError)
ATTN_PY_ERROR(ModuleNotFoundError)
ATTN_PY_ERROR(ImportError)
ATTN_PY_ERROR(UnboundLocalError)
ATTN_PY_ERROR(AssertionError)
ATTN_PY_ERROR(RecursionError)
ATTN_PY_ERROR(StopIteration)
ATTN_PY_ERROR(MemoryError)
ATTN_PY_ERROR(OSError)
ATTN_PY_ERROR(LookupError)
ATTN_PY_ERROR(TimeoutError)
#undef ATTN_PY_ERROR
// KeyError's argument is the key itself (its str() is the key's repr).
inline PyError KeyError(Value key) { return error("KeyError", std::vector<Value>{std::move(key)}); }

// The classes BaseException, Exception, ValueError, ... as builtins (immutable, shared by every
// session: `ValueError.x = 1` raises, as in Python).
void add_exception_classes(std::map<std::string, Value>& builtins);
std::shared_ptr<ClassObj> exception_class(const std::string& name);   // by name, or null
bool is_exception_class(const std::shared_ptr<ClassObj>& cls);         // derives from BaseException
bool is_exception(const Value& v);                                     // an instance of one
bool is_instance_of(const PyError& e, const std::string& cls);         // e's class derives from builtin `cls`

// An instance of the built-in class `cls` with these args, as `cls(*args)` makes it.
Value new_exception(const std::string& cls, std::vector<Value> args);

// What Python prints for an uncaught exception, given str(exc): "ValueError: message", or just
// "ValueError" when the message is empty. The class is module-qualified as a traceback shows it
// (not for builtins and __main__).
std::string exception_text(const Value& exc, const std::string& message);

}  // namespace attn::py
