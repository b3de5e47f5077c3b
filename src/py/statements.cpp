// py/statements.cpp: executing while, break, continue, try/except/else/finally, raise, with,
// global/nonlocal and del (the other statements: interpreter.cpp).
//
// What it is: Python's semantics for these, with its messages. An except clause sees attn's own
// errors as exception objects (exceptions.h); attn's limits (LimitError) pass every except
// clause, `finally` and `with` untouched: they end the run. What it is not: exception chaining
// or tracebacks (a raise inside a handler replaces the exception being handled).
#include <fmt/format.h>

#include <algorithm>

#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::py {

namespace {

Value class_of(const Value& instance) { return Value::of_class(inst(instance).cls); }

bool is_exception_class_value(const Value& v) {
  return v.kind == Value::Class && is_exception_class(std::static_pointer_cast<ClassObj>(v.obj));
}

// Whether `exc` is an instance of the except clause's class (or of one in its tuple).
bool matches(const Value& clause, const Value& exc) {
  if (clause.kind == Value::Tuple) {
    for (const Value& c : as_seq(clause))
      if (matches(c, exc)) return true;
    return false;
  }
  if (!is_exception_class_value(clause))
    throw TypeError("catching classes that do not inherit from BaseException is not allowed");
  return is_subclass(inst(exc).cls, static_cast<ClassObj*>(clause.obj.get()));
}

}  // namespace

Interpreter::Flow Interpreter::exec_more(const StmtPtr& ptr, Value* ret) {
  const Stmt& s = *ptr;
  switch (s.kind) {
    case Stmt::While: {
      bool broke = false;
      while (truth(eval(*s.value))) {
        if (exec_loop_body(s.body, ret, broke) == Flow::returned) return Flow::returned;
        if (broke) break;
      }
      return broke ? Flow::next : exec(s.orelse, ret);
    }
    case Stmt::Break: return Flow::broke;
    case Stmt::Continue: return Flow::continued;
    case Stmt::Try: return exec_try(s, ret);
    case Stmt::With: return exec_with(s, 0, ret);
    case Stmt::Match: return exec_match(s, ret);
    case Stmt::Raise: exec_raise(s); break;
    case Stmt::Global: case Stmt::Nonlocal: break;   // the parser recorded them in their def
    case Stmt::Del:
      for (const ExprPtr& t : s.targets) exec_del(*t);
      break;
    default: throw SyntaxError("a statement attn cannot run");
  }
  return Flow::next;
}

namespace {

// CPython's implicit chaining (_PyErr_SetObject): an exception raised while `handled` is being
// handled gets it as __context__, a loop through handled's own chain cut first. `only_if_none`:
// the exception is leaving a handler, and an inner one may have chained it already.
void chain_context(const Value& exc, const Value& handled, bool only_if_none) {
  if (exc.kind != Value::Instance || handled.kind != Value::Instance || exc.obj == handled.obj) return;
  const Value* had = inst(exc).find("__context__");
  if (only_if_none && had && !had->is_none()) return;
  Value o = handled;
  for (int steps = 0; steps < 100000; ++steps) {
    const Value* found = inst(o).find("__context__");
    if (!found || found->kind != Value::Instance) break;
    const Value next = *found;
    if (next.obj == exc.obj) {
      inst(o).set("__context__", Value::none());
      break;
    }
    o = next;
  }
  inst(exc).set("__context__", handled);
}

Value exception_of(const std::exception_ptr& p) {
  try {
    std::rethrow_exception(p);
  } catch (const PyError& e) {
    return e.exc();
  } catch (...) {
    return Value::none();
  }
}

}  // namespace

Interpreter::Flow Interpreter::exec_try(const Stmt& s, Value* ret) {
  Flow flow = Flow::next;
  std::exception_ptr pending;   // raised in the body, a handler or `else`: re-raised after `finally`
  try {
    std::exception_ptr caught;
    try {
      flow = exec(s.body, ret);
    } catch (const PyError& e) {
      caught = std::current_exception();
      if (!handling_.empty()) chain_context(e.exc(), exception_of(handling_.back()), false);
    }
    if (caught) flow = exec_handlers(s, caught, ret);
    else if (flow == Flow::next) flow = exec(s.orelse, ret);
  } catch (const LimitError&) {
    throw;   // the run is over: not even `finally` runs
  } catch (...) {
    if (s.finalbody.empty()) throw;
    pending = std::current_exception();
  }
  if (!s.finalbody.empty()) {
    if (!dropped_gens_.empty()) close_dropped();   // generators the body let go of close first, as in CPython
    Flow f = exec(s.finalbody, ret);
    if (f != Flow::next) return f;   // return/break/continue in `finally` drops a pending exception
  }
  if (pending) std::rethrow_exception(pending);
  return flow;
}

