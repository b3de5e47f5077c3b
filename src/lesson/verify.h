// lesson/verify.h: `attn verify`: does each cell print what the article printed under it (the
// cell's ```output)? Exact text; the only allowance is the erratum a lesson declares (an article
// printout that omits PyTorch's grad_fn suffix).
//
// What it is: a check per compared cell of a LessonRun (run.h), with a line diff when it differs.
// What it is not: grading a student's answer (lab/grade.h) or the report (cli/cmd_verify.cpp,
// json_run.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lesson/run.h"

namespace attn::lesson {

struct CellCheck {
  std::string where;     // "causal/weights"
  bool match = false;
  std::string diff;      // "-expected\n+actual" lines when it differs
  std::string remark;    // why a match needed the article's declared erratum, if it did
  std::optional<CellError> error;   // the cell failed (match is false): status "error"
};

// What print() wrote, without the `grad_fn=<...>` suffixes (and the line break PyTorch puts
// before a suffix that does not fit): what the article shows where it omitted them.
std::string strip_grad_fn(const std::string& printed);
// One check per cell that has the article's ```output, in order; and for a run a cell's error
// stopped (run_until_error), one for the failing cell (with `error`, whether or not the article
// printed something under it), last.
std::vector<CellCheck> verify(const LessonRun& run);

// How many cells with the article's ```output never ran because an earlier cell failed (0 when
// the run is whole).
size_t compared_cells_not_run(const LessonRun& run);

}  // namespace attn::lesson
