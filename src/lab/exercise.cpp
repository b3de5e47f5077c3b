// lab/exercise.cpp: which variable a step's exercise asks for, and the exercise file (see
// exercise.h). The learner's file is run and graded in exercise_run.cpp.
#include "lab/exercise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/errors.h"
#include "lesson/options.h"
#include "print/wrap.h"
#include "py/parser.h"

namespace attn::lab {

using namespace attn::lesson;

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_identifier(const std::string& s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) && std::all_of(s.begin(), s.end(), ident_char);
}

std::vector<std::string> split_lines(const std::string& code) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < code.size()) {
    size_t nl = code.find('\n', start);
    if (nl == std::string::npos) nl = code.size();
    lines.push_back(code.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// `var` as a name in `text` (not an attribute `x.var`, not part of a longer name).
bool mentions(const std::string& text, const std::string& var) {
  for (size_t at = text.find(var); at != std::string::npos; at = text.find(var, at + 1)) {
    bool before = at > 0 && (ident_char(text[at - 1]) || text[at - 1] == '.');
    bool after = at + var.size() < text.size() && ident_char(text[at + var.size()]);
    if (!before && !after) return true;
  }
  return false;
}

// One top-level statement of a cell: its lines (1-based, within the cell; trailing blank and
// comment lines belong to the next statement) and what it does with the variable.
struct Span {
  size_t cell = 0;
  int first = 0, last = 0;
  bool assigns = false, shows = false, mentions = false;
};

bool assigns_name(const py::Stmt& s, const std::string& var) {
  if (s.kind != py::Stmt::Assign) return false;
  return std::any_of(s.targets.begin(), s.targets.end(), [&](const py::ExprPtr& t) { return t && t->kind == py::Expr::Name && t->name == var; });
}

// print(...) or a bare name (a cell's echo in a notebook-style lesson).
bool shows(const py::Stmt& s) {
  if (s.kind != py::Stmt::ExprStmt || !s.value) return false;
  const py::Expr& e = *s.value;
  return e.kind == py::Expr::Name || (e.kind == py::Expr::Call && e.a && e.a->kind == py::Expr::Name && e.a->name == "print");
}

void add_spans(const std::string& code, size_t cell, const std::string& var, std::vector<Span>& out) {
  py::Block block;
  try {
    block = py::parse_program(code, 1);
  } catch (const py::ScriptError&) {
    return;   // it ran, so it parses; if not, it has no statement to leave as a TODO
  }
  std::vector<std::string> lines = split_lines(code);
  for (size_t k = 0; k < block.size(); ++k) {
    Span s{cell, block[k]->line, k + 1 < block.size() ? block[k + 1]->line - 1 : static_cast<int>(lines.size())};
    auto blank = [&](int n) {
      const std::string& l = lines[static_cast<size_t>(n - 1)];
      size_t p = l.find_first_not_of(" \t");
      return p == std::string::npos || l[p] == '#';
    };
    while (s.last > s.first && s.last <= static_cast<int>(lines.size()) && blank(s.last)) --s.last;
    std::string text;
    for (int n = s.first; n <= s.last && n <= static_cast<int>(lines.size()); ++n) text += lines[static_cast<size_t>(n - 1)] + "\n";
    s.assigns = assigns_name(*block[k], var);
    s.shows = shows(*block[k]);
    s.mentions = mentions(text, var);
    out.push_back(s);
  }
}

// Where the step's computation of `var` ends: the last statement before var's last showing that
// mentions it and does not show it. nullopt if no statement up to there assigns it.
std::optional<Span> computation_end(const StepRun& step, const std::string& var) {
  std::vector<Span> spans;
  for (size_t c = 0; c < step.cells.size(); ++c) add_spans(step.cells[c].code, c, var, spans);
  size_t shown = spans.size();
  for (size_t k = spans.size(); k-- > 0;)
    if (spans[k].shows && spans[k].mentions) {
      shown = k;
      break;
    }
  if (shown == spans.size()) return std::nullopt;
  for (size_t k = shown; k-- > 0;)
    if (spans[k].mentions && !spans[k].shows) {
      for (size_t j = 0; j <= k; ++j)
        if (spans[j].assigns) return spans[k];
      return std::nullopt;
    }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> exercise_variable(const StepRun& step) {
  std::vector<const torch::Printed*> floats;
  for (const CellRun& c : step.cells)
    for (const torch::Printed& p : c.printed)
      if (p.is_float_tensor()) floats.push_back(&p);
  for (size_t k = floats.size(); k-- > 0;)
    if (is_identifier(floats[k]->name) && computation_end(step, floats[k]->name)) return floats[k]->name;
  return std::nullopt;
}

std::vector<std::string> exercise_list(const LessonRun& run) {
  std::vector<std::string> out;
  for (const StepRun& s : run.steps)
    if (auto var = exercise_variable(s)) out.push_back(fmt::format("{} ({})", s.step->id, *var));
  return out;
}

std::string require_exercise(const LessonRun& run, const std::string& step_id) {
  require_step(*run.lesson, step_id);
  for (const StepRun& s : run.steps)
    if (s.step->id == step_id) {
      if (auto var = exercise_variable(s)) return *var;
      break;
    }
  std::vector<std::string> list = exercise_list(run);
  std::string steps = fmt::format("{}", fmt::join(list, ", "));
  throw UsageError(fmt::format("step {} of lesson '{}' has no exercise: it prints no float tensor that it assigns to a name; {}",
                               quoted_input(step_id), run.lesson->name(),
                               list.empty() ? "no step of this lesson has one" : "the steps with one: " + steps));
}

// ---- shell words ----

std::string shell_quote(const std::string& word) {
  bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return ident_char(c) || c == '-' || c == '.' || c == '/' || c == ',' || c == '+' || c == ':' || c == '=';
  });
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string option_words_for_shell(const RunOptions& o) {
  std::string out;
  if (o.seed) out += " --seed " + shell_quote(*o.seed);
  if (o.sentence) out += " --sentence " + shell_quote(*o.sentence);
  if (o.inputs) out += " --inputs " + shell_quote(*o.inputs);
  if (o.cpu) out += std::string(" --cpu ") + core::to_string(*o.cpu);
  if (o.rng) out += std::string(" --rng ") + core::to_string(*o.rng);
  return out;
}

std::optional<std::vector<std::string>> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  for (size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(w), w.clear(), in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      size_t end = line.find('\'', k + 1);
      if (end == std::string::npos) return std::nullopt;
      w += line.substr(k + 1, end - k - 1), k = end;
    } else if (c == '"') {
      for (++k; k < line.size() && line[k] != '"'; ++k) w += line[k] == '\\' && k + 1 < line.size() ? line[++k] : line[k];
      if (k >= line.size()) return std::nullopt;
    } else if (c == '\\' && k + 1 < line.size()) {
      w += line[++k];
    } else {
      w += c;
    }
  }
  if (in_word) words.push_back(w);
  return words;
}


