// cli/main.cpp: the `attn` command line: wires the subcommands (commands.h) and turns
// exceptions into one line on stderr: exit 2 for usage errors, 1 for failures. Every message
// goes through one_line() (messages.h): one line, control characters visible.
// What it is not: where any subcommand's work happens (cmd_*.cpp, lesson/).
#include <CLI/CLI.hpp>

#include <iostream>
#include <new>

#include "cli/commands.h"
#include "cli/messages.h"
#include "core/errors.h"
#include "lesson/options.h"

namespace {

using namespace attn;

int fail(const std::string& message, int code) {
  std::cerr << "attn: " << cli::one_line(message) << "\n";
  return code;
}

// "list, lesson, verify, run, export, check, coverage and completion": the commands --help shows.
std::string command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) names.push_back(sub->get_name());
  std::string out;
  for (size_t k = 0; k < names.size(); ++k) out += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + names[k];
  return out;
}

// No command, or a word that is none: CLI11 would say "A subcommand is required" for both.
void require_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2) throw UsageError("a command is required; the commands are " + command_names(app) + " (see `attn --help`)");
  std::string first = argv[1];
  if (first.empty() || first[0] == '-') return;   // --help, --version, or CLI11's own message
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (sub->check_name(first)) return;
  throw UsageError("unknown command " + lesson::quoted(first) + "; the commands are " + command_names(app) + " (see `attn --help`)");
}

std::string running(CLI::App& app) {
  std::vector<CLI::App*> parsed = app.get_subcommands();
  return parsed.empty() ? "reading the command line" : "running `attn " + parsed.front()->get_name() + "`";
}

// Parses the command line and runs the command; every exception becomes one line and an exit code.
int run(CLI::App& app, int argc, char** argv, const int& exit_code) {
  try {
    require_command(app, argc, argv);
    app.parse(argc, argv);
    return exit_code;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(std::string(e.what()) + " (see `attn --help`)", 2);
  } catch (const attn::UsageError& e) {
    return fail(e.message(), 2);
  } catch (const attn::LessonFileError& e) {
    return fail(e.message(), 2);
  } catch (const cli::OutOfMemory& e) {
    return fail(std::string("out of memory while ") + e.what(), 1);
  } catch (const std::bad_alloc&) {
    return fail("out of memory while " + running(app), 1);
  } catch (const std::exception& e) {
    return fail(e.what(), 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  cli::choose_decorations();
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
  cli::setup_coverage(app, exit_code);
  cli::setup_completion(app, exit_code);
  cli::setup_man(app, exit_code);
  int code = run(app, argc, argv, exit_code);
  // A write that failed (a full disk, `> /dev/full`, memory running out in the stream) leaves
  // std::cout failed, not an exception: without this, a cut-off walkthrough or report exits 0.
  // (After another error, that error's line is the one that matters.)
  if (!(std::cout << std::flush) && code == 0) return fail("could not write all of the output to stdout (a full disk?)", 1);
  return code;
}
