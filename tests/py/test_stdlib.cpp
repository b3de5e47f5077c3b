// tests/py/test_stdlib.cpp: the standard library modules attn has (copy, functools, collections,
// itertools, ...) against CPython 3.11, in a py::Interpreter alone.
//
// What it is: every case of tests/python/stdlib_*.cases runs in a fresh Interpreter and must print
// exactly what CPython printed for it (stdlib_*.expected, by tools/make_python_expected.py), errors
// included as `error: LINE: Kind: message`. Errors raised inside a module are caught by the cases
// themselves and printed as `Kind: message`, since CPython's come from C or another file.
// What it is not: the other Python families (test_python.cpp), or copy.deepcopy of tensors and
// nn modules (tests/torch/deepcopy.py).
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "py/interpreter.h"
#include "support/files.h"

namespace {

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

std::vector<std::pair<std::string, std::string>> split_cases(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#### ", 0) == 0) out.emplace_back(line.substr(5), "");
    else if (!out.empty()) out.back().second += line + "\n";
  }
  return out;
}

std::string run_case(const std::string& code) {
  attn::py::Interpreter in;
  in.set_import_dir(kFolder);
  std::string tail;
  try {
    in.run_cell(code);
  } catch (const attn::py::ScriptError& e) {
    std::string where = e.file.empty() ? std::to_string(e.line) : std::filesystem::path(e.file).filename().string() + ":" + std::to_string(e.line);
    tail = "error: " + where + ": " + e.what() + "\n";
  }
  return in.take_output() + tail;
}

void check_family(const std::string& family) {
  auto cases = split_cases(slurp(kFolder + "/" + family + ".cases"));
  auto expected = split_cases(slurp(kFolder + "/" + family + ".expected"));
  REQUIRE(!cases.empty());
  REQUIRE(cases.size() == expected.size());   // else: rerun tools/make_python_expected.py
  for (size_t k = 0; k < cases.size(); ++k) {
    INFO(family << ".cases: " << cases[k].first);
    REQUIRE(cases[k].first == expected[k].first);
    CHECK(run_case(cases[k].second) == expected[k].second);
  }
}

}  // namespace

TEST_CASE("copy: copy, deepcopy (memo, cycles, __copy__, __deepcopy__), id") { check_family("stdlib_copy"); }
TEST_CASE("functools: partial, reduce, wraps, lru_cache, cache, cmp_to_key, total_ordering") { check_family("stdlib_functools"); }
TEST_CASE("collections: defaultdict, Counter, namedtuple, deque, OrderedDict") { check_family("stdlib_collections"); }
TEST_CASE("itertools: the lazy iterators") { check_family("stdlib_itertools"); }
TEST_CASE("typing, operator, string, time") { check_family("stdlib_more"); }
TEST_CASE("random: CPython's Mersenne Twister and its methods, seed for seed") { check_family("stdlib_random"); }
TEST_CASE("json: dumps and loads, text and errors as CPython") { check_family("stdlib_json"); }
TEST_CASE("math: every function of CPython 3.11's module") { check_family("stdlib_math"); }
TEST_CASE("warnings: filters, catch_warnings, warn on stderr") { check_family("stdlib_warnings"); }
TEST_CASE("dataclasses: field, __eq__, asdict, astuple, fields, replace, inheritance") { check_family("stdlib_dataclasses"); }
TEST_CASE("heapq and bisect") { check_family("stdlib_heapq"); }
