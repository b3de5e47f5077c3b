// lesson/prose.h: numbers in a lesson's prose that come from the run (lessons/README.md, "Numbers
// in prose"): the `{{...}}` placeholders of step prose and notes, and how a text is filled.
//
//   {{attn_weights[1, 0]:.4f}}   a Python expression, evaluated in the lesson's interpreter after
//                                the step's last cell, shown as format(value, '.4f') (str(value)
//                                without a spec)
//   {{seed}}                     the argument of the step's first torch.manual_seed(...), as run
//   {{article: in the article's run, row 1 keeps 0.1772}}
//                                text about the source's own printout, shown as written; it must
//                                name the source (article, notebook, book or chapter)
//   {{const: 3.4e38}}            a number no option changes (a fact about float32, a constant of
//                                the code), shown as written
//
// What it is: the syntax (parse_prose, checked when the lesson file is read, errors naming
// file:line; an expression must only read: it calls no function but builtins and methods that
// read) and the filling of a text from values already computed (fill_prose). What it is not:
// evaluating expressions (run.cpp does, in the lesson's interpreter) or wrapping (render.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace attn::lesson {

// A piece of prose: plain text, or one placeholder.
struct ProsePart {
  enum class Kind { text, expr, seed, article, constant };
  Kind kind = Kind::text;
  std::string text;     // text: the text; article/constant: the text shown; expr/seed: the source "{{...}}"
  std::string expr;     // expr: the Python expression
  std::string spec;     // expr: the format spec after the last top-level ':' ("" = str(value))
  int line = 0;         // file line of the placeholder
  std::vector<std::string> names;   // expr: the names it reads (not a comprehension's own), sorted
};

// What a piece of prose may hold: intros are shown before any cell ran, so they take only the
// markers (article, const); step prose and notes take every kind.
enum class ProseWhere { intro, step };

// Splits `text` (whose first line is file line `first_line` of `path`) into parts. A malformed
// placeholder is a LessonFileError "path:line: ..." saying what is wrong and what is allowed.
std::vector<ProsePart> parse_prose(const std::string& text, const std::string& path, int first_line, ProseWhere where);

// The text with each placeholder replaced: expr and seed parts by value(part) (the run's values),
// article and const parts by their text.
std::string fill_prose(const std::vector<ProsePart>& parts, const std::function<std::string(const ProsePart&)>& value);

// The paragraphs (0 = the first run of non-blank lines) that hold an expr or seed placeholder: the
// author broke their lines around the placeholder's source, so the walkthrough fills them again
// with their values in (print::wrap_prose's `refill`). Values are one line, so the filled text has
// the same paragraphs.
std::vector<int> paragraphs_with_values(const std::vector<ProsePart>& parts);

// Python code that evaluates an expr placeholder and prints its text (no newline after it):
// `print(format(EXPR, 'SPEC'), end='')`, or `print(str(EXPR), end='')` without a spec.
std::string placeholder_code(const ProsePart& p);

}  // namespace attn::lesson
