// cli/cmd_exercise.cpp: `attn exercise NAME --step STEP [-o FILE]`: an exercise the learner writes,
// as a Python file (to stdout, or FILE); `--list` names the steps that have one. The file's
// layout and the choice of the variable are lab/exercise.h's; checking it is `attn check --code`
// (cmd_check.cpp) and `attn watch` (cmd_watch.cpp).
// What it is not: the grading, or where the learner's progress is kept.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "lab/exercise.h"
#include "lesson/catalog.h"
#include "lesson/export_write.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct ExerciseOptions {
  std::string name, step, output;
  bool force = false, list = false;
  InputOptions inputs;
};

std::string list_text(const LessonRun& run, const RunOptions& opts) {
  std::string out = fmt::format("The exercises of lesson {} (make one with `attn exercise {} --step STEP{} -o FILE`):\n",
                                run.lesson->name(), run.lesson->name(), lab::option_words_for_shell(opts));
  int n = 0;
  for (const StepRun& s : run.steps)
    if (auto var = lab::exercise_variable(s)) out += fmt::format("  {:<18} {}\n", s.step->id, *var), ++n;
  if (n == 0) out += "  (none: no step prints a float tensor it assigns to a name)\n";
  return out;
}

// Never over the learner's work: an existing FILE only with --force (and never through a symlink).
void write_exercise(const ExerciseOptions& o, const std::string& text) {
  std::error_code ec;
  if (!o.force && std::filesystem::exists(std::filesystem::symlink_status(o.output, ec)))
    throw UsageError(fmt::format("{}: already exists (your work on an earlier exercise?); choose another -o FILE, or add --force to overwrite it",
                                 o.output));
  ExportWriter writer(o.force);
  writer.stage_file(o.output, text, [](std::string_view) { return true; }, "an exercise");
  writer.commit();
}

int run_exercise(const ExerciseOptions& o) {
  auto all = load_lessons();
  const Lesson& l = find_lesson(all, o.name);
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  if (!o.list && o.step.empty())
    throw UsageError(fmt::format("give the step to practise with --step STEP; `attn exercise {} --list` lists the steps that have an exercise",
                                 l.name()));
  const std::string step = o.list ? "" : require_step(l, o.step).id;   // `--step 4`: the fourth step's id
  LessonRun run = run_lesson(l, opts);
  if (o.list) {
    std::cout << list_text(run, opts);
    return 0;
  }
  std::string text = lab::exercise_file(run, step, opts, o.output.empty() ? "FILE" : o.output);
  if (o.output.empty()) {
    std::cout << text;
    return 0;
  }
  write_exercise(o, text);
  std::cout << fmt::format("Wrote {}: write the code its TODO asks for, then check it with `attn watch {}`.\n", o.output,
                           lab::shell_quote(o.output));
  return 0;
}

}  // namespace

void setup_exercise(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ExerciseOptions>();
  auto* cmd = app.add_subcommand(
      "exercise", "Write an exercise: a Python file with a lesson's code up to a step, whose computation you write (check it with `attn watch FILE`)");
  cmd->add_option("lesson", opts->name, "Lesson name (see `attn list`)")->required();
  cmd->add_option("--step", opts->step, "The step to practise (`--list` shows the steps that have an exercise)");
  cmd->add_option("-o,--output", opts->output, "Write the exercise to FILE (default: stdout); an existing FILE only with --force");
  cmd->add_flag("--force", opts->force, "Overwrite FILE if it exists");
  cmd->add_flag("--list", opts->list, "List the steps that have an exercise, and the variable each asks for");
  add_inputs(cmd, opts->inputs);
  cmd->callback([opts, &exit_code] { exit_code = run_exercise(*opts); });
}

}  // namespace attn::cli
