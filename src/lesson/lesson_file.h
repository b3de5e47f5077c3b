// lesson/lesson_file.h: reads a lesson file (format: lessons/README.md) into steps and cells.
//
// What it is: a line-based parser for the notebook-shaped lesson format: a title, `key: value`
// header lines, intro prose, then `## id: Title` steps holding prose, ```python cells and the
// ```output the article printed under each cell. Errors (LessonFileError, core/errors.h) name
// file:line.
// What it is not: the interpreter (py/interpreter.h) or the walkthrough (run.h, render.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cpu.h"
#include "core/errors.h"
#include "core/random.h"
#include "lesson/code_scan.h"
#include "lesson/prose.h"

namespace attn::lesson {

// The groups of `attn list`, in course order: the self-attention article, the book chapter,
// the concept lessons. Its spelling in a lesson's `group:` header, and back.
enum class LessonGroup { article, book, concepts };
inline constexpr LessonGroup kLessonGroups[] = {LessonGroup::article, LessonGroup::book, LessonGroup::concepts};
inline const char* to_string(LessonGroup g) {
  return g == LessonGroup::article ? "article" : g == LessonGroup::book ? "book" : "concepts";
}
inline std::optional<LessonGroup> parse_lesson_group(std::string_view s) {
  for (LessonGroup g : kLessonGroups)
    if (s == to_string(g)) return g;
  return std::nullopt;
}

// An enum's names for a message saying what is allowed: "avx2 or scalar", "article, book or
// concepts" (kCpuKernels, kLessonGroups, ...: each enum's to_string).
template <class E, size_t N>
std::string names_of(const E (&values)[N]) {
  std::string out;
  for (size_t k = 0; k < N; ++k) out += (k == 0 ? "" : k + 1 == N ? " or " : ", ") + std::string(to_string(values[k]));
  return out;
}

// A lesson's `key: value` header lines (lessons/README.md, "Header keys"), checked when the file
// is read: a value that is not one of these is a LessonFileError naming its line.
struct LessonHeader {
  std::string name;                       // `attn lesson NAME`: lowercase letters, digits, '-'
  LessonGroup group = LessonGroup::concepts;
  int order = 0;                          // its place inside the group
  std::string source;                     // the title of the article (book, notebook) it follows
  std::optional<std::string> author;      // the source's author(s), when known
  std::optional<std::string> url;         // where the source is: an https:// or http:// address
  std::optional<std::string> section;     // the article's section(s)
  std::optional<core::CpuKernels> cpu;    // the kernels its source was printed with, if it says
  std::optional<core::DropoutRng> rng;    // the dropout masks its source was printed with, if it says
  bool echo_last_expression = false;      // `echo: last-expression`: cells display their last value
  std::optional<std::string> tokens;      // --heatmap labels when the code assigns no sentence
  int name_line = 0;                      // file line of `name:`, for messages naming two files
};

struct Cell {
  std::string code;             // exactly what runs and what is shown
  int line = 0;                 // file line of the first code line
  bool setup = false;           // ```python setup: earlier lessons' code this lesson builds on
  bool has_expected = false;    // the article printed something under this cell
  std::string expected;         // ...and this is what it printed (each line ends with '\n')
  bool omits_grad_fn = false;   // ```output omits grad_fn: the article's printout lacks the
                                // grad_fn=<...> suffix PyTorch prints for this code (an erratum)
  std::string note;             // ```note after the cell: an erratum or remark shown under it
  std::vector<ProsePart> note_parts;   // the note split at its placeholders (prose.h)
};

struct Step {
  std::string id;               // `--step ID`
  std::string title;
  std::string prose;            // paragraphs separated by blank lines, placeholders unfilled
  std::vector<ProsePart> prose_parts;   // the prose split at its placeholders (prose.h): filled
                                        // from each run (filled_prose, run.h)
  std::vector<Cell> cells;
  int line = 0;
};

struct Lesson {
  std::string path;             // where it was read from (for messages)
  bool added = false;           // from the folder $ATTN_LESSON_DIR adds, not the course's (catalog.h)
  std::string replaces;         // ...and the course lesson of the same name it replaces, if any
  std::string title;
  LessonHeader header;
  std::optional<std::string> sentence;   // what its code's first `sentence = '...'` line assigns:
                                         // the input --sentence replaces, read with the file
  std::optional<InputsShape> inputs_shape;   // rows x columns of its `inputs = torch.tensor(...)`
                                             // matrix, which --inputs of another shape adapts to
  std::string intro;
  std::vector<ProsePart> intro_parts;    // markers only: no cell has run when it is shown
  std::vector<Step> steps;
  const std::string& name() const { return header.name; }
};

// The largest lesson file read_lesson() reads: 1 MiB. The course's largest is under 20 KB; the
// limit keeps a mistyped path (/dev/zero, a data file) from filling memory before it fails.
inline constexpr size_t kMaxLessonFileBytes = size_t{1} << 20;

// `text` as a lesson; `path` names it in messages. A NUL byte anywhere is a LessonFileError.
Lesson parse_lesson(const std::string& text, const std::string& path);
// Reads at most kMaxLessonFileBytes + 1 bytes of a file, a pipe or a device: a directory or
// more bytes than that (a data file, /dev/zero) is a LessonFileError naming the limit.
Lesson read_lesson(const std::string& path);
// The same file's title and header alone (no intro, no steps): what a catalogue needs to order
// and name the lessons it does not run (catalog.h). The header's errors are read_lesson's; the
// rest of the file is checked when the lesson is read whole.
Lesson read_lesson_header(const std::string& path);

}  // namespace attn::lesson
