// cli/messages.h: how attn's messages reach a terminal: each one a single line with every
// control character made visible, and running out of memory named as such.
//
// What it is: the one escaping function every error (main.cpp) and every error verify reports
// on stdout goes through, so no message can move the cursor, change colours, clear the screen
// or span two lines, whatever a lesson file, a Python error or an argument put in it.
// What it is not: how a message is worded (each layer words its own), or the walkthrough's text,
// which is what the lesson's cells printed.
#pragma once

#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attn::cli {

// `text` with every control character written as Python's repr writes it: \n, \r, \t, and
// \x00..\x1f, \x7f, and the C1 controls U+0080..U+009F as \x80..\x9f; bytes that are not
// UTF-8 as \xNN; the bidirectional controls U+202A..202E and U+2066..2069 as \u202a.. (they
// reorder what a terminal shows). Other UTF-8 (Greek letters, box drawing) and backslashes stay.
//   one_line("a\x1b[2Jb\nc") == "a\\x1b[2Jb\\nc"
std::string one_line(std::string_view text);

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
