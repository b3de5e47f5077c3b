// cli/cmd_check.cpp: `attn check LESSON --step STEP --answer FILE`: grade a student's tensor
// against the one the lesson's step prints, under the same options; `--code FILE` grades the
// variable an exercise file (`attn exercise`) computes. Exit 0 pass, 1 fail (also: the exercise's
// code failed), 2 bad input (main.cpp). With `--answers DIR`, every file of a class folder against
// one run of the lesson: a class report on stdout, exit 0 once it is written. The comparison and
// hints live in lab/grade.h, the file reader in lab/answer.h, the exercise's run in
// lab/exercise.h, the class report in lab/class_report.h.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "core/errors.h"
#include "lab/answer.h"
#include "lab/exercise.h"
#include "lab/class_report.h"
#include "lab/grade.h"
#include "lab/progress.h"
#include "lesson/catalog.h"
#include "lesson/run.h"
#include "print/tensor_str.h"
#include "print/wrap.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;
using namespace attn::lab;

struct CheckOptions {
  std::string name, step, answer, answers, code, expr, format = "text";
  int index = 0;
  Tolerance tol;
  InputOptions inputs;
};

// The numeric options' validators. CLI11's NonNegativeNumber and PositiveNumber let NaN through
// (NaN < 0 is false: --atol nan then failed every right answer) and name their bound as a
// 309-digit number ("not in range 0.000000 to 1797693134862315708...").
// "--atol: 'nan' is not a tolerance; give a finite number >= 0, such as 1e-4"
CLI::Validator tolerance(const char* example) {
  return CLI::Validator(
      [example](std::string& in) -> std::string {
        double v = 0;
        auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), v);
        if (ec == std::errc() && end == in.data() + in.size() && std::isfinite(v) && v >= 0) return "";
        return print::py_str_repr(in) + " is not a tolerance; give a finite number >= 0, such as " + example;
      },
      "");   // no description: --help shows FLOAT, as before
}

// "--index: '0' is not a tensor's number; give 1 for the first tensor the step prints, 2 for the second, ..."
CLI::Validator tensor_number() {
  return CLI::Validator(
      [](std::string& in) -> std::string {
        int v = 0;
        auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), v);
        if (ec == std::errc() && end == in.data() + in.size() && v >= 1) return "";
        return print::py_str_repr(in) + " is not a tensor's number; give 1 for the first tensor the step prints, 2 for the second, ...";
      },
      "");
}

int grade_answer(const CheckOptions& o, const RunOptions& opts) {
  auto all = load_lessons();
  const Lesson& l = find_lesson(all, o.name);
  validate(l, opts);
  const std::string step = require_step(l, o.step).id;   // `--step 4`: the fourth step's id
  if (!o.code.empty()) {
    LessonRun run = run_lesson(l, opts);
    CodeGrade g = grade_code(run, step, opts, o.code, o.format, o.tol);
    std::cout << g.report;
    return g.pass ? 0 : 1;
  }
  Answer answer = read_answer(o.answer, /*allow_nan=*/true);   // a NaN is graded: it matches only a NaN of the lesson's
  LessonRun run = run_lesson(l, opts);
  Target target = select_target(run, step, o.expr, o.index);
  Grade g = grade(run, target, answer, o.tol, opts);
  std::cout << (o.format == "json" ? format_json(g, answer, o.tol, run, opts)
                                   : format_text(g, target, answer, o.tol, opts, static_cast<size_t>(output_width())));
  return g.pass ? 0 : 1;
}

// True when stdout and stderr are the same file, terminal or pipe (`2>&1`, or both on the
// terminal): a message already in the report on stdout would then be read twice.
bool stderr_is_stdout() {
  struct stat out {}, err {};
  return fstat(STDOUT_FILENO, &out) == 0 && fstat(STDERR_FILENO, &err) == 0 && out.st_dev == err.st_dev && out.st_ino == err.st_ino;
}

