// lesson/run.cpp: running a lesson's cells (see run.h).
#include "lesson/run.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <new>

#include "lesson/code_scan.h"
#include "print/one_line.h"
#include "torch/session.h"

namespace attn::lesson {

using py::ScriptError;
using torch::Session;

namespace {

// The first name placeholder `p` reads that holds an iterator (a generator, zip, map, iter(...)):
// str(), list() or a comprehension over it would take its items, and the next cell would find it
// used up. "NAME, an iterator (a zip)"; "" when none does (a name not yet assigned is the
// placeholder's NameError).
std::string iterator_read(Session& in, const ProsePart& p) {
  const auto& globals = in.python().main_module()->names;
  for (const std::string& n : p.names) {
    auto v = globals.find(n);
    if (v != globals.end() && v->second.kind == py::Value::Instance && py::type_of(v->second)->find_method("__next__"))
      return n + ", an iterator (" + py::type_name(v->second) + ")";
  }
  return "";
}

// The step's placeholders, filled after its last cell ran: each expression evaluated once in the
// lesson's interpreter (which still holds every name the cells assigned), {{seed}} read from the
// step's code as run (after --seed). In a step whose cell failed, a placeholder that cannot be
// evaluated (its name was never assigned) is shown as written: the cell's error is what to report.
void fill_step(Session& in, const Lesson& lesson, StepRun& sr, bool failed) {
  std::map<std::string, std::string> values;   // "{{...}}" -> its text
  std::string seed;
  for (const CellRun& c : sr.cells)
    for (const CodeSpan& call : seed_calls(c.code)) {
      if (!seed.empty()) break;
      std::string text = c.code.substr(call.begin, call.end - call.begin);   // torch.manual_seed( N )
      size_t open = text.find('(');
      seed = text.substr(open + 1, text.size() - open - 2);
      seed.erase(0, seed.find_first_not_of(' '));
      seed.erase(seed.find_last_not_of(' ') + 1);
    }
  auto value = [&](const ProsePart& p) -> std::string {
    if (p.kind == ProsePart::Kind::seed) return seed;
    auto known = values.find(p.text);
    if (known != values.end()) return known->second;
    if (std::string it = iterator_read(in, p); !it.empty())
      throw LessonFileError(fmt::format("{}:{}: the placeholder {} reads {}: showing it would use up what the next cells "
                                        "read; make a list of it in a cell and show that (lessons/README.md, \"Numbers in "
                                        "prose\")", lesson.path, p.line, p.text, it));
    struct ReadOnly {   // the placeholder may not change what the next cells see (Interpreter::read_only)
      py::Interpreter& py;
      explicit ReadOnly(py::Interpreter& i) : py(i) { py.read_only = true; }
      ~ReadOnly() { py.read_only = false; }
    };
    try {
      ReadOnly guard(in.python());
      in.run_cell(placeholder_code(p));
    } catch (const ScriptError& e) {
      in.take_output();
      in.take_printed();
      if (failed) return values[p.text] = p.text;
      throw LessonFileError(fmt::format("{}:{}: {} (in the placeholder {})", lesson.path, p.line, e.text(), p.text));
    }
    in.take_printed();
    return values[p.text] = print::one_line(in.take_output());   // a value's ESC or U+202E shown as \x1b, \u202e
  };
  sr.prose = fill_prose(sr.step->prose_parts, value);
  sr.handout_prose = fill_prose(sr.step->prose_parts, [&](const ProsePart& p) {
    return p.kind == ProsePart::Kind::expr ? "`" + p.expr + "`" : value(p);
  });
  for (CellRun& c : sr.cells) c.note = fill_prose(c.cell->note_parts, value);
}

// A std::bad_alloc outside the interpreter's statements (where no line is known).
constexpr const char* kOutOfMemory = "out of memory while running this cell";

}  // namespace

std::string CellError::what() const { return fmt::format("{}:{}: {}", file, line, message); }

const CellRun* LessonRun::failed_cell() const {
  if (steps.empty() || steps.back().cells.empty() || !steps.back().cells.back().error) return nullptr;
  return &steps.back().cells.back();
}

LessonRun run_until_error(const Lesson& lesson, const RunOptions& opts) {
  validate(lesson, opts);
  Session in(effective_cpu(lesson, opts), effective_rng(lesson, opts));
  in.set_import_dir(std::filesystem::path(lesson.path).parent_path().string());   // `import helper`: helper.py beside it
  in.set_main_file(lesson.path);   // what its warnings name, as its errors do
  if (opts.time_limit) in.set_time_limit(*opts.time_limit);
  LessonRun run;
  run.lesson = &lesson;
  run.cpu = in.cpu();
  run.rng = in.rng();
  run.sentence = opts.sentence;
  run.intro = fill_prose(lesson.intro_parts, [](const ProsePart& p) { return p.text; });
  for (const Step& s : lesson.steps) {
    StepRun sr;
    sr.step = &s;
    for (const Cell& c : s.cells) {
      CellRun cr;
      cr.cell = &c;
      cr.code = apply_options(c.code, opts, lesson.inputs_shape);
      try {
        in.run_cell(cr.code, lesson.header.echo_last_expression, c.line);   // lines count in the lesson file
      } catch (const ScriptError& e) {   // e.file: a .py file the lesson imported, whose code failed
        cr.error = CellError{e.file.empty() ? lesson.path : e.file, e.line, e.text()};
      } catch (const std::bad_alloc&) {   // where the cell's line is unknown: its first line
        cr.error = CellError{lesson.path, c.line, kOutOfMemory};
      }
      cr.output = in.take_output();
      cr.printed = in.take_printed();
      const bool failed = cr.error.has_value();
      sr.cells.push_back(std::move(cr));   // moved, not copied: an output may be 10^8 characters
      if (failed) break;
    }
    fill_step(in, lesson, sr, !sr.cells.empty() && sr.cells.back().error.has_value());
    run.steps.push_back(std::move(sr));
    if (run.failed_cell() || (opts.last_step && s.id == *opts.last_step)) break;
  }
  return run;
}

LessonRun run_lesson(const Lesson& lesson, const RunOptions& opts) {
  LessonRun run = run_until_error(lesson, opts);
  if (const CellRun* failed = run.failed_cell()) throw LessonFileError(failed->error->what());
  return run;
}

}  // namespace attn::lesson
