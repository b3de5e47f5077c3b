// lesson/run.cpp: running a lesson's cells (see run.h).
#include "lesson/run.h"

#include <fmt/format.h>

#include "py/interpreter.h"

namespace attn::lesson {

using py::Interpreter;
using py::ScriptError;

LessonRun run_lesson(const Lesson& lesson, const RunOptions& opts) {
  validate(lesson, opts);
  Interpreter in(effective_cpu(lesson, opts), effective_rng(lesson, opts));
  LessonRun run;
  run.lesson = &lesson;
  run.cpu = in.state.cpu;
  run.rng = in.state.rng;
  run.sentence = opts.sentence;
  for (const Step& s : lesson.steps) {
    StepRun sr;
    sr.step = &s;
    for (const Cell& c : s.cells) {
      CellRun cr;
      cr.cell = &c;
      cr.code = apply_options(c.code, opts);
      try {
        in.run_cell(cr.code, lesson.header.echo_last_expression);
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

}  // namespace attn::lesson
