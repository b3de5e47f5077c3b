// cli/cmd_verify.cpp: `attn verify [NAME...]`: compare printed outputs with the source's.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
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

int run_verify(const VerifyOptions& o) {
  auto all = load_catalog(lesson_dir());
  std::vector<const Lesson*> chosen;
  for (const std::string& n : o.names) chosen.push_back(&find_lesson(all, n));
  if (chosen.empty())
    for (const Lesson& l : all) chosen.push_back(&l);
  RunOptions opts = o.inputs.to_run();
  if (o.format == "json") {
    std::vector<json::VerifiedLesson> results;
    bool differs = false;
    for (const Lesson* l : chosen) {
      json::VerifiedLesson& v = results.emplace_back(json::VerifiedLesson{run_lesson(*l, opts), {}});
      if (opts.article_inputs()) v.checks = verify(v.run);
      for (const CellCheck& c : v.checks) differs |= !c.match;
    }
    std::cout << json::verify_document(results, opts);
    return differs ? 1 : 0;
  }
  size_t match = 0, differ = 0, cells = 0;
  for (const Lesson* l : chosen) {
    LessonRun run = run_lesson(*l, opts);
    for (const StepRun& s : run.steps) cells += s.cells.size();
    if (!opts.article_inputs()) continue;
    for (const CellCheck& c : verify(run)) {
      std::cout << fmt::format("{:<8} {}{}\n", c.match ? "match" : "DIFFERS", c.where, c.remark.empty() ? "" : ": " + c.remark) << c.diff;
      (c.match ? match : differ)++;
    }
  }
  if (!opts.article_inputs()) {
    std::cout << fmt::format("verify: ran {} cells in {} lesson{}; nothing compared: the article printed its outputs for its own "
                             "inputs, so with --seed, --sentence or --inputs its transcript no longer applies\n",
                             cells, chosen.size(), chosen.size() == 1 ? "" : "s");
    return 0;
  }
  std::cout << fmt::format("verify: {} of {} cells match the article, {} differ ({} lesson{})\n", match, match + differ, differ,
                           chosen.size(), chosen.size() == 1 ? "" : "s");
  return differ ? 1 : 0;
}

}  // namespace

void setup_verify(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<VerifyOptions>();
  auto* cmd = app.add_subcommand("verify", "Run lessons and compare every printed output with the article's");
  cmd->add_option("names", opts->names, "Lessons to verify (default: all)");
  add_inputs(cmd, opts->inputs);
  cmd->add_option("--format", opts->format, "text or json (one document: README.md, \"Machine-readable output\")")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->callback([opts, &exit_code] { exit_code = run_verify(*opts); });
}

}  // namespace attn::cli
