// lesson/code_scan.h: the three places in a lesson's code that the learner's options rewrite
// (options.h): `torch.manual_seed(N)` calls (--seed), the `sentence = '...'` line (--sentence)
// and the `inputs = torch.tensor(...)` statement (--inputs).
//
// What it is: plain left-to-right scanning of the lesson author's code, linear in its length. Not
// std::regex, whose recursion overflows the stack on one long line (a 100,000-character
// sentence, a seed of 30,000 digits). What it is not: a Python parser (py/parser.h); and nothing
// here reads back code attn itself wrote: a rewritten value is kept as the option gave it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace attn::lesson {

// [begin, end) of a piece of code.
struct CodeSpan {
  size_t begin = 0, end = 0;
};

// Every `torch.manual_seed(<integer literal>)` call in `code`, in order: the whole call, from
// `torch` to `)`. Spaces may surround the literal; it may have a '-' and '_' separators.
std::vector<CodeSpan> seed_calls(const std::string& code);

// A line that is one `torch.manual_seed(...)` call, whatever its argument, perhaps with a comment
// after it: `  torch.manual_seed(123)  # again` (the seed `attn check` tries leaving out).
bool is_seed_statement(const std::string& line);

// A line that assigns one string literal to `sentence`: `  sentence = 'Life is short'`.
struct SentenceLine {
  size_t literal = 0;    // where the literal (its opening quote) starts in the line
  std::string value;     // the text it holds, without quotes and escapes
};
std::optional<SentenceLine> sentence_line(const std::string& line);

// The first statement `inputs = torch.tensor(...)` that starts a line, up to its closing
// bracket; brackets in comments and strings are skipped. nullopt if there is none.
std::optional<CodeSpan> inputs_statement(const std::string& code);

}  // namespace attn::lesson
