// cli/cmd_progress.cpp: the learner's path through the course: `attn next` (also bare `attn`)
// continues where the learner stopped, else starts the first lesson not yet finished;
// `attn progress` shows the course map with what was finished, the exercises passed and where
// the learner is; `attn progress --reset` clears it.
//
// What it is not: where progress is kept (lab/progress.h) or how a lesson is walked and what
// counts as finishing it (cmd_lesson.cpp).
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "cli/commands.h"
#include "lab/progress.h"
#include "lesson/catalog.h"
#include "lesson/json.h"
#include "print/wrap.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

// Where `attn next` goes: a lesson and the index of the step to start at (0: from the start).
struct Next {
  const Lesson* lesson = nullptr;
  size_t step = 0;
  bool resumed = false;   // where the learner stopped, not a new lesson
};

const Lesson* lesson_named(const std::vector<Lesson>& all, const std::string& name) {
  for (const Lesson& l : all)
    if (l.name() == name) return &l;
  return nullptr;
}

// The saved position if it still names a lesson and a step of it (lessons change), else the
// first lesson in course order not finished; none when every lesson is.
Next next_of(const std::vector<Lesson>& all, const lab::Progress& p) {
  if (p.at)
    if (const Lesson* l = lesson_named(all, p.at->lesson))
      for (size_t k = 0; k < l->steps.size(); ++k)
        if (l->steps[k].id == p.at->step) return Next{l, k, true};
  for (const Lesson& l : all)
    if (!p.finished.count(l.name())) return Next{&l, 0, false};
  return {};
}

std::string continue_command(const Next& n) {
  std::string cmd = "attn lesson " + n.lesson->name();
  return n.step == 0 ? cmd : cmd + " --from " + n.lesson->steps[n.step].id;
}

// Whether the terminal takes UTF-8 marks (the locale's character set, as LC_ALL, LC_CTYPE and
// LANG name it in that order). One place, for the display-wide locale check to replace.
bool utf8_locale() {
  for (const char* var : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* v = std::getenv(var);
    if (!v || !*v) continue;
    std::string s = v;
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s.find("utf-8") != std::string::npos || s.find("utf8") != std::string::npos;
  }
  return false;
}

std::string all_finished(size_t count, int width) {
  return print::wrap_line(fmt::format("You have finished all {} lessons of the course. `attn progress` shows them; "
                                      "`attn progress --reset` starts over.",
                                      count),
                          width) +
         "\n";
}

int run_next(const WalkOptions& o) {
  auto all = load_lessons();
  if (all.empty()) throw std::runtime_error("there are no lessons in '" + lesson_dir() + "' to continue with (`attn list` shows what attn finds)");
  Next n = next_of(all, lab::load_progress());
  if (!n.lesson) {
    std::cout << all_finished(all.size(), o.display.width);
    return 0;
  }
  WalkOptions w = o;
  if (n.step > 0) w.from = n.lesson->steps[n.step].id;
  return walk_lesson(all, *n.lesson, w);
}

// One lesson's line of the map: its mark, name and title, and where the learner is in it.
std::string map_line(const Lesson& l, const lab::Progress& p, const Next& n, lab::ProgressMarks marks, int width) {
  bool here = n.lesson == &l;
  const char* mark = p.finished.count(l.name()) ? marks.finished : here ? marks.here : " ";
  constexpr int kTitleColumn = 19;   // "  ✓ " + 14 for the name + " "
  const std::string under(kTitleColumn, ' ');
  // wrap_line re-flows spaces, so the title is wrapped in its column and the name put before it (as `attn list`)
  std::string out = fmt::format("  {} {:<14} ", mark, l.name()) + print::wrap_line(under + l.title, width, kTitleColumn).substr(kTitleColumn) + "\n";
  if (here && n.resumed)
    out += print::wrap_line(fmt::format("{}you stopped before step {}/{} ({})", under, n.step + 1, l.steps.size(), l.steps[n.step].id), width,
                            kTitleColumn) +
           "\n";
  std::string passed;
  for (const auto& e : p.exercises)
    if (e.first == l.name()) passed += (passed.empty() ? "" : ", ") + e.second;
  if (!passed.empty()) out += print::wrap_line(under + "exercises passed: " + passed, width, kTitleColumn) + "\n";
  return out;
}

