// cli/cmd_lesson.cpp: `attn lesson NAME`: walk through a lesson.
#include <algorithm>
#include <iostream>

#include "cli/commands.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct LessonOptions {
  std::string name, step;
  InputOptions inputs;
};

int run_lesson_cmd(const LessonOptions& o) {
  auto all = load_catalog(lesson_dir());
  const Lesson& l = find_lesson(all, o.name);
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  if (!o.step.empty() &&
      std::none_of(l.steps.begin(), l.steps.end(), [&](const Step& s) { return s.id == o.step; })) {
    std::string ids;
    for (const Step& s : l.steps) ids += (ids.empty() ? "" : ", ") + s.id;
    throw UsageError("lesson '" + l.name() + "' has no step '" + o.step + "' (its steps: " + ids + ")");
  }
  LessonRun run = run_lesson(l, opts);
  int number = static_cast<int>(&l - all.data()) + 1;
  std::cout << render(run, o.step, number, static_cast<int>(all.size()));
  return 0;
}

}  // namespace

void setup_lesson(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<LessonOptions>();
  auto* cmd = app.add_subcommand("lesson", "Walk through a lesson: prose, code, and what it printed");
  cmd->add_option("name", opts->name, "Lesson name (see `attn list`)")->required();
  cmd->add_option("--step", opts->step, "Show only this step (ids are shown in each step's heading)");
  add_inputs(cmd, opts->inputs);
  cmd->callback([opts, &exit_code] { exit_code = run_lesson_cmd(*opts); });
}

}  // namespace attn::cli
