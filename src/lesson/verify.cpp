// lesson/verify.cpp: comparing a run's printouts with the article's (see verify.h).
#include "lesson/verify.h"

#include <fmt/format.h>

#include <cctype>
#include <sstream>

namespace attn::lesson {

namespace {

// The length of a grad_fn suffix that starts at `at` (a comma): ",\n       grad_fn=<Name>)" (the
// line PyTorch wraps it onto, 7 spaces) or ", grad_fn=<Name>)"; 0 if none starts there.
// Hand-written, not std::regex: <regex> cost this file 7-12 s of compile time in each build.
size_t grad_fn_suffix(const std::string& s, size_t at) {
  size_t i = at + 1;
  if (s.compare(i, 8, "\n       ") == 0) i += 8;
  else if (s.compare(i, 1, " ") == 0) i += 1;
  else return 0;
  if (s.compare(i, 9, "grad_fn=<") != 0) return 0;
  size_t name = i += 9;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  if (i == name || s.compare(i, 2, ">)") != 0) return 0;
  return i + 2 - at;
}

}  // namespace

std::string strip_grad_fn(const std::string& printed) {
  std::string out;
  for (size_t at = 0; at < printed.size();) {
    size_t n = printed[at] == ',' ? grad_fn_suffix(printed, at) : 0;
    if (n > 0) out += ')', at += n;
    else out += printed[at++];
  }
  return out;
}

std::vector<CellCheck> verify(const LessonRun& run) {
  std::vector<CellCheck> out;
  for (const StepRun& s : run.steps) {
    int n = 0;
    for (const CellRun& c : s.cells) {
      ++n;
      if (!c.cell->has_expected && !c.error) continue;
      CellCheck check;
      // "#n" where the step has several cells (counted in the lesson: a failed step ran fewer).
      check.where = run.lesson->name() + "/" + s.step->id + (s.step->cells.size() > 1 ? fmt::format("#{}", n) : "");
      if (c.error) {
        check.error = c.error;
        out.push_back(check);
        continue;
      }
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

size_t compared_cells_not_run(const LessonRun& run) {
  if (!run.failed_cell()) return 0;
  const std::vector<Step>& steps = run.lesson->steps;
  size_t step = run.steps.size() - 1, after = run.steps.back().cells.size();   // the cells after the failed one
  size_t n = 0;
  for (size_t k = step; k < steps.size(); ++k)
    for (size_t j = k == step ? after : 0; j < steps[k].cells.size(); ++j) n += steps[k].cells[j].has_expected;
  return n;
}

}  // namespace attn::lesson