std::string progress_text(const std::vector<Lesson>& all, const lab::Progress& p, const Next& n, int width) {
  size_t done = 0;
  for (const Lesson& l : all) done += p.finished.count(l.name());
  std::string out = print::wrap_line(fmt::format("Your path through the course: {} of {} lessons finished, {} exercise{} passed.", done,
                                                 all.size(), p.exercises.size(), p.exercises.size() == 1 ? "" : "s"),
                                     width) +
                    "\n";
  lab::ProgressMarks marks = lab::progress_marks(utf8_locale());
  for (size_t k = 0; k < all.size(); ++k) {
    if (k == 0 || all[k].header.group != all[k - 1].header.group) out += fmt::format("\n{}:\n", to_string(all[k].header.group));
    out += map_line(all[k], p, n, marks, width);
  }
  out += "\n";
  if (!n.lesson) return out + all_finished(all.size(), width);
  std::string what = n.resumed ? fmt::format("continues lesson {} at step {}", n.lesson->name(), n.lesson->steps[n.step].id)
                               : fmt::format("starts lesson {} ({})", n.lesson->name(), n.lesson->title);
  return out + print::wrap_line(fmt::format("`attn next` {}: `{}`.", what, continue_command(n)), width) + "\n";
}

std::string progress_json(const std::vector<Lesson>& all, const lab::Progress& p, const Next& n) {
  std::vector<std::string> lessons;
  size_t done = 0;
  for (const Lesson& l : all) {
    std::vector<std::string> passed;
    for (const auto& e : p.exercises)
      if (e.first == l.name()) passed.push_back(json::str(e.second));
    done += p.finished.count(l.name());
    lessons.push_back(json::Object()
                          .add("name", json::str(l.name()))
                          .add("group", json::str(to_string(l.header.group)))
                          .add("title", json::str(l.title))
                          .add("finished", json::boolean(p.finished.count(l.name()) > 0))
                          .add("exercises_passed", json::array(passed))
                          .done());
  }
  std::string next = json::null;
  if (n.lesson)
    next = json::Object()
               .add("lesson", json::str(n.lesson->name()))
               .add("step", json::str(n.lesson->steps.empty() ? "" : n.lesson->steps[n.step].id))
               .add("step_number", json::integer(static_cast<long long>(n.step + 1)))
               .add("resumed", json::boolean(n.resumed))
               .add("command", json::str(continue_command(n)))
               .done();
  std::string doc = json::Object()
                        .add("progress_file", json::str(lab::progress_path()))
                        .add("lessons", json::integer(static_cast<long long>(all.size())))
                        .add("finished", json::integer(static_cast<long long>(done)))
                        .add("next", next)
                        .add("course", json::array(lessons))
                        .done();
  return json::pretty(doc, 2) + "\n";
}

struct ProgressOptions {
  bool reset = false;
  std::string format = "text";
};

int run_progress(const ProgressOptions& o) {
  if (o.reset) {
    if (!lab::reset_progress()) return 1;
    std::cout << "Progress cleared: `attn next` starts the course from its first lesson.\n";
    return 0;
  }
  auto all = load_lessons();
  lab::Progress p = lab::load_progress();
  Next n = next_of(all, p);
  std::cout << (o.format == "json" ? progress_json(all, p, n) : progress_text(all, p, n, output_width()));
  return 0;
}

}  // namespace

void setup_next(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<WalkOptions>();
  auto* cmd = app.add_subcommand("next", "Continue the course where you stopped, or start the next lesson (also: `attn` alone)");
  add_display_options(cmd, opts->display);
  cmd->callback([opts, &exit_code] { exit_code = run_next(*opts); });
}

void setup_progress(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ProgressOptions>();
  auto* cmd = app.add_subcommand("progress", "Show the course map: lessons finished, exercises passed, where you are");
  cmd->add_flag("--reset", opts->reset, "Forget all progress (the file in $XDG_STATE_HOME/attn/)");
  cmd->add_option("--format", opts->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([opts, &exit_code] { exit_code = run_progress(*opts); });
}

}  // namespace attn::cli
