// tests/support/digest_vectors.h: reading tests/vectors/random_*.txt and fwd_random_*init.txt
// (tools/make_vectors.py's and make_fwd_vectors.py's digest format), for any test binary.
//
// What it is: blocks of "case NAME", "seed N|default", "ops OP;OP...", "count N", "fnv1a64 HEX",
// "sample N" then N hex float32 bit patterns, "end"; '#' lines are comments. A case's outputs are
// compared through fnv1a64() of every word and the sample one by one. What it is not: the replay
// of the ops (each test binary knows its own ops), or the fwd_*.txt format (fwd_vectors.h).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace digest {

struct Case {
  std::string name, seed, ops;   // seed: a number or "default"
  uint64_t count = 0, digest = 0;
  std::vector<uint32_t> sample;
};

inline std::vector<Case> read_cases(const std::string& file) {
  std::ifstream in(std::string(ATTN_TEST_DATA) + "/vectors/" + file);
  REQUIRE(in.good());
  std::vector<Case> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("case ", 0) != 0) continue;
    Case c;
    c.name = line.substr(5);
    std::string key;
    size_t n = 0;
    in >> key >> c.seed >> key >> c.ops >> key >> c.count >> key >> std::hex >> c.digest >> key >> std::dec >> n;
    c.sample.resize(n);
    for (auto& w : c.sample) in >> std::hex >> w >> std::dec;
    out.push_back(c);
  }
  REQUIRE(!out.empty());
  return out;
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, sep)) parts.push_back(part);
  return parts;
}

// FNV-1a over the 32-bit words, as the generating tools compute it.
inline uint64_t fnv1a64(const std::vector<uint32_t>& words) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (uint32_t w : words) h = (h ^ w) * 0x100000001b3ULL;
  return h;
}

}  // namespace digest
