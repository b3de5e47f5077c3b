// cli/cmd_list.cpp: `attn list`: the lessons in course order, as a table fitted to the terminal
// (80 columns when piped) or as JSON.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "lesson/catalog.h"
#include "lesson/json_run.h"
#include "print/wrap.h"

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
  // One line per lesson (name, title, source) when every one fits the width; otherwise the source
  // goes under the title. Either way a line wraps under the title's column, never inside a word.
  const int width = output_width();
  constexpr int kTitleColumn = 17;   // "  " + 14 for the name + " "
  int title_w = 5;
  for (const Lesson& l : all) title_w = std::max(title_w, print::visible_width(l.title));
  std::vector<std::string> follows;
  bool one_line = true;
  for (const Lesson& l : all) {
    follows.push_back(l.header.source.substr(0, l.header.source.find(' ')));
    if (l.header.section) follows.back() += " § " + *l.header.section;
    one_line = one_line && kTitleColumn + title_w + 2 + print::visible_width(follows.back()) <= width;
  }
  auto wrapped = [&](const std::string& text) { return print::wrap_line(text, width, kTitleColumn) + "\n"; };
  for (size_t k = 0; k < all.size(); ++k) {
    const Lesson& l = all[k];
    if (k == 0 || l.header.group != all[k - 1].header.group)
      std::cout << (k == 0 ? "" : "\n") << to_string(l.header.group) << ":\n";
    std::string name = fmt::format("  {:<14} ", l.name());   // a name over 14 letters pushes its title right
    if (one_line)
      std::cout << name << l.title << std::string(static_cast<size_t>(title_w - print::visible_width(l.title)), ' ') << "  " << follows[k] << "\n";
    else   // the title is wrapped in its column, then the name put before it
      std::cout << name << wrapped(std::string(kTitleColumn, ' ') + l.title).substr(kTitleColumn)
                << wrapped(std::string(kTitleColumn, ' ') + follows[k]);
  }
  std::cout << "\n"
            << print::wrap_line("Sources: 000 is the self-attention article \"Understanding and Coding Self-Attention, ...\"; 004 is the "
                                "book chapter notebook of \"Build a Large Language Model (from Scratch)\". `attn list --format json` has "
                                "them in full.",
                                width)
            << "\n\n"
            << print::wrap_line("Run one with `attn lesson NAME`; `attn lesson NAME --step ID` shows one step.", width) << "\n";
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
