// print/wrap.h: attn's own text fitted to the terminal's width: prose reflowed into paragraphs,
// header lines wrapped with a hanging indent, never breaking inside a word.
//
// What it is: greedy line filling by display columns (escape sequences and combining marks take
// none, wide CJK characters two), for the walkthrough's prose, headers and notes and for `attn list`. A word
// wider than the line is put on a line of its own, whole; a `code span` counts as one word. What it is not: for code or for what
// a cell printed, which are shown exactly as they are (the code shown is the code run; the
// output is PyTorch's), nor terminal detection (cli/ decides the width).
#pragma once

#include <string>
#include <vector>

namespace attn::print {

// Columns a string takes in a terminal: East Asian wide and fullwidth characters (CJK, kana,
// Hangul, fullwidth forms, emoji) two, combining marks and zero-width characters none, others
// one; escape sequences (ESC [ ... final byte) none. A compact table, not all of Unicode's
// (column_width()): enough for tokens and prose, not a terminal emulator.
int visible_width(const std::string& s);
int column_width(char32_t c);
// The longest prefix of `s` at most `width` columns wide (a combining mark stays with its letter).
std::string truncate_to_width(const std::string& s, int width);

// attn's own decorations (rules, '·', '…', arrows, heatmap marks, check marks) under a locale
// whose character set is not UTF-8 (LANG=C): cli/ calls set_ascii_decorations(true) at start,
// then glyph("─", "-") is "-". Text that belongs to a lesson (its prose, code and outputs) is
// never changed.
void set_ascii_decorations(bool ascii);
bool ascii_decorations();
std::string glyph(const char* utf8, const char* ascii);

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
