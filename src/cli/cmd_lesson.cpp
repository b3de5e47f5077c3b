// cli/cmd_lesson.cpp: `attn lesson NAME`: walk through a lesson. A Python error in a cell (a
// lesson of ATTN_LESSON_DIR being written): shown up to that cell, then the error, exit code 2.
#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "cli/messages.h"
#include "lesson/catalog.h"
#include "lesson/json_run.h"
#include "print/wrap.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct LessonOptions : WalkOptions {
  std::string name;
};

// The course continues: after a whole lesson, name the next one in `attn list` order.
std::string next_hint(const std::vector<Lesson>& all, int number, const LessonOptions& o) {
  if (!o.step.empty() || o.display.quiet) return "";
  std::string hint = number >= static_cast<int>(all.size())
                         ? "That was the last lesson of the course (`attn list` shows them all)."
                         : "Next in the course: `attn lesson " + all[number].name() + "` (" + all[number].title + ")";
  return "\n" + print::wrap_line(hint, std::min(o.display.width, 80)) + "\n";   // as wide as the prose (render.h)
}

int run_lesson_cmd(const LessonOptions& o) {
  auto all = load_lessons();
  const Lesson& l = find_lesson(all, o.name);
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  if (!o.step.empty()) {
    require_step(l, o.step);
    opts.last_step = o.step;   // the steps after it are not shown, so they need not run (flash's 8,192 tokens)
  }
  LessonRun run = run_until_error(l, opts);   // a Python error stops it: shown up to there, then the error
  int number = static_cast<int>(&l - all.data()) + 1;
  if (o.format == "json") {
    std::cout << while_doing("writing the JSON document", [&] { return json::lesson_document("lesson", run, opts, o.step); });
  } else {
    std::cout << while_doing("writing the walkthrough", [&] { return render(run, o.step, number, static_cast<int>(all.size()), o.display); });
    if (!run.failed_cell()) std::cout << next_hint(all, number, o);
  }
  if (const CellRun* failed = run.failed_cell()) throw LessonFileError(failed->error->what());
  return 0;
}

}  // namespace

void setup_lesson(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<LessonOptions>();
  auto* cmd = app.add_subcommand("lesson", "Walk through a lesson: prose, code, and what it printed");
  cmd->add_option("name", opts->name, "Lesson name (see `attn list`)")->required();
  add_walk_options(cmd, *opts);
  cmd->callback([opts, &exit_code] { exit_code = run_lesson_cmd(*opts); });
}

}  // namespace attn::cli
