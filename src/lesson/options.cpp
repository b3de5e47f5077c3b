// lesson/options.cpp: checking the learner's options and rewriting cell code with them (see
// options.h).
#include "lesson/options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "lesson/code_scan.h"
#include "lesson/suggest.h"
#include "print/tensor_str.h"

namespace attn::lesson {

namespace {

bool has_sentence(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells) {
      std::istringstream in(c.code);
      for (std::string line; std::getline(in, line);)
        if (sentence_line(line)) return true;
    }
  return false;
}

bool has_seed(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells)
      if (!seed_calls(c.code).empty()) return true;
  return false;
}

// PyTorch accepts seeds in [-2^63, 2^64 - 1] (torch.manual_seed raises outside).
void validate_seed(const std::string& s) {
  size_t sign = !s.empty() && s[0] == '-' ? 1 : 0;
  if (s.size() == sign || s.find_first_not_of("0123456789", sign) != std::string::npos)
    throw UsageError("--seed must be an integer (as torch.manual_seed takes), got " + quoted_input(s));
  errno = 0;
  if (sign) std::strtoll(s.c_str(), nullptr, 10);
  else std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE)
    throw UsageError("--seed must be in PyTorch's range -9223372036854775808 to 18446744073709551615, got " +
                     (s.size() <= 40 ? s : fmt::format("a number of {} digits", s.size() - sign)));
}

// A valid --seed as Python reads an int literal: 007 is 7 (0123 is a SyntaxError in Python).
std::string decimal_seed(const std::string& s) {
  size_t sign = !s.empty() && s[0] == '-' ? 1 : 0;
  size_t first = s.find_first_not_of('0', sign);
  return first == std::string::npos ? "0" : s.substr(0, sign) + s.substr(first);
}

void validate_sentence(const std::string& s) {
  std::string no_commas = s;
  no_commas.erase(std::remove(no_commas.begin(), no_commas.end(), ','), no_commas.end());
  std::istringstream in(no_commas);
  int words = 0;
  for (std::string w; in >> w;) ++words;
  if (words < 2)
    throw UsageError(fmt::format("--sentence needs at least two words to attend between, got {}: {}", words, quoted_input(s)));
  if (s.find('\n') != std::string::npos) throw UsageError("--sentence must be one line of text");
}

bool has_inputs(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells)
      if (inputs_statement(c.code)) return true;
  return false;
}

std::string inputs_literal(const std::vector<std::vector<double>>& rows) {
  std::string out = "inputs = torch.tensor(\n  [";
  for (size_t r = 0; r < rows.size(); ++r) {
    out += r ? ",\n   [" : "[";
    for (size_t c = 0; c < rows[r].size(); ++c) out += (c ? ", " : "") + print::py_float_repr(rows[r][c]);
    out += "]";
  }
  return out + "]\n)";
}

}  // namespace

std::vector<std::vector<double>> parse_inputs(const std::string& text) {
  std::vector<std::vector<double>> rows;
  std::string row;
  std::istringstream in(text);
  for (int r = 1; std::getline(in, row, ';'); ++r) {
    std::replace(row.begin(), row.end(), ',', ' ');
    std::istringstream words(row);
    std::vector<double> values;
    for (std::string w; words >> w;) {
      char* end = nullptr;
      double v = std::strtod(w.c_str(), &end);
      if (end != w.c_str() + w.size()) throw UsageError(fmt::format("--inputs row {}: {} is not a number", r, quoted_input(w)));
      if (!std::isfinite(v)) throw UsageError(fmt::format("--inputs row {}: {} is not finite; embeddings are finite numbers", r, quoted_input(w)));
      values.push_back(v);
    }
    if (values.empty()) {
      if (in.peek() == EOF && r > 1) break;   // a trailing ';'
      throw UsageError(fmt::format("--inputs row {} is empty (rows are separated by ';', numbers by spaces or commas)", r));
    }
    if (!rows.empty() && values.size() != rows[0].size())
      throw UsageError(fmt::format("--inputs rows must have the same length: row 1 has {} numbers, row {} has {}", rows[0].size(), r, values.size()));
    rows.push_back(values);
  }
  if (rows.empty()) throw UsageError("--inputs is empty; give rows like \"0.43 0.15 0.89; 0.55 0.87 0.66; ...\"");
  if (rows.size() < 2)
    throw UsageError(fmt::format("--inputs needs at least 2 rows, one per token (the lessons take the second token as the query), got {}", rows.size()));
  return rows;
}

