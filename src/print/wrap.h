// print/wrap.h: attn's own text fitted to the terminal's width: prose reflowed into paragraphs,
// header lines wrapped with a hanging indent, never breaking inside a word.
//
// What it is: greedy line filling by code points (UTF-8 continuation bytes and escape sequences
// take no column), for the walkthrough's prose, headers and notes and for `attn list`. A word
// wider than the line is put on a line of its own, whole; a `code span` counts as one word. What it is not: for code or for what
// a cell printed, which are shown exactly as they are (the code shown is the code run; the
// output is PyTorch's), nor terminal detection (cli/ decides the width).
#pragma once

#include <string>
#include <vector>

namespace attn::print {

// Columns a string takes: code points, escape sequences (ESC [ ... final byte) not counted.
int visible_width(const std::string& s);

// One logical line wrapped to `width` columns. The first line starts at column 0; every further
// line is indented by `indent` spaces (a hanging indent: "Follows: " then its continuation under
// the first word after it). Returns the lines joined by '\n', with no trailing newline.
std::string wrap_line(const std::string& line, int width, int indent = 0);

// Prose fitted to `width` columns. Paragraphs are separated by blank lines (kept as one blank
// line). A paragraph (or list item) whose lines all fit is kept as its author broke it; one with
// a line wider than `width` has its lines joined and filled again. A line starting with "- " starts a
// list item, whose continuation lines are indented by 2; an indented line inside a list item
// continues it. An indented line outside a list item is preformatted: kept as it is.
std::string wrap_prose(const std::string& text, int width);

// The same, except that the paragraphs numbered in `refill` (0 = the first run of non-blank lines)
// are filled again even when their lines fit, to at most `measure` columns (the width lessons'
// prose is written to): their author broke the lines around text that has since been replaced by
// something of another length, a prose placeholder by its value (lesson/prose.h).
std::string wrap_prose(const std::string& text, int width, const std::vector<int>& refill, int measure = 80);

}  // namespace attn::print
