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
#include "support/cases.h"
#include "support/files.h"

namespace {

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

std::string run_case(const std::string& code) {
  attn::py::Interpreter in;
  in.set_import_dir(kFolder);
  in.set_main_file("<case>");   // as tools/make_python_expected.py compiles a case: warnings name it
  return output_of_case<attn::py::ScriptError>(in, code);
}

void check_family(const std::string& family) { check_cases(kFolder, family, run_case); }

}  // namespace

TEST_CASE("copy: copy, deepcopy (memo, cycles, __copy__, __deepcopy__), id") { check_family("stdlib_copy"); }
TEST_CASE("functools: partial, reduce, wraps, lru_cache, cache, cmp_to_key, total_ordering") { check_family("stdlib_functools"); }
TEST_CASE("collections: defaultdict, Counter, namedtuple, deque, OrderedDict") { check_family("stdlib_collections"); }
TEST_CASE("itertools: the lazy iterators") { check_family("stdlib_itertools"); }
TEST_CASE("typing, operator, string, time") { check_family("stdlib_more"); }
TEST_CASE("random: CPython's Mersenne Twister and its methods, seed for seed") { check_family("stdlib_random"); }
TEST_CASE("json: dumps and loads, text and errors as CPython") { check_family("stdlib_json"); }
TEST_CASE("pickle: CPython's bytes for protocols 0-5, round trips, BytesIO") { check_family("stdlib_pickle"); }
TEST_CASE("math: every function of CPython 3.11's module") { check_family("stdlib_math"); }
TEST_CASE("warnings: filters, actions per line, stacklevel, the file and line of a warning") { check_family("stdlib_warnings"); }
TEST_CASE("dataclasses: field, __eq__, asdict, astuple, fields, replace, inheritance") { check_family("stdlib_dataclasses"); }
TEST_CASE("heapq and bisect") { check_family("stdlib_heapq"); }
TEST_CASE("unicodedata: normalize, category and the rest, with CPython's errors") { check_family("stdlib_unicodedata"); }
TEST_CASE("os, os.path, sys and ast: what tutorials read from them; module attributes set and deleted") { check_family("stdlib_os"); }
TEST_CASE("argparse: a training script's parser, defaults, lists, positionals, nargs, choices, errors (SystemExit 2)") { check_family("stdlib_argparse"); }