// A grading loop saves stdout as the student's feedback: when the answer cannot be graded (a
// malformed file, an unknown step or option), the report says why there too, in the format asked
// for; the error then goes on to main(), for its line on stderr and its exit code, unless stderr
// is where the report just went: then it is written once, and only the exit code goes on.
int run_check(const CheckOptions& o) {
  RunOptions opts = o.inputs.to_run();
  try {
    if (o.answer.empty() == o.code.empty())
      throw UsageError("give one answer to grade: --answer FILE (a tensor: .npy or a text table) or --code FILE (an exercise "
                       "file `attn exercise` made)");
    if (!o.code.empty() && (!o.expr.empty() || o.index != 0))
      throw UsageError("--name and --index choose among what a step prints, for --answer; --code grades the variable the "
                       "exercise asks for");
    return grade_answer(o, opts);
  } catch (const std::exception& e) {
    // The exercise's own code failed (exit 1): in text, its one line on stderr is the report.
    if (dynamic_cast<const CodeError*>(&e) && o.format != "json") throw;
    Request r{o.name, o.step, o.expr, o.code.empty() ? o.answer : o.code, opts, o.tol};
    std::string why = e.what();   // the whole message of attn's own errors (what() stops at a NUL)
    const auto* u = dynamic_cast<const UsageError*>(&e);
    const auto* l = dynamic_cast<const LessonFileError*>(&e);
    if (u) why = u->message();
    if (l) why = l->message();
    if (const auto* c = dynamic_cast<const CodeError*>(&e)) why = c->message();
    std::cout << (o.format == "json" ? format_error_json(r, why) : format_error_text(r, why, static_cast<size_t>(output_width())))
              << std::flush;
    if (std::cout && stderr_is_stdout()) return u || l ? 2 : 1;
    throw;
  }
}

// `--answers DIR`: the lesson runs once; each file is a line of the report whatever is wrong
// with it. Exit 0 when the report is written; 2 when DIR is not a readable folder with answer
// files, or the lesson, step or an option is wrong (one line on stderr, nothing on stdout).
int run_class(const CheckOptions& o) {
  RunOptions opts = o.inputs.to_run();
  auto all = load_lessons();
  const Lesson& l = find_lesson(all, o.name);
  validate(l, opts);
  const std::string step = require_step(l, o.step).id;   // `--step 4`: the fourth step's id
  std::vector<ClassFile> files = list_class_folder(o.answers);
  LessonRun run = run_lesson(l, opts);
  Target target = select_target(run, step, o.expr, o.index);
  // A student's .py file runs as `check --code` runs it (its own session, the cells' limits);
  // unlike `check --code`, nothing is recorded in the instructor's progress.
  CodeAnswer code = [&run](const Lesson&, const std::string& id, const RunOptions& ro, const std::string& path) {
    return answer_from_code(run, id, ro, path);
  };
  ClassReport report = grade_class(run, target, files, o.answers, o.tol, opts, code);
  std::cout << (o.format == "json"  ? format_class_json(report)
                : o.format == "csv" ? format_class_csv(report)
                                    : format_class_text(report, static_cast<size_t>(output_width())));
  return 0;
}

int run_check_or_class(const CheckOptions& o) {
  if (o.answer.empty() && o.answers.empty() && o.code.empty())   // (two given: CLI11's "--answer excludes --answers")
    throw UsageError("give the answer to grade: --answer FILE (a tensor), --code FILE (an exercise `attn exercise` made), or "
                     "--answers DIR for a class folder");
  if (!o.answers.empty()) return run_class(o);
  if (o.format == "csv") throw UsageError("--format csv is for --answers DIR (one row per student); --answer takes text or json");
  return run_check(o);
}

}  // namespace

void exercise_passed(const std::string& lesson, const std::string& step) { lab::record_exercise_passed(lesson, step); }

