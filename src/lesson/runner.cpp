// lesson/runner.cpp: options, running, rendering, the catalogue and verify (see runner.h).
#include "lesson/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "py/interpreter.h"
#include "print/heatmap.h"
#include "print/tensor_str.h"

namespace attn::lesson {

using py::Interpreter;
using py::PrintedValue;
using py::ScriptError;
using py::Value;
using py::as_tensor;

namespace {

const std::regex kSeedCall(R"(torch\.manual_seed\(\s*-?[0-9_]+\s*\))");
const std::regex kSentence(R"(^(\s*sentence\s*=\s*)(['"]).*\2[ \t]*$)");

bool has_sentence(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells) {
      std::istringstream in(c.code);
      for (std::string line; std::getline(in, line);)
        if (std::regex_match(line, kSentence)) return true;
    }
  return false;
}

bool has_seed(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells)
      if (std::regex_search(c.code, kSeedCall)) return true;
  return false;
}

// PyTorch accepts seeds in [-2^63, 2^64 - 1] (torch.manual_seed raises outside).
void validate_seed(const std::string& s) {
  static const std::regex digits("-?[0-9]+");
  if (!std::regex_match(s, digits))
    throw UsageError("--seed must be an integer (as torch.manual_seed takes), got '" + s + "'");
  errno = 0;
  if (s[0] == '-') std::strtoll(s.c_str(), nullptr, 10);
  else std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE)
    throw UsageError("--seed must be in PyTorch's range -9223372036854775808 to 18446744073709551615, got " + s);
}

void validate_sentence(const std::string& s) {
  std::string no_commas = s;
  no_commas.erase(std::remove(no_commas.begin(), no_commas.end(), ','), no_commas.end());
  std::istringstream in(no_commas);
  int words = 0;
  for (std::string w; in >> w;) ++words;
  if (words < 2)
    throw UsageError(fmt::format("--sentence needs at least two words to attend between, got {}: '{}'", words, s));
  if (s.find('\n') != std::string::npos) throw UsageError("--sentence must be one line of text");
}

// Where the statement `inputs = torch.tensor(...)` starts and ends in `code` (npos if absent).
// Brackets inside comments and strings are skipped, as the chapter's literal has "(x^1)" comments.
std::pair<size_t, size_t> find_inputs_literal(const std::string& code) {
  static const std::regex start(R"((^|\n)(inputs\s*=\s*torch\.tensor\())");
  std::smatch m;
  if (!std::regex_search(code, m, start)) return {std::string::npos, std::string::npos};
  size_t begin = static_cast<size_t>(m.position(2)), k = begin + m.length(2);
  int depth = 1;
  for (; k < code.size() && depth > 0; ++k) {
    char c = code[k];
    if (c == '#') {
      while (k < code.size() && code[k] != '\n') ++k;
    } else if (c == '\'' || c == '"') {
      for (++k; k < code.size() && code[k] != c; ++k) {}
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    }
  }
  return depth == 0 ? std::make_pair(begin, k) : std::make_pair(std::string::npos, std::string::npos);
}

bool has_inputs(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells)
      if (find_inputs_literal(c.code).first != std::string::npos) return true;
  return false;
}

std::string inputs_literal(const std::vector<std::vector<double>>& rows) {
  std::string out = "inputs = torch.tensor(\n  [";
  for (size_t r = 0; r < rows.size(); ++r) {
    out += r ? ",\n   [" : "[";
    for (size_t c = 0; c < rows[r].size(); ++c) out += (c ? ", " : "") + print::py_float_repr(rows[r][c]);
    out += "]";
  }
  return out + "]\n)";
}

}  // namespace

