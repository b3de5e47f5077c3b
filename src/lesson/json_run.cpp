// lesson/json_run.cpp: lesson runs, the catalogue and verify results as JSON (see json_run.h).
#include "lesson/json_run.h"

#include <algorithm>
#include <cstdlib>

#include "lesson/render.h"

namespace attn::lesson::json {

using torch::PlainValue;
using torch::Printed;

namespace {

std::string str_or_null(const std::string& s) { return s.empty() ? null : str(s); }


std::string dtype_name(core::DType d) { return core::dtype_short_name(d); }

// tensor.tolist(): nested arrays, one level per dimension; element k is the next in row-major
// order (t is contiguous: the caller passes tensor.contiguous()).
std::string tolist(const core::Tensor& t, size_t dim, int64_t& k) {
  if (dim == t.shape().size()) {
    int64_t e = k++;
    if (t.dtype() == core::DType::float32) return real(t.data<float>()[e]);
    if (t.dtype() == core::DType::boolean) return boolean(t.data<uint8_t>()[e] != 0);
    return integer(t.int_at_offset(e));
  }
  std::vector<std::string> items;
  for (int64_t j = 0; j < t.shape()[dim]; ++j) items.push_back(tolist(t, dim + 1, k));
  return array(items);
}

// {"line", "message"} of the error that stopped a cell.
Object error_json(const CellError& e) { return Object().add("line", integer(e.line)).add("message", str(e.message)); }

std::string cell_json(const CellRun& c) {
  std::vector<std::string> values;
  for (const Printed& p : c.printed) values.push_back(printed(p));
  Object o;
  o.add("line", integer(c.cell->line))
      .add("setup", boolean(c.cell->setup))
      .add("code", str(c.code))
      .add("output", str(c.output))
      .add("expected", c.cell->has_expected ? str(c.cell->expected) : null)
      .add("note", str_or_null(c.note))
      .add("values", array(values));
  if (c.error) o.add("error", error_json(*c.error).done());   // only on the cell that failed
  return o.done();
}

std::string step_json(const StepRun& s, size_t number) {
  std::vector<std::string> cells;
  for (const CellRun& c : s.cells) cells.push_back(cell_json(c));
  return Object()
      .add("id", str(s.step->id))
      .add("number", integer(static_cast<long long>(number)))
      .add("title", str(s.step->title))
      .add("prose", str(s.prose))
      .add("cells", array(cells))
      .done();
}

}  // namespace

// ---- pieces ----

std::string value(const PlainValue& v) {
  switch (v.kind) {
    case PlainValue::boolean: return boolean(v.b);
    case PlainValue::integer: return v.digits.empty() ? integer(v.i) : v.digits;   // JSON numbers have any number of digits
    case PlainValue::real: return real(v.f);
    case PlainValue::string: return str(v.s);
    case PlainValue::tensor: {
      int64_t k = 0;
      return tolist(v.t.contiguous(), 0, k);
    }
    case PlainValue::sequence: {   // list, tuple, torch.Size; a set in the order Python iterates it
      std::vector<std::string> items;
      for (const PlainValue& x : v.items) items.push_back(value(x));
      return array(items);
    }
    case PlainValue::mapping: {
      Object o;
      for (size_t k = 0; k < v.keys.size(); ++k) o.add(v.keys[k], value(v.items[k]));
      return o.done();
    }
    default: return null;
  }
}

std::string printed(const Printed& p) {
  Object o;
  o.add("name", str_or_null(p.name));
  if (p.is_tensor()) {
    const core::Tensor& t = p.tensor();
    std::vector<std::string> shape;
    for (int64_t d : t.shape()) shape.push_back(integer(d));
    o.add("type", str("Tensor"))
        .add("dtype", str(dtype_name(t.dtype())))
        .add("shape", array(shape))
        .add("requires_grad", boolean(t.requires_grad()))
        .add("grad_fn", str_or_null(t.grad_fn()));
  } else {
    o.add("type", str(p.value.type));
  }
  return o.add("value", value(p.value)).add("text", str(p.text)).done();
}

Object lesson_header(const Lesson& l) {
  return Object()
      .add("name", str(l.name()))
      .add("title", str(l.title))
      .add("group", str(to_string(l.header.group)))
      .add("order", integer(l.header.order))
      .add("source", str(l.header.source))
      .add("author", l.header.author ? str(*l.header.author) : null)
      .add("url", l.header.url ? str(*l.header.url) : null)
      .add("section", l.header.section ? str(*l.header.section) : null);
}

static std::vector<std::string> about_strings(const LessonRun& run) {
  std::vector<std::string> out;
  for (const std::string& a : about_lines(run)) out.push_back(str(a));
  return out;
}

Object parameters(const RunOptions& opts) {
  std::string inputs = null;
  if (opts.inputs) {
    std::vector<std::string> rows;
    for (const auto& row : parse_inputs(*opts.inputs)) {
      std::vector<std::string> numbers;
      for (double x : row) numbers.push_back(real(x));
      rows.push_back(array(numbers));
    }
    inputs = array(rows);
  }
  return Object()
      .add("seed", opts.seed ? seed(*opts.seed) : null)
      .add("sentence", opts.sentence ? str(*opts.sentence) : null)
      .add("inputs", inputs)
      .add("rng", opts.rng ? str(core::to_string(*opts.rng)) : null)
      .add("cpu", opts.cpu ? str(core::to_string(*opts.cpu)) : null);
}

// ---- documents ----

std::string lesson_document(const std::string& command, const LessonRun& run, const RunOptions& opts,
                            const std::string& only_step) {
  const Lesson& l = *run.lesson;
  if (!only_step.empty()) require_step(l, only_step);
  std::vector<std::string> steps;
  for (size_t k = 0; k < run.steps.size(); ++k)
    if (only_step.empty() || run.steps[k].step->id == only_step) steps.push_back(step_json(run.steps[k], k + 1));
  RunOptions effective = opts;
  effective.cpu = run.cpu;
  effective.rng = run.rng;
  Object doc;
  doc.add("schema_version", integer(kSchemaVersion))
      .add("command", str(command))
      .add("lesson", lesson_header(l)
                         .add("intro", str(run.intro))
                         .add("about", array(about_strings(run)))
                         .add("step_count", integer(static_cast<long long>(l.steps.size())))
                         .done())
      .add("parameters", parameters(effective).add("step", str_or_null(only_step)).done())
      .add("steps", array(steps));
  if (const CellRun* failed = run.failed_cell()) {   // only when a cell's error stopped the run
    const StepRun& s = run.steps.back();
    doc.add("error", Object()
                         .add("file", str(failed->error->file))
                         .add("line", integer(failed->error->line))
                         .add("step", str(s.step->id))
                         .add("cell", integer(static_cast<long long>(s.cells.size())))
                         .add("message", str(failed->error->message))
                         .done());
  }
  return pretty(doc.done()) + "\n";
}

std::string catalog_document(const std::vector<Lesson>& all) {
  std::vector<std::string> lessons;
  for (const Lesson& l : all) {
    std::vector<std::string> steps;
    for (const Step& s : l.steps) steps.push_back(Object().add("id", str(s.id)).add("title", str(s.title)).done());
    lessons.push_back(lesson_header(l)
                          .add("added", boolean(l.added))
                          .add("replaces", str_or_null(l.replaces))
                          .add("steps", array(steps))
                          .done());
  }
  std::string doc = Object()
                        .add("schema_version", integer(kSchemaVersion))
                        .add("command", str("list"))
                        .add("lessons", array(lessons))
                        .done();
  return pretty(doc, 2) + "\n";
}

std::string verify_document(const std::vector<VerifiedLesson>& lessons, const RunOptions& opts) {
  size_t cells_run = 0, match = 0, differ = 0, errors = 0, not_run = 0;
  std::vector<std::string> out;
  for (const VerifiedLesson& v : lessons) {
    // verify() yields one check per cell with an expected output, and one for a failed cell, in
    // step and cell order.
    std::vector<std::string> cells;
    size_t next = 0;
    for (const StepRun& s : v.run.steps) {
      cells_run += s.cells.size();
      for (size_t n = 0; n < s.cells.size(); ++n) {
        const CellRun& c = s.cells[n];
        if ((!c.cell->has_expected && !c.error) || next >= v.checks.size()) continue;   // not compared
        const CellCheck& check = v.checks[next++];
        const char* status = check.error ? "error" : check.match ? "match" : "differs";
        (check.error ? errors : check.match ? match : differ)++;
        Object cell;
        cell.add("where", str(check.where))
            .add("step", str(s.step->id))
            .add("cell", integer(static_cast<long long>(n + 1)))
            .add("line", integer(c.cell->line))
            .add("status", str(status))
            .add("remark", str_or_null(check.remark))
            .add("expected", c.cell->has_expected ? str(c.cell->expected) : null)
            .add("output", str(c.output))
            .add("diff", str_or_null(check.diff));
        if (check.error) cell.add("error", error_json(*check.error).done());
        cells.push_back(cell.done());
      }
    }
    not_run += compared_cells_not_run(v.run);
    Object lesson;
    lesson.add("name", str(v.run.lesson->name()))
        .add("cpu", str(core::to_string(v.run.cpu)))
        .add("rng", str(core::to_string(v.run.rng)));
    if (!v.not_applied.empty()) {   // only when an option did not apply to this lesson
      std::vector<std::string> names;
      for (const std::string& n : v.not_applied) names.push_back(str(n));
      lesson.add("not_applied", array(names));
    }
    out.push_back(lesson.add("cells", array(cells)).done());
  }
  Object summary;
  summary.add("lessons", integer(static_cast<long long>(lessons.size())))
      .add("cells_run", integer(static_cast<long long>(cells_run)))
      .add("compared", integer(static_cast<long long>(match + differ)))
      .add("match", integer(static_cast<long long>(match)))
      .add("differ", integer(static_cast<long long>(differ)));
  if (errors)   // only when a cell's error stopped a lesson
    summary.add("error", integer(static_cast<long long>(errors))).add("not_run", integer(static_cast<long long>(not_run)));
  std::string doc = Object()
                        .add("schema_version", integer(kSchemaVersion))
                        .add("command", str("verify"))
                        .add("parameters", parameters(opts).done())
                        .add("compared", boolean(opts.article_inputs()))
                        .add("lessons", array(out))
                        .add("summary", summary.done())
                        .done();
  return pretty(doc) + "\n";
}

}  // namespace attn::lesson::json
