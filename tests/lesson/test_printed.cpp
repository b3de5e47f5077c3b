// tests/lesson/test_printed.cpp: a printed value is what was printed, and it outlives the interpreter.
//
// A LessonRun keeps every value a cell printed (attn::torch::Printed, plain data) for --format
// json, export and grading; run_lesson's session is gone by the time they are read. Two things
// must hold:
//  - nothing a printed record refers to dies with the session (it holds text, numbers, copies);
//  - its JSON "value" shows the numbers its "text" shows, however deep the tensor sits in lists,
//    tuples and dicts and whatever the cell did to it after printing.
// The first would read freed memory; besides ASan, the JSON text itself shows it: the function's
// name is longer than std::string's inline buffer, so it lives in a heap block glibc's free()
// overwrites.
#include <doctest/doctest.h>

#include <string>

#include "torch/session.h"
#include "torch/values.h"
#include "lesson/json_run.h"
#include "lesson/lesson_file.h"
#include "lesson/run.h"
#include "py/interpreter.h"

namespace {

using namespace attn;

lesson::Lesson lesson_of(const std::string& code) {
  return lesson::parse_lesson("# Printed values\nname: printed\ngroup: concepts\norder: 1\nsource: test\n\n"
                              "## only: Only\n```python\n" + code + "```\n",
                              "printed.lesson");
}

const attn::torch::Printed& printed_value(const lesson::LessonRun& run, size_t k) {
  return run.steps.at(0).cells.at(0).printed.at(k);
}

}  // namespace

TEST_CASE("a function printed as a dict key: the record keeps its text and outlives the session") {
  const lesson::Lesson l = lesson_of(
      "def a_function_with_a_name_longer_than_sso(x):\n"
      "    return x * 2\n"
      "print({a_function_with_a_name_longer_than_sso: 1})\n");
  lesson::LessonRun run = lesson::run_lesson(l, {});   // its Interpreter is destroyed on return
  const lesson::Lesson next = lesson_of("def g(y):\n    return y\nprint({g: 2})\n");
  lesson::run_lesson(next, {});   // reuses the memory a freed tree would have left
  const attn::torch::Printed& p = printed_value(run, 0);
  CHECK(p.text == "{<function a_function_with_a_name_longer_than_sso>: 1}");
  CHECK(lesson::json::printed(p) ==
        "{\"name\": \"{a_function_with_a_name_longer_than_sso: 1}\", \"type\": \"dict\", "
        "\"value\": {\"<function a_function_with_a_name_longer_than_sso>\": 1}, "
        "\"text\": \"{<function a_function_with_a_name_longer_than_sso>: 1}\"}");

  // The record is plain data: the key is kept as its text, and nothing of the session is held.
  REQUIRE(p.value.kind == attn::torch::PlainValue::mapping);
  CHECK(p.value.keys.at(0) == "<function a_function_with_a_name_longer_than_sso>");
}

TEST_CASE("a printed value's JSON is what was printed, at any depth") {
  const lesson::Lesson l = lesson_of(
      "import torch\n"
      "x = torch.tensor([1.0, 2.0])\n"
      "xs = [x]\n"
      "d = {'t': (x, [x]), 'n': [1]}\n"
      "s = {x, 'a'}\n"
      "n = {10, 1, 2.5}\n"
      "print(xs, d, s, n)\n"
      "x.masked_fill_(x > 1.5, -7.0)\n"
      "xs.append(x)\n"
      "d['n'].append(2)\n"
      "d['new'] = 3\n"
      "print(x)\n");
  lesson::LessonRun run = lesson::run_lesson(l, {});
  const std::string xs = lesson::json::printed(printed_value(run, 0));
  CHECK(xs == "{\"name\": \"xs\", \"type\": \"list\", \"value\": [[1.0, 2.0]], \"text\": \"[tensor([1., 2.])]\"}");
  const std::string d = lesson::json::printed(printed_value(run, 1));
  CHECK(d == "{\"name\": \"d\", \"type\": \"dict\", \"value\": {\"t\": [[1.0, 2.0], [[1.0, 2.0]]], \"n\": [1]}, "
             "\"text\": \"{'t': (tensor([1., 2.]), [tensor([1., 2.])]), 'n': [1]}\"}");
  CHECK(lesson::json::value(printed_value(run, 2).value) == "[[1.0, 2.0], \"a\"]");   // a set: in the order printed
  CHECK(lesson::json::value(printed_value(run, 3).value) == "[1, 10, 2.5]");             // CPython's order for numbers
  // The later print shows the change: the snapshot is per print, not per tensor.
  CHECK(lesson::json::value(printed_value(run, 4).value) == "[1.0, -7.0]");
}

TEST_CASE("a printed module is its repr text; its JSON value is null") {
  const lesson::Lesson l = lesson_of(
      "import torch\n"
      "import torch.nn as nn\n"
      "torch.manual_seed(1)\n"
      "lin = nn.Linear(2, 1)\n"
      "print([lin])\n"
      "lin.weight = nn.Parameter(torch.zeros(1, 2))\n");
  lesson::LessonRun run = lesson::run_lesson(l, {});
  const attn::torch::Printed& p = printed_value(run, 0);
  CHECK(p.text == "[Linear(in_features=2, out_features=1, bias=True)]");
  CHECK(lesson::json::value(p.value) == "[null]");
}
