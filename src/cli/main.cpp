// cli/main.cpp: the `attn` command line: wires the subcommands (commands.h; bare `attn` is
// `attn next`), suggests the command or option a typo meant, and turns
// exceptions into one line on stderr: exit 2 for usage errors, 1 for failures. Every message
// goes through one_line() (messages.h): one line, control characters visible.
// What it is not: where any subcommand's work happens (cmd_*.cpp, lesson/).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <vector>

#include "cli/commands.h"
#include "cli/messages.h"
#include "core/errors.h"
#include "lab/progress.h"
#include "lesson/options.h"
#include "lesson/suggest.h"

// A sanitizer build (-DATTN_SANITIZE=ON: AddressSanitizer) tears everything down at exit, so
// LeakSanitizer sees every object freed or still reachable; other builds leave it to the OS.
#if defined(__SANITIZE_ADDRESS__)
#define ATTN_FULL_TEARDOWN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_FULL_TEARDOWN 1
#endif
#endif

namespace {

using namespace attn;

// The command has run and its output is flushed: the process ends with `code` without
// destroying what is left (the command line's tables, the interpreter's shared module trees, the
// op table, the thread pool): the OS takes the memory back at once, while freeing it object by
// object cost ~0.5 ms of every `attn lesson` (issue 21). Nothing left does work in a destructor.
int end_process(int code) {
#ifndef ATTN_FULL_TEARDOWN
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
#endif
  return code;
}

int fail(const std::string& message, int code) {
  std::cerr << "attn: " << cli::one_line(message) << "\n";
  return code;
}

// "list, lesson, verify, run, export, check, exercise, watch, coverage and completion": the commands --help shows.
std::string command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) names.push_back(sub->get_name());
  std::string out;
  for (size_t k = 0; k < names.size(); ++k) out += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + names[k];
  return out;
}

// " did you mean `attn lesson`?" for a word one command is clearly closest to (lesson/suggest.h).
std::string command_suggestion(CLI::App& app, const std::string& word) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) names.push_back(sub->get_name());
  auto near = lesson::suggest(word, names);
  return near ? " did you mean `attn " + *near + "`?" : "";
}

// A word that is no command: CLI11 would say "A subcommand is required".
void require_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2) return;   // bare `attn` is `attn next` (main)
  std::string first = argv[1];
  if (first.empty()) throw UsageError("a command is required; the commands are " + command_names(app) + " (see `attn --help`)");
  if (first[0] == '-') return;   // --help, --version, or CLI11's own message
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (sub->check_name(first)) return;
  std::string near = command_suggestion(app, first);
  throw UsageError("unknown command " + lesson::quoted_input(first) + ";" + near + " the commands are " + command_names(app) + " (see `attn --help`)");
}

// For CLI11's "The following arguments were not expected": the first --word on the line that is
// no option of the command, named, with the option it is clearly closest to. Empty if none is.
std::string unknown_option(CLI::App& app, int argc, char** argv) {
  CLI::App* cmd = &app;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (argc > 1 && sub->check_name(argv[1])) cmd = sub;
  std::vector<std::string> names;
  for (const CLI::Option* o : cmd->get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  for (int k = cmd == &app ? 1 : 2; k < argc; ++k) {
    std::string word = argv[k];
    word = word.substr(0, word.find('='));
    if (word.size() < 3 || word.compare(0, 2, "--") != 0) continue;
    if (std::find(names.begin(), names.end(), word) != names.end()) continue;
    auto near = lesson::suggest(word, names);
    std::string where = cmd == &app ? "attn" : "attn " + cmd->get_name();
    return "unknown option " + lesson::quoted_input(word) + " for `" + where + "`" + (near ? "; did you mean " + *near + "?" : "") +
           " (see `" + where + " --help`)";
  }
  return "";
}

// Every subcommand, in `attn --help` order.
using Setup = void (*)(CLI::App&, int&);
const std::pair<const char*, Setup> kCommands[] = {
    {"list", cli::setup_list},         {"lesson", cli::setup_lesson},   {"next", cli::setup_next},
    {"progress", cli::setup_progress}, {"verify", cli::setup_verify},   {"run", cli::setup_run},
    {"export", cli::setup_export},     {"check", cli::setup_check},     {"exercise", cli::setup_exercise},
    {"watch", cli::setup_watch},       {"coverage", cli::setup_coverage}, {"completion", cli::setup_completion},
    {"man", cli::setup_man}};

// `attn lesson causal`: the command named first is the only one whose options CLI11 parses, so
// it alone is built (all thirteen with their options were ~0.8 ms of every command, issue 21).
// Anything else (--help, --version, a typo, completion and man, which read every subcommand)
// builds them all.
void setup_commands(CLI::App& app, const std::string& first, int& exit_code) {
  for (const auto& [name, setup] : kCommands)
    if (first == name && first != "completion" && first != "man") return setup(app, exit_code);
  for (const auto& [name, setup] : kCommands) setup(app, exit_code);
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
  } catch (const CLI::ExtrasError& e) {
    std::string unknown = unknown_option(app, argc, argv);
    return fail(unknown.empty() ? std::string(e.what()) + " (see `attn --help`)" : unknown, 2);
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
  // A file-size limit (`ulimit -f`, a disk quota) would kill attn with SIGXFSZ mid-write; ignored,
  // the write fails with EFBIG and takes the clean path: one line, exit 1, temporaries removed.
  std::signal(SIGXFSZ, SIG_IGN);
  cli::choose_decorations();
  CLI::App app{"attn: attention in LLMs, step by step, on the numbers the articles print"};
  app.set_version_flag("--version", std::string("attn ") + ATTN_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  setup_commands(app, argc > 1 ? argv[1] : "next", exit_code);
  lab::set_progress_warning([](const std::string& text) { std::cerr << "attn: " << cli::one_line(text) << "\n"; });
  // Bare `attn` continues the course: it is `attn next`.
  std::vector<char*> args(argv, argv + argc);
  char next[] = "next";
  if (argc < 2) args.push_back(next);
  int code = run(app, static_cast<int>(args.size()), args.data(), exit_code);
  // A write that failed (a full disk, `> /dev/full`, memory running out in the stream) leaves
  // std::cout failed, not an exception: without this, a cut-off walkthrough or report exits 0.
  // (After another error, that error's line is the one that matters.)
  if (!(std::cout << std::flush) && code == 0) return end_process(fail("could not write all of the output to stdout (a full disk?)", 1));
  return end_process(code);
}
