// tests/print/test_wrap.cpp: attn's own text fits the width (issue 10, item 6): print/wrap.h's line
// filling (whole words, hanging indents, code spans kept whole) and prose paragraphs filled again.
// What it is not: a lesson's walkthrough at a width (tests/lesson/test_wrap_lesson.cpp) or the real
// binary's output (tests/cli/test_wrap_cli.cpp).
#include <doctest/doctest.h>

#include <string>

#include "print/wrap.h"

using attn::print::visible_width;
using attn::print::wrap_line;
using attn::print::wrap_prose;

TEST_CASE("wrap_line: whole words, a hanging indent, a code span kept whole") {
  CHECK(wrap_line("Follows: 000 Understanding and Coding Self-Attention", 24, 9) ==
        "Follows: 000\n         Understanding\n         and Coding\n         Self-Attention");
  CHECK(wrap_line("run `attn lesson causal --seed 7` now", 20) == "run\n`attn lesson causal --seed 7`\nnow");   // wider than the line: alone, whole
  CHECK(wrap_line("a supercalifragilistic word", 10) == "a\nsupercalifragilistic\nword");
  CHECK(wrap_line("fits as it is", 13) == "fits as it is");
  CHECK(visible_width("ω·\x1b[48;5;54m  \x1b[0m") == 4);   // display columns; escape sequences take no column
}

// Display columns (issue 19, item 9): a CJK character two, a combining mark none.
TEST_CASE("visible_width and truncate_to_width count display columns") {
  using attn::print::truncate_to_width;
  CHECK(visible_width("生命") == 4);
  CHECK(visible_width("cafe\u0301") == 4);       // e + combining acute
  CHECK(visible_width("한국어 ｗ") == 9);           // Hangul and a fullwidth letter
  CHECK(visible_width("a\u200Bb") == 2);          // a zero-width space
  CHECK(visible_width("\xff\xfe") == 2);          // stray bytes: one column each, never a crash
  CHECK(visible_width("\xe7\x94") == 1);          // a cut sequence: one column
  CHECK(truncate_to_width("生命短暂", 5) == "生命");   // a wide character never split
  CHECK(truncate_to_width("cafe\u0301s", 4) == "cafe\u0301");   // the mark stays with its letter
  CHECK(truncate_to_width("abc", 0).empty());
  CHECK(truncate_to_width("abc", 9) == "abc");
}

TEST_CASE("glyph: attn's decorations, ASCII once set_ascii_decorations(true)") {
  using attn::print::glyph;
  CHECK(glyph("─", "-") == "─");
  attn::print::set_ascii_decorations(true);
  CHECK(glyph("─", "-") == "-");
  attn::print::set_ascii_decorations(false);
  CHECK(glyph("·", "x") == "·");
}

TEST_CASE("wrap_prose: a paragraph that fits keeps its breaks; one that does not is filled again") {
  std::string prose = "Short lines\nstay as written.\n\nThis paragraph has a line that is far too long for the width\nand is filled.\n\n"
                      "- a list item that goes on and on\n  and on\n\n    preformatted line, kept as it is even if long";
  CHECK(wrap_prose(prose, 30) ==
        "Short lines\nstay as written.\n\n"
        "This paragraph has a line that\nis far too long for the width\nand is filled.\n\n"
        "- a list item that goes on and\n  on and on\n\n"
        "    preformatted line, kept as it is even if long");
  CHECK(wrap_prose(prose, 200) == prose);
}

TEST_CASE("wrap_prose: a paragraph whose placeholders were filled is filled again, to the prose measure") {
  // The author broke the lines around "{{attn_weights[1, 0]:.4f}}"; its value is 6 characters.
  std::string filled = "Kept as\nwritten.\n\nRow 1 keeps\n0.1772\nof its weight and\nthe rest goes elsewhere.\n\n- an item with\n  0.5 in it";
  CHECK(wrap_prose(filled, 100, {1, 2}, 30) ==
        "Kept as\nwritten.\n\nRow 1 keeps 0.1772 of its\nweight and the rest goes\nelsewhere.\n\n- an item with 0.5 in it");
  CHECK(wrap_prose(filled, 20, {1}, 30) ==   // a narrower terminal still wins
        "Kept as\nwritten.\n\nRow 1 keeps 0.1772\nof its weight and\nthe rest goes\nelsewhere.\n\n- an item with\n  0.5 in it");
  CHECK(wrap_prose(filled, 100, {}, 30) == filled);   // without refill, lines that fit stay as written
}
