// py/lexer.h: turns a code cell into Python tokens (with INDENT/DEDENT and implicit line
// joining inside brackets). What it is not: a full Python tokenizer (no raw strings
// beyond r'..', no line continuations with backslash inside strings).
#pragma once

#include <string>
#include <vector>

namespace attn::py {

struct Token {
  enum Kind { Name, Number, String, FString, Bytes, Op, Newline, Indent, Dedent, End } kind;
  std::string text;  // identifier, operator, number text, or the decoded string value
  int line = 0;
  size_t begin = 0, end = 0;   // byte offsets in the cell source (for printed-value names)
};

// Lines are numbered from `first_line` (a cell's first line in its lesson file, or 1).
std::vector<Token> tokenize(const std::string& source, int first_line = 1);

}  // namespace attn::py
