// tests/lab/test_exercise.cpp: the parts of lab/exercise.h the command-line tests reach only
// through whole files: which variable a step's exercise asks for (on lessons run in the test
// process and on small lessons written here), shell quoting and splitting, and reading an
// exercise header back, hostile ones included. The real binary is in tests/cli/test_exercise_cli.cpp.
#include <doctest/doctest.h>

#include "lab/exercise.h"
#include "lesson/lesson_file.h"
#include "support/grade_helpers.h"

using namespace grade_helpers;

namespace {

// The exercise variable of the only step of a lesson whose step holds `code`.
std::optional<std::string> variable_of(const std::string& code) {
  static std::vector<std::unique_ptr<lesson::Lesson>> kept;   // the runs point into their lessons
  kept.push_back(std::make_unique<lesson::Lesson>(
      lesson::parse_lesson("# T\nname: t\ngroup: concepts\norder: 1\nsource: s\n\nIntro.\n\n## only: Only\nProse.\n\n```python\n" + code + "```\n", "t.lesson")));
  lesson::LessonRun run = lesson::run_lesson(*kept.back(), {});
  return lab::exercise_variable(run.steps.at(0));
}

}  // namespace

TEST_CASE("exercise_variable: a plain name the step assigns and prints as a float tensor") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  CHECK(lab::exercise_variable(run.steps.at(0)) == std::nullopt);   // setup prints nothing
  CHECK(lab::exercise_variable(run.steps.at(1)) == "attn_scores");  // not attn_scores.shape
  CHECK(lab::require_exercise(run, "renorm") == "masked_simple_norm");
  CHECK(variable_of("import torch\nx = torch.ones(2)\nprint(x)\n") == "x");
  CHECK(variable_of("import torch\nx = torch.ones(2)\nprint(x * 2)\n") == std::nullopt);        // an expression
  CHECK(variable_of("import torch\nx = torch.arange(3)\nprint(x)\n") == std::nullopt);          // not float
  CHECK(variable_of("import torch\nx = 2.5\nprint(x)\n") == std::nullopt);                     // a number
  CHECK(variable_of("import torch\nfor i in range(2):\n    y = torch.ones(2)\nprint(y)\n") == std::nullopt);   // never assigned at top level
  CHECK(variable_of("import torch\nx = torch.ones(2)\ny = torch.zeros(2)\nprint(x)\nprint(y)\n") == "y");
  CHECK(variable_of("import torch\nx = torch.ones(2)\nprint(x)\nz = torch.ones(1, dtype=torch.long)\nprint(z)\n") == "x");
}

TEST_CASE("shell_quote and shell_words: the header's commands, back and forth") {
  CHECK(lab::shell_quote("7") == "7");
  CHECK(lab::shell_quote("ex.py") == "ex.py");
  CHECK(lab::shell_quote("") == "''");
  CHECK(lab::shell_quote("it's a b") == "'it'\\''s a b'");
  CHECK(lab::shell_quote("$(rm -rf ~)") == "'$(rm -rf ~)'");
  for (std::string w : {"it's a b", "0.1 0.2; 0.3 0.4", "$HOME `x` \"q\"", "a\\b", "Ωμέγα"}) {
    CAPTURE(w);
    CHECK(lab::shell_words("x " + lab::shell_quote(w) + " y") == std::vector<std::string>{"x", w, "y"});
  }
  CHECK(lab::shell_words("a \"b c\" d\\ e") == std::vector<std::string>{"a", "b c", "d e"});
  CHECK(lab::shell_words("a 'b") == std::nullopt);
  CHECK(lab::shell_words("a \"b") == std::nullopt);
  CHECK(lab::shell_words("") == std::vector<std::string>{});
}

TEST_CASE("read_exercise_header: lesson, step and options; anything else is not an exercise") {
  std::string head = "# attn exercise: lesson causal, step weights (W)\n#\n#   attn check causal --step weights --seed 7 "
                     "--sentence 'it'\\''s' --code 'my file.py'\n# or\n#   attn watch x\n\nimport torch\n";
  auto h = lab::read_exercise_header(head);
  REQUIRE(h);
  CHECK(h->lesson == "causal");
  CHECK(h->step == "weights");
  CHECK(h->option_words == std::vector<std::string>{"--seed", "7", "--sentence", "it's"});
  CHECK_FALSE(lab::read_exercise_header("import torch\n"));
  CHECK_FALSE(lab::read_exercise_header(""));
  CHECK_FALSE(lab::read_exercise_header("# attn exercise: x\n"));                                      // no check line
  CHECK_FALSE(lab::read_exercise_header("# attn exercise: x\n#   attn check causal --seed 'x\n"));   // unterminated quote
  CHECK_FALSE(lab::read_exercise_header("# attn exercise: x\n#   attn check causal\n"));            // no step
  CHECK_FALSE(lab::read_exercise_header("# attn exercise: x\n\n#   attn check causal --step w\n")); // after the header
}
