// tests/support/cases.h: the `.cases` runner shared by the test binaries that compare attn's Python
// with CPython's (tests/py/test_python.cpp, test_stdlib.cpp, tests/torch/test_python_torch.cpp).
//
// What it is: a FAMILY.cases file and its FAMILY.expected are made of `#### name` blocks; each case
// runs in a fresh interpreter (made by the caller) and must print exactly what CPython 3.11 (with
// torch 1.13 where the family uses it) printed, as tools/make_python_expected.py recorded it, a raised
// error included as the line `error: [FILE:]LINE: Kind: message`. What it is not: tied to one layer:
// the interpreter and its error type are template parameters, so this header includes no src/ file.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/files.h"

// [(name, text)] of a file made of `#### name` blocks (FAMILY.cases and FAMILY.expected alike).
inline std::vector<std::pair<std::string, std::string>> split_cases(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#### ", 0) == 0) out.emplace_back(line.substr(5), "");
    else if (!out.empty()) out.back().second += line + "\n";
  }
  return out;
}

// What `code` prints in the fresh interpreter `in`, then `error: ...` as the tool writes it if it
// raised Error (which has .file, .line and what()).
template <class Error, class Interp>
std::string output_of_case(Interp& in, const std::string& code) {
  std::string tail;
  try {
    in.run_cell(code);
  } catch (const Error& e) {
    std::string where = e.file.empty() ? std::to_string(e.line)
                                       : std::filesystem::path(e.file).filename().string() + ":" + std::to_string(e.line);
    tail = "error: " + where + ": " + e.what() + "\n";
  }
  return in.take_output() + tail;
}

// Every case of folder/FAMILY.cases, run by run_case(code) -> printed text, against FAMILY.expected.
template <class RunCase>
void check_cases(const std::string& folder, const std::string& family, RunCase run_case) {
  auto cases = split_cases(slurp(folder + "/" + family + ".cases"));
  auto expected = split_cases(slurp(folder + "/" + family + ".expected"));
  REQUIRE(!cases.empty());
  REQUIRE(cases.size() == expected.size());   // else: rerun tools/make_python_expected.py
  for (size_t k = 0; k < cases.size(); ++k) {
    INFO(family << ".cases: " << cases[k].first);
    REQUIRE(cases[k].first == expected[k].first);
    CHECK(run_case(cases[k].second) == expected[k].second);
  }
}
