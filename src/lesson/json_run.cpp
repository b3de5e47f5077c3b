// lesson/json_run.cpp: lesson runs, the catalogue and verify results as JSON (see json_run.h).
#include "lesson/json_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <sstream>

#include "lesson/render.h"

namespace attn::lesson::json {

using torch::PlainValue;
using torch::Printed;

namespace {

std::string str_or_null(const std::string& s) { return s.empty() ? null : str(s); }

// ---- long strings, written once (issue 20: one print of 10^8 characters peaked at 4.8 GB) ----
// A cell's output can be hundreds of MB. The document is built and re-indented with a placeholder
// in its place, and write_streamed() writes the string itself, escaped a chunk at a time, straight
// into the stream: the run's copy is the only one. The placeholder lays out as the string would:
// it is a JSON string over 100 columns, as the escaped string (over kStreamedAt bytes) is, so
// pretty() makes the same line breaks. It starts with a byte str() always escapes, so no other
// JSON text of the document holds it.
constexpr size_t kStreamedAt = 4096;
constexpr char kMark = '\x01';
constexpr size_t kMarkSize = 112;   // "\x01NNNNNNNNNN...": quotes included
constexpr size_t kEscapeChunk = size_t{1} << 16;

struct Streamed {
  std::vector<const std::string*> strings;   // the run's own strings, in placeholder order
};

// str(s), or, with `streamed` and a long s, its placeholder.
std::string long_str(const std::string& s, Streamed* streamed) {
  if (streamed == nullptr || s.size() <= kStreamedAt) return str(s);
  std::string mark = fmt::format("\"{}{:010}", kMark, streamed->strings.size());
  mark.append(kMarkSize - 1 - mark.size(), '.');
  streamed->strings.push_back(&s);
  return mark + "\"";
}

// `text` (a document with placeholders) into `os`, each placeholder replaced by its string, escaped.
void write_streamed(std::ostream& os, const std::string& text, const Streamed& streamed) {
  size_t from = 0;
  for (size_t m = text.find(kMark); m != std::string::npos; m = text.find(kMark, from)) {
    os.write(text.data() + from, static_cast<std::streamsize>(m - 1 - from));   // up to its opening quote
    const std::string& s = *streamed.strings.at(std::stoul(text.substr(m + 1, 10)));
    os << '"';
    for (size_t at = 0; at < s.size(); at += kEscapeChunk) {   // str() escapes byte by byte: chunks change nothing
      const std::string chunk = str(s.substr(at, kEscapeChunk));
      os.write(chunk.data() + 1, static_cast<std::streamsize>(chunk.size() - 2));
    }
    os << '"';
    from = m - 1 + kMarkSize;
  }
  os.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}


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

std::string printed_json(const Printed& p, Streamed* streamed);

std::string cell_json(const CellRun& c, Streamed* streamed) {
  std::vector<std::string> values;
  for (const Printed& p : c.printed) values.push_back(printed_json(p, streamed));
  Object o;
  o.add("line", integer(c.cell->line))
      .add("setup", boolean(c.cell->setup))
      .add("code", long_str(c.code, streamed))
      .add("output", long_str(c.output, streamed))
      .add("expected", c.cell->has_expected ? long_str(c.cell->expected, streamed) : null)
      .add("note", str_or_null(c.note))
      .add("values", array(values));
  if (c.error) o.add("error", error_json(*c.error).done());   // only on the cell that failed
  return o.done();
}

std::string step_json(const StepRun& s, size_t number, Streamed* streamed) {
  std::vector<std::string> cells;
  for (const CellRun& c : s.cells) cells.push_back(cell_json(c, streamed));
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

std::string printed(const Printed& p) { return printed_json(p, nullptr); }

namespace {

std::string printed_json(const Printed& p, Streamed* streamed) {
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
  return o.add("value", value(p.value)).add("text", long_str(p.text, streamed)).done();
}

}  // namespace

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
  std::ostringstream os;
  write_lesson_document(os, command, run, opts, only_step);
  return os.str();
}

void write_lesson_document(std::ostream& os, const std::string& command, const LessonRun& run, const RunOptions& opts,
                           const std::string& only_step) {
  const Lesson& l = *run.lesson;
  if (!only_step.empty()) require_step(l, only_step);
  Streamed streamed;
  std::vector<std::string> steps;
  for (size_t k = 0; k < run.steps.size(); ++k)
    if (only_step.empty() || run.steps[k].step->id == only_step) steps.push_back(step_json(run.steps[k], k + 1, &streamed));
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
                         .add("message", long_str(failed->error->message, &streamed))
                         .done());
  }
  write_streamed(os, pretty(doc.done()) + "\n", streamed);
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
  std::ostringstream os;
  write_verify_document(os, lessons, opts);
  return os.str();
}

void write_verify_document(std::ostream& os, const std::vector<VerifiedLesson>& lessons, const RunOptions& opts) {
  Streamed streamed;
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
            .add("expected", c.cell->has_expected ? long_str(c.cell->expected, &streamed) : null)
            .add("output", long_str(c.output, &streamed))
            .add("diff", check.diff.empty() ? null : long_str(check.diff, &streamed));
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
  write_streamed(os, pretty(doc) + "\n", streamed);
}

}  // namespace attn::lesson::json