std::vector<std::vector<double>> parse_inputs(const std::string& text) {
  std::vector<std::vector<double>> rows;
  std::string row;
  std::istringstream in(text);
  for (int r = 1; std::getline(in, row, ';'); ++r) {
    std::replace(row.begin(), row.end(), ',', ' ');
    std::istringstream words(row);
    std::vector<double> values;
    for (std::string w; words >> w;) {
      char* end = nullptr;
      double v = std::strtod(w.c_str(), &end);
      if (end != w.c_str() + w.size()) throw UsageError(fmt::format("--inputs row {}: '{}' is not a number", r, w));
      if (!std::isfinite(v)) throw UsageError(fmt::format("--inputs row {}: '{}' is not finite; embeddings are finite numbers", r, w));
      values.push_back(v);
    }
    if (values.empty()) {
      if (in.peek() == EOF && r > 1) break;   // a trailing ';'
      throw UsageError(fmt::format("--inputs row {} is empty (rows are separated by ';', numbers by spaces or commas)", r));
    }
    if (!rows.empty() && values.size() != rows[0].size())
      throw UsageError(fmt::format("--inputs rows must have the same length: row 1 has {} numbers, row {} has {}", rows[0].size(), r, values.size()));
    rows.push_back(values);
  }
  if (rows.empty()) throw UsageError("--inputs is empty; give rows like \"0.43 0.15 0.89; 0.55 0.87 0.66; ...\"");
  if (rows.size() != 6)
    throw UsageError(fmt::format("--inputs needs 6 rows, one per token of \"Your journey starts with one step\" (the chapter's code assumes six tokens), got {}", rows.size()));
  return rows;
}

void require_step(const Lesson& lesson, const std::string& step, const std::string& prefix) {
  if (step.empty()) return;
  std::string ids;
  for (const Step& s : lesson.steps) {
    if (s.id == step) return;
    ids += (ids.empty() ? "" : ", ") + s.id;
  }
  throw UsageError(prefix + "lesson '" + lesson.name() + "' has no step '" + step + "' (its steps: " + ids + ")");
}

void validate(const Lesson& lesson, const RunOptions& opts) {
  if (opts.inputs) {
    parse_inputs(*opts.inputs);
    if (!has_inputs(lesson)) throw UsageError("lesson '" + lesson.name() + "' has no `inputs = torch.tensor(...)` matrix, so --inputs does not apply to it");
  }
  if (opts.seed) {
    validate_seed(*opts.seed);
    if (!has_seed(lesson)) throw UsageError("lesson '" + lesson.name() + "' sets no seed, so --seed does not apply to it");
  }
  if (opts.sentence) {
    validate_sentence(*opts.sentence);
    if (!has_sentence(lesson)) throw UsageError("lesson '" + lesson.name() + "' has no input sentence, so --sentence does not apply to it");
  }
}

std::string apply_options(const std::string& code, const RunOptions& opts) {
  std::string out = code;
  if (opts.inputs) {
    auto [begin, end] = find_inputs_literal(out);
    if (begin != std::string::npos) out = out.substr(0, begin) + inputs_literal(parse_inputs(*opts.inputs)) + out.substr(end);
  }
  if (opts.seed) out = std::regex_replace(out, kSeedCall, "torch.manual_seed(" + *opts.seed + ")");
  if (opts.sentence) {
    std::istringstream in(out);
    std::string result;
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_match(line, m, kSentence)) line = m[1].str() + print::py_str_repr(*opts.sentence);
      result += line + "\n";
    }
    out = result;
  }
  return out;
}

core::CpuKernels effective_cpu(const Lesson& lesson, const RunOptions& opts) {
  if (opts.cpu) return *opts.cpu;
  auto it = lesson.meta.find("cpu");
  return it != lesson.meta.end() && it->second == "scalar" ? core::CpuKernels::scalar : core::CpuKernels::avx2;
}

core::DropoutRng effective_rng(const Lesson& lesson, const RunOptions& opts) {
  if (opts.rng) return *opts.rng;
  auto it = lesson.meta.find("rng");
  return it != lesson.meta.end() && it->second == "portable" ? core::DropoutRng::portable : core::DropoutRng::mkl;
}

