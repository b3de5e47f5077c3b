// lesson/verify.h: `attn verify`: does each cell print what the article printed under it (the
// cell's ```output)? Exact text; the only allowance is the erratum a lesson declares (an article
// printout that omits PyTorch's grad_fn suffix).
//
// What it is: a check per compared cell of a LessonRun (run.h), with a line diff when it differs.
// What it is not: grading a student's answer (lab/grade.h) or the report (cli/cmd_verify.cpp,
// json_run.h).
#pragma once

#include <string>
#include <vector>

#include "lesson/run.h"

namespace attn::lesson {

struct CellCheck {
  std::string where;     // "causal/weights"
  bool match = false;
  std::string diff;      // "-expected\n+actual" lines when it differs
  std::string remark;    // why a match needed the article's declared erratum, if it did
};

// What print() wrote, without the `grad_fn=<...>` suffixes (and the line break PyTorch puts
// before a suffix that does not fit): what the article shows where it omitted them.
std::string strip_grad_fn(const std::string& printed);
std::vector<CellCheck> verify(const LessonRun& run);

}  // namespace attn::lesson
