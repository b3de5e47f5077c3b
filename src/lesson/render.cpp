// lesson/render.cpp: the walkthrough text and its heatmaps (see render.h).
#include "lesson/render.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "print/heatmap.h"
#include "print/wrap.h"

namespace attn::lesson {

using torch::Printed;

namespace {

// attn's own text (headers, rules, prose, notes) is at most kTextMeasure columns, the width the
// lessons are written to, so a wide terminal's rules end where the prose does; heatmaps side by
// side use the whole width.
constexpr int kTextMeasure = 80;
int text_width(const DisplayOptions& d) { return std::min(d.width, kTextMeasure); }

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

// ---- heatmaps: the pictures under each cell, decided over the whole run ----

constexpr int64_t kMaxHeatmapTokens = 32;

struct HeatmapPictures {
  std::map<const CellRun*, std::string> under;   // what to draw under a cell's output
};

HeatmapPictures heatmap_pictures(const LessonRun& run, bool color, int width) {
  std::vector<std::string> tokens = lesson_tokens(run);
  print::HeatmapStyle style;
  style.color = color;
  style.width = width;
  HeatmapPictures out;
  std::map<std::pair<int64_t, int64_t>, print::HeatmapPanel> last_unmasked;   // by (rows, cols)
  for (const StepRun& s : run.steps) {
    for (const CellRun& c : s.cells) {
      std::vector<print::HeatmapPanel> panels;
      for (const Printed& p : c.printed) {
        if (!p.is_tensor()) continue;
        const core::Tensor& t = p.tensor();
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
  const int width = text_width(d);
  // The heading is ruled to the width; a title too long for it wraps under its first word.
  const std::string rule = print::glyph("─", "-");
  std::string head = fmt::format("{}{} {}/{} {}: {}", rule, rule, number, count, s.id, s.title);
  std::string out = "\n";
  // A block of attn's own text, fitted to the width, after a blank line.
  auto block = [&out](const std::string& text) {
    out += '\n';
    out += text;
    out += '\n';
  };
  if (print::visible_width(head) + 1 <= width) {
    out += head + " ";
    for (int k = print::visible_width(head) + 1; k < width; ++k) out += rule;
    out += '\n';
  } else {
    out += print::wrap_line(head, width, 3) + "\n";
  }
  if (!sr.prose.empty()) block(print::wrap_prose(sr.prose, width, paragraphs_with_values(s.prose_parts)));
  for (const CellRun& c : sr.cells) {
    block(print::wrap_line(c.cell->setup ? "In (setup from earlier lessons, so this one runs on its own):" : "In:", width));
    out += indent_code(c.code);   // never wrapped: the code shown is the code run
    if (!c.output.empty()) out += "\nOut:\n" + c.output + picture(c);   // PyTorch's layout, never wrapped
    // A failed cell shows what it printed before the error; its note is about the whole output.
    if (!c.note.empty() && !c.error) block(print::wrap_prose(c.note, width, paragraphs_with_values(c.cell->note_parts)));
  }
  return out;
}

}  // namespace

std::string source_credit(const LessonHeader& h) {
  std::string title = "\"" + h.source + "\"";
  return h.author ? *h.author + ", " + title : title + " (author not known)";
}

std::vector<std::string> about_lines(const LessonRun& run) {
  const Lesson& l = *run.lesson;
  std::vector<std::string> out;
  bool scalar = run.cpu == core::CpuKernels::scalar;
  // Only a lesson whose source printed tensors declares `cpu:`; the claim is made only then.
  bool declared = l.header.cpu == run.cpu;
  out.push_back(fmt::format("Numbers: computed as PyTorch 1.13 does with its {} CPU kernels{}; `--cpu {}` for {}",
                            scalar ? "scalar" : "AVX2", declared ? ", as on the machine the source was printed on" : "",
                            scalar ? "avx2" : "scalar", scalar ? "x86-64 with AVX2" : "Apple Silicon and other ARM builds"));
  // attn's matrix products add in the reference BLAS's order (docs/pytorch-numerics.md); other
  // libraries' orders change last bits, which no lesson's verdict depends on (tools/check_blas.py).
  out.push_back("BLAS: matrix products add up in the order of the reference BLAS (Debian's PyTorch with libblas3); "
                "OpenBLAS, MKL and Accelerate add in other orders, which can change a last printed digit");
  if (l.header.rng) {
    bool mkl = run.rng == core::DropoutRng::mkl;
    out.push_back(fmt::format("Dropout: masks as PyTorch {}{}; `--rng {}` for {}",
                              mkl ? "builds with MKL draw them on Intel CPUs" : "draws them on every build without MKL on Intel",
                              l.header.rng == run.rng ? ", as the source was printed" : "", mkl ? "portable" : "mkl",
                              mkl ? "Apple Silicon, AMD CPUs and Debian's package" : "the x86-64 pip wheels on Intel CPUs"));
  }
  return out;
}

std::vector<std::string> lesson_tokens(const LessonRun& run) {
  const Lesson& l = *run.lesson;
  if (l.sentence) return words_without_commas(run.sentence.value_or(*l.sentence));   // --sentence replaced it, or not
  return l.header.tokens ? words_without_commas(*l.header.tokens) : std::vector<std::string>{};
}

std::string render(const LessonRun& run, const std::string& only_step, int lesson_number, int lesson_count,
                   const DisplayOptions& display) {
  const Lesson& l = *run.lesson;
  if (!only_step.empty()) require_step(l, only_step);
  const std::string& first = only_step.empty() ? display.from_step : only_step;   // the first step shown
  if (!first.empty()) require_step(l, first);
  HeatmapPictures pictures;
  if (display.heatmap) pictures = heatmap_pictures(run, display.color, display.width);
  // Each header line wraps with a hanging indent under its first word after the label.
  const int width = text_width(display);
  auto line = [&](const std::string& text, int indent) { return print::wrap_line(text, width, indent) + "\n"; };
  std::string out = line(l.title, 0);
  const std::string dot = print::glyph("·", "-");
  const std::string command = display.file.empty() ? "attn lesson " + l.name() : "attn run " + display.file;
  out += line(display.file.empty() ? fmt::format("Lesson {} of {} ({}) {} {}", lesson_number, lesson_count, to_string(l.header.group), dot, command)
                                   : fmt::format("Lesson file {} {} {}", display.file, dot, command),
              0);
  // The source, one link away: who wrote it and where it is, in at most three lines at 80
  // columns; its section too when it fits in them (`attn list` and the JSON always have it).
  const std::string credit = "Source: " + source_credit(l.header);
  std::string source = line(credit + (l.header.section ? ", section \"" + *l.header.section + "\"" : ""), 8);
  const int url_lines = l.header.url ? 1 : 0;
  if (std::count(source.begin(), source.end(), '\n') + url_lines > 3) source = line(credit, 8);
  out += source;
  if (l.header.url) out += std::string(8, ' ') + *l.header.url + "\n";   // never wrapped: one word to click or copy
  if (display.about)
    for (const std::string& a : about_lines(run)) out += line(a, static_cast<int>(a.find(' ') + 1));
  if (!run.intro.empty() && first.empty()) {
    out += '\n';
    out += print::wrap_prose(run.intro, width);
    out += '\n';
  }
  if (display.quiet) out.clear();   // the cells' outputs only
  bool shown_one = false, started = first.empty();
  for (size_t k = 0; k < run.steps.size(); ++k) {
    started = started || run.steps[k].step->id == first;
    if (!started || (!only_step.empty() && run.steps[k].step->id != only_step)) continue;
    if (display.on_step) display.on_step(k);
    // Between two shown steps, unless nothing was shown since the last pause (--quiet, a step
    // that printed nothing).
    if (shown_one && display.pause && display.on_pause && !out.empty()) {
      if (!display.on_pause(out)) return "";
      out.clear();
    }
    shown_one = true;
    if (!first.empty() && run.steps[k].step->id == first && k > 0 && !display.quiet) {
      out += '\n';
      out += line(fmt::format("(The {} step{} before this one ran too, silently: `{}` shows them.)", k, k == 1 ? "" : "s", command), 1);
    }
    out += render_step(run.steps[k], k + 1, run.lesson->steps.size(), display, pictures);
  }
  return out;
}

}  // namespace attn::lesson
