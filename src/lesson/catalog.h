// lesson/catalog.h: the lesson catalogue: where the lessons are, every lesson there in course
// order, and which lesson a name means.
//
// What it is: the course's folder (<exe dir>/../share/attn/lessons, where `cmake --install` puts
// them; else, for a binary of the build tree, the source tree's lessons/) and the folder
// $ATTN_LESSON_DIR adds to it,
// its *.lesson files sorted by group (article, book, concepts) and then by their `order:`
// header, and lookup by name with "did you mean" suggestions (UsageError).
// What it is not: the lesson file parser (lesson_file.h).
#pragma once

#include <string>
#include <vector>

#include "core/errors.h"
#include "lesson/lesson_file.h"

namespace attn::lesson {

std::string lesson_dir();                                // where the course's lessons are (the order: above)
std::string added_lesson_dir();                          // $ATTN_LESSON_DIR, "" if unset
// How much of each file a catalogue reads: all of it, or its title and header (read_lesson_header:
// enough to order, number and name the lessons; `attn lesson NAME` runs one of them).
enum class Reading { whole, headers };
std::vector<Lesson> load_catalog(const std::string& dir, Reading reading = Reading::whole);  // one folder's, sorted in course order
// The lessons every command sees: the course's, and those of $ATTN_LESSON_DIR (Lesson::added),
// merged in course order. A folder lesson with a course lesson's name replaces it
// (Lesson::replaces names the course file): an instructor's edited copy is the one that runs.
// Two lessons of one name inside one folder are a LessonFileError naming both files. Without a
// course folder (an installed attn whose lessons were removed), the added folder alone.
std::vector<Lesson> load_lessons(Reading reading = Reading::whole);
const Lesson& find_lesson(const std::vector<Lesson>& all, const std::string& name);  // UsageError with suggestions
// find_lesson in a catalogue of headers (Reading::headers), that lesson then read whole in place.
const Lesson& read_whole_lesson(std::vector<Lesson>& all, const std::string& name);

}  // namespace attn::lesson
