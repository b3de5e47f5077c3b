// lesson/lesson_file.cpp: the lesson file parser (see lesson_file.h and lessons/README.md).
#include "lesson/lesson_file.h"

#include <fmt/format.h>

#include <fstream>
#include <set>
#include <sstream>

namespace attn::lesson {

namespace {

// `tokens` (the words of the lesson's input, for heatmap labels) is accepted but not yet listed in the
// messages below, whose wording tests/test_lesson_file.cpp pins.
const std::set<std::string> kKeys = {"name", "source", "section", "order", "group", "cpu", "rng", "echo", "tokens"};
const std::set<std::string> kRequired = {"name", "source", "order", "group"};

class LessonParser {
 public:
  LessonParser(const std::string& text, std::string path) : path_(std::move(path)) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines_.push_back(l);
    }
  }
  Lesson run();

 private:
  std::string path_;
  std::vector<std::string> lines_;
  size_t k_ = 0;
  Lesson lesson_;

  [[noreturn]] void fail(size_t line, const std::string& what) const {
    throw LessonFileError(fmt::format("{}:{}: {}", path_, line + 1, what));
  }
  void header();
  void step();
  void fence(Step& s, const std::string& info);
  std::string block_until_fence(size_t open_line);
  std::string prose_until_next();
};

// A lesson or step id: lowercase letters, digits and '-', starting with a letter or digit.
bool is_id(const std::string& s) {
  if (s.empty() || s[0] == '-') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

Lesson LessonParser::run() {
  lesson_.path = path_;
  while (k_ < lines_.size() && trim(lines_[k_]).empty()) ++k_;
  if (k_ >= lines_.size() || lines_[k_].rfind("# ", 0) != 0) fail(k_, "a lesson starts with its title: '# Title'");
  lesson_.title = trim(lines_[k_++].substr(2));
  header();
  lesson_.intro = prose_until_next();
  while (k_ < lines_.size()) {
    if (lines_[k_].rfind("## ", 0) != 0) fail(k_, "expected a step heading '## id: Title'");
    step();
  }
  if (lesson_.steps.empty()) fail(lines_.size() ? lines_.size() - 1 : 0, "a lesson needs at least one step ('## id: Title')");
  return lesson_;
}

void LessonParser::header() {
  for (; k_ < lines_.size() && !trim(lines_[k_]).empty(); ++k_) {
    const std::string& l = lines_[k_];
    size_t colon = l.find(':');
    std::string key = colon == std::string::npos ? "" : l.substr(0, colon);
    if (key.empty() || key.find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos)
      fail(k_, "expected a header line 'key: value' (keys: name, source, section, order, group, cpu, rng, echo, tokens)");
    if (!kKeys.count(key)) fail(k_, "unknown header key '" + key + "' (known: name, source, section, order, group, cpu, rng, echo, tokens)");
    lesson_.meta[key] = trim(l.substr(colon + 1));
  }
  for (const std::string& key : kRequired)
    if (!lesson_.meta.count(key)) fail(k_ ? k_ - 1 : 0, "the header has no '" + key + ":' line");
  if (lesson_.meta.count("cpu") && lesson_.meta["cpu"] != "avx2" && lesson_.meta["cpu"] != "scalar")
    fail(1, "cpu: is 'avx2' or 'scalar', got '" + lesson_.meta["cpu"] + "'");
  if (lesson_.meta.count("rng") && lesson_.meta["rng"] != "mkl" && lesson_.meta["rng"] != "portable")
    fail(1, "rng: is 'mkl' or 'portable', got '" + lesson_.meta["rng"] + "'");
  if (lesson_.meta.count("echo") && lesson_.meta["echo"] != "last-expression")
    fail(1, "echo: is 'last-expression' (cells display their last expression's value, as in Jupyter), got '" + lesson_.meta["echo"] + "'");
  if (!is_id(lesson_.meta["name"]))
    fail(1, "a lesson name is lowercase letters, digits and '-', got '" + lesson_.meta["name"] + "'");
}

std::string LessonParser::prose_until_next() {
  std::string out;
  for (; k_ < lines_.size(); ++k_) {
    const std::string& l = lines_[k_];
    if (l.rfind("## ", 0) == 0 || l.rfind("```", 0) == 0) break;
    out += l + "\n";
  }
  size_t e = out.find_last_not_of('\n');
  return e == std::string::npos ? "" : out.substr(out.find_first_not_of('\n'), e + 1 - out.find_first_not_of('\n'));
}

void LessonParser::step() {
  const std::string& l = lines_[k_];
  size_t colon = l.find(": ", 3);
  Step s;
  if (colon != std::string::npos) {
    s.id = l.substr(3, colon - 3);
    s.title = trim(l.substr(colon + 2));
  }
  if (!is_id(s.id) || s.title.empty()) fail(k_, "a step heading is '## id: Title' with a lowercase id, got '" + l + "'");
  s.line = static_cast<int>(k_ + 1);
  for (const Step& other : lesson_.steps)
    if (other.id == s.id) fail(k_, "step id '" + s.id + "' is used twice");
  ++k_;
  s.prose = prose_until_next();
  while (k_ < lines_.size() && lines_[k_].rfind("```", 0) == 0) {
    fence(s, trim(lines_[k_].substr(3)));
    std::string more = prose_until_next();
    if (!more.empty()) s.prose += (s.prose.empty() ? "" : "\n\n") + more;
  }
  lesson_.steps.push_back(s);
}

std::string LessonParser::block_until_fence(size_t open_line) {
  std::string out;
  for (++k_; k_ < lines_.size(); ++k_) {
    if (lines_[k_] == "```") {
      ++k_;
      return out;
    }
    out += lines_[k_] + "\n";
  }
  fail(open_line, "this ``` block is never closed");
}

void LessonParser::fence(Step& s, const std::string& info) {
  size_t open = k_;
  if (info == "python" || info == "python setup") {
    Cell c;
    c.setup = info == "python setup";
    c.line = static_cast<int>(open + 2);
    c.code = block_until_fence(open);
    s.cells.push_back(c);
  } else if (info == "output" || info == "output omits grad_fn" || info == "note") {
    if (s.cells.empty()) fail(open, "an ```" + info + " block belongs under a ```python cell");
    Cell& c = s.cells.back();
    std::string body = block_until_fence(open);
    if (info == "note") {
      c.note = body;
    } else {
      if (c.has_expected) fail(open, "this cell already has an ```output block");
      c.has_expected = true;
      c.expected = body;
      c.omits_grad_fn = info == "output omits grad_fn";
    }
  } else {
    fail(open, "unknown block '```" + info + "' (use ```python, ```python setup, ```output, ```output omits grad_fn or ```note)");
  }
}

}  // namespace

Lesson parse_lesson(const std::string& text, const std::string& path) { return LessonParser(text, path).run(); }

Lesson read_lesson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LessonFileError(path + ": cannot read this lesson file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_lesson(ss.str(), path);
}

}  // namespace attn::lesson