LessonRun run_lesson(const Lesson& lesson, const RunOptions& opts) {
  validate(lesson, opts);
  core::set_cpu_kernels(effective_cpu(lesson, opts));
  Interpreter in;
  in.dropout_rng = effective_rng(lesson, opts);
  LessonRun run;
  run.lesson = &lesson;
  run.cpu = effective_cpu(lesson, opts);
  run.rng = in.dropout_rng;
  for (const Step& s : lesson.steps) {
    StepRun sr;
    sr.step = &s;
    for (const Cell& c : s.cells) {
      CellRun cr;
      cr.cell = &c;
      cr.code = apply_options(c.code, opts);
      try {
        in.run_cell(cr.code, lesson.meta.count("echo") > 0);
      } catch (const ScriptError& e) {
        throw LessonFileError(fmt::format("{}:{}: {}", lesson.path, c.line + e.line - 1, e.what()));
      }
      cr.output = in.take_output();
      cr.printed = std::move(in.printed);
      in.printed.clear();
      sr.cells.push_back(cr);
    }
    run.steps.push_back(sr);
  }
  return run;
}

// ---- rendering ----

namespace {

std::string indent_code(const std::string& code) {
  std::istringstream in(code);
  std::string out;
  for (std::string line; std::getline(in, line);) out += (line.empty() ? "" : "    " + line) + "\n";
  return out;
}

std::vector<std::string> words_without_commas(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The text of a one-line Python string literal 'abc' or "abc" (the escapes py_str_repr writes).
std::string unquote(const std::string& literal) {
  std::string out;
  for (size_t k = 1; k + 1 < literal.size(); ++k) {
    if (literal[k] == '\\' && k + 2 < literal.size()) {
      char e = literal[++k];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
    } else {
      out += literal[k];
    }
  }
  return out;
}

// ---- heatmaps: the pictures under each cell, decided over the whole run ----

constexpr int64_t kMaxHeatmapTokens = 32;

struct HeatmapPictures {
  std::map<const CellRun*, std::string> under;   // what to draw under a cell's output
};

HeatmapPictures heatmap_pictures(const LessonRun& run, bool color) {
  std::vector<std::string> tokens = lesson_tokens(run);
  print::HeatmapStyle style;
  style.color = color;
  HeatmapPictures out;
  std::map<std::pair<int64_t, int64_t>, print::HeatmapPanel> last_unmasked;   // by (rows, cols)
  for (const StepRun& s : run.steps) {
    for (const CellRun& c : s.cells) {
      std::vector<print::HeatmapPanel> panels;
      for (const PrintedValue& p : c.printed) {
        if (p.value.kind != Value::Tensor) continue;
        const core::Tensor& t = as_tensor(p.value);
        std::vector<print::WeightMatrix> mats = print::attention_matrices(t);
        std::string name = p.name.empty() ? "(printed)" : p.name;
        for (size_t b = 0; b < mats.size(); ++b) {
          if (mats[b].rows > kMaxHeatmapTokens || mats[b].cols > kMaxHeatmapTokens) break;
          print::HeatmapPanel panel;
          panel.title = t.dim() == 3 ? fmt::format("{}[{}]", name, b) : name;
          panel.m = std::move(mats[b]);
          panel.row_labels = panel.col_labels = tokens;
          panels.push_back(std::move(panel));
        }
      }
      if (panels.empty()) continue;
      // Masked vs unmasked: a lone masked matrix goes beside the last unmasked one of its shape.
      auto key = [](const print::HeatmapPanel& p) { return std::make_pair(p.m.rows, p.m.cols); };
      std::vector<print::HeatmapPanel> shown = panels;
      if (panels.size() == 1 && print::has_masked(panels[0].m) && last_unmasked.count(key(panels[0])))
        shown.insert(shown.begin(), last_unmasked.at(key(panels[0])));
      for (const print::HeatmapPanel& p : panels) {
        if (print::has_masked(p.m)) continue;
        print::HeatmapPanel earlier = p;
        earlier.title = fmt::format("{}, step '{}'", p.title, s.step->id);
        last_unmasked[key(p)] = earlier;
      }
      out.under[&c] = print::render_heatmaps(shown, style);
    }
  }
  return out;
}

std::string render_step(const StepRun& sr, size_t number, size_t count, const DisplayOptions& d,
                        const HeatmapPictures& pictures) {
  auto picture = [&](const CellRun& c) {
    auto it = pictures.under.find(&c);
    return it == pictures.under.end() ? std::string() : "\n" + it->second;
  };
  if (d.quiet) {
    std::string out;
    for (const CellRun& c : sr.cells) out += c.output + picture(c);
    return out;
  }
  const Step& s = *sr.step;
  std::string head = fmt::format("── {}/{} {}: {} ", number, count, s.id, s.title);
  size_t width = 0;   // in code points: the heading has box-drawing and Greek letters
  for (unsigned char ch : head) width += (ch & 0xC0) != 0x80;
  std::string out = "\n" + head;
  for (size_t k = width; k < 80; ++k) out += "─";
  out += "\n";
  if (!s.prose.empty()) out += "\n" + s.prose + "\n";
  for (const CellRun& c : sr.cells) {
    out += c.cell->setup ? "\nIn (setup from earlier lessons, so this one runs on its own):\n" : "\nIn:\n";
    out += indent_code(c.code);
    if (!c.output.empty()) out += "\nOut:\n" + c.output + picture(c);
    if (!c.cell->note.empty()) out += "\n" + c.cell->note;
  }
  return out;
}

}  // namespace

std::vector<std::string> lesson_tokens(const LessonRun& run) {
  for (const StepRun& s : run.steps)
    for (const CellRun& c : s.cells) {
      std::istringstream in(c.code);
      for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, kSentence)) continue;
        std::string rest = line.substr(static_cast<size_t>(m.length(1)));
        size_t end = rest.find_last_of(m[2].str());
        return words_without_commas(unquote(rest.substr(0, end + 1)));
      }
    }
  auto it = run.lesson->meta.find("tokens");
  return it == run.lesson->meta.end() ? std::vector<std::string>{} : words_without_commas(it->second);
}

