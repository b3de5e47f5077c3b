// lesson/render.h: the walkthrough as the learner reads it: the lesson's header, each step's
// prose, code, output and notes, and (--heatmap) pictures of the attention weights a cell printed.
//
// What it is: text made from a LessonRun (run.h); nothing is recomputed.
// What it is not: terminal I/O (cli/display.cpp), the heatmap drawing itself (print/heatmap.h)
// or the JSON of a run (json_run.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lesson/run.h"

namespace attn::lesson {

// How render() shows a run (`attn lesson --heatmap --pause --quiet`). The lesson layer does no
// terminal I/O: the command line decides `color` and supplies `on_pause`.
struct DisplayOptions {
  bool heatmap = false;   // draw attention weights under the Out: block of the cell that printed them
  bool pause = false;     // call on_pause between two shown steps
  bool quiet = false;     // the cells' outputs only (and their heatmaps with `heatmap`): no headers,
                          // prose, code or notes
  bool about = false;     // --about: the header adds how the numbers were computed (about_lines())
  bool color = false;     // heatmaps in 256-colour blocks instead of shade characters
  // `attn run FILE` shows a file that is not in the course: the header says "Lesson file FILE ·
  // attn run FILE" and hints name `attn run FILE`; empty: a course lesson, `attn lesson NAME`.
  std::string file;
  int width = 80;         // columns of the terminal (80 when not a terminal): heatmaps fit in it;
                          // headers, rules, prose, notes and attn's own lines in it and in 80
                          // columns (the prose's measure), so rules end where the prose does, never broken inside a word.
                          // Code and what a cell printed are shown as they are: they are never
                          // wrapped (the code shown is the code run; the output is PyTorch's).
  // Called between two shown steps when `pause` is set, with the text rendered since the last call
  // (render() returns only what follows the last call). Returns false to stop the walkthrough:
  // render() then returns "".
  std::function<bool(const std::string& text_so_far)> on_pause;
  // `--from ID`: the walkthrough starts at this step (an id; the earlier steps ran, silently, and
  // the intro is not shown); empty: at the first.
  std::string from_step;
  // Called with a step's index in the lesson just before it is shown (before the pause that
  // precedes it): where the learner is, for the progress (cli/cmd_lesson.cpp).
  std::function<void(size_t step_index)> on_step;
};

// The walkthrough as the learner reads it; `only_step` empty = every step. A run a cell's error
// stopped (run_until_error) shows as far as it got: the failing cell's code and what it printed
// before the error, and nothing after it; the error itself is the caller's to report.
//
// Heatmaps (display.heatmap): every value a cell printed that print::attention_matrices()
// accepts (2-D, or 3-D with one picture per batch element; at most 32 tokens a side), labelled
// with the lesson's tokens (lesson_tokens()) where their number matches the rows or columns.
// Side by side: the pictures of one cell, consecutive ones of the same shape, as many as fit in
// 80 columns; and a masked matrix (print::mark_masks) printed alone in its cell is drawn beside
// the last unmasked attention matrix of the same shape that an earlier cell printed.
std::string render(const LessonRun& run, const std::string& only_step, int lesson_number, int lesson_count,
                   const DisplayOptions& display = {});

// Who wrote the lesson's source and its title: `Sebastian Raschka, "Understanding ..."`, or
// `"TITLE" (author not known)` for a lesson without an `author:` header.
std::string source_credit(const LessonHeader& h);

// How the run's numbers were computed, one unwrapped line each ("Numbers: ...", "BLAS: ...",
// and "Dropout: ..." for a lesson with an `rng:` header): the header's lines under --about, and
// `about` in --format json.
std::vector<std::string> about_lines(const LessonRun& run);

// The lesson's tokens, for heatmap labels: the words of its sentence (Lesson::sentence, or
// --sentence as given when it replaced it; commas removed, split on spaces, as the article
// does), else of its `tokens:` header, else none.
std::vector<std::string> lesson_tokens(const LessonRun& run);

}  // namespace attn::lesson
