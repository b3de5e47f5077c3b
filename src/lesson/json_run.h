// lesson/json_run.h: attn's machine-readable output (--format json): a lesson run, the lesson
// catalogue and verify's results as JSON documents, for teaching labs, graders and notebooks.
//
// What it is: one function per document, each a whole JSON text with "schema_version": 1,
// built from what run.h and verify.h already computed (LessonRun, CellCheck): nothing is
// re-run or re-printed here. The schema is documented, with an example, in docs/scripting.md
// ("`lesson`, `run`, `verify` and `list`"), and tests/test_json.cpp holds it to an exact golden text; a
// change that breaks a reader must bump kSchemaVersion.
// What it is not: the JSON writer (json.h) or the walkthrough text (render.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "lesson/json.h"
#include "lesson/run.h"
#include "lesson/verify.h"

namespace attn::lesson::json {

inline constexpr int kSchemaVersion = 1;

// ---- pieces ----

// The "value" of a printed value, as Python would hand it to json.dumps: a tensor as
// tensor.tolist() (nested lists of numbers, true/false for bool tensors, a bare number for a 0-d
// tensor; float32 at full precision, inf/nan as "inf"/"-inf"/"nan"), int / float / bool as
// numbers, torch.Size / list / tuple as arrays, a set as an array in the order Python iterates
// it, a dict as an object keyed by str(key), a dtype
// as its name ("torch.float32"); anything else (a module, a function) is null.
std::string value(const torch::PlainValue& v);

// {"name", "type", ["dtype", "shape", "requires_grad", "grad_fn",] "value", "text"}: a tensor
// has type "Tensor" and the bracketed keys; other values have their Python type name ("int",
// "float", "bool", "dict", "list", "tuple", "torch.Size", "torch.dtype", a class name).
std::string printed(const torch::Printed& p);

// {"name", "title", "group", "order", "source", "author", "url", "section"}: source is the title of
// what the lesson follows; author, url and section are null if the lesson has none.
Object lesson_header(const Lesson& l);

// {"seed", "sentence", "inputs", "rng", "cpu"}: the options as given, null where not set; the
// seed as an integer, the inputs as rows of numbers. Callers fill rng/cpu with effective values
// where one lesson ran (`RunOptions::rng` / `cpu` set from the LessonRun).
Object parameters(const RunOptions& opts);

// ---- documents (pretty-printed, ending in a newline) ----

// `attn lesson NAME --format json` (command "lesson") and `attn run FILE --format json`
// (command "run"): the lesson, its effective parameters, and every step (or only `only_step`,
// UsageError if the lesson has no such step) with its cells, their output and printed values.
// A run a cell's error stopped (run_until_error) holds the steps and cells that ran, the failing
// cell last with "error": {"line", "message"}, and a top-level "error": {"file", "line", "step",
// "cell", "message"}; neither key is present when every cell ran.
std::string lesson_document(const std::string& command, const LessonRun& run, const RunOptions& opts,
                            const std::string& only_step);
// The same document written into `os`; a long string (a cell's output) is escaped straight into
// it, a chunk at a time, and never copied into a document string: what `attn run` writes.
void write_lesson_document(std::ostream& os, const std::string& command, const LessonRun& run, const RunOptions& opts,
                           const std::string& only_step);

// `attn list --format json`: every lesson's header and step ids, in course order, one lesson a line.
std::string catalog_document(const std::vector<Lesson>& all);

// `attn verify --format json`: per lesson, per compared cell "match" or "differs" with the
// article's and attn's text, and a summary. With --seed / --sentence / --inputs nothing is
// compared ("compared": false), as in the text output. A lesson a cell's error stopped
// (run_until_error) has that cell with status "error" and its "error"; the summary then counts
// "error" and "not_run" (compared cells after it). Keys that report the unusual ("error",
// "not_run", "not_applied") are present only when it happened.
struct VerifiedLesson {
  LessonRun run;
  std::vector<CellCheck> checks;          // verify(run); only the failed cell's when nothing was compared
  std::vector<std::string> not_applied = {};   // options left out for this lesson: "seed", "sentence", "inputs"
};
std::string verify_document(const std::vector<VerifiedLesson>& lessons, const RunOptions& opts);
void write_verify_document(std::ostream& os, const std::vector<VerifiedLesson>& lessons, const RunOptions& opts);   // as above

}  // namespace attn::lesson::json
