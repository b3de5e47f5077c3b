// tests/test_wrap.cpp: attn's own text fits the width (issue 10, item 6): print/wrap.h's line
// filling, the walkthrough at a narrow width and `attn list` piped (80 columns). Code and what a
// cell printed are never wrapped.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "lesson/catalog.h"
#include "lesson/prose.h"
#include "lesson/render.h"
#include "lesson/run.h"
#include "print/wrap.h"
#include "support/run_attn.h"

using attn::print::visible_width;
using attn::print::wrap_line;
using attn::print::wrap_prose;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("wrap_line: whole words, a hanging indent, a code span kept whole") {
  CHECK(wrap_line("Follows: 000 Understanding and Coding Self-Attention", 24, 9) ==
        "Follows: 000\n         Understanding\n         and Coding\n         Self-Attention");
  CHECK(wrap_line("run `attn lesson causal --seed 7` now", 20) == "run\n`attn lesson causal --seed 7`\nnow");   // wider than the line: alone, whole
  CHECK(wrap_line("a supercalifragilistic word", 10) == "a\nsupercalifragilistic\nword");
  CHECK(wrap_line("fits as it is", 13) == "fits as it is");
  CHECK(visible_width("ω·\x1b[48;5;54m  \x1b[0m") == 4);   // code points; escape sequences take no column
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

TEST_CASE("prose paragraphs holding a value placeholder are the ones refilled") {
  auto parts = attn::lesson::parse_prose("Intro {{const: 3}}\nline.\n\n\nSeed {{seed}} and\n{{x:.2f}}.\n\nNone.\n\n- {{y}}", "f", 1,
                                         attn::lesson::ProseWhere::step);
  CHECK(attn::lesson::paragraphs_with_values(parts) == std::vector<int>{1, 3});
}

TEST_CASE("the gradients walkthrough: no short line left where a value replaced its expression") {
  auto all = attn::lesson::load_catalog(std::string(ATTN_TEST_DATA) + "/../lessons");
  const attn::lesson::Lesson& l = attn::lesson::find_lesson(all, "gradients");
  attn::lesson::LessonRun run = attn::lesson::run_lesson(l, {});
  attn::lesson::DisplayOptions d;
  d.width = 100;
  std::string text = attn::lesson::render(run, "", 1, 1, d);
  // Before the refill these lines were broken where the placeholders' source text was long.
  CHECK(text.find("`W_value.grad` (0.4047 against\n") != std::string::npos);
  CHECK(text.find("1.0000 in this run, with a gradient of length 7.4e-06\n") != std::string::npos);
}

TEST_CASE("the walkthrough at 40 columns: only code and outputs are wider") {
  auto all = attn::lesson::load_catalog(std::string(ATTN_TEST_DATA) + "/../lessons");
  for (const char* name : {"causal", "dropout", "multihead"}) {
    CAPTURE(name);
    const attn::lesson::Lesson& l = attn::lesson::find_lesson(all, name);
    attn::lesson::LessonRun run = attn::lesson::run_lesson(l, {});
    attn::lesson::DisplayOptions d;
    d.width = 40;
    std::string text = attn::lesson::render(run, "", 1, 1, d);
    // What may be wider: a line of code (indented 4) or of a cell's output, exactly as it ran.
    std::string shown;
    for (const auto& s : run.steps)
      for (const auto& c : s.cells) shown += c.output + "\n" + c.code;
    for (const std::string& line : lines_of(text)) {
      if (visible_width(line) <= 40) continue;
      CAPTURE(line);
      CHECK((shown.find(line) != std::string::npos || (line.rfind("    ", 0) == 0 && shown.find(line.substr(4)) != std::string::npos)));
    }
    // The 80-column header lines are wrapped: "Follows:" continues under its first word.
    CHECK(text.find("\nFollows: ") != std::string::npos);
    CHECK(text.find("\n         ") != std::string::npos);
    // Nothing is lost: the prose reads the same with its line breaks taken out.
    auto flat = [](const std::string& s) {
      std::string out;
      std::istringstream in(s);
      for (std::string w; in >> w;) out += w + " ";
      return out;
    };
    for (const auto& s : run.steps) CHECK(flat(text).find(flat(s.prose)) != std::string::npos);
  }
}

TEST_CASE("attn list, piped, fits 80 columns; a lesson's header too") {
  CliResult list = attn_process("list");
  CHECK(list.code == 0);
  for (const std::string& line : lines_of(list.out)) {
    CAPTURE(line);
    CHECK(visible_width(line) <= 80);
  }
  CHECK(list.out.find("  scores         Queries, keys, values and the unnormalised scores ω\n"
                      "                 000 § Defining the Weight Matrices; Computing the Unnormalized\n"
                      "                 Attention Weights\n") != std::string::npos);
  CliResult lesson = attn_process("lesson causal --step masked");
  CHECK(lesson.out.find("(article) · attn lesson causal\n"
                         "Follows: 000 \"Understanding and Coding Self-Attention, Multi-Head Attention,\n"
                         "         Cross-Attention, and Causal-Attention in LLMs\", section \"Causal\n"
                         "         Self-Attention\"\n") != std::string::npos);
  for (const std::string& line : lines_of(lesson.out.substr(0, lesson.out.find("\nIn:\n")))) {
    CAPTURE(line);
    CHECK(visible_width(line) <= 80);
  }
}

TEST_CASE("in a terminal, the terminal's width: attn list and a lesson in 50 columns") {
  if (!std::filesystem::exists("/usr/bin/script")) {
    MESSAGE("util-linux `script` not found: terminal test skipped");
    return;
  }
  // `script` gives attn a pseudo-terminal; `stty cols 50` sets its width (TIOCGWINSZ).
  for (std::string args : {"list", "lesson causal --step masked"}) {
    CAPTURE(args);
    std::string file = std::filesystem::temp_directory_path() / ("attn-wrap-tty-" + std::to_string(getpid()));
    std::string cmd = "timeout 20 script -qec 'stty cols 50; NO_COLOR=1 " + std::string(ATTN_BINARY) + " " + args + "' /dev/null </dev/null >" + file;
    CHECK(std::system(cmd.c_str()) == 0);
    std::string out = slurp(file);
    std::filesystem::remove(file);
    out.erase(std::remove(out.begin(), out.end(), '\r'), out.end());   // the terminal's CR LF
    REQUIRE(out.find("causal") != std::string::npos);
    std::string before_code = out.substr(0, out.find("\nIn:\n"));   // header and prose; code and output follow
    for (const std::string& line : lines_of(before_code)) {
      CAPTURE(line);
      CHECK(visible_width(line) <= 50);
    }
  }
}
