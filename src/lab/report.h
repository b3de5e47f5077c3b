// lab/report.h: `attn check`'s reports, and the words its messages share (internal to lab/).
//
// What it is: helpers for the text report and the hints' messages (a name in backticks, a list,
// the options as typed, a number, word wrapping). format_text and format_json are in grade.h.
// What it is not: what a report says about an answer (grade.cpp and the hints decide that).
#pragma once

#include <string>
#include <vector>

#include "lab/grade.h"
#include "lesson/options.h"

namespace attn::lab {

// "`attn_scores`", or "`(unnamed value)`"
std::string code(const std::string& name);
// "a, b, c"
std::string join_names(const std::vector<std::string>& names);
// The options that changed the lesson's numbers, as typed: "--seed 42, --cpu avx2".
std::string options_words(const lesson::RunOptions& o);
// 6 significant digits, as the report shows expected and given numbers; NaN is "nan" whatever its
// sign bit, inf and -inf as Python writes them. num_signed: with its sign, "+0.0123", "-inf".
std::string num(double v);
std::string num_signed(double v);
// Word-wraps `text` at `width` columns; lines after the first start with `indent`.
std::string wrap(const std::string& text, size_t width, const std::string& first, const std::string& indent);
// `text` with control characters and bytes that are not UTF-8 escaped as Python's repr() escapes
// them (\x1b, \xff): printable on a terminal, valid in JSON and CSV. valid_utf8: only the bytes
// that are not UTF-8, for text json::str escapes the rest of (a message quoting a student's file).
std::string printable(const std::string& text);
std::string valid_utf8(const std::string& text);
// "options" of the JSON reports: the inputs as given (seed a number), `cpu` and `rng` (JSON
// values: a string, or null when not given), the tolerance.
std::string options_json(const lesson::RunOptions& opts, const std::string& cpu, const std::string& rng, const Tolerance& tol);

}  // namespace attn::lab
