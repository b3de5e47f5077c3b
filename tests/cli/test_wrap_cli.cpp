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

// A source's address, on a line of its own: never broken, whatever the width.
bool is_address_line(const std::string& line) {
  size_t first = line.find_first_not_of(' ');
  return first != std::string::npos && line.compare(first, 8, "https://") == 0 && line.find(' ', first) == std::string::npos;
}

}  // namespace

TEST_CASE("attn list, piped, fits 80 columns; a lesson's header too") {
  CliResult list = attn_process("list");
  CHECK(list.code == 0);
  for (const std::string& line : lines_of(list.out)) {
    CAPTURE(line);
    CHECK((visible_width(line) <= 80 || is_address_line(line)));
  }
  // Each source once, with its author and its address on a line of its own, never broken.
  CHECK(list.out.find("\nSources:\n"
                      "  [1] Sebastian Raschka, \"Understanding and Coding Self-Attention, Multi-Head\n"
                      "      Attention, Cross-Attention, and Causal-Attention in LLMs\"\n"
                      "      https://magazine.sebastianraschka.com/p/understanding-and-coding-self-attention\n"
                      "  [2] Sebastian Raschka, \"Build a Large Language Model (From Scratch), chapter 3\n"
                      "      notebook (Manning)\"\n"
                      "      https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/01_main-chapter-code/ch03.ipynb\n"
                      "  [3] \"Attention Mechanism in LLM\" (author not known)\n"
                      // update and gqa link two sections of one page: the page, once
                      "  [4] Tao Xu, \"The Self-Attention Mechanism\"\n"
                      "      https://xta0.me/2024/07/12/GenAI-LLM-Self-Attention.html\n"
                      "  [5] MLV Prasad, \"Multi-Headed Attention in Transformers from Scratch\"\n\n") != std::string::npos);
  CHECK(list.out.find("[6]") == std::string::npos);
  CHECK(list.out.find("  scores         Queries, keys, values and the unnormalised scores ω\n"
                      "                 [1] § Defining the Weight Matrices; Computing the Unnormalized\n"
                      "                 Attention Weights\n") != std::string::npos);
  CliResult lesson = attn_process("lesson causal --step masked");
  CHECK(lesson.out.find("(article) · attn lesson causal\n"
                         "Source: Sebastian Raschka, \"Understanding and Coding Self-Attention, Multi-Head\n"
                         "        Attention, Cross-Attention, and Causal-Attention in LLMs\"\n"
                         "        https://magazine.sebastianraschka.com/p/understanding-and-coding-self-attention\n\n") !=
        std::string::npos);
  for (const std::string& line : lines_of(lesson.out.substr(0, lesson.out.find("\nIn:\n")))) {
    CAPTURE(line);
    CHECK((visible_width(line) <= 80 || is_address_line(line)));
  }
  // A section that fits in the three lines is shown with the source.
  CHECK(attn_process("lesson masking --step setup").out.find(
            "Source: Sebastian Raschka, \"Build a Large Language Model (From Scratch), chapter\n"
            "        3 notebook (Manning)\", section \"3.5.1 Applying a causal attention mask\"\n"
            "        https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/01_main-chapter-code/ch03.ipynb\n\n") != std::string::npos);
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
      CHECK((visible_width(line) <= 50 || is_address_line(line)));
    }
  }
}

// At 200 columns the rules end where the prose does, at 80: one width for attn's own text.
TEST_CASE("in a 200-column terminal, a step's rule is 80 columns, as wide as the prose") {
  if (!std::filesystem::exists("/usr/bin/script")) {
    MESSAGE("util-linux `script` not found: terminal test skipped");
    return;
  }
  std::string file = std::filesystem::temp_directory_path() / ("attn-wide-tty-" + std::to_string(getpid()));
  std::string cmd = "timeout 20 script -qec 'stty cols 200; NO_COLOR=1 " + std::string(ATTN_BINARY) + " lesson causal --step masked' /dev/null </dev/null >" + file;
  CHECK(std::system(cmd.c_str()) == 0);
  std::string out = slurp(file);
  std::filesystem::remove(file);
  out.erase(std::remove(out.begin(), out.end(), '\r'), out.end());
  CHECK(out.find("\n── 5/8 masked: Zeroing the future weights ──────────────────────────────────────\n") != std::string::npos);
  for (const std::string& line : lines_of(out.substr(0, out.find("\nIn:\n")))) {
    CAPTURE(line);
    CHECK((visible_width(line) <= 80 || is_address_line(line)));
  }
}