// ---- the exercise file ----

namespace {

constexpr const char* kFirstLine = "# attn exercise: ";
constexpr const char* kCheckLine = "#   attn check ";

std::string with_newline(std::string code) {
  if (!code.empty() && code.back() != '\n') code += '\n';
  return code;
}

// The step's prose as comment lines: "# " before each line, "#" for a blank one.
std::string comment(const std::string& prose) {
  std::string out;
  for (const std::string& line : split_lines(print::wrap_prose(prose, 76))) {
    out += line.empty() ? "#" : "# ";
    out += line + '\n';
  }
  return out;
}

std::string header(const LessonRun& run, const StepRun& step, const RunOptions& opts, const std::string& file) {
  const std::string& name = run.lesson->name();
  std::string options = option_words_for_shell(opts);
  std::string f = shell_quote(file);
  return fmt::format(
      "{}lesson {}, step {} ({})\n"
      "#\n"
      "# Write the code the TODO below asks for, then check your answer with\n"
      "{}{} --step {}{} --code {}\n"
      "# or let attn check it each time you save this file:\n"
      "#   attn watch {}\n"
      "#\n"
      "# Made by `attn exercise {} --step {}{}`. The code above the TODO is the lesson's\n"
      "# own, as `attn lesson {}{}` runs it: leave it as it is.\n",
      kFirstLine, name, step.step->id, step.step->title, kCheckLine, name, shell_quote(step.step->id), options, f, f, name,
      shell_quote(step.step->id), options, name, options);
}

// The step's code with its computation of `var` left out: what follows it (its print) stays.
std::string after_computation(const StepRun& step, const Span& end) {
  std::string out;
  for (size_t c = end.cell; c < step.cells.size(); ++c) {
    std::vector<std::string> lines = split_lines(step.cells[c].code);
    size_t from = c == end.cell ? static_cast<size_t>(end.last) : 0;
    std::string part;
    for (size_t n = from; n < lines.size(); ++n) part += lines[n] + "\n";
    if (c == end.cell) part.erase(0, part.find_first_not_of('\n'));   // no blank line under the TODO
    if (part.empty()) continue;
    if (!out.empty()) out += '\n';
    out += part;
  }
  return out;
}

}  // namespace

