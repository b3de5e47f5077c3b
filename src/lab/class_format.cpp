// lab/class_format.cpp: the class report of `attn check --answers` as text, JSON and CSV (see
// class_report.h). Every name and message in a ClassReport is printable already (class_grade.cpp),
// so nothing here escapes more than its format needs. What it is not: the grading.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "lab/class_report.h"
#include "lab/report.h"
#include "lesson/json.h"
#include "print/wrap.h"

namespace attn::lab {

namespace json = lesson::json;
using Status = StudentResult::Status;

std::string_view to_string(Status s) {
  switch (s) {
    case Status::pass: return "pass";
    case Status::fail: return "fail";
    case Status::cannot_grade: return "cannot_grade";
    case Status::not_graded: return "not_graded";
  }
  return "unknown";
}

std::vector<KindCount> kind_counts(const ClassReport& r) {
  std::vector<std::string> order;
  for (int k = 0; k < kHintKindCount; ++k) order.emplace_back(to_string(static_cast<HintKind>(k)));
  for (const char* k : {"other", "cannot_grade", "not_graded"}) order.emplace_back(k);
  std::vector<KindCount> out;
  for (const std::string& kind : order) {
    KindCount c{kind, {}};
    for (const StudentResult& s : r.students)
      if (s.kind == kind) c.students.push_back(s.student);
    if (!c.students.empty()) out.push_back(std::move(c));
  }
  return out;
}

namespace {

size_t columns(const std::string& s) { return static_cast<size_t>(print::visible_width(s)); }

// `text` in at most `room` columns: whole, or cut after a word and ended with "...".
std::string fit(const std::string& text, size_t room) {
  if (columns(text) <= room) return text;
  size_t keep = room > 3 ? room - 3 : 0, cut = 0, col = 0, last_space = std::string::npos;
  for (; cut < text.size() && col < keep; ++cut) {
    if ((static_cast<unsigned char>(text[cut]) & 0xC0) != 0x80) ++col;
    if (text[cut] == ' ') last_space = cut;
  }
  while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;   // the whole code point
  if (cut < text.size() && text[cut] == ' ') last_space = cut;
  if (last_space != std::string::npos && last_space > 0) cut = last_space;   // a word is never cut, unless it is the first
  return text.substr(0, cut) + "...";
}

// The message without the file name it starts with (the line names the student): "is a zip
// archive ...", "line 2: 'zero' is not a number".
std::string without_file(const StudentResult& s) {
  const std::string& m = s.message;
  if (m.rfind(s.file + ": ", 0) == 0) return m.substr(s.file.size() + 2);
  size_t colon = m.find(": ", s.file.size() + 1);
  if (m.rfind(s.file + ":", 0) != 0 || colon == std::string::npos) return m;
  std::string line = m.substr(s.file.size() + 1, colon - s.file.size() - 1);
  bool digits = !line.empty() && std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isdigit(c); });
  return digits ? "line " + line + ": " + m.substr(colon + 2) : m;
}

const char* status_word(Status s) {
  switch (s) {
    case Status::pass: return "PASS";
    case Status::fail: return "FAIL";
    case Status::cannot_grade: return "ERROR";
    case Status::not_graded: return "SKIP";
  }
  return "?";
}

std::string header(const ClassReport& r) {
  std::string given = options_words(r.opts);
  return fmt::format("{}/{}  {} {}{}\n", r.lesson, r.step, r.name.empty() ? "(unnamed value)" : r.name, core::shape_str(r.shape),
                     given.empty() ? "" : "  (lesson run with " + printable(given) + ")");
}

// "1 of 9 passed; 4 failed, 3 cannot be graded, 1 not graded."
std::string tally(const ClassReport& r) {
  auto count = [&](Status s) { return std::count_if(r.students.begin(), r.students.end(), [&](const StudentResult& x) { return x.status == s; }); };
  std::string out = fmt::format("{} of {} passed", count(Status::pass), r.students.size());
  std::vector<std::string> rest;
  if (auto n = count(Status::fail)) rest.push_back(fmt::format("{} failed", n));
  if (auto n = count(Status::cannot_grade)) rest.push_back(fmt::format("{} cannot be graded", n));
  if (auto n = count(Status::not_graded)) rest.push_back(fmt::format("{} not graded", n));
  return out + (rest.empty() ? "" : "; " + join_names(rest)) + ".";
}

}  // namespace