std::string render(const LessonRun& run, const std::string& only_step, int lesson_number, int lesson_count,
                   const DisplayOptions& display) {
  const Lesson& l = *run.lesson;
  HeatmapPictures pictures;
  if (display.heatmap) pictures = heatmap_pictures(run, display.color);
  std::string out = fmt::format("{}\nLesson {} of {} ({}) · attn lesson {}\nFollows: {}", l.title, lesson_number, lesson_count,
                                l.meta.at("group"), l.name(), l.meta.at("source"));
  if (l.meta.count("section")) out += ", section \"" + l.meta.at("section") + "\"";
  bool scalar = run.cpu == core::CpuKernels::scalar;
  // Only a lesson whose source printed tensors declares `cpu:`; the claim is made only then.
  bool declared = l.meta.count("cpu") && l.meta.at("cpu") == (scalar ? "scalar" : "avx2");
  out += fmt::format("\nNumbers: computed as PyTorch 1.13 does with its {} CPU kernels{}; `--cpu {}` for {}\n",
                     scalar ? "scalar" : "AVX2", declared ? ", as on the machine the source was printed on" : "",
                     scalar ? "avx2" : "scalar", scalar ? "x86-64 with AVX2" : "Apple Silicon and other ARM builds");
  if (l.meta.count("rng")) {
    bool mkl = run.rng == core::DropoutRng::mkl;
    out += fmt::format("Dropout: masks as PyTorch {}{}; `--rng {}` for {}\n",
                       mkl ? "builds with MKL draw them on Intel CPUs" : "draws them on every build without MKL on Intel",
                       (l.meta.at("rng") == "mkl") == mkl ? ", as the source was printed" : "",
                       mkl ? "portable" : "mkl", mkl ? "Apple Silicon, AMD CPUs and Debian's package" : "the x86-64 pip wheels on Intel CPUs");
  }
  if (!l.intro.empty() && only_step.empty()) out += "\n" + l.intro + "\n";
  if (display.quiet) out.clear();   // the cells' outputs only
  bool found = only_step.empty();
  bool shown_one = false;
  for (size_t k = 0; k < run.steps.size(); ++k) {
    if (!only_step.empty() && run.steps[k].step->id != only_step) continue;
    found = true;
    // Between two shown steps, unless nothing was shown since the last pause (--quiet, a step
    // that printed nothing).
    if (shown_one && display.pause && display.on_pause && !out.empty()) {
      if (!display.on_pause(out)) return "";
      out.clear();
    }
    shown_one = true;
    if (!only_step.empty() && k > 0 && !display.quiet)
      out += fmt::format("\n(The {} step{} before this one ran too, silently: `attn lesson {}` shows them.)\n", k, k == 1 ? "" : "s", l.name());
    out += render_step(run.steps[k], k + 1, run.steps.size(), display, pictures);
  }
  if (!found) {
    std::string ids;
    for (const Step& s : l.steps) ids += (ids.empty() ? "" : ", ") + s.id;
    throw UsageError("lesson '" + l.name() + "' has no step '" + only_step + "' (its steps: " + ids + ")");
  }
  return out;
}

