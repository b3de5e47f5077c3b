// print/one_line.h: text made safe for a terminal: one line, every control character visible.
//
// What it is: the one escaping function every error (cli/main.cpp), every error verify reports on
// stdout and every value the run fills into a lesson's prose (lesson/run.cpp) goes through, so no
// message or prose can move the cursor, change colours, clear the screen, reorder the line or
// span two lines, whatever a lesson file, a Python error, a cell's value or an argument put in it.
// What it is not: how a message is worded (each layer words its own), or what the lesson's cells
// printed (shown as printed).
#pragma once

#include <string>
#include <string_view>

namespace attn::print {

// `text` with every control character written as Python's repr writes it: \n, \r, \t, and
// \x00..\x1f, \x7f, and the C1 controls U+0080..U+009F as \x80..\x9f; bytes that are not
// UTF-8 as \xNN; the bidirectional controls U+202A..202E and U+2066..2069 as \u202a.. (they
// reorder what a terminal shows). Other UTF-8 (Greek letters, box drawing) and backslashes stay.
//   one_line("a\x1b[2Jb\nc") == "a\\x1b[2Jb\\nc"
std::string one_line(std::string_view text);

}  // namespace attn::print
