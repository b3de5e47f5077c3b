// tests/lesson/test_notebook_echo.cpp: a lesson with `echo: last-expression` shows each cell's
// last expression as Jupyter does, and a cell ending with `;` shows nothing: no text, no printed
// record (so --format json, export and grading see nothing either).
//
// The rule token by token in a py::Interpreter too. What it is not: the rule through the real binary
// against what Python printed under the same rule (tests/python/py-notebook.lesson, by
// tests/cli/test_python_cli.cpp's `attn verify`).
#include <doctest/doctest.h>

#include <string>

#include "lesson/lesson_file.h"
#include "lesson/run.h"
#include "py/interpreter.h"

namespace {

using namespace attn;

lesson::Lesson notebook(const std::string& cells) {
  return lesson::parse_lesson("# Echo\nname: echo\ngroup: concepts\norder: 1\necho: last-expression\nsource: test\n\n"
                              "## only: Only\n" + cells, "echo.lesson");
}

std::string echoed(const std::string& code) {
  py::Interpreter in;
  in.run_cell("sizes = [3, 4]");
  in.run_cell(code, true);
  return in.take_output();
}

}  // namespace

TEST_CASE("echo: last-expression shows a cell's last value unless the cell ends with ;") {
  const lesson::Lesson l = notebook(
      "```python\nimport torch\nimport torch.nn as nn\nx = torch.ones(2)\nx\n```\n"
      "```python\nx;\n```\n"
      "```python\nnn.Linear(2, 3);  # a model's repr, hidden\n```\n"
      "```python\nnn.Linear(2, 3)\n```\n");
  const lesson::LessonRun run = lesson::run_lesson(l, {});
  const auto& cells = run.steps.at(0).cells;
  REQUIRE(cells.size() == 4);
  CHECK(cells[0].output == "tensor([1., 1.])\n");
  CHECK(cells[0].printed.size() == 1);
  CHECK(cells[1].output.empty());
  CHECK(cells[1].printed.empty());
  CHECK(cells[2].output.empty());
  CHECK(cells[2].printed.empty());
  CHECK(cells[3].output == "Linear(in_features=2, out_features=3, bias=True)\n");
}

TEST_CASE("a cell ending with ; displays nothing (Jupyter's rule); only the last token counts") {
  CHECK(echoed("sizes") == "[3, 4]\n");
  CHECK(echoed("sizes;") == "");
  CHECK(echoed("sizes;  # quiet\n# a last comment\n") == "");
  CHECK(echoed("sizes  # a comment;") == "[3, 4]\n");
  CHECK(echoed("sizes; len(sizes)") == "2\n");
  CHECK(echoed("if True:\n    sizes;\nsizes") == "[3, 4]\n");
  CHECK(echoed("print('printed');") == "printed\n");
  CHECK(echoed("';'") == "';'\n");   // a string holding ; is not the token
}
