// cli/cmd_list.cpp: `attn list`: the lessons in course order, as a table or JSON.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "lesson/catalog.h"
#include "lesson/json_run.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct ListOptions {
  std::string format = "text";
};

int run_list(const ListOptions& o) {
  auto all = load_catalog(lesson_dir());
  if (o.format == "json") {
    std::cout << json::catalog_document(all);
    return 0;
  }
  // Columns padded by code points: titles contain Greek letters.
  auto width = [](const std::string& t) {
    size_t w = 0;
    for (unsigned char ch : t) w += (ch & 0xC0) != 0x80;
    return w;
  };
  size_t title_w = 5;
  for (const Lesson& l : all) title_w = std::max(title_w, width(l.title));
  for (size_t k = 0; k < all.size(); ++k) {
    const Lesson& l = all[k];
    if (k == 0 || l.header.group != all[k - 1].header.group)
      std::cout << (k == 0 ? "" : "\n") << to_string(l.header.group) << ":\n";
    std::string follows = l.header.source.substr(0, l.header.source.find(' '));
    if (l.header.section) follows += " § " + *l.header.section;
    std::cout << fmt::format("  {:<14} {}{}  {}\n", l.name(), l.title, std::string(title_w - width(l.title), ' '), follows);
  }
  std::cout << "\nSources: 000 is the self-attention article \"Understanding and Coding Self-Attention, ...\"; 004 is the\n"
               "book chapter notebook of \"Build a Large Language Model (from Scratch)\". `attn list --format json` has them in full.\n";
  std::cout << "\nRun one with `attn lesson NAME`; `attn lesson NAME --step ID` shows one step.\n";
  return 0;
}

}  // namespace

void setup_list(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ListOptions>();
  auto* cmd = app.add_subcommand("list", "List the lessons in course order");
  cmd->add_option("--format", opts->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([opts, &exit_code] { exit_code = run_list(*opts); });
}

}  // namespace attn::cli