namespace {

// "4" -> 4; anything but 1 to 9 digits -> 0.
size_t step_number(const std::string& text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  return static_cast<size_t>(std::stoul(text));
}

}  // namespace

const Step& require_step(const Lesson& lesson, const std::string& id, const std::string& prefix) {
  std::string ids;
  std::vector<std::string> all;
  for (const Step& s : lesson.steps) {
    if (s.id == id) return s;
    ids += (ids.empty() ? "" : ", ") + s.id;
    all.push_back(s.id);
  }
  size_t n = step_number(id), count = lesson.steps.size();
  if (n >= 1 && n <= count) return lesson.steps[n - 1];   // `--step 4`: the heading's "4/8"
  std::string what = "lesson '" + lesson.name() + "' has no step " + quoted_input(id);
  if (id.empty()) what = "the step is empty; give one of lesson '" + lesson.name() + "'s steps by id or number";
  else if (step_number(id) > 0 || id == "0") what = fmt::format("lesson '{}' has steps 1 to {}, so no step {}", lesson.name(), count, id);
  else if (auto near = suggest(id, all)) what += "; did you mean '" + *near + "'?";
  throw UsageError(prefix + what + " (its steps: " + ids + ")");
}

RunOptions applicable_options(const Lesson& lesson, const RunOptions& opts, std::vector<std::string>& not_applied) {
  RunOptions out = opts;
  if (opts.inputs) parse_inputs(*opts.inputs);
  if (opts.seed) validate_seed(*opts.seed);
  if (opts.sentence) validate_sentence(*opts.sentence);
  auto keep = [&](std::optional<std::string>& option, bool applies, const char* name) {
    if (!option || applies) return;
    option.reset();
    not_applied.push_back(name);
  };
  keep(out.seed, has_seed(lesson), "seed");
  keep(out.sentence, has_sentence(lesson), "sentence");
  keep(out.inputs, has_inputs(lesson), "inputs");
  return out;
}

void validate(const Lesson& lesson, const RunOptions& opts) {
  if (opts.inputs) {
    parse_inputs(*opts.inputs);
    if (!has_inputs(lesson)) throw UsageError("lesson '" + lesson.name() + "' has no `inputs = torch.tensor(...)` matrix, so --inputs does not apply to it");
  }
  if (opts.seed) {
    validate_seed(*opts.seed);
    if (!has_seed(lesson)) throw UsageError("lesson '" + lesson.name() + "' sets no seed, so --seed does not apply to it");
  }
  if (opts.sentence) {
    validate_sentence(*opts.sentence);
    if (!has_sentence(lesson)) throw UsageError("lesson '" + lesson.name() + "' has no input sentence, so --sentence does not apply to it");
  }
}

std::string apply_options(const std::string& code, const RunOptions& opts, std::optional<InputsShape> own) {
  std::string out = code;
  if (opts.inputs) {
    std::vector<std::vector<double>> rows = parse_inputs(*opts.inputs);
    if (std::optional<CodeSpan> at = inputs_statement(out)) out = out.substr(0, at->begin) + inputs_literal(rows) + out.substr(at->end);
    if (own) out = rewrite_for_shape(out, *own, InputsShape{rows.size(), rows[0].size()});
  }
  if (opts.seed) {
    std::string seeded;
    size_t done = 0;
    for (const CodeSpan& call : seed_calls(out)) {
      seeded += out.substr(done, call.begin - done) + "torch.manual_seed(" + decimal_seed(*opts.seed) + ")";
      done = call.end;
    }
    out = seeded + out.substr(done);
  }
  if (opts.sentence) {
    std::istringstream in(out);
    std::string result;
    for (std::string line; std::getline(in, line);) {
      if (std::optional<SentenceLine> s = sentence_line(line)) line = line.substr(0, s->literal) + print::py_str_repr(*opts.sentence);
      result += line + "\n";
    }
    out = result;
  }
  return out;
}

core::CpuKernels effective_cpu(const Lesson& lesson, const RunOptions& opts) {
  return opts.cpu ? *opts.cpu : lesson.header.cpu.value_or(core::CpuKernels::avx2);
}

core::DropoutRng effective_rng(const Lesson& lesson, const RunOptions& opts) {
  return opts.rng ? *opts.rng : lesson.header.rng.value_or(core::DropoutRng::mkl);
}

std::string quoted_input(const std::string& text) {
  constexpr size_t kShown = 60;
  if (text.size() <= kShown) return print::py_str_repr(text);
  return print::py_str_repr(text.substr(0, kShown)) + fmt::format("... ({} characters)", text.size());
}

}  // namespace attn::lesson
