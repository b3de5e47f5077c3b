// tests/cli/test_wrap_cli.cpp: the real binary's text fits the width (issue 10, item 6): `attn list`
// and a lesson's header piped (80 columns) and in a 50-column terminal. Code and what a cell printed
// are never wrapped. What it is not: the line filling (tests/print/test_wrap.cpp) or the walkthrough
// in the lesson layer (tests/lesson/test_wrap_lesson.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "print/wrap.h"
#include "support/run_attn.h"

using attn::print::visible_width;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

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
