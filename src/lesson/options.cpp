// lesson/options.cpp: checking the learner's options and rewriting cell code with them (see
// options.h).
#include "lesson/options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "print/tensor_str.h"

namespace attn::lesson {

namespace {

const std::regex kSeedCall(R"(torch\.manual_seed\(\s*-?[0-9_]+\s*\))");
const std::regex kSentence(R"(^(\s*sentence\s*=\s*)(['"]).*\2[ \t]*$)");

bool has_sentence(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells) {
      std::istringstream in(c.code);
      for (std::string line; std::getline(in, line);)
        if (std::regex_match(line, kSentence)) return true;
    }
  return false;
}

bool has_seed(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells)
      if (std::regex_search(c.code, kSeedCall)) return true;
  return false;
}

// PyTorch accepts seeds in [-2^63, 2^64 - 1] (torch.manual_seed raises outside).
void validate_seed(const std::string& s) {
  static const std::regex digits("-?[0-9]+");
  if (!std::regex_match(s, digits))
    throw UsageError("--seed must be an integer (as torch.manual_seed takes), got '" + s + "'");
  errno = 0;
  if (s[0] == '-') std::strtoll(s.c_str(), nullptr, 10);
  else std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE)
    throw UsageError("--seed must be in PyTorch's range -9223372036854775808 to 18446744073709551615, got " + s);
}

void validate_sentence(const std::string& s) {
  std::string no_commas = s;
  no_commas.erase(std::remove(no_commas.begin(), no_commas.end(), ','), no_commas.end());
  std::istringstream in(no_commas);
  int words = 0;
  for (std::string w; in >> w;) ++words;
  if (words < 2)
    throw UsageError(fmt::format("--sentence needs at least two words to attend between, got {}: '{}'", words, s));
  if (s.find('\n') != std::string::npos) throw UsageError("--sentence must be one line of text");
}

// Where the statement `inputs = torch.tensor(...)` starts and ends in `code` (npos if absent).
// Brackets inside comments and strings are skipped, as the chapter's literal has "(x^1)" comments.
std::pair<size_t, size_t> find_inputs_literal(const std::string& code) {
  static const std::regex start(R"((^|\n)(inputs\s*=\s*torch\.tensor\())");
  std::smatch m;
  if (!std::regex_search(code, m, start)) return {std::string::npos, std::string::npos};
  size_t begin = static_cast<size_t>(m.position(2)), k = begin + m.length(2);
  int depth = 1;
  for (; k < code.size() && depth > 0; ++k) {
    char c = code[k];
    if (c == '#') {
      while (k < code.size() && code[k] != '\n') ++k;
    } else if (c == '\'' || c == '"') {
      for (++k; k < code.size() && code[k] != c; ++k) {}
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    }
  }
  return depth == 0 ? std::make_pair(begin, k) : std::make_pair(std::string::npos, std::string::npos);
}

bool has_inputs(const Lesson& l) {
  for (const Step& s : l.steps)
    for (const Cell& c : s.cells)
      if (find_inputs_literal(c.code).first != std::string::npos) return true;
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

// The text of a one-line Python string literal 'abc' or "abc" (the escapes py_str_repr writes).
std::string unquote(const std::string& literal) {
  std::string out;
  for (size_t k = 1; k + 1 < literal.size(); ++k) {
    if (literal[k] == '\\' && k + 2 < literal.size()) {
      char e = literal[++k];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
    } else {
      out += literal[k];
    }
  }
  return out;
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
      if (end != w.c_str() + w.size()) throw UsageError(fmt::format("--inputs row {}: '{}' is not a number", r, w));
      if (!std::isfinite(v)) throw UsageError(fmt::format("--inputs row {}: '{}' is not finite; embeddings are finite numbers", r, w));
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
  if (rows.size() != 6)
    throw UsageError(fmt::format("--inputs needs 6 rows, one per token of \"Your journey starts with one step\" (the chapter's code assumes six tokens), got {}", rows.size()));
  return rows;
}

const Step& require_step(const Lesson& lesson, const std::string& id, const std::string& prefix) {
  std::string ids;
  for (const Step& s : lesson.steps) {
    if (s.id == id) return s;
    ids += (ids.empty() ? "" : ", ") + s.id;
  }
  throw UsageError(prefix + "lesson '" + lesson.name() + "' has no step " + print::py_str_repr(id) + " (its steps: " + ids + ")");
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

std::string apply_options(const std::string& code, const RunOptions& opts) {
  std::string out = code;
  if (opts.inputs) {
    auto [begin, end] = find_inputs_literal(out);
    if (begin != std::string::npos) out = out.substr(0, begin) + inputs_literal(parse_inputs(*opts.inputs)) + out.substr(end);
  }
  if (opts.seed) out = std::regex_replace(out, kSeedCall, "torch.manual_seed(" + *opts.seed + ")");
  if (opts.sentence) {
    std::istringstream in(out);
    std::string result;
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_match(line, m, kSentence)) line = m[1].str() + print::py_str_repr(*opts.sentence);
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

std::optional<std::string> sentence_in(const std::string& line) {
  std::smatch m;
  if (!std::regex_match(line, m, kSentence)) return std::nullopt;
  std::string rest = line.substr(static_cast<size_t>(m.length(1)));
  size_t end = rest.find_last_of(m[2].str());
  return unquote(rest.substr(0, end + 1));
}

}  // namespace attn::lesson
