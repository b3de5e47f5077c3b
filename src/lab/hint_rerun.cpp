// lab/hint_rerun.cpp: the re-run family (draw_order, seed, options, cpu, rng): the lesson run
// again, up to the graded step, with one change: the draws in another order, a seed call left
// out, without the options given, the other kernels or dropout generator (see hints.h).
// What it is not: a hint built from printed tensors (the other hint_*.cpp files).
#include "lab/hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <numeric>
#include <optional>
#include <sstream>

#include "core/cpu.h"
#include "lab/report.h"
#include "lesson/code_scan.h"

namespace attn::lab {

using lesson::Lesson;
using lesson::LessonRun;
using lesson::RunOptions;
using lesson::apply_options;
using lesson::run_lesson;

namespace {

class Rerun {
 public:
  Rerun(const LessonRun& run, const Target& t, const RunOptions& opts) : run_(run), t_(t), opts_(opts) {}

  // The target's value when the lesson (up to the target's step) runs with `change` applied.
  std::optional<Arr> with(const std::function<void(Lesson&)>& change, const RunOptions& opts) {
    if (++count_ > 40) return std::nullopt;
    std::optional<Arr> out;
    try {
      Lesson copy = *run_.lesson;
      copy.steps.resize(t_.step + 1);
      change(copy);
      LessonRun r = run_lesson(copy, opts);
      auto vals = printed_in(r.steps.at(t_.step));
      if (t_.index < vals.size() && vals[t_.index]->is_tensor()) out = to_arr(vals[t_.index]->tensor());
    } catch (...) {   // a change the lesson's code cannot run with is simply not the student's mistake
    }
    return out;
  }
  std::optional<Arr> with(const std::function<void(Lesson&)>& change) { return with(change, opts_); }