// The except clause that matches `caught` runs it; none: it goes on. The clauses run outside the
// C++ catch block: a generator may yield inside one, and C++ keeps one chain of caught exceptions
// per thread, which a switch of stacks in the middle of a catch block would tangle.
Interpreter::Flow Interpreter::exec_handlers(const Stmt& s, std::exception_ptr caught, Value* ret) {
  Value exc;
  try {
    std::rethrow_exception(caught);
  } catch (const PyError& e) {
    exc = e.exc();
  }
  const Handler* handler = nullptr;
  for (const Handler& h : s.handlers) {
    Value clause;
    try {
      if (h.type) clause = eval(*h.type);
      if (!h.type || matches(clause, exc)) handler = &h;
    } catch (...) {
      rethrow_at(h.line, file_);
    }
    if (handler) break;
  }
  if (!handler) std::rethrow_exception(caught);
  return exec_handler(s, *handler, caught, exc, ret);
}

// `except ... as name:` binds the exception, and unbinds it afterwards (as Python does); a bare
// `raise` in the handler re-raises it.
Interpreter::Flow Interpreter::exec_handler(const Stmt&, const Handler& h, std::exception_ptr caught, const Value& exc, Value* ret) {
  struct Handling {
    Interpreter& in;
    const Handler& h;
    ~Handling() {
      in.handling_.pop_back();
      if (h.name.empty()) return;
      try {
        in.erase(h.name);
      } catch (...) {   // the handler deleted it itself
      }
    }
  };
  if (!h.name.empty()) store(h.name, exc);
  handling_.push_back(std::move(caught));
  Handling guard{*this, h};
  try {
    return exec(h.body, ret);
  } catch (const PyError& e) {   // leaving the handler: chained to what it handled
    chain_context(e.exc(), exc, true);
    throw;
  }
}

void Interpreter::exec_raise(const Stmt& s) {
  if (!s.value) {
    if (handling_.empty()) throw RuntimeError("No active exception to reraise");
    std::rethrow_exception(handling_.back());
  }
  Value v = eval(*s.value);
  if (is_exception_class_value(v)) {
    CallArgs none;
    v = call(v, none);
  }
  if (!is_exception(v)) throw TypeError("exceptions must derive from BaseException");
  if (s.target) {   // raise X from Y: X.__cause__ is Y (an instance; a class is called); no __context__ chain
    Value cause = eval(*s.target);
    if (!cause.is_none() && !is_exception(cause) && !is_exception_class_value(cause))
      throw TypeError("exception causes must derive from BaseException");
    if (is_exception_class_value(cause)) {
      CallArgs none;
      cause = call(cause, none);
    }
    inst(v).set("__cause__", cause);
    inst(v).set("__suppress_context__", Value::boolean(true));
  }
  // A class with its own __str__ needs the interpreter for its text: made now. Otherwise the text
  // is made from the object when it is printed (PyError::text()).
  bool own_str = false;
  for (const ClassObj* c : inst(v).cls->mro()) own_str = own_str || (c != builtin_class("object").get() && c->methods.count("__str__"));
  throw PyError(v, own_str ? exception_text(v, str_of(v)) : "", s.line, file_);
}

// with A() as a, B() as b: body  ==  with A() as a: (with B() as b: body)
Interpreter::Flow Interpreter::exec_with(const Stmt& s, size_t item, Value* ret) {
  Value manager = eval(*s.bases[item]);
  Value enter, exit;
  try {
    enter = getattr(manager, "__enter__");
    exit = getattr(manager, "__exit__");
  } catch (const PyError& e) {
    if (!is_instance_of(e, "AttributeError")) throw;
    throw TypeError("'" + type_name(manager) + "' object does not support the context manager protocol" +
                    (enter.kind == Value::None ? "" : " (missed __exit__ method)"));
  }
  CallArgs no_args;
  Value entered = call(enter, no_args);
  if (s.targets[item]) assign(*s.targets[item], entered);
  Flow flow;
  try {
    flow = item + 1 < s.bases.size() ? exec_with(s, item + 1, ret) : exec(s.body, ret);
  } catch (const PyError& e) {
    const Value exc = e.exc();
    CallArgs a;
    a.pos = {class_of(exc), exc, Value::none()};
    bool suppress = false;
    try {
      suppress = truth(call(exit, a));
    } catch (const PyError& raised) {   // raised by __exit__ while the body's exception is handled
      chain_context(raised.exc(), exc, false);
      throw;
    }
    if (suppress) return Flow::next;   // __exit__ returned True: the exception is suppressed
    throw;
  }
  CallArgs a;
  a.pos = {Value::none(), Value::none(), Value::none()};
  call(exit, a);
  return flow;
}

void Interpreter::exec_del(const Expr& t) {
  if (t.kind == Expr::Name) {
    erase(t.name);
    return;
  }
  Value obj = eval(*t.a);
  if (t.kind == Expr::Attribute) return delattr(obj, t.name);
  std::vector<Value> idx;
  for (const ExprPtr& ix : t.items) idx.push_back(eval(*ix));
  delitem(obj, idx.size() == 1 ? idx[0] : Value::tuple(idx));
}

}  // namespace attn::py
