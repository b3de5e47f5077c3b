// cli/cmd_run.cpp: `attn run FILE`: an instructor's own lesson file (the format of lessons/,
// lessons/README.md), run and shown exactly as `attn lesson` shows a course lesson, with the same
// options. The file need not be in the lesson folder and is not added to the course.
// A Python error in a cell: the walkthrough (or JSON document) up to and with that cell, then
// the error as one line on stderr, exit code 2.
// What it is not: a checker of the file against its ```output blocks (`attn verify` does that
// for lessons in ATTN_LESSON_DIR).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/messages.h"
#include "lesson/json_run.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct RunFileOptions : WalkOptions {
  std::string file;
};

int run_file(const RunFileOptions& o) {
  std::error_code ec;
  if (!std::filesystem::exists(o.file, ec)) throw UsageError(o.file + ": no such lesson file");
  if (std::filesystem::is_directory(o.file, ec)) throw UsageError(o.file + ": is a directory, not a lesson file");
  Lesson l = read_lesson(o.file);   // LessonFileError "FILE:LINE: ..." if malformed
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  const std::string step = o.step.empty() ? "" : require_step(l, o.step, o.file + ": ").id;   // `--step 4`: the fourth
  const std::string from = o.from.empty() ? "" : require_step(l, o.from, o.file + ": ").id;
  if (!step.empty() && !from.empty()) throw UsageError("--step shows one step and --from starts at one: give one of them");
  if (!from.empty() && o.format == "json") throw UsageError("--from is for the walkthrough; the JSON document holds every step");
  if (!step.empty()) opts.last_step = step;   // the steps after it are not shown, so they need not run
  LessonRun run = run_until_error(l, opts);   // a Python error stops it: shown up to there, then the error
  if (o.format == "json") {
    while_doing("writing the JSON document", [&] { json::write_lesson_document(std::cout, "run", run, opts, step); });
  } else {
    DisplayOptions display = o.display;
    display.file = one_line(o.file);   // not in the course: the header and hints name the file, controls made visible
    display.from_step = from;
    std::cout << while_doing("writing the walkthrough", [&] { return render(run, step, 1, 1, display); });
  }
  if (const CellRun* failed = run.failed_cell()) throw LessonFileError(failed->error->what());   // "FILE:LINE: NameError: ..."
  return 0;
}

}  // namespace

void setup_run(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<RunFileOptions>();
  auto* cmd = app.add_subcommand("run", "Run your own lesson file (the format of lessons/README.md) as `attn lesson` does");
  cmd->add_option("file", opts->file, "A lesson file, e.g. my-lesson.lesson")->required();
  add_walk_options(cmd, *opts);
  cmd->callback([opts, &exit_code] { exit_code = run_file(*opts); });
}

}  // namespace attn::cli
