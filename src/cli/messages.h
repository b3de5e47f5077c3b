// cli/messages.h: how attn's messages reach a terminal: each one a single line with every
// control character made visible (print::one_line, which the lesson layer's prose uses too),
// and running out of memory named as such.
// What it is not: how a message is worded (each layer words its own), or the walkthrough's text,
// which is what the lesson's cells printed.
#pragma once

#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "print/one_line.h"

namespace attn::cli {

// `text` with every control character made visible (print/one_line.h).
using print::one_line;

// Memory ran out while attn was doing `what` ("writing the walkthrough"): main() prints
// "attn: out of memory while <what>", exit code 1.
struct OutOfMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// f(), with a std::bad_alloc it throws turned into OutOfMemory(what).
template <class F>
auto while_doing(const char* what, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw OutOfMemory(what);
  }
}

}  // namespace attn::cli
