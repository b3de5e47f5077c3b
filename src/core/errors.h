// core/errors.h: the errors every layer may throw that main() turns into exit code 2.
//
// What it is: the two kinds of bad input attn reports as a one-line message on stderr with exit
// code 2 (cli/main.cpp): a usage error (an option, a name, an answer file the user gave) and a
// malformed lesson file or a Python error in one of its cells ("FILE:LINE: what is wrong").
// Anything else thrown (std::runtime_error: a file that cannot be written, ...) is a failure,
// exit code 1. What it is not: the tensor engine's own error (core::TensorError, tensor.h) or
// the interpreter's (py::ScriptError, which the lesson runner turns into a LessonFileError).
#pragma once

#include <stdexcept>
#include <string>

namespace attn {

// Bad input from the user: exit code 2. message() is the whole text; what() stops at a NUL (a
// Python string in a cell's error may hold one), so main() prints message().
struct UsageError : std::runtime_error {
  explicit UsageError(const std::string& message) : std::runtime_error(message), message_(message) {}
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// A malformed lesson file, or a Python error in one of its cells: "lessons/causal.lesson:12:
// what is wrong". Exit code 2. message() as UsageError's.
struct LessonFileError : std::runtime_error {
  explicit LessonFileError(const std::string& message) : std::runtime_error(message), message_(message) {}
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

}  // namespace attn
