// cli/commands.h: one setup function per subcommand (CLI11 examples' pattern).
//
// Each setup_x() adds subcommand x to the app, binds its options to an options struct it owns,
// and registers a callback that runs run_x() and stores its exit code. main() only calls the
// setups and parses; errors travel as exceptions to main(). What it is not: where lessons are
// run (lesson/) or printed (print/).
#pragma once

#include <CLI/CLI.hpp>

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

void setup_list(CLI::App& app, int& exit_code);
void setup_lesson(CLI::App& app, int& exit_code);
void setup_verify(CLI::App& app, int& exit_code);
void setup_run(CLI::App& app, int& exit_code);
void setup_export(CLI::App& app, int& exit_code);
void setup_check(CLI::App& app, int& exit_code);
void setup_coverage(CLI::App& app, int& exit_code);     // what lesson code may use (docs/coverage.md)
void setup_completion(CLI::App& app, int& exit_code);   // reads every subcommand (of any setup) when it runs
void setup_man(CLI::App& app, int& exit_code);          // hidden: the man page, from the same (cmd_man.cpp)

}  // namespace attn::cli
