// tests/py/test_interpreter.cpp: the Python subset lesson cells are written in behaves as Python does
// (each expected string is what python3 prints for the same code), in a py::Interpreter alone:
// comprehensions, sets, numbers, errors, keyword arguments, evaluation order. What it is not: torch
// in the interpreter (tests/torch/test_interpreter_torch.cpp).
#include <doctest/doctest.h>

#include <string>

#include "py/interpreter.h"

namespace {

std::string run(const std::string& code) {
  attn::py::Interpreter in;
  in.run_cell(code);
  return in.take_output();
}

std::string error_of(const std::string& code) {
  try {
    run(code);
  } catch (const attn::py::ScriptError& e) {
    return std::to_string(e.line) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("comprehensions, sorting and dicts follow Python") {
  CHECK(run("s = 'b a, b c'\nd = {w:i for i,w in enumerate(sorted(s.replace(',', '').split()))}\nprint(d)") ==
        "{'a': 0, 'b': 2, 'c': 3}\n");
  CHECK(run("print([x * x for x in range(4) if x != 2])") == "[0, 1, 9]\n");
  CHECK(run("print(sorted(['is', 'Life', 'eat']))") == "['Life', 'eat', 'is']\n");
  CHECK(run("print(1 < 2 < 3, 1 < 3 < 2, 2 == 2)") == "True False True\n");
  CHECK(run("x = [1]\nx.append(2)\nprint(len(x), x[-1], x[0:1], (1,), 2 ** 10, 7 // 2, -7 // 2, 1 / 4)") ==
        "2 2 [1] (1,) 1024 3 -4 0.25\n");
}

TEST_CASE("sets: literals, comprehensions, set(), in and len, printed in CPython 3.11's order") {
  // Expected strings: python3.11 printing the same code. Numbers come out in hash-table order:
  // colliding items (9, 17, 25, 33 share slot 1 of 8) move as the table grows, and a display of
  // 3+ constants is a frozenset constant rebuilt twice before it becomes the set.
  CHECK(run("print({10, 1}, {3, 1, 2}, {-1, -2, 5}, {1.5, 0.5, 2.0}, {True, 1, 1.0}, set(), {2**61, 2**61 - 1, 7})") ==
        "{1, 10} {1, 2, 3} {5, -1, -2} {0.5, 1.5, 2.0} {True} set() {2305843009213693951, 2305843009213693952, 7}\n");
  CHECK(run("print({100, 8, 16, 0, 33, 1, 2, 3, 4}, set([100, 8, 16, 0, 33, 1, 2, 3, 4]), {x for x in [100, 8, 16, 0, 33, 1, 2, 3, 4]})") ==
        "{0, 33, 2, 1, 100, 3, 4, 8, 16} {0, 33, 1, 2, 100, 3, 4, 8, 16} {0, 33, 1, 2, 100, 3, 4, 8, 16}\n");
  CHECK(run("print({9, 1, 17, 25, 33}, set({9, 1, 17, 25, 33}), set({9: 0, 1: 0, 17: 0, 25: 0, 33: 0}))") ==
        "{33, 1, 17, 9, 25} {33, 1, 17, 9, 25} {1, 17, 33, 9, 25}\n");
  CHECK(run("print({x * 7 for x in range(20)}, {float('inf'), -float('inf'), 1e300, 0.1, -0.0, 0.0})") ==
        "{0, 133, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112, 119, 126} {0.1, -0.0, inf, -inf, 1e+300}\n");
  CHECK(run("a = {10, 1}\nprint(len(a), 1 in a, 2 in a, 2 not in a, 1.0 in a, True in {1, 2}, sorted(a), list(set([3, 3, 2])))") ==
        "2 True False True True True [1, 10] [2, 3]\n");
  CHECK(run("a = {10, 1}\nprint({1, 2} == {2, 1}, {1, 2} == {1, 3}, not set(), isinstance(a, set), {(1, 2), (1, 2.0)}, len({'a', 'b', 'a'}))") ==
        "True False True True {(1, 2)} 2\n");
  CHECK(run("for x in {5, 3}:\n    print(x)\nprint({1, 2,}, {}, {1: 2})") == "3\n5\n{1, 2} {} {1: 2}\n");
  // Strings hash differently in every CPython process; attn keeps the order they were added in.
  CHECK(run("print({'b', 'a', 'b'}, {w for w in 'hello'})") == "{'b', 'a'} {'h', 'e', 'l', 'o'}\n");
  CHECK(error_of("print({[1], 2})") == "1: TypeError: unhashable type: 'list'");
  CHECK(error_of("print(len({1, {2: 3}}))") == "1: TypeError: unhashable type: 'dict'");
  CHECK(error_of("print({1, 2}[0])") == "1: TypeError: 'set' object is not subscriptable");
  CHECK(error_of("print({1: 2, 3})") == "1: SyntaxError: expected ':' near '}'");
  CHECK(error_of("print(set([1], [2]))") == "1: TypeError: set expected at most 1 argument, got 2");
  CHECK(error_of("print(set(1))") == "1: TypeError: 'int' object is not iterable");
}

TEST_CASE("numbers print as Python prints them") {
  CHECK(run("print(2**0.5, 50_000, 1e-05, 0.1 + 0.2, 3.0)") == "1.4142135623730951 50000 1e-05 0.30000000000000004 3.0\n");
  CHECK(run("n = 2360064\nprint(f'{n:,}', f'{3.14159:.2f}', '{} and {}'.format(1, 'x'))") == "2,360,064 3.14 1 and x\n");
}

TEST_CASE("Python errors carry the cell line and Python's wording") {
  CHECK(error_of("x = 1\nprint(y)") == "2: NameError: name 'y' is not defined");
  CHECK(error_of("x = 1\ny = (1,\n") == "2: SyntaxError: '(' was never closed");
  CHECK(error_of("x = 1 +\n") == "1: SyntaxError: invalid syntax near end of line");
  CHECK(error_of("import numpy") == "1: ModuleNotFoundError: No module named 'numpy' (attn runs lessons with torch and Python's standard library only; docs/coverage.md lists what it has)");
  CHECK(error_of("{}['k']") == "1: KeyError: 'k'");
}

TEST_CASE("keyword-only arguments of builtins are bound by name, and unknown ones raise") {
  CHECK(run("print(sorted([3, 1, 2], reverse=True), sorted(['bb', 'a'], key=len), '{a}-{0}'.format(1, a=2))") ==
        "[3, 2, 1] ['a', 'bb'] 2-1\n");
  CHECK(error_of("sorted([1], foo=1)") == "1: TypeError: 'foo' is an invalid keyword argument for sort()");
  CHECK(error_of("sorted([1], None)") == "1: TypeError: sorted expected 1 argument, got 2");
  CHECK(error_of("'{a}'.format(b=1)") == "1: KeyError: 'a'");
}

TEST_CASE("operands are evaluated left to right, as Python does") {
  // The order is visible through side effects, and autograd records nodes in this order
  // (which decides the order in which a tensor's gradients are added).
  CHECK(run("def f(x):\n    print(x)\n    return x\ny = f(1) + f(2)\nz = [0]\nz[0] += f(3) * f(4)\n") == "1\n2\n3\n4\n");
}
