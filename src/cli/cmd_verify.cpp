// cli/cmd_verify.cpp: `attn verify [NAME...]`: compare printed outputs with the source's.
//
// Every chosen lesson runs, whatever happens to the others: a cell whose Python error stops its
// lesson is reported as ERROR (status "error" in JSON) and the next lesson runs. With --seed,
// --sentence or --inputs nothing is compared (the article's transcript no longer applies), and
// with no names each lesson runs with the options it has something for (a lesson that sets no
// seed runs as written; the report names it). Exit 1 if a cell differs or fails, else 0.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "cli/messages.h"
#include "lesson/catalog.h"
#include "lesson/json_run.h"
#include "lesson/verify.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct VerifyOptions {
  std::vector<std::string> names;
  std::string format = "text";
  InputOptions inputs;
};

// One lesson run and checked. Named lessons take the options as `attn lesson` does (one that does
// not apply is a UsageError); with no names, those a lesson has nothing for are left out.
json::VerifiedLesson verify_one(const Lesson& l, const RunOptions& opts, bool named) {
  json::VerifiedLesson v;
  RunOptions mine = named ? opts : applicable_options(l, opts, v.not_applied);
  v.run = run_until_error(l, mine);
  v.checks = verify(v.run);
  if (!opts.article_inputs())   // nothing is compared; a failed cell is still reported
    std::erase_if(v.checks, [](const CellCheck& c) { return !c.error; });
  return v;
}

// "; --seed does not apply to simple, context (run without it)": the lessons of a whole
// run that had nothing for an option.
std::string not_applied_note(const std::vector<std::pair<std::string, std::vector<std::string>>>& by_lesson) {
  std::string note;
  for (const char* option : {"seed", "sentence", "inputs"}) {
    std::string names;
    for (const auto& [lesson, options] : by_lesson)
      if (std::find(options.begin(), options.end(), option) != options.end()) names += (names.empty() ? "" : ", ") + lesson;
    if (!names.empty()) note += fmt::format("; --{} does not apply to {}", option, names);
  }
  return note.empty() ? "" : note + " (run without it)";
}

std::string plural(size_t n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

int verify_text(const std::vector<const Lesson*>& chosen, const RunOptions& opts, bool named) {
  size_t match = 0, differ = 0, errors = 0, not_run = 0, cells = 0;
  std::vector<std::pair<std::string, std::vector<std::string>>> not_applied;
  for (const Lesson* l : chosen) {
    json::VerifiedLesson v = verify_one(*l, opts, named);
    for (const StepRun& s : v.run.steps) cells += s.cells.size();
    if (!v.not_applied.empty()) not_applied.emplace_back(l->name(), v.not_applied);
    not_run += compared_cells_not_run(v.run);
    for (const CellCheck& c : v.checks) {
      if (c.error) {
        std::cout << fmt::format("{:<8} {}: {}\n", "ERROR", c.where, one_line(c.error->what()));
        ++errors;
        continue;
      }
      std::cout << fmt::format("{:<8} {}{}\n", c.match ? "match" : "DIFFERS", c.where, c.remark.empty() ? "" : ": " + c.remark) << c.diff;
      (c.match ? match : differ)++;
    }
  }
  std::string errored = errors ? ", " + plural(errors, "error") : "";
  if (!opts.article_inputs()) {
    std::cout << fmt::format("verify: ran {} in {}{}; nothing compared: the article printed its outputs for its own "
                             "inputs, so with --seed, --sentence or --inputs its transcript no longer applies{}\n",
                             plural(cells, "cell"), plural(chosen.size(), "lesson"), errored, not_applied_note(not_applied));
    return errors ? 1 : 0;
  }
  std::string unrun = not_run ? fmt::format("; {} did not run after an error", plural(not_run, "compared cell")) : "";
  std::cout << fmt::format("verify: {} of {} cells match the article, {} differ{} ({}{})\n", match, match + differ, differ, errored,
                           plural(chosen.size(), "lesson"), unrun);
  return differ || errors ? 1 : 0;
}

int verify_json(const std::vector<const Lesson*>& chosen, const RunOptions& opts, bool named) {
  std::vector<json::VerifiedLesson> results;
  bool failed = false;
  for (const Lesson* l : chosen) {
    results.push_back(verify_one(*l, opts, named));
    for (const CellCheck& c : results.back().checks) failed |= !c.match;
  }
  json::write_verify_document(std::cout, results, opts);
  return failed ? 1 : 0;
}

int run_verify(const VerifyOptions& o) {
  auto all = load_lessons();
  std::vector<const Lesson*> chosen;
  for (const std::string& n : o.names) chosen.push_back(&find_lesson(all, n));
  bool named = !chosen.empty();
  // Unnamed: every lesson; with ATTN_LESSON_DIR, the folder's (the lessons being written: the
  // course's are verified where attn is built).
  bool any_added = std::any_of(all.begin(), all.end(), [](const Lesson& l) { return l.added; });
  if (!named)
    for (const Lesson& l : all)
      if (!any_added || l.added) chosen.push_back(&l);
  RunOptions opts = o.inputs.to_run();
  for (const Lesson* l : chosen) {   // bad options stop verify before any lesson runs
    std::vector<std::string> ignored;
    validate(*l, named ? opts : applicable_options(*l, opts, ignored));
  }
  return o.format == "json" ? verify_json(chosen, opts, named) : verify_text(chosen, opts, named);
}

}  // namespace

void setup_verify(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<VerifyOptions>();
  auto* cmd = app.add_subcommand("verify", "Run lessons and compare every printed output with the article's");
  cmd->add_option("names", opts->names, "Lessons to verify (default: all; with ATTN_LESSON_DIR set, that folder's)");
  add_inputs(cmd, opts->inputs);
  cmd->add_option("--format", opts->format, "text or json (one document: docs/scripting.md)")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->callback([opts, &exit_code] { exit_code = run_verify(*opts); });
}

}  // namespace attn::cli