// ---- catalogue ----

std::string lesson_dir() {
  if (const char* env = std::getenv("ATTN_LESSON_DIR"); env && *env) return env;
  return ATTN_DEFAULT_LESSON_DIR;
}

std::vector<Lesson> load_catalog(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error("lesson directory '" + dir + "' does not exist (set ATTN_LESSON_DIR to the lessons/ folder)");
  std::vector<std::string> paths;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".lesson") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<Lesson> out;
  for (const std::string& p : paths) out.push_back(read_lesson(p));
  static const std::vector<std::string> groups = {"article", "book", "concepts"};
  auto rank = [](const Lesson& l) {
    auto g = std::find(groups.begin(), groups.end(), l.meta.at("group"));
    return std::make_pair(g - groups.begin(), std::atoi(l.meta.at("order").c_str()));
  };
  std::stable_sort(out.begin(), out.end(), [&](const Lesson& a, const Lesson& b) { return rank(a) < rank(b); });
  return out;
}

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] != b[j - 1])});
      prev = cur;
    }
  }
  return row[b.size()];
}

}  // namespace

const Lesson& find_lesson(const std::vector<Lesson>& all, const std::string& name) {
  for (const Lesson& l : all)
    if (l.name() == name) return l;
  std::vector<std::pair<size_t, std::string>> near;
  for (const Lesson& l : all) {
    size_t d = edit_distance(name, l.name());
    if (d <= std::max<size_t>(2, name.size() / 3) || l.name().find(name) != std::string::npos) near.emplace_back(d, l.name());
  }
  std::sort(near.begin(), near.end());
  std::string msg = "no lesson named '" + name + "'";
  if (!near.empty()) {
    msg += "; did you mean ";
    for (size_t k = 0; k < std::min<size_t>(near.size(), 3); ++k) msg += (k ? ", '" : "'") + near[k].second + "'";
    msg += "?";
  }
  throw UsageError(msg + " (`attn list` shows all lessons)");
}

// ---- verify ----

std::string strip_grad_fn(const std::string& printed) {
  static const std::regex suffix(R"(,(\n {7}| )grad_fn=<\w+>\))");
  return std::regex_replace(printed, suffix, ")");
}

std::vector<CellCheck> verify(const LessonRun& run) {
  std::vector<CellCheck> out;
  for (const StepRun& s : run.steps) {
    int n = 0;
    for (const CellRun& c : s.cells) {
      ++n;
      if (!c.cell->has_expected) continue;
      CellCheck check;
      check.where = run.lesson->name() + "/" + s.step->id + (s.cells.size() > 1 ? fmt::format("#{}", n) : "");
      check.match = c.output == c.cell->expected;
      if (!check.match && c.cell->omits_grad_fn && strip_grad_fn(c.output) == c.cell->expected) {
        check.match = true;
        check.remark = "the article's printout omits the grad_fn suffix PyTorch prints (erratum noted in the lesson)";
      }
      if (!check.match) {
        std::istringstream e(c.cell->expected), a(c.output);
        std::string le, la;
        bool more_e = true, more_a = true;
        while ((more_e = static_cast<bool>(std::getline(e, le))), (more_a = static_cast<bool>(std::getline(a, la))), more_e || more_a) {
          if (more_e && more_a && le == la) continue;
          if (more_e) check.diff += "    - " + le + "\n";
          if (more_a) check.diff += "    + " + la + "\n";
        }
      }
      out.push_back(check);
    }
  }
  return out;
}

}  // namespace attn::lesson
