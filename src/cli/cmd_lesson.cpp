// cli/cmd_lesson.cpp: `attn lesson NAME`: walk through a lesson, and keep the learner's progress
// (lab/progress.h). A Python error in a cell (a lesson of ATTN_LESSON_DIR being written): shown
// up to that cell, then the error, exit code 2.
//
// What counts for the progress: a text walkthrough (`--format text`, with or without --quiet)
// that reaches the lesson's end marks it finished; one that stops early (q or Ctrl-C at --pause,
// a cell's error) leaves the position at the step it stopped at, which `attn next` resumes.
// `--step ID` (a look-up of one step) and `--format json` (for scripts) change no progress.
// What it is not: the course's path (cmd_progress.cpp: `attn next`, `attn progress`).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "cli/commands.h"
#include "cli/messages.h"
#include "lab/progress.h"
#include "lesson/catalog.h"
#include "lesson/json_run.h"
#include "print/wrap.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

// The course continues: after a whole lesson, name the next one in `attn list` order.
std::string next_hint(const std::vector<Lesson>& all, int number, const WalkOptions& o) {
  if (!o.step.empty() || o.display.quiet) return "";
  std::string hint = number >= static_cast<int>(all.size())
                         ? "That was the last lesson of the course (`attn progress` shows what you finished)."
                         : "Next in the course: `attn lesson " + all[number].name() + "` (" + all[number].title + ")";
  return "\n" + print::wrap_line(hint, std::min(o.display.width, 80)) + "\n";   // as wide as the prose (render.h)
}

// After q at --pause: where the learner stopped and how to come back.
std::string stopped_hint(const Lesson& l, size_t at, int width) {
  std::string hint = fmt::format("Stopped before step {}/{} ({}): `attn next` continues there.", at + 1, l.steps.size(), l.steps[at].id);
  return "\n" + print::wrap_line(hint, width) + "\n";
}

// The step --step or --from names, as its id (`--step 4` is the fourth step).
std::string step_id(const Lesson& l, const std::string& text) { return text.empty() ? "" : require_step(l, text).id; }

}  // namespace

int walk_lesson(const std::vector<Lesson>& all, const Lesson& l, const WalkOptions& o) {
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  const std::string step = step_id(l, o.step), from = step_id(l, o.from);
  if (!step.empty() && !from.empty()) throw UsageError("--step shows one step and --from starts at one: give one of them");
  if (!from.empty() && o.format == "json") throw UsageError("--from is for the walkthrough; the JSON document holds every step");
  if (!step.empty()) opts.last_step = step;   // the steps after it are not shown, so they need not run (flash's 8,192 tokens)
  const bool track = o.format == "text" && step.empty() && !l.steps.empty();
  if (track) lab::record_position(l.name(), from.empty() ? l.steps.front().id : from);
  LessonRun run = run_until_error(l, opts);   // a Python error stops it: shown up to there, then the error
  int number = static_cast<int>(&l - all.data()) + 1;
  if (o.format == "json") {
    while_doing("writing the JSON document", [&] { json::write_lesson_document(std::cout, "lesson", run, opts, step); });
  } else {
    DisplayOptions display = o.display;
    display.from_step = from;
    std::optional<size_t> quit_at, showing;
    display.on_step = [&showing](size_t k) { showing = k; };
    if (track && display.pause)
      display.on_step = [&showing, &l](size_t k) {
        showing = k;
        lab::record_position(l.name(), l.steps[k].id);   // so q or Ctrl-C at the coming pause resumes here
      };
    auto pause = display.on_pause;
    if (pause) display.on_pause = [&quit_at, &showing, pause](const std::string& text) { return pause(text) || (quit_at = showing, false); };
    std::cout << while_doing("writing the walkthrough", [&] { return render(run, step, number, static_cast<int>(all.size()), display); });
    if (const CellRun* failed = run.failed_cell()) {
      if (track) lab::record_position(l.name(), run.steps.back().step->id);
      throw LessonFileError(failed->error->what());
    }
    if (quit_at) {
      std::cout << stopped_hint(l, *quit_at, o.display.width);
      return 0;
    }
    if (track) lab::record_finished(l.name());
    std::cout << next_hint(all, number, o);
  }
  if (const CellRun* failed = run.failed_cell()) throw LessonFileError(failed->error->what());
  return 0;
}

void setup_lesson(CLI::App& app, int& exit_code) {
  struct LessonOptions : WalkOptions {
    std::string name;
  };
  auto opts = std::make_shared<LessonOptions>();
  auto* cmd = app.add_subcommand("lesson", "Walk through a lesson: prose, code, and what it printed");
  cmd->add_option("name", opts->name, "Lesson name (see `attn list`)")->required();
  add_walk_options(cmd, *opts);
  cmd->callback([opts, &exit_code] {
    auto all = load_lessons(Reading::headers);   // the others' titles and places; the one asked for is read whole
    exit_code = walk_lesson(all, read_whole_lesson(all, opts->name), *opts);
  });
}

}  // namespace attn::cli