 private:
  const LessonRun& run_;
  const Target& t_;
  const RunOptions& opts_;
  int count_ = 0;
};

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// True if `code` calls one of the drawing functions: the name at a word's start, then spaces, then
// "(" (hand-written, not std::regex: <regex> cost this file 7-12 s of compile time per build).
bool calls_a_draw(const std::string& code) {
  static const char* const kDraws[] = {"torch.rand", "torch.randn", "torch.randint", "torch.rand_like",
                                       "torch.randn_like", "torch.randperm", "torch.normal", "torch.bernoulli",
                                       "torch.multinomial", "nn.Linear", "nn.Embedding"};
  for (const char* name : kDraws) {
    const size_t n = std::char_traits<char>::length(name);
    for (size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
      if (at > 0 && is_word_char(code[at - 1])) continue;
      size_t after = code.find_first_not_of(" \t\n\v\f\r", at + n);
      if (after != std::string::npos && code[after] == '(') return true;
    }
  }
  return false;
}

// A one-line statement that draws random numbers: torch.rand(...), nn.Linear(...), ...
bool draws(const std::string& line) {
  std::string code = line.substr(0, line.find('#'));
  return calls_a_draw(code) && std::count(code.begin(), code.end(), '(') == std::count(code.begin(), code.end(), ')');
}

std::string draw_label(const std::string& line) {
  std::string code = trim(line.substr(0, line.find('#')));
  size_t eq = code.find('=');
  return eq != std::string::npos && code.find('(') > eq ? trim(code.substr(0, eq)) : code;
}

size_t indent_of(const std::string& l) { return l.find_first_not_of(" \t"); }

bool matches(const HintContext& c, const std::optional<Arr>& a) { return a && close_all(c.answer, *a, c.tol); }

// The blocks of 2 or more consecutive draw statements of one indentation (comments and blank
// lines between them allowed), as line numbers.
std::vector<std::vector<size_t>> draw_blocks(const std::vector<std::string>& lines) {
  std::vector<std::vector<size_t>> blocks;
  std::vector<size_t> cur;
  for (size_t k = 0; k < lines.size(); ++k) {
    std::string tl = trim(lines[k]);
    if (tl.empty() || tl[0] == '#') continue;
    if (draws(lines[k]) && (cur.empty() || indent_of(lines[cur.back()]) == indent_of(lines[k]))) {
      cur.push_back(k);
      continue;
    }
    if (cur.size() >= 2) blocks.push_back(cur);
    cur.clear();
    if (draws(lines[k])) cur.push_back(k);
  }
  if (cur.size() >= 2) blocks.push_back(cur);
  return blocks;
}

// The other orders of n draws: every permutation up to 4, else each swap of two neighbours.
std::vector<std::vector<size_t>> other_orders(size_t n) {
  std::vector<std::vector<size_t>> orders;
  std::vector<size_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  if (n <= 4) {
    while (std::next_permutation(perm.begin(), perm.end())) orders.push_back(perm);
  } else {
    for (size_t k = 0; k + 1 < n; ++k) {
      std::vector<size_t> p(perm);
      std::swap(p[k], p[k + 1]);
      orders.push_back(p);
    }
  }
  return orders;
}

// The draws of cell (si, ci) in another order; true when one reproduces the answer.
bool draw_order_in_cell(const HintContext& c, Rerun& rerun, size_t si, size_t ci, Hints& h) {
  const Lesson& l = *c.run.lesson;
  std::vector<std::string> lines = lines_of(l.steps[si].cells[ci].code);
  for (const auto& block : draw_blocks(lines))
    for (const auto& order : other_orders(block.size())) {
      auto a = rerun.with([&](Lesson& copy) {
        std::vector<std::string> changed = lines;
        for (size_t k = 0; k < block.size(); ++k) changed[block[k]] = lines[block[order[k]]];
        copy.steps[si].cells[ci].code = join_lines(changed);
      });
      if (!matches(c, a)) continue;
      std::vector<std::string> theirs, ours;
      for (size_t k = 0; k < block.size(); ++k) theirs.push_back(draw_label(lines[block[order[k]]])), ours.push_back(draw_label(lines[block[k]]));
      h.add(HintKind::draw_order, fmt::format("A different random draw order: your numbers are what the lesson computes when step '{}' "
                                              "draws {} in that order; the lesson draws {}. The generator hands out its numbers in "
                                              "sequence, so the order of the draws decides which matrix gets which numbers.",
                                              l.steps[si].id, join_names(theirs), join_names(ours)));
      return true;
    }
  return false;
}

// 1. The draws of one block in another order (W_key before W_query, ...).
void draw_order_hint(const HintContext& c, Rerun& rerun, Hints& h) {
  const Lesson& l = *c.run.lesson;
  for (size_t si = 0; si <= c.target.step; ++si)
    for (size_t ci = 0; ci < l.steps[si].cells.size(); ++ci)
      if (draw_order_in_cell(c, rerun, si, ci, h)) return;
}

// 2. A torch.manual_seed(...) left out.
void seed_hint(const HintContext& c, Rerun& rerun, Hints& h) {
  const Lesson& l = *c.run.lesson;
  for (size_t si = 0; si <= c.target.step; ++si)
    for (size_t ci = 0; ci < l.steps[si].cells.size(); ++ci) {
      std::vector<std::string> lines = lines_of(l.steps[si].cells[ci].code);
      for (size_t k = 0; k < lines.size(); ++k) {
        if (!lesson::is_seed_statement(lines[k])) continue;   // not std::regex: a 100,000-digit seed overflowed its stack
        auto a = rerun.with([&](Lesson& copy) {
          std::vector<std::string> changed = lines;
          changed[k] = lines[k].substr(0, indent_of(lines[k])) + "pass";
          copy.steps[si].cells[ci].code = join_lines(changed);
        });
        if (!matches(c, a)) continue;
        h.add(HintKind::seed, fmt::format("Your numbers are what the lesson computes without the `{}` in step '{}': re-seed right before "
                                          "the draws, as the lesson does, so that they start from the same point of the generator's sequence.",
                                          trim(apply_options(trim(lines[k]), c.opts)), l.steps[si].id));
        return;
      }
    }
}

// 3. The lesson's own seed, sentence or inputs instead of the ones the check was given.
void options_hint(const HintContext& c, Rerun& rerun, Hints& h) {
  const RunOptions& opts = c.opts;
  for (auto [field, flag] : {std::pair{&RunOptions::seed, "--seed"}, {&RunOptions::sentence, "--sentence"}, {&RunOptions::inputs, "--inputs"}}) {
    if (!(opts.*field)) continue;
    RunOptions o = opts;
    o.*field = std::nullopt;
    if (matches(c, rerun.with([](Lesson&) {}, o)))
      h.add(HintKind::options, fmt::format("Your numbers are what the lesson computes without `{} {}`, with the article's own {}: run your "
                                           "code with the {} this check was given.",
                                           flag, *(opts.*field), flag + 2, flag + 2));
  }
}

// 4. The other CPU kernel family, the other dropout generator.
void build_hints(const HintContext& c, Rerun& rerun, Hints& h) {
  RunOptions other = c.opts;
  bool scalar = c.run.cpu == core::CpuKernels::scalar;
  other.cpu = scalar ? core::CpuKernels::avx2 : core::CpuKernels::scalar;
  if (matches(c, rerun.with([](Lesson&) {}, other)))
    h.add(HintKind::cpu, fmt::format("Your numbers are what PyTorch's {} CPU kernels compute: grade with `--cpu {}` (the lesson's numbers "
                                     "come from the {} kernels; the families differ in the last digits of rand, randn and softmax).",
                                     scalar ? "AVX2" : "scalar", scalar ? "avx2" : "scalar", scalar ? "scalar" : "AVX2"));
  if (!c.run.lesson->header.rng) return;
  RunOptions o = c.opts;
  bool mkl = c.run.rng == core::DropoutRng::mkl;
  o.rng = mkl ? core::DropoutRng::portable : core::DropoutRng::mkl;
  if (matches(c, rerun.with([](Lesson&) {}, o)))
    h.add(HintKind::rng, fmt::format("Your numbers have the dropout mask of {}: grade with `--rng {}`.",
                                     mkl ? "PyTorch builds without MKL (Apple Silicon, AMD CPUs, Debian's package)"
                                         : "PyTorch's x86-64 pip wheels on Intel CPUs (MKL)",
                                     mkl ? "portable" : "mkl"));
}

}  // namespace

// One Rerun for all four: together they run the lesson at most 40 times.
void rerun_hints(const HintContext& c, Hints& h) {
  Rerun rerun(c.run, c.target, c.opts);
  draw_order_hint(c, rerun, h);
  seed_hint(c, rerun, h);
  options_hint(c, rerun, h);
  build_hints(c, rerun, h);
}

}  // namespace attn::lab
