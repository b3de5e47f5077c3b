// py/function_attrs.h: the attributes a program sets on one of its functions (`f.calls = 0`,
// functools.wraps's __wrapped__ and __name__), private to calls.cpp (which makes every function
// this way) and classes.cpp (which reads and writes them).
// What it is not: a general __dict__ for functions: f.__dict__ is not there.
#pragma once

#include <memory>

#include "py/value.h"

namespace attn::py {

struct FunctionWithAttrs : FunctionObj {
  std::shared_ptr<DictObj> attrs;   // null until the first f.x = ...
  void gc_traverse(GcVisitor& visit) override;   // calls.cpp
};

}  // namespace attn::py
