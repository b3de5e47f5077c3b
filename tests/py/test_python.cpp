// tests/py/test_python.cpp: attn's Python against CPython, construct family by construct family, in
// a py::Interpreter alone.
//
// What it is: every case of tests/python/FAMILY.cases (the families that use no torch) runs in a
// fresh Interpreter (imports read .py files from tests/python/) and must print exactly what CPython
// 3.11 printed for the same code, kept in FAMILY.expected by tools/make_python_expected.py, errors
// included as the line `error: [FILE:]LINE: Kind: message`. Then what attn refuses, word for word,
// and the limits on imports. What it is not: the families that use torch
// (tests/torch/test_python_torch.cpp), the test lessons through the real binary
// (tests/cli/test_python_cli.cpp), or a test of torch numerics (tests/lesson/test_golden.cpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "py/interpreter.h"
#include "support/cases.h"
#include "support/files.h"

namespace {

namespace fs = std::filesystem;
using Interpreter = attn::py::Interpreter;
using attn::py::ScriptError;

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

// What a case prints in a fresh Interpreter (imports from tests/python/).
std::string run_case(const std::string& code) {
  Interpreter in;
  in.set_import_dir(kFolder);
  return output_of_case<ScriptError>(in, code);
}

void check_family(const std::string& family) { check_cases(kFolder, family, run_case); }

std::string error_of(const std::string& code) {
  Interpreter in;
  in.set_import_dir(kFolder);
  try {
    in.run_cell(code);
  } catch (const ScriptError& e) {
    return std::to_string(e.line) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("control flow: while, break, continue, loop else, del, pass") { check_family("control_flow"); }
TEST_CASE("functions: *args, **kwargs, keyword-only, lambda, closures, decorators") { check_family("functions"); }
TEST_CASE("builtins") { check_family("builtins"); }
TEST_CASE("format: zero padding with ',' and '_' grouping, every width, int and float types") { check_family("format_grouping"); }
TEST_CASE("classes deriving from list, tuple, dict and set; type(name, bases, dict)") { check_family("builtin_subclass"); }
TEST_CASE("frozenset") { check_family("frozenset"); }
TEST_CASE("assignment expressions (:=)") { check_family("walrus"); }
TEST_CASE("ranges: slicing, equality, hash, index and count") { check_family("ranges"); }
TEST_CASE("descriptors (__get__, __set__, __set_name__), super() and object() reprs") { check_family("descriptors"); }
TEST_CASE("bytes and bytearray: literals, constructors, methods, codecs, int.to_bytes") { check_family("bytes"); }
TEST_CASE("the cycle collector: cycles through classes, bound methods and generators (closed first)") { check_family("gc_cycles"); }
TEST_CASE("containers changed by the Python they call (__eq__, __hash__, __index__, keys()) mid-operation") { check_family("mutation"); }
TEST_CASE("a hostile review's findings: identity, ascii(), f-string fields, sum(), number attributes, class-body scopes") { check_family("review_findings"); }
TEST_CASE("built-in types' dunders by name: hasattr, bound and through the class, the operator's code") { check_family("dunders"); }
TEST_CASE("match statements: every pattern kind, guards, soft keywords, CPython's SyntaxErrors") { check_family("match"); }
TEST_CASE("class creation: class keywords, __init_subclass__, __set_name__ order, metaclass=type") { check_family("class_creation"); }
TEST_CASE("review 30: reversed() of a sequence class, math.log of huge ints, parenthesized with items, __context__ chaining, "
          "scope SyntaxErrors") { check_family("review30"); }

TEST_CASE("constructs outside the subset: one line naming the construct, at its line, before anything runs") {
  CHECK(error_of("async def f():\n    pass") == "1: SyntaxError: attn does not support 'async' (coroutines)");
  // an error raised in attn's own Python stdlib names the lesson's line, never "<collections.py>"
  CHECK(error_of("from collections import namedtuple\n\nnamedtuple('P', '1x')") ==
        "3: ValueError: Type names and field names must be valid identifiers: '1x'");
  CHECK(error_of("import random\ndef pick(xs):\n    return random.choice(xs)\npick([])") == "3: IndexError: Cannot choose from an empty sequence");
  CHECK(error_of("import _attn_stdlib") == "1: ModuleNotFoundError: No module named '_attn_stdlib'");
  CHECK(error_of("x = 1\nfrom _re import compile") == "2: ModuleNotFoundError: No module named '_re'");
  // CPython's C modules that attn has not (its own halves of json, random, re, collections are
  // _attn_*): CPython's ModuleNotFoundError, never a module that is not CPython's (issue 20)
  CHECK(error_of("import _json") == "1: ModuleNotFoundError: No module named '_json'");
  CHECK(error_of("import _random") == "1: ModuleNotFoundError: No module named '_random'");
  CHECK(error_of("from _collections import deque") == "1: ModuleNotFoundError: No module named '_collections'");
  CHECK(error_of("import json\nimport _attn_json") == "2: ModuleNotFoundError: No module named '_attn_json'");
  CHECK(error_of("import random\nfrom _attn_random import MT") == "2: ModuleNotFoundError: No module named '_attn_random'");
  CHECK(error_of("try:\n    pass\nexcept* ValueError:\n    pass") == "3: SyntaxError: attn does not support 'except*' (exception groups)");
  CHECK(error_of("class M(type):\n    pass\nclass A(metaclass=M):\n    pass") == "3: NotImplementedError: attn does not support metaclasses (metaclass=<class '__main__.M'>)");
  CHECK(error_of("x = b'caf\xc3\xa9'") == "1: SyntaxError: bytes can only contain ASCII literal characters");
  CHECK(error_of("x = b'a' 'b'") == "1: SyntaxError: cannot mix bytes and nonbytes literals");
  CHECK(error_of("x = b'\\x4'") == "1: SyntaxError: (value error) invalid \\x escape at position 0");
  // break/continue are statements, never a name that is "not defined"
  CHECK(error_of("print(1)\nbreak") == "2: SyntaxError: 'break' outside loop");
  CHECK(error_of("def f():\n    continue") == "2: SyntaxError: 'continue' not properly in loop");
  // An augmented assignment's target is a name, attribute or item: the rest named as CPython 3.11 does.
  CHECK(error_of("x = [1]\nx.t() *= 0.5") == "2: SyntaxError: 'function call' is an illegal expression for augmented assignment");
  CHECK(error_of("(a, b) += 1") == "1: SyntaxError: 'tuple' is an illegal expression for augmented assignment");
  CHECK(error_of("{x for x in y} += 1") == "1: SyntaxError: 'set comprehension' is an illegal expression for augmented assignment");
  CHECK(error_of("None -= 1") == "1: SyntaxError: 'None' is an illegal expression for augmented assignment");
  CHECK(error_of("a = [1]\n(a) += [2]\na[0] += 1\na.x = 1") == "4: AttributeError: 'list' object has no attribute 'x'");
}

TEST_CASE("import of a sibling file: never outside the lesson's folder, a missing one named, cycles end") {
  CHECK(error_of("import no_such_helper") == "1: ModuleNotFoundError: No module named 'no_such_helper'");
  CHECK(error_of("import numpy as np") == "1: ModuleNotFoundError: No module named 'numpy' (attn runs lessons with torch and Python's standard library only; docs/coverage.md lists what it has)");
  CHECK(error_of("import sqlite3").rfind("1: ModuleNotFoundError: No module named 'sqlite3' (attn's Python has these standard "
                                       "library modules: argparse, ast, bisect, collections, copy,", 0) == 0);
  // A dotted name is a package folder's module (tests/py/test_packages.cpp): ../x and /abs cannot be spelled.
  CHECK(error_of("import python.helper_module") == "1: ModuleNotFoundError: No module named 'python'");
  CHECK(error_of("from .. import helper_module") == "1: ImportError: attempted relative import with no known parent package");
  // Two files that import each other: each runs once, the second sees the first half-made, as in Python.
  fs::path dir = fs::temp_directory_path() / ("attn-import-cycle-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "ping.py") << "import pong\nPING = 1\n";
  std::ofstream(dir / "pong.py") << "import ping\nPONG = 2\nprint('pong sees ping', hasattr(ping, 'PING'))\n";
  Interpreter in;
  in.set_import_dir(dir.string());
  in.run_cell("import ping\nimport pong\nprint(ping.PING, pong.PONG)");
  CHECK(in.take_output() == "pong sees ping False\n1 2\n");
  // A link in the folder that leads out of it is not read.
  fs::create_directories(dir / "inner");
  fs::create_symlink(dir / "ping.py", dir / "inner" / "outside.py");
  Interpreter linked;
  linked.set_import_dir((dir / "inner").string());
  try {
    linked.run_cell("import outside");
    FAIL("a link out of the folder was imported");
  } catch (const ScriptError& e) {
    CHECK(std::string(e.what()) == "ImportError: attn imports .py files from the lesson's folder only, and " + (dir / "inner" / "outside.py").string() + " leads out of it");
  }
  fs::remove_all(dir);
}

TEST_CASE("a Python builtin or method attn lacks is named, never reported as the user's typo") {
  CHECK(error_of("f = open('x.txt')") == "1: NameError: attn does not support the Python builtin 'open' (docs/lesson-authors.md: What attn's Python supports)");
  CHECK(error_of("print(dir())") == "1: NameError: attn does not support the Python builtin 'dir' (docs/lesson-authors.md: What attn's Python supports)");
  // source text that is not UTF-8 stops at the lexer, as CPython's compile(b"s = '\xe9x'") does
  CHECK(error_of("s = '\xe9x'") == "1: SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0xe9 in position 0: invalid continuation byte");
  CHECK(error_of("[].push(1)") == "1: AttributeError: 'list' object has no attribute 'push'");
  CHECK(error_of("print(undefined_name)") == "1: NameError: name 'undefined_name' is not defined");
}

TEST_CASE("attn's limits pass through try/except/finally and with: a runaway while loop ends the run") {
  // No except clause (not even BaseException's), no finally and no __exit__ sees a limit: the
  // cell is over. (The step limit takes a few seconds to reach.)
  Interpreter in;
  const std::string code =
      "class M:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        print('exit')\n        return True\n"
      "try:\n    with M():\n        while True:\n            pass\nexcept BaseException:\n    print('caught')\nfinally:\n    print('finally')\n";
  bool limited = false;
  try {
    in.run_cell(code);
  } catch (const attn::py::LimitError& e) {
    limited = true;
    CHECK((e.line == 9 || e.line == 10));   // the loop's line or its body's
  }
  CHECK(limited);
  CHECK(in.take_output() == "");
}

TEST_CASE("os and os.path: what would touch files or processes raises PermissionError naming itself") {
  CHECK(error_of("import os\nos.makedirs('out', exist_ok=True)") ==
        "2: PermissionError: attn runs lesson code without access to files or processes: os.makedirs is not available");
  CHECK(error_of("from os.path import exists\nexists('x')") ==
        "2: PermissionError: attn runs lesson code without file access: os.path.exists is not available");
  CHECK(error_of("import os\nos.path.expanduser('~')") ==
        "2: PermissionError: attn runs lesson code without file access: os.path.expanduser is not available");
  CHECK(error_of("import os\nprint(os.environ, os.getenv('HOME'))") == "");   // no environment: {} None
  CHECK(error_of("import sys\nsys.exit(2)") == "2: SystemExit: 2");
}

TEST_CASE("io.open and tempfile: a name without a folder; what would make a file raises PermissionError naming itself") {
  CHECK(error_of("from io import open\nopen('x.txt')") ==
        "2: PermissionError: attn runs lesson code without file access: io.open is not available");
  CHECK(error_of("import tempfile\ntempfile.mkdtemp()") ==
        "2: PermissionError: attn runs lesson code without file access: tempfile.mkdtemp is not available");
  CHECK(error_of("from tempfile import TemporaryDirectory\nwith TemporaryDirectory() as d:\n    assert d == '/tmp/attn-tmp1', d\n"
                 "assert TemporaryDirectory(prefix='run').name == '/tmp/run2'") == "");
}

TEST_CASE("hash() of str, bytes and tuples of them is CPython's under PYTHONHASHSEED=0 (tools/make_hash_vectors.py)") {
  std::ifstream in(std::string(ATTN_TEST_DATA) + "/vectors/hash_seed0.txt");
  REQUIRE(in.good());
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    CAPTURE(line);
    CHECK(run_case("print(hash(" + line.substr(0, tab) + "))") == line.substr(tab + 1) + "\n");
    ++checked;
  }
  CHECK(checked > 20);
}
