// cli/cmd_list.cpp: `attn list`: the lessons in course order, as a table fitted to the terminal
// (80 columns when piped), then each source once with its author and address; or as JSON.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "cli/commands.h"
#include "lesson/catalog.h"
#include "lesson/json_run.h"
#include "print/wrap.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

// A source's address without its #section anchor: the page, which `attn list` shows once.
std::optional<std::string> page_of(const std::optional<std::string>& url) {
  return url ? std::optional<std::string>(url->substr(0, url->find('#'))) : std::nullopt;
}

// Two lessons follow the same source when title, author and page agree (each lesson's own
// section anchor aside).
bool same_source(const LessonHeader& a, const LessonHeader& b) {
  return a.source == b.source && a.author == b.author && page_of(a.url) == page_of(b.url);
}

// What + and * before a name mean, when the list has either (lessons of ATTN_LESSON_DIR).
void print_marks(const std::vector<Lesson>& all, int width) {
  bool added = false, replaced = false;
  for (const Lesson& l : all) {
    added = added || (l.added && l.replaces.empty());
    replaced = replaced || !l.replaces.empty();
  }
  if (added) std::cout << "\n" << print::wrap_line("+ from ATTN_LESSON_DIR (" + added_lesson_dir() + ")", width, 2) << "\n";
  if (replaced)
    std::cout << (added ? "" : "\n")
              << print::wrap_line("* from ATTN_LESSON_DIR (" + added_lesson_dir() + "), in place of the course's lesson of that name", width, 2)
              << "\n";
}

// Each source once, numbered as the lessons' [n] are: author and title, then the page's address
// on a line of its own (never wrapped: one word to click or copy).
void print_sources(const std::vector<const LessonHeader*>& sources, int width) {
  std::cout << "\nSources:\n";
  for (size_t n = 0; n < sources.size(); ++n) {
    std::string label = fmt::format("  [{}] ", n + 1);
    std::cout << print::wrap_line(label + source_credit(*sources[n]), width, static_cast<int>(label.size())) << "\n";
    if (sources[n]->url) std::cout << std::string(label.size(), ' ') << *page_of(sources[n]->url) << "\n";
  }
}

struct ListOptions {
  std::string format = "text";
};

int run_list(const ListOptions& o) {
  auto all = load_lessons();
  if (o.format == "json") {
    std::cout << json::catalog_document(all);
    return 0;
  }
  // One line per lesson (name, title, [source number] § section) when every one fits the width;
  // otherwise the source goes under the title. Either way a line wraps under the title's column,
  // never inside a word. The sources follow, each once, with author and address.
  const int width = output_width();
  constexpr int kTitleColumn = 17;   // "  " + 14 for the name + " "
  int title_w = 5;
  for (const Lesson& l : all) title_w = std::max(title_w, print::visible_width(l.title));
  std::vector<const LessonHeader*> sources;   // in order of first use
  std::vector<std::string> follows;
  bool one_line = true;
  for (const Lesson& l : all) {
    size_t n = 0;
    while (n < sources.size() && !same_source(*sources[n], l.header)) ++n;
    if (n == sources.size()) sources.push_back(&l.header);
    follows.push_back(fmt::format("[{}]", n + 1));
    if (l.header.section) follows.back() += " " + print::glyph("§", "section") + " " + *l.header.section;
    one_line = one_line && kTitleColumn + title_w + 2 + print::visible_width(follows.back()) <= width;
  }
  auto wrapped = [&](const std::string& text) { return print::wrap_line(text, width, kTitleColumn) + "\n"; };
  for (size_t k = 0; k < all.size(); ++k) {
    const Lesson& l = all[k];
    if (k == 0 || l.header.group != all[k - 1].header.group)
      std::cout << (k == 0 ? "" : "\n") << to_string(l.header.group) << ":\n";
    // a name over 14 letters pushes its title right; + and * mark the lessons of ATTN_LESSON_DIR
    std::string name = fmt::format("{} {:<14} ", !l.added ? " " : l.replaces.empty() ? "+" : "*", l.name());
    if (one_line)
      std::cout << name << l.title << std::string(static_cast<size_t>(title_w - print::visible_width(l.title)), ' ') << "  " << follows[k] << "\n";
    else   // the title is wrapped in its column, then the name put before it
      std::cout << name << wrapped(std::string(kTitleColumn, ' ') + l.title).substr(kTitleColumn)
                << wrapped(std::string(kTitleColumn, ' ') + follows[k]);
  }
  print_marks(all, width);
  print_sources(sources, width);
  std::cout << "\n" << print::wrap_line("Run one with `attn lesson NAME`; `attn lesson NAME --step ID` shows one step.", width) << "\n";
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