std::string exercise_file(const LessonRun& run, const std::string& step_id, const RunOptions& opts, const std::string& file) {
  std::string var = require_exercise(run, step_id);
  for (const std::string& v : {opts.seed.value_or(""), opts.sentence.value_or(""), opts.inputs.value_or(""), file})
    if (std::any_of(v.begin(), v.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
      throw UsageError("an exercise cannot be made with a control character (a newline, a tab) in --seed, --sentence, --inputs or "
                       "the file's name: the header's commands hold them, one line each");
  std::string out;
  for (const StepRun& s : run.steps) {
    if (s.step->id == step_id) {
      out = header(run, s, opts, file) + out;
      out += fmt::format("\n# ==== step {}: {} (your exercise) ====\n", s.step->id, s.step->title);
      out += comment(s.handout_prose);
      out += fmt::format("{} = ...  # TODO: compute {}, the tensor this step prints\n", var, var);
      return out + after_computation(s, *computation_end(s, var));
    }
    out += fmt::format("\n# ---- step {}: {} ----\n", s.step->id, s.step->title);
    for (size_t c = 0; c < s.cells.size(); ++c) {
      if (c > 0) out += '\n';
      out += with_newline(s.cells[c].code);
    }
  }
  throw UsageError("the run does not reach step " + quoted_input(step_id));   // require_exercise found it: not reached
}

std::optional<ExerciseHeader> read_exercise_header(const std::string& text) {
  if (text.rfind(kFirstLine, 0) != 0) return std::nullopt;
  for (const std::string& line : split_lines(text)) {
    if (line.empty() || line[0] != '#') break;   // the header ends at the first line of code
    if (line.rfind(kCheckLine, 0) != 0) continue;
    auto words = shell_words(line.substr(4));
    if (!words || words->size() < 3 || (*words)[0] != "attn" || (*words)[1] != "check") return std::nullopt;
    ExerciseHeader h;
    h.lesson = (*words)[2];
    for (size_t k = 3; k < words->size(); ++k) {
      const std::string& w = (*words)[k];
      if ((w == "--step" || w == "--code") && k + 1 < words->size()) {
        if (w == "--step") h.step = (*words)[k + 1];
        ++k;
      } else {
        h.option_words.push_back(w);
      }
    }
    if (h.lesson.empty() || h.step.empty()) return std::nullopt;
    return h;
  }
  return std::nullopt;
}

}  // namespace attn::lab
