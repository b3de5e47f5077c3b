// lesson/suggest.cpp: the one-candidate typo suggestion (see suggest.h).
#include "lesson/suggest.h"

#include <algorithm>

namespace attn::lesson {

size_t damerau_distance(const std::string& a, const std::string& b) {
  // Three rows of the optimal-string-alignment table: two back (transpositions), one back, this one.
  std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> suggest(const std::string& typed, const std::vector<std::string>& candidates) {
  constexpr size_t kLongest = 200;   // a pasted paragraph is no typo; keeps the table small
  if (typed.empty() || typed.size() > kLongest) return std::nullopt;
  size_t limit = typed.size() <= 4 ? 1 : typed.size() <= 8 ? 2 : 3;
  limit = std::min(limit, typed.size() - 1);
  std::optional<std::string> best;
  size_t best_d = limit + 1;
  bool tie = false;
  for (const std::string& c : candidates) {
    if (c == typed || c.size() > kLongest) continue;
    size_t d = damerau_distance(typed, c);
    if (d < best_d) {
      best_d = d;
      best = c;
      tie = false;
    } else if (d == best_d && best && *best != c) {
      tie = true;
    }
  }
  if (tie || best_d > limit) return std::nullopt;
  return best;
}

}  // namespace attn::lesson
