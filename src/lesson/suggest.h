// lesson/suggest.h: "did you mean ...?" for a mistyped word: the one candidate clearly closest
// to it by Damerau-Levenshtein distance (a swap of two neighbours counts as one edit).
//
// What it is: the single rule every typo suggestion of attn follows (options and commands in
// cli/main.cpp, lesson names in catalog.cpp, step ids in options.cpp), so they agree.
// What it is not: a spelling corrector: it suggests only when one candidate is strictly closer
// than every other and close enough to be a typo (see suggest()).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace attn::lesson {

// Optimal-string-alignment distance: insertions, deletions, substitutions and transpositions of
// two adjacent characters each cost 1 ("tirl" -> "tril": 1, "lesosn" -> "lesson": 1).
size_t damerau_distance(const std::string& a, const std::string& b);

// The candidate `typed` most likely meant: the unique one at the smallest distance, if that
// distance is at most 1 for words of up to 4 characters, 2 up to 8, 3 beyond (and less than the
// word's length, so "x" suggests nothing), and no other candidate is as close. Else nothing.
std::optional<std::string> suggest(const std::string& typed, const std::vector<std::string>& candidates);

}  // namespace attn::lesson