namespace {

// A failing exercise checked with other options than its header's: say so (a --seed forgotten
// fails every element, and no hint names it). "" when they agree or the file has no header.
std::string options_note(const std::string& file, const RunOptions& opts) {
  std::ifstream in(file, std::ios::binary);
  std::string head(1 << 14, '\0');
  head.resize(static_cast<size_t>(in.read(head.data(), static_cast<std::streamsize>(head.size())).gcount()));
  auto h = read_exercise_header(head);
  std::string given = option_words_for_shell(opts), made;
  for (const std::string& w : h ? h->option_words : std::vector<std::string>{}) made += " " + shell_quote(w);
  if (!h || made == given) return "";
  auto words = [](const std::string& w) { return w.empty() ? std::string("no options") : "`" + w.substr(1) + "`"; };
  std::string text = fmt::format("note: {} was made with {} (its header's `attn check` line), and this check ran with {}; check it "
                                 "with the same options, or with `attn watch {}`.",
                                 file, words(made), words(given), shell_quote(file));
  std::string out, wrapped = print::wrap_line(text, output_width() - 6);
  for (size_t at = 0; at < wrapped.size();) {
    size_t nl = std::min(wrapped.find('\n', at), wrapped.size());
    out += "      " + wrapped.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  return out;
}

}  // namespace

CodeGrade grade_code(const LessonRun& run, const std::string& step, const RunOptions& opts, const std::string& file,
                     const std::string& format, const Tolerance& tol) {
  std::string var = require_exercise(run, step);
  Answer answer = answer_from_code(run, step, opts, file);   // CodeError: the learner's code failed
  Target target = select_target(run, step, var);
  Grade g = grade(run, target, answer, tol, opts);
  if (g.pass) exercise_passed(run.lesson->name(), step);
  if (format == "json") return {g.pass, format_json(g, answer, tol, run, opts)};
  return {g.pass, format_text(g, target, answer, tol, opts, static_cast<size_t>(output_width())) + (g.pass ? "" : options_note(file, opts))};
}

void setup_check(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand(
      "check", "Grade a student's tensor against what a lesson step prints, with hints for classic mistakes (exit 0 pass, 1 fail, 2 bad "
      "input), or with --answers every file of a class folder (a class report; exit 0 once it is written)");
  cmd->add_option("lesson", opts->name, "Lesson name (see `attn list`)")->required();
  cmd->add_option("--step", opts->step, "The step whose tensor is graded (ids are shown in each step's heading)")->required();
  auto* answer = cmd->add_option("--answer", opts->answer,
                  "The student's tensor: a .npy file (np.save(path, t.detach().numpy()); dtypes <f4, <f8, <i8, <i4, |b1, "
                  "little-endian, C or Fortran order, format 1.0-3.0) or a text table, one row per line, numbers separated by commas or spaces "
                  "(np.savetxt(path, a, delimiter=',')); inf, -inf and nan are graded (NaN matches only a NaN of the lesson's)");
  auto* code = cmd->add_option("--code", opts->code,
                  "Instead of --answer: an exercise file `attn exercise` made, with its TODO written; attn runs it (as it runs a "
                  "lesson's cells, with this command's --seed etc.) and grades the variable the exercise asks for");
  cmd->add_option("--answers", opts->answers,
                  "A class folder: every file in it is graded (the student is the file's name without its extension; hidden files "
                  "are skipped), and a class report goes to stdout: one line per student, how many passed, and each mistake kind "
                  "with its students. Exit 0 once the report is written")
      ->excludes(answer)
      ->excludes(code);
  cmd->add_option("--name", opts->expr,
                  "Grade the value printed from this expression, e.g. attn_weights or \"attn_weights_2_tmp.sum()\" (default: "
                  "the last float tensor the step prints)");
  cmd->add_option("--index", opts->index,
                  "Grade the N-th tensor the step prints (1-based, as `attn export --npy` numbers its files STEP__N__NAME.npy): "
                  "for a step that prints the same expression more than once")
      ->check(tensor_number());
  cmd->add_option("--atol", opts->tol.atol,
                  "Absolute tolerance (default 1e-4). An element passes if |yours - expected| <= atol + rtol * |expected| "
                  "(numpy.isclose). PyTorch prints 4 decimals, so numbers copied from its printout are off by at most "
                  "5e-5 and pass; float32 results of another CPU or BLAS differ by about 1e-6 and pass; real mistakes "
                  "(wrong axis, missing 1/sqrt(d_k), a mask) move weights by 1e-2 or more and fail")
      ->check(tolerance("1e-4"));
  cmd->add_option("--rtol", opts->tol.rtol,
                  "Relative tolerance (default 1e-4): covers values PyTorch prints in scientific notation with 4 decimals "
                  "(relative rounding up to 5e-5)")
      ->check(tolerance("1e-4"));
  cmd->add_option("--format", opts->format, "text, or json: one JSON object for grading scripts; with --answers also csv, one row per student")
      ->check(CLI::IsMember({"text", "json", "csv"}));
  add_inputs(cmd, opts->inputs);
  cmd->callback([opts, &exit_code] { exit_code = run_check_or_class(*opts); });
}

}  // namespace attn::cli
