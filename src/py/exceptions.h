// py/exceptions.h: Python's exception classes and raised exceptions in the lesson interpreter.
//
// What it is: the built-in exception classes in Python 3.11's hierarchy (so `except LookupError`
// catches a KeyError), PyException (a raised exception object, travelling as a ScriptError whose
// text is what Python's traceback ends with: "ValueError: message"), and the mapping of attn's
// own errors onto those classes. attn's errors are "Kind: message" strings (from core ops, the
// torch bindings, builtins): an except clause sees "RuntimeError: mat1 and mat2 shapes cannot
// be multiplied ..." as a RuntimeError whose str() is the message, so `except RuntimeError as e`
// catches a torch RuntimeError as in PyTorch. A "Kind" that is no exception class is a RuntimeError.
// What it is not: tracebacks, exception chaining (`raise ... from` is accepted, the cause is not
// kept), exception groups; nor attn's own limits (LimitError, ast.h), which no except clause sees.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "py/value.h"

namespace attn::py {

// A Python exception raised by `raise` (or re-raised): the exception object, and as text what
// Python's traceback would end with.
struct PyException : ScriptError {
  Value exc;
  PyException(int line, Value exc_, const std::string& text, std::string file)
      : ScriptError(line, text, std::move(file)), exc(std::move(exc_)) {}
};

// The classes BaseException, Exception, ValueError, ... as builtins (immutable, shared by every
// session: `ValueError.x = 1` raises, as in Python).
void add_exception_classes(std::map<std::string, Value>& builtins);
std::shared_ptr<ClassObj> exception_class(const std::string& name);   // by name, or null
bool is_exception_class(const std::shared_ptr<ClassObj>& cls);         // derives from BaseException
bool is_exception(const Value& v);                                     // an instance of one

// An instance of the built-in class `cls` with these args, as `cls(*args)` makes it.
Value new_exception(const std::string& cls, std::vector<Value> args);

// The exception object an `except` clause sees for a caught error: a raised PyException's own
// object, or attn's "Kind: message" error as an instance of Kind (KeyError's message is the
// key's repr: `KeyError: 'k'` is KeyError('k')).
Value caught_exception(const ScriptError& e);

// What Python prints for an uncaught exception, given str(exc): "ValueError: message", or just
// "ValueError" when the message is empty.
std::string exception_text(const Value& exc, const std::string& message);

}  // namespace attn::py
