// lesson/code_scan.h: the places in a lesson's code that the learner's options rewrite
// (options.h): `torch.manual_seed(N)` calls (--seed), the `sentence = '...'` line (--sentence),
// the `inputs = torch.tensor(...)` statement (--inputs), and the literals that hard-code the
// number of its rows and columns (--inputs of another shape).
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

// The rows and columns of the matrix an inputs statement (inputs_statement) writes:
// `inputs = torch.tensor([[1., 2., 3.], [4., 5., 6.]])` is 2 x 3. nullopt if the literal is not
// a list of lists of the same length (comments and strings skipped).
struct InputsShape {
  size_t rows = 0, cols = 0;
  bool operator==(const InputsShape& o) const { return rows == o.rows && cols == o.cols; }
};
std::optional<InputsShape> inputs_shape(const std::string& statement);

// The code adapted from the lesson's own inputs shape `own` (R0 x C0) to `given` (R x C), as
// --seed adapts the seed (lessons/README.md, "--inputs of any shape"):
//   - torch.empty / zeros / ones / rand / randn(R0, R0) becomes (R, R): a token-by-token matrix;
//   - a statement assigning the literal C0 to `d_in` (`d_in = 3`, `d_in, d_out = 3, 2`) assigns C.
// Only the digits change; spaces and comments stay as written.
std::string rewrite_for_shape(const std::string& code, InputsShape own, InputsShape given);

}  // namespace attn::lesson
