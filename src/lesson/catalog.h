// lesson/catalog.h: the lesson catalogue: where the lessons are, every lesson there in course
// order, and which lesson a name means.
//
// What it is: the folder ($ATTN_LESSON_DIR; else <exe dir>/../share/attn/lessons, where
// `cmake --install` puts them; else, for a binary of the build tree, the source tree's lessons/),
// its *.lesson files sorted by group (article, book, concepts) and then by their `order:`
// header, and lookup by name with "did you mean" suggestions (UsageError).
// What it is not: the lesson file parser (lesson_file.h).
#pragma once

#include <string>
#include <vector>

#include "core/errors.h"
#include "lesson/lesson_file.h"

namespace attn::lesson {

std::string lesson_dir();                                // where the lessons are (the order: above)
std::vector<Lesson> load_catalog(const std::string& dir);  // sorted in course order
const Lesson& find_lesson(const std::vector<Lesson>& all, const std::string& name);  // UsageError with suggestions

}  // namespace attn::lesson
