// cli/commands.h: one setup function per subcommand (CLI11 examples' pattern).
//
// Each setup_x() adds subcommand x to the app, binds its options to an options struct it owns,
// and registers a callback that runs run_x() and stores its exit code. main() only calls the
// setups and parses; errors travel as exceptions to main(). What it is not: where lessons are
// run (lesson/) or printed (print/).
#pragma once

#include <CLI/CLI.hpp>

#include "lab/grade.h"
#include "lesson/options.h"
#include "lesson/render.h"

namespace attn::cli {

// --seed, --sentence, --inputs, --rng, --cpu: shared by every command that runs lessons.
struct InputOptions {
  std::string seed, sentence, inputs;
  bool seed_set = false, sentence_set = false, inputs_set = false;
  std::optional<core::DropoutRng> rng;
  std::optional<core::CpuKernels> cpu;
  std::optional<double> time_limit;   // --time-limit SECONDS per cell
  lesson::RunOptions to_run() const;
};
void add_inputs(CLI::App* cmd, InputOptions& o);

// What `attn lesson` and `attn run` share: --step, the input options, the display options and
// --format text|json.
struct WalkOptions {
  std::string step;
  std::string from;   // --from: start the walkthrough at this step
  std::string format = "text";
  InputOptions inputs;
  lesson::DisplayOptions display;
};
void add_walk_options(CLI::App* cmd, WalkOptions& o);
void add_display_options(CLI::App* cmd, lesson::DisplayOptions& o);   // --heatmap, --pause, --quiet (display.cpp)
// Columns attn's own text is fitted to: the terminal's width, 80 when stdout is not a terminal
// (display.cpp).
int output_width();
// Under a non-UTF-8 locale (LC_ALL, LC_CTYPE or LANG naming one: LANG=C), attn's own decorations
// fall back to ASCII (print::set_ascii_decorations); called once, first thing (display.cpp).
void choose_decorations();

// Walks lesson `l` of the course `all` as `attn lesson` does, with its progress (cmd_lesson.cpp).
int walk_lesson(const std::vector<lesson::Lesson>& all, const lesson::Lesson& l, const WalkOptions& o);

void setup_list(CLI::App& app, int& exit_code);
void setup_lesson(CLI::App& app, int& exit_code);
void setup_verify(CLI::App& app, int& exit_code);
void setup_run(CLI::App& app, int& exit_code);
void setup_export(CLI::App& app, int& exit_code);
void setup_check(CLI::App& app, int& exit_code);
void setup_exercise(CLI::App& app, int& exit_code);     // attn exercise NAME --step STEP (cmd_exercise.cpp)
void setup_watch(CLI::App& app, int& exit_code);        // attn watch FILE: re-checks an exercise on every save (cmd_watch.cpp)
void setup_coverage(CLI::App& app, int& exit_code);     // what lesson code may use (docs/coverage.md)
void setup_next(CLI::App& app, int& exit_code);         // `attn next`: continue the course (cmd_progress.cpp)
void setup_progress(CLI::App& app, int& exit_code);     // `attn progress`: the course map (cmd_progress.cpp)
void setup_completion(CLI::App& app, int& exit_code);   // reads every subcommand (of any setup) when it runs
void setup_man(CLI::App& app, int& exit_code);          // hidden: the man page, from the same (cmd_man.cpp)

// `attn check --code FILE` (cmd_check.cpp), also what `attn watch` runs on every save: grades the
// exercise file against `run` (the whole lesson, made with `opts`); the report as text or JSON.
// lab::CodeError when the learner's code failed or left the TODO; UsageError for a step with no
// exercise or a file that cannot be read.
struct CodeGrade {
  bool pass = false;
  std::string report;
};
CodeGrade grade_code(const lesson::LessonRun& run, const std::string& step, const lesson::RunOptions& opts,
                     const std::string& file, const std::string& format = "text", const lab::Tolerance& tol = {});
// The learner solved the exercise of `step` of `lesson`: recorded in their progress (lab/progress.h).
void exercise_passed(const std::string& lesson, const std::string& step);

}  // namespace attn::cli
