// cli/main.cpp: the `attn` command line: wires the subcommands (commands.h) and turns
// exceptions into one line on stderr: exit 2 for usage errors, 1 for failures.
// What it is not: where any subcommand's work happens (cmd_*.cpp, lesson/).
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.h"
#include "core/errors.h"

int main(int argc, char** argv) {
  using namespace attn;
  CLI::App app{"attn: attention in LLMs, step by step, on the numbers the articles print"};
  app.set_version_flag("--version", std::string("attn ") + ATTN_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  cli::setup_list(app, exit_code);
  cli::setup_lesson(app, exit_code);
  cli::setup_verify(app, exit_code);
  cli::setup_run(app, exit_code);
  cli::setup_export(app, exit_code);
  cli::setup_check(app, exit_code);
  cli::setup_completion(app, exit_code);
  try {
    app.parse(argc, argv);
    return exit_code;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "attn: " << e.what() << " (see `attn --help`)\n";
    return 2;
  } catch (const attn::UsageError& e) {
    std::cerr << "attn: " << e.what() << "\n";
    return 2;
  } catch (const attn::LessonFileError& e) {
    std::cerr << "attn: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "attn: " << e.what() << "\n";
    return 1;
  }
}