std::string format_class_text(const ClassReport& r, size_t width) {
  std::string out = header(r);
  if (columns(out) > width + 1) out = wrap(out, width, "", "  ");   // a long --sentence
  out += wrap(fmt::format("{} file{} in {}", r.students.size(), r.students.size() == 1 ? "" : "s", r.folder), width, "", "  ");
  size_t name_w = 0;
  for (const StudentResult& s : r.students) name_w = std::max(name_w, std::min<size_t>(columns(s.student), 24));
  for (const StudentResult& s : r.students) {
    std::string line = s.student + std::string(name_w > columns(s.student) ? name_w - columns(s.student) : 0, ' ') + "  " + status_word(s.status);
    if (s.status != Status::pass) {
      line += std::string(7 - std::string_view(status_word(s.status)).size(), ' ');
      std::string what = s.status == Status::fail ? s.kind + ": " + s.title : without_file(s);
      line += fit(what, width > columns(line) ? width - columns(line) : 0);
    }
    out += line + "\n";
  }
  out += "\n";
  out += wrap(tally(r), width, "", "  ");
  std::vector<KindCount> kinds = kind_counts(r);
  size_t kind_w = 0;
  for (const KindCount& k : kinds) kind_w = std::max(kind_w, k.kind.size());
  for (const KindCount& k : kinds) {
    std::string lead = fmt::format("  {:<{}}  {:>3}  ", k.kind, kind_w, k.students.size());
    out += wrap(join_names(k.students), width, lead, std::string(lead.size(), ' '));
  }
  return out;
}

std::string format_class_json(const ClassReport& r) {
  auto strs = [](const std::vector<std::string>& v) {
    std::vector<std::string> items;
    for (const std::string& s : v) items.push_back(json::str(s));
    return json::array(items);
  };
  auto str_or_null = [](const std::string& s) { return s.empty() ? json::null : json::str(s); };
  std::vector<std::string> students, kinds, shape;
  for (int64_t d : r.shape) shape.push_back(json::integer(d));
  for (const StudentResult& s : r.students) {
    bool compared = (s.status == Status::pass || s.status == Status::fail) && s.grade.shape_match;
    students.push_back(json::Object()
                           .add("student", json::str(s.student))
                           .add("file", json::str(s.file))
                           .add("status", json::str(std::string(to_string(s.status))))
                           .add("kind", str_or_null(s.kind))
                           .add("kinds", strs(s.kinds))
                           .add("message", str_or_null(s.message))
                           .add("n_differ", compared ? json::integer(s.grade.n_differ) : json::null)
                           .add("max_abs_diff", compared ? json::real(s.grade.max_abs_diff) : json::null)
                           .done());
  }
  for (const KindCount& k : kind_counts(r))
    kinds.push_back(json::Object().add("kind", json::str(k.kind)).add("count", json::integer(static_cast<long long>(k.students.size()))).add("students", strs(k.students)).done());
  auto count = [&](Status st) {
    return json::integer(std::count_if(r.students.begin(), r.students.end(), [&](const StudentResult& x) { return x.status == st; }));
  };
  json::Object summary;
  summary.add("files", json::integer(static_cast<long long>(r.students.size())));
  for (Status st : {Status::pass, Status::fail, Status::cannot_grade, Status::not_graded}) summary.add(std::string(to_string(st)), count(st));
  summary.add("kinds", json::array(kinds));
  json::Object o;
  o.add("lesson", json::str(r.lesson)).add("step", json::str(r.step)).add("name", json::str(r.name)).add("shape", json::array(shape));
  o.add("folder", json::str(r.folder));
  o.add("options", options_json(r.opts, json::str(core::to_string(r.cpu)), json::str(core::to_string(r.rng)), r.tol));
  o.add("students", json::array(students)).add("summary", summary.done());
  return json::pretty(o.done(), 2) + "\n";
}

namespace {

// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, or starts or
// ends with a space; a quote inside doubled. A text field that a spreadsheet would run as a
// formula (a student's file named `=HYPERLINK(...).npy` starts with = + - @, a tab or CR) gets a
// leading ' (OWASP's CSV-injection advice), which spreadsheets show as text.
std::string csv_field(const std::string& s) {
  const std::string text = !s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos ? "'" + s : s;
  bool quote = text.find_first_of(",\"\r\n") != std::string::npos || (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string format_class_csv(const ClassReport& r) {
  std::string out = "student,file,status,kind,n_differ,max_abs_diff,message\n";
  for (const StudentResult& s : r.students) {
    bool compared = (s.status == Status::pass || s.status == Status::fail) && s.grade.shape_match;
    out += fmt::format("{},{},{},{},{},{},{}\n", csv_field(s.student), csv_field(s.file), to_string(s.status), s.kind,
                       compared ? std::to_string(s.grade.n_differ) : "", compared ? num(s.grade.max_abs_diff) : "", csv_field(s.message));
  }
  return out;
}

}  // namespace attn::lab
