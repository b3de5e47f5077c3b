// lab/report.h: `attn check`'s reports, and the words its messages share (internal to lab/).
//
// What it is: helpers for the text report and the hints' messages (a name in backticks, a list,
// the options as typed, a number, word wrapping). format_text and format_json are in grade.h.
// What it is not: what a report says about an answer (grade.cpp and the hints decide that).
#pragma once

#include <string>
#include <vector>

#include "lesson/options.h"

namespace attn::lab {

// "`attn_scores`", or "`(unnamed value)`"
std::string code(const std::string& name);
// "a, b, c"
std::string join_names(const std::vector<std::string>& names);
// The options that changed the lesson's numbers, as typed: "--seed 42, --cpu avx2".
std::string options_words(const lesson::RunOptions& o);
// 6 significant digits, as the report shows expected and given numbers.
std::string num(double v);
// Word-wraps `text` at `width` columns; lines after the first start with `indent`.
std::string wrap(const std::string& text, size_t width, const std::string& first, const std::string& indent);

}  // namespace attn::lab
