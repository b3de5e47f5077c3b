// lesson/lesson_file.h: reads a lesson file (format: lessons/README.md) into steps and cells.
//
// What it is: a line-based parser for the notebook-shaped lesson format: a title, `key: value`
// header lines, intro prose, then `## id: Title` steps holding prose, ```python cells and the
// ```output the article printed under each cell. Errors (LessonFileError, core/errors.h) name
// file:line.
// What it is not: the interpreter (py/interpreter.h) or the walkthrough (run.h, render.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/errors.h"

namespace attn::lesson {

struct Cell {
  std::string code;             // exactly what runs and what is shown
  int line = 0;                 // file line of the first code line
  bool setup = false;           // ```python setup: earlier lessons' code this lesson builds on
  bool has_expected = false;    // the article printed something under this cell
  std::string expected;         // ...and this is what it printed (each line ends with '\n')
  bool omits_grad_fn = false;   // ```output omits grad_fn: the article's printout lacks the
                                // grad_fn=<...> suffix PyTorch prints for this code (an erratum)
  std::string note;             // ```note after the cell: an erratum or remark shown under it
};

struct Step {
  std::string id;               // `--step ID`
  std::string title;
  std::string prose;            // paragraphs separated by blank lines
  std::vector<Cell> cells;
  int line = 0;
};

struct Lesson {
  std::string path;             // where it was read from (for messages)
  std::string title;
  std::map<std::string, std::string> meta;   // name, source, section, order, group, cpu, rng
  std::string intro;
  std::vector<Step> steps;
  std::string name() const { return meta.at("name"); }
};

Lesson parse_lesson(const std::string& text, const std::string& path);
Lesson read_lesson(const std::string& path);

}  // namespace attn::lesson
