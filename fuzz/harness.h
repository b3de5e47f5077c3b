// fuzz/harness.h: what the three libFuzzer harnesses share: the input as a string, and the rule
// for exceptions.
//
// The rule: a reader may reject its input only with the errors attn reports as one line and
// exit code 2 (attn::UsageError, attn::LessonFileError: core/errors.h; py::ScriptError, which
// the lesson runner turns into a LessonFileError). Any other exception (std::bad_alloc,
// std::out_of_range from a std::stoi, ...) would reach main() as a bare "attn: stoi" with exit
// 1, so the harness prints it and aborts: libFuzzer saves the input as a crash. Sanitizer
// reports, stack overflows and hangs (-timeout) are crashes anyway.
// What it is not: a harness (fuzz_*.cpp) or a test of messages (tests/).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

#include "core/errors.h"
#include "py/ast.h"

namespace attn::fuzz {

template <class F>
void expect_clean_rejection(F&& read) {
  try {
    read();
  } catch (const UsageError&) {
  } catch (const LessonFileError&) {
  } catch (const py::ScriptError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz: the reader threw %s (\"%s\"), not a one-line input error\n", typeid(e).name(), e.what());
    std::abort();
  }
}

inline std::string as_string(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

}  // namespace attn::fuzz
