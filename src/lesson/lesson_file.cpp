// lesson/lesson_file.cpp: the lesson file parser (see lesson_file.h and lessons/README.md).
#include "lesson/lesson_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "lesson/code_scan.h"
#include "print/tensor_str.h"

namespace attn::lesson {

namespace {

// The header keys (lessons/README.md, "Header keys"); the messages below list them in this order.
const std::set<std::string> kKeys = {"name", "source", "author", "url", "section", "order", "group", "cpu", "rng", "echo", "tokens"};
const std::set<std::string> kRequired = {"name", "source", "order", "group"};

class LessonParser {
 public:
  LessonParser(const std::string& text, std::string path, bool header_only = false) : path_(std::move(path)), header_only_(header_only) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines_.push_back(l);
    }
  }
  Lesson run();

 private:
  std::string path_;
  bool header_only_ = false;   // the title and header lines only (read_lesson_header)
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
  std::string prose_until_next(int* first_line = nullptr);
  void check_seed_placeholders(const Step& s) const;
  void add_prose(std::vector<ProsePart>& parts, const std::string& chunk, int first_line, ProseWhere where);
};

// A lesson or step id: lowercase letters, digits and '-', starting with a letter or digit.
bool is_id(const std::string& s) {
  if (s.empty() || s[0] == '-') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

// An https:// or http:// address with a host: printable ASCII, no spaces or quotes, so a terminal
// shows it as one word that a click or a copy takes whole.
bool is_web_address(const std::string& s) {
  size_t scheme = s.rfind("https://", 0) == 0 ? 8 : s.rfind("http://", 0) == 0 ? 7 : 0;
  if (scheme == 0 || s.size() <= scheme || s[scheme] == '/' || s.size() > 2000) return false;
  for (char c : s)
    if (c <= ' ' || c > '~' || c == '"' || c == '<' || c == '>' || c == '\\' || c == '`') return false;
  return true;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "12" or "-3" as an int; nullopt for anything else ("abc", "1.5", "", more than 9 digits).
std::optional<int> whole_number(const std::string& s) {
  size_t sign = !s.empty() && s[0] == '-' ? 1 : 0;
  if (s.size() == sign || s.size() - sign > 9 || s.find_first_not_of("0123456789", sign) != std::string::npos) return std::nullopt;
  return std::stoi(s);
}

Lesson LessonParser::run() {
  lesson_.path = path_;
  for (size_t k = 0; k < lines_.size(); ++k)   // Python refuses source code with null bytes too
    if (size_t at = lines_[k].find('\0'); at != std::string::npos)
      fail(k, fmt::format("a NUL byte (\\x00) at column {}; a lesson file is UTF-8 text", at + 1));
  while (k_ < lines_.size() && trim(lines_[k_]).empty()) ++k_;
  if (k_ >= lines_.size() || lines_[k_].rfind("# ", 0) != 0) {
    const bool python = path_.size() > 3 && path_.compare(path_.size() - 3, 3, ".py") == 0;
    fail(k_, python ? "a lesson starts with its title: '# Title'; this is a Python file: put its code in a lesson's ```python "
                      "cells (lessons/README.md), or check an exercise file with `attn watch FILE`"
                    : "a lesson starts with its title: '# Title'");
  }
  lesson_.title = trim(lines_[k_++].substr(2));
  header();
  if (header_only_) return lesson_;
  int intro_line = 0;
  lesson_.intro = prose_until_next(&intro_line);
  add_prose(lesson_.intro_parts, lesson_.intro, intro_line, ProseWhere::intro);
  while (k_ < lines_.size()) {
    if (lines_[k_].rfind("## ", 0) != 0) fail(k_, "expected a step heading '## id: Title'");
    step();
  }
  if (lesson_.steps.empty()) fail(lines_.size() ? lines_.size() - 1 : 0, "a lesson needs at least one step ('## id: Title')");
  for (const Step& s : lesson_.steps)
    for (const Cell& c : s.cells) {
      std::istringstream code(c.code);
      for (std::string line; !lesson_.sentence && std::getline(code, line);)
        if (std::optional<SentenceLine> assigned = sentence_line(line)) lesson_.sentence = assigned->value;
      std::optional<CodeSpan> inputs = inputs_statement(c.code);
      if (inputs && !lesson_.inputs_shape) lesson_.inputs_shape = inputs_shape(c.code.substr(inputs->begin, inputs->end - inputs->begin));
    }
  return lesson_;
}

// The header's lines, `key: value` up to the first blank line, checked key by key: each message
// names the line and says what is wrong, then what is allowed.
void LessonParser::header() {
  std::map<std::string, std::pair<std::string, size_t>> raw;   // key -> (value, line index)
  for (; k_ < lines_.size() && !trim(lines_[k_]).empty(); ++k_) {
    const std::string& l = lines_[k_];
    size_t colon = l.find(':');
    std::string key = colon == std::string::npos ? "" : l.substr(0, colon);
    if (key.empty() || key.find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos)
      fail(k_, "expected a header line 'key: value' (keys: name, source, author, url, section, order, group, cpu, rng, echo, tokens)");
    if (!kKeys.count(key)) fail(k_, "unknown header key '" + key + "' (known: name, source, author, url, section, order, group, cpu, rng, echo, tokens)");
    if (auto seen = raw.find(key); seen != raw.end())
      fail(k_, fmt::format("'{}:' is given twice (first on line {}); give each header key once", key, seen->second.second + 1));
    raw[key] = {trim(l.substr(colon + 1)), k_};
  }
  for (const std::string& key : kRequired)
    if (!raw.count(key)) fail(k_ ? k_ - 1 : 0, "the header has no '" + key + ":' line");
  LessonHeader& h = lesson_.header;
  auto value = [&](const char* key) -> const std::string& { return raw.at(key).first; };
  auto wrong = [&](const char* key, const std::string& what, const std::string& allowed) {
    fail(raw.at(key).second, fmt::format("{}: {} is not {}; {}", key, print::py_str_repr(value(key)), what, allowed));
  };
  h.name = value("name");
  h.name_line = static_cast<int>(raw.at("name").second + 1);
  if (!is_id(h.name)) wrong("name", "a lesson name", "use lowercase letters, digits and '-', not starting with '-'");
  if (auto g = parse_lesson_group(value("group"))) h.group = *g;
  else wrong("group", "a lesson group", "use " + names_of(kLessonGroups));
  if (auto order = whole_number(value("order"))) h.order = *order;
  else wrong("order", "a whole number", "use one such as 1, 2, 3 (its place in its group)");
  h.source = value("source");
  if (h.source.empty()) wrong("source", "a title", "give the title of the article, book or notebook the lesson follows");
  if (raw.count("author")) {
    h.author = value("author");
    if (h.author->empty()) wrong("author", "an author", "name the source's author(s), or leave the line out when unknown");
  }
  if (raw.count("url")) {
    h.url = value("url");
    if (!is_web_address(*h.url)) wrong("url", "a web address", "use one https:// or http:// address, without spaces");
  }
  if (raw.count("section")) h.section = value("section");
  if (raw.count("cpu")) {
    if (!(h.cpu = core::parse_cpu_kernels(value("cpu")))) wrong("cpu", "a CPU kernel family", "use " + names_of(core::kCpuKernels));
  }
  if (raw.count("rng")) {
    if (!(h.rng = core::parse_dropout_rng(value("rng")))) wrong("rng", "a dropout generator", "use " + names_of(core::kDropoutRngs));
  }
  if (raw.count("echo")) {
    if (value("echo") != "last-expression")
      wrong("echo", "an echo mode", "use last-expression (cells display their last expression's value, as in Jupyter)");
    h.echo_last_expression = true;
  }
  if (raw.count("tokens")) h.tokens = value("tokens");
}

// The prose lines up to the next step heading or block, without the blank lines around them;
// *first_line: the file line of the first one.
std::string LessonParser::prose_until_next(int* first_line) {
  std::string out;
  bool only_newlines = true;   // out is "\n" * k so far (kept, not re-scanned: a million blank lines stay linear)
  for (; k_ < lines_.size(); ++k_) {
    const std::string& l = lines_[k_];
    if (l.rfind("## ", 0) == 0 || l.rfind("```", 0) == 0) break;
    if (first_line && only_newlines && !trim(l).empty()) *first_line = static_cast<int>(k_ + 1);
    out += l + "\n";
    only_newlines = only_newlines && l.empty();
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
  int first = 0;
  s.prose = prose_until_next(&first);
  add_prose(s.prose_parts, s.prose, first, ProseWhere::step);
  while (k_ < lines_.size() && lines_[k_].rfind("```", 0) == 0) {
    fence(s, trim(lines_[k_].substr(3)));
    std::string more = prose_until_next(&first);
    if (more.empty()) continue;
    if (!s.prose.empty()) {
      s.prose += "\n\n";
      add_prose(s.prose_parts, "\n\n", first, ProseWhere::step);
    }
    s.prose += more;
    add_prose(s.prose_parts, more, first, ProseWhere::step);
  }
  check_seed_placeholders(s);
  lesson_.steps.push_back(s);
}

void LessonParser::add_prose(std::vector<ProsePart>& parts, const std::string& chunk, int first_line, ProseWhere where) {
  for (ProsePart& p : parse_prose(chunk, path_, first_line, where)) {
    if (p.kind == ProsePart::Kind::text && !parts.empty() && parts.back().kind == ProsePart::Kind::text) parts.back().text += p.text;
    else parts.push_back(std::move(p));
  }
}

// {{seed}} shows the step's first torch.manual_seed(...) as run: the step must have one.
void LessonParser::check_seed_placeholders(const Step& s) const {
  bool seeded = false;
  for (const Cell& c : s.cells) seeded = seeded || !seed_calls(c.code).empty();
  auto check = [&](const std::vector<ProsePart>& parts) {
    for (const ProsePart& p : parts)
      if (p.kind == ProsePart::Kind::seed && !seeded)
        fail(static_cast<size_t>(p.line - 1), "{{seed}} shows the step's torch.manual_seed(...) as run, and step '" + s.id +
                                                  "' has none: name the seed another way, or move the sentence");
  };
  check(s.prose_parts);
  for (const Cell& c : s.cells) check(c.note_parts);
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
      c.note_parts = parse_prose(body, path_, static_cast<int>(open + 2), ProseWhere::step);
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

namespace {

// The offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or npos.
size_t invalid_utf8_at(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return i;
    char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (size_t k = 1; k < n; ++k) {
      const auto t = static_cast<unsigned char>(s[i + k]);
      if ((t >> 6) != 0x2) return i;
      c = (c << 6) | (t & 0x3F);
    }
    const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return i;
    i += n;
  }
  return std::string::npos;
}

}  // namespace

// A UTF-8 byte-order mark (Windows editors write one) is skipped; text that is not UTF-8 is
// refused with its line, before any of it can reach the terminal, a JSON document or a notebook.
namespace {

Lesson parse(const std::string& text, const std::string& path, bool header_only) {
  const std::string_view bom = "\xEF\xBB\xBF";
  const std::string body = text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text;
  if (size_t at = invalid_utf8_at(body); at != std::string::npos) {
    const size_t line = 1 + static_cast<size_t>(std::count(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    throw LessonFileError(fmt::format("{}:{}: is not UTF-8 (byte 0x{:02X}); save the lesson file as UTF-8", path, line,
                                      static_cast<unsigned char>(body[at])));
  }
  // Control characters (ESC, BEL, C1 controls) would reach the terminal from a title, the prose
  // or `tokens:` and rewrite what the learner sees; code writes them as escapes ('\x1b').
  for (size_t at = 0; at < body.size(); ++at) {
    const auto b = static_cast<unsigned char>(body[at]);
    const bool c1 = b == 0xC2 && at + 1 < body.size() && static_cast<unsigned char>(body[at + 1]) < 0xA0;
    if ((b < 0x20 && b != 0 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F || c1) {
      const size_t line = 1 + static_cast<size_t>(std::count(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      const unsigned code = c1 ? static_cast<unsigned char>(body[at + 1]) : b;
      throw LessonFileError(fmt::format("{}:{}: holds the control character U+{:04X}; lesson text cannot hold control characters "
                                        "(in code, write it as an escape such as '\\x{:02x}')", path, line, code, code));
    }
    // Bidirectional embedding, override and isolate controls (U+202A-202E, U+2066-2069) reorder
    // what the terminal shows: shown code would differ from the code that runs ("Trojan Source").
    const auto next = [&](size_t k) { return at + k < body.size() ? static_cast<unsigned char>(body[at + k]) : 0u; };
    const bool bidi = b == 0xE2 && ((next(1) == 0x80 && next(2) >= 0xAA && next(2) <= 0xAE) || (next(1) == 0x81 && next(2) >= 0xA6 && next(2) <= 0xA9));
    if (bidi) {
      const size_t line = 1 + static_cast<size_t>(std::count(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      const unsigned code = 0x2000u | ((next(1) & 0x3Fu) << 6) | (next(2) & 0x3Fu);
      throw LessonFileError(fmt::format("{}:{}: holds the bidirectional control U+{:04X}, which reorders what the terminal shows; "
                                        "lesson text cannot hold it (in code, write it as an escape such as '\\u{:04x}')", path, line, code, code));
    }
  }
  return LessonParser(body, path, header_only).run();
}

// The file's bytes up to its first step heading: the title, the header and the intro.
std::string before_first_step(const std::string& text) {
  const size_t step = text.rfind("## ", 0) == 0 ? 0 : text.find("\n## ");
  return step == std::string::npos ? text : text.substr(0, step + 1);
}

}  // namespace

Lesson parse_lesson(const std::string& text, const std::string& path) { return parse(text, path, false); }

// Opened without waiting for a writer (a named pipe nobody writes would block open() forever),
// then read blocking: a pipe with a writer (`attn run <(...)`) streams, one without gives EOF.
namespace {

std::string read_lesson_text(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == EISDIR) throw LessonFileError(path + ": is a directory, not a lesson file");
    throw LessonFileError(path + ": cannot read this lesson file");
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw LessonFileError(path + ": cannot read this lesson file");
  if (S_ISDIR(st.st_mode)) throw LessonFileError(path + ": is a directory, not a lesson file");
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  // Read in chunks up to one byte more than allowed (enough to know it is too large), so a lesson
  // of a few KB costs a few KB, not the limit's MiB zero-filled (21 lessons are read per command).
  // A device such as /dev/zero stops at the limit.
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= kMaxLessonFileBytes) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw LessonFileError(path + ": cannot read this lesson file");
    if (n == 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  if (text.size() > kMaxLessonFileBytes)
    throw LessonFileError(fmt::format("{}: is larger than {} MiB ({} bytes), the limit for a lesson file; lessons are "
                                      "text of a few KB", path, kMaxLessonFileBytes >> 20, kMaxLessonFileBytes));
  return text;
}

}  // namespace

Lesson read_lesson(const std::string& path) { return parse_lesson(read_lesson_text(path), path); }

Lesson read_lesson_header(const std::string& path) { return parse(before_first_step(read_lesson_text(path)), path, true); }

}  // namespace attn::lesson
