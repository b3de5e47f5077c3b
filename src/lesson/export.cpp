// lesson/export.cpp: .npy files, index.json and Jupyter notebooks from a lesson run (see export.h).
#include "lesson/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/errors.h"
#include "lesson/json.h"
#include "lesson/options.h"
#include "lesson/render.h"

namespace attn::lesson {

using torch::Printed;

// ---- .npy ----
//
// numpy/lib/format.py (1.24), _write_array_header and _wrap_header:
//   header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
//   header += ' ' * (21 - len(repr(shape[0])))        # room to grow axis 0 in place; none for 0-d
//   hlen = len(header) + 1                            # + the final '\n'
//   padlen = 64 - ((6 + 2 + 2 + hlen) % 64)           # magic, version, uint16 length; 64 when aligned
//   file = b'\x93NUMPY' + b'\x01\x00' + uint16_le(hlen + padlen) + header + ' ' * padlen + '\n' + data

namespace {

constexpr size_t kArrayAlign = 64;
constexpr size_t kGrowthAxisMaxDigits = 21;   // numpy's GROWTH_AXIS_MAX_DIGITS

std::string numpy_descr(core::DType d) {
  switch (d) {
    case core::DType::float32: return "<f4";
    case core::DType::int64: return "<i8";
    case core::DType::boolean: return "|b1";
    case core::DType::uint8: return "|u1";
    case core::DType::int8: return "|i1";
    case core::DType::int16: return "<i2";
    case core::DType::int32: return "<i4";
  }
  return "<f4";
}

// Python's repr of the shape tuple: (), (3,), (2, 3).
std::string shape_tuple(const core::Shape& shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

template <typename T>
void put_le(std::string& out, T v) {
  for (size_t k = 0; k < sizeof(T); ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

}  // namespace

std::string numpy_dtype(core::DType d) {
  switch (d) {
    case core::DType::float32: return "float32";
    case core::DType::int64: return "int64";
    case core::DType::boolean: return "bool";
    default: return core::dtype_short_name(d);   // uint8, int8, int16, int32: numpy's names too
  }
}

std::string npy_bytes(const core::Tensor& tensor) {
  const core::Tensor t = tensor.contiguous();   // C order: a view is written as its elements
  std::string header = "{'descr': '" + numpy_descr(t.dtype()) + "', 'fortran_order': False, 'shape': " + shape_tuple(t.shape()) + ", }";
  if (!t.shape().empty()) header += std::string(kGrowthAxisMaxDigits - std::to_string(t.shape()[0]).size(), ' ');
  size_t hlen = header.size() + 1;
  size_t padlen = kArrayAlign - ((6 + 2 + 2 + hlen) % kArrayAlign);
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  put_le<uint16_t>(out, static_cast<uint16_t>(hlen + padlen));
  out += header + std::string(padlen, ' ') + "\n";
  int64_t n = t.numel();
  // data: C order, little-endian whatever the host is
  if (t.dtype() == core::DType::float32) {
    for (int64_t k = 0; k < n; ++k) {
      uint32_t bits;
      std::memcpy(&bits, t.data<float>() + k, sizeof bits);
      put_le<uint32_t>(out, bits);
    }
  } else if (t.dtype() == core::DType::boolean) {
    for (int64_t k = 0; k < n; ++k) out += static_cast<char>(t.data<uint8_t>()[k] != 0);
  } else {   // the integers, two's complement in element_size bytes
    const auto bytes = static_cast<size_t>(core::element_size(t.dtype()));
    for (int64_t k = 0; k < n; ++k) {
      const auto bits = static_cast<uint64_t>(t.int_at_offset(k));
      for (size_t b = 0; b < bytes; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xFF);
    }
  }
  return out;
}

std::string sanitise_name(const std::string& expr) {
  constexpr size_t kMax = 48;
  std::string out;
  for (unsigned char c : expr) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (keep) out += static_cast<char>(c);
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  size_t begin = out.find_first_not_of('_');
  if (begin == std::string::npos) return "value";
  out = out.substr(begin);
  if (out.size() > kMax) out.resize(kMax);
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

void validate_only(const Lesson& lesson, const std::vector<std::string>& only) {
  for (size_t k = 0; k < only.size(); ++k) {
    if (require_step(lesson, only[k], "--only: ").id != only[k])   // UsageError listing the steps
      throw UsageError(fmt::format("--only takes step ids, not numbers: step {} of lesson '{}' is '{}'", only[k], lesson.name(),
                                   require_step(lesson, only[k]).id));
    if (std::find(only.begin(), only.begin() + static_cast<std::ptrdiff_t>(k), only[k]) != only.begin() + static_cast<std::ptrdiff_t>(k))
      throw UsageError(fmt::format("--only lists step '{}' twice", only[k]));
  }
}

std::vector<ExportedArray> list_arrays(const LessonRun& run, const std::vector<std::string>& only) {
  std::vector<ExportedArray> out;
  for (const StepRun& s : run.steps) {
    bool wanted = only.empty() || std::find(only.begin(), only.end(), s.step->id) != only.end();
    int n = 0;
    for (size_t c = 0; c < s.cells.size(); ++c)
      for (const Printed& p : s.cells[c].printed) {
        if (!p.is_tensor()) continue;
        const core::Tensor& t = p.tensor();
        ExportedArray a;
        a.step = s.step->id;
        a.cell = static_cast<int>(c) + 1;
        a.name = p.name;
        a.shape = t.shape();
        a.dtype = numpy_dtype(t.dtype());
        a.file = fmt::format("{}__{}__{}.npy", a.step, ++n, sanitise_name(p.name));
        a.tensor = &t;
        if (wanted) out.push_back(a);
      }
  }
  return out;
}

namespace {

std::string options_json(const RunOptions& opts) {
  json::Object o;
  if (opts.seed) o.add("seed", json::seed(*opts.seed));
  if (opts.sentence) o.add("sentence", json::str(*opts.sentence));
  if (opts.inputs) o.add("inputs", json::str(*opts.inputs));
  return o.done();
}
std::string string_list(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& s : items) quoted.push_back(json::str(s));
  return json::array(quoted);
}

}  // namespace

std::string index_json(const LessonRun& run, const RunOptions& opts, const std::vector<ExportedArray>& arrays,
                       const std::vector<std::string>& only) {
  std::string out = "{\n";
  out += "  \"lesson\": " + json::str(run.lesson->name()) + ",\n";
  out += fmt::format("  \"cpu\": \"{}\",\n  \"rng\": \"{}\",\n", core::to_string(run.cpu), core::to_string(run.rng));
  out += "  \"options\": " + options_json(opts) + ",\n";
  if (!only.empty()) out += "  \"only\": " + string_list(only) + ",\n";
  out += "  \"arrays\": [";
  for (size_t k = 0; k < arrays.size(); ++k) {
    const ExportedArray& a = arrays[k];
    std::vector<std::string> dims;
    for (int64_t d : a.shape) dims.push_back(json::integer(d));
    out += (k ? ",\n    " : "\n    ") + json::Object()
                                            .add("file", json::str(a.file))
                                            .add("step", json::str(a.step))
                                            .add("cell", json::integer(a.cell))
                                            .add("name", json::str(a.name))
                                            .add("shape", json::array(dims))
                                            .add("dtype", json::str(a.dtype))
                                            .done();
  }
  out += arrays.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

// ---- notebook ----
//
// nbformat 4.5 (https://nbformat.readthedocs.io): {"cells": [...], "metadata": {...},
// "nbformat": 4, "nbformat_minor": 5}; each cell has an "id", "cell_type", "metadata" and
// "source" (a list of lines, each but the last ending in "\n"); code cells also have
// "execution_count": null and "outputs": []. Laid out as Jupyter saves it (one-space indent,
// keys sorted), so a notebook a student saves diffs cleanly against the exported one.

namespace {

std::string source_lines(const std::string& text, const std::string& indent) {
  std::string body = text;
  while (!body.empty() && body.back() == '\n') body.pop_back();
  if (body.empty()) return "[]";
  std::string out = "[";
  size_t start = 0;
  for (bool first = true;; first = false) {
    size_t nl = body.find('\n', start);
    std::string line = nl == std::string::npos ? body.substr(start) : body.substr(start, nl - start + 1);
    out += (first ? "\n" : ",\n") + indent + " " + json::str(line);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out + "\n" + indent + "]";
}

struct NotebookCells {
  std::vector<std::string> cells;

  void markdown(const std::string& id, const std::string& text) {
    cells.push_back(fmt::format("  {{\n   \"cell_type\": \"markdown\",\n   \"id\": {},\n   \"metadata\": {{}},\n   \"source\": {}\n  }}",
                                json::str(id), source_lines(text, "   ")));
  }
  void code(const std::string& id, const std::string& text, bool setup) {
    cells.push_back(fmt::format("  {{\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": {},\n   \"metadata\": {},\n"
                                "   \"outputs\": [],\n   \"source\": {}\n  }}",
                                json::str(id), setup ? "{\n    \"tags\": [\n     \"setup\"\n    ]\n   }" : "{}",
                                source_lines(text, "   ")));
  }
};

// A fence for `text` that does not occur in it.
std::string fenced(const std::string& text) {
  std::string fence = "```";
  while (text.find(fence) != std::string::npos) fence += '`';
  std::string body = text;
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + "text\n" + body + fence;
}

// A handout's code cell after the last step it shows: what the student is to compute there.
std::string prompt_for(const CellRun& cr, const Step& step) {
  std::vector<std::string> names;
  for (const Printed& p : cr.printed)
    if (!p.name.empty() && std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  if (names.empty()) return fmt::format("# your code here (step '{}': {})\n", step.id, step.title);
  return fmt::format("# your code here: compute {} (step '{}')\n", fmt::join(names, ", "), step.id);
}

// The index of the last step `only` lists, or the last step of the run if it lists none.
size_t last_shown_step(const LessonRun& run, const std::vector<std::string>& only) {
  if (only.empty()) return run.steps.empty() ? 0 : run.steps.size() - 1;
  size_t last = 0;
  for (size_t k = 0; k < run.steps.size(); ++k)
    if (std::find(only.begin(), only.end(), run.steps[k].step->id) != only.end()) last = k;
  return last;
}

}  // namespace

std::string notebook_json(const LessonRun& run, const RunOptions& opts, const std::string& command, const std::vector<std::string>& only) {
  const Lesson& l = *run.lesson;
  NotebookCells nb;
  size_t last_shown = last_shown_step(run, only);

  // 1. title, source, intro
  std::string head = "# " + l.title + "\n\n`attn lesson " + l.name() + "` follows " + source_credit(l.header);
  if (l.header.section) head += ", section \"" + *l.header.section + "\"";
  head += l.header.url ? ": <" + *l.header.url + ">.\n" : ".\n";
  if (!filled_intro(run).empty()) head += "\n" + filled_intro(run) + "\n";
  nb.markdown("title", head);

  // 2. how it was made, and the machine differences that change last digits
  bool scalar = run.cpu == core::CpuKernels::scalar;
  std::string about = "Made by `" + command +
                      "`. Each code cell is the lesson's code as attn ran it; the cell under it shows what attn "
                      "printed, so after **Run All** (in a fresh kernel, top to bottom) you can compare the two.\n\n";
  if (scalar)
    about += "**Numbers:** attn computed them as PyTorch 1.13 does with its scalar CPU kernels (`--cpu scalar`). The next "
             "cell makes your PyTorch use the same kernels on any machine; it must run before any tensor is computed.\n";
  else
    about += "**Numbers:** attn computed them as PyTorch 1.13 does with its AVX2 CPU kernels (`--cpu avx2`), which PyTorch "
             "uses on x86-64 CPUs with AVX2 or AVX-512. On Apple Silicon and other ARM machines the last digits of `randn`, "
             "`rand`-based initialisation and softmax may differ; a notebook exported with `--cpu scalar` matches those.\n";
  if (l.header.rng) {
    bool mkl = run.rng == core::DropoutRng::mkl;
    about += mkl ? "\n**Dropout:** attn drew the masks as PyTorch builds with MKL do on Intel CPUs (`--rng mkl`: the x86-64 "
                   "pip wheels). Other builds (Apple Silicon, AMD CPUs, Debian's package) draw other masks; export with "
                   "`--rng portable` to compare with those.\n"
                 : "\n**Dropout:** attn drew the masks as every PyTorch build without MKL on Intel does (`--rng portable`: "
                   "Apple Silicon, AMD CPUs, Debian's package). The x86-64 pip wheels on Intel CPUs draw other masks; export "
                   "with `--rng mkl` to compare with those.\n";
  }
  if (!only.empty())
    about += fmt::format("\n**Handout:** the code cells after step '{}' are yours to write: each says what to compute, and what "
                         "attn printed for them is left out (`--only {}`).\n",
                         run.steps[last_shown].step->id, fmt::join(only, ","));
  nb.markdown("about", about);
  if (scalar)
    nb.code("kernels",
            "# attn ran this lesson with PyTorch's scalar (DEFAULT) CPU kernels. PyTorch picks its kernels\n"
            "# at the first tensor operation, so this pins the same family if it runs first.\n"
            "import os\n"
            "os.environ[\"ATEN_CPU_CAPABILITY\"] = \"default\"\n",
            false);

  // 3. each step: prose, then each cell and what attn printed under it
  for (size_t k = 0; k < run.steps.size(); ++k) {
    const StepRun& s = run.steps[k];
    // A step the student writes shows its prose's numbers as the expressions that give them: the
    // values are (parts of) the answers the handout must not hold.
    const std::string& text = k > last_shown ? s.handout_prose : filled_prose(run, s);
    std::string prose = "## " + s.step->id + ": " + s.step->title + "\n";
    if (!text.empty()) prose += "\n" + text + "\n";
    nb.markdown(s.step->id, prose);
    for (size_t c = 0; c < s.cells.size(); ++c) {
      const CellRun& cr = s.cells[c];
      std::string id = fmt::format("{}-{}", s.step->id, c + 1);
      if (k > last_shown) {   // a handout: the student writes this cell; no output under it
        nb.code(id, prompt_for(cr, *s.step), cr.cell->setup);
        continue;
      }
      nb.code(id, cr.code, cr.cell->setup);
      std::string under;
      if (!cr.output.empty()) under = "attn printed:\n\n" + fenced(cr.output) + "\n";
      if (!filled_note(run, cr).empty()) under += (under.empty() ? "" : "\n") + filled_note(run, cr) + "\n";
      if (!under.empty()) nb.markdown(id + "-attn", under);
    }
  }

  std::string meta = fmt::format(
      "{{\n  \"attn\": {{\n   \"cpu\": \"{}\",\n   \"lesson\": {},\n{}   \"options\": {},\n   \"rng\": \"{}\"\n  }},\n"
      "  \"kernelspec\": {{\n   \"display_name\": \"Python 3\",\n   \"language\": \"python\",\n   \"name\": \"python3\"\n  }},\n"
      "  \"language_info\": {{\n   \"name\": \"python\"\n  }}\n }}",
      core::to_string(run.cpu), json::str(l.name()), only.empty() ? "" : "   \"only\": " + string_list(only) + ",\n", options_json(opts),
      core::to_string(run.rng));
  std::string out = "{\n \"cells\": [\n";
  for (size_t k = 0; k < nb.cells.size(); ++k) out += nb.cells[k] + (k + 1 < nb.cells.size() ? ",\n" : "\n");
  out += " ],\n \"metadata\": " + meta + ",\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n";
  return out;
}

}  // namespace attn::lesson
