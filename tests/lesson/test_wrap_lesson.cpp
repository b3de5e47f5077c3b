// tests/lesson/test_wrap_lesson.cpp: a lesson's walkthrough fits the width (issue 10, item 6): the
// prose paragraphs whose placeholders were filled are refilled, and at 40 columns only code and
// what a cell printed are wider. What it is not: the line filling itself (tests/print/test_wrap.cpp)
// or the real binary's output (tests/cli/test_wrap_cli.cpp).
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "lesson/catalog.h"
#include "lesson/prose.h"
#include "lesson/render.h"
#include "lesson/run.h"
#include "print/wrap.h"

using attn::print::visible_width;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

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
      if (l.header.url && line == "        " + *l.header.url) continue;   // an address is never broken
      CAPTURE(line);
      CHECK((shown.find(line) != std::string::npos || (line.rfind("    ", 0) == 0 && shown.find(line.substr(4)) != std::string::npos)));
    }
    // The 80-column header lines are wrapped: "Source:" continues under its first word.
    CHECK(text.find("\nSource: ") != std::string::npos);
    size_t source = text.find("\nSource: "), next = text.find('\n', source + 1);
    CHECK(text.compare(next + 1, 8, "        ") == 0);
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
