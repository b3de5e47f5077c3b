// tests/py/test_unicodedata.cpp: attn's Unicode database (py/unicodedata.h) against CPython 3.11's
// unicodedata, for every code point.
//
// What it is: tests/vectors/unicodedata.txt (tools/make_unicodedata_tables.py) holds an FNV-1a
// digest per block of 4096 code points of each one's category, bidirectional class, east asian
// width, mirrored, combining class, decomposition, decimal / digit / numeric and the four normal
// forms of the character alone, sample lines in full, and digests of normalize() and
// is_normalized() of 4000 strings drawn pseudo-randomly (xorshift64*, as the tool) from a pool of
// starters, marks of many classes, jamo, syllables and compatibility characters.
// What it is not: the Python module's arguments and messages (tests/python/stdlib_unicodedata.cases).
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "py/unicodedata.h"

namespace {

namespace ucd = attn::py::ucd;
const ucd::Form kForms[] = {ucd::Form::NFC, ucd::Form::NFD, ucd::Form::NFKC, ucd::Form::NFKD};

uint64_t fnv(const std::string& s, uint64_t h = 0xcbf29ce484222325ULL) {
  for (unsigned char b : s) h = (h ^ b) * 0x100000001b3ULL;
  return h;
}

std::string hexs(std::u32string_view s) {
  std::string out;
  for (char32_t c : s) out += fmt::format("{}{:X}", out.empty() ? "" : " ", static_cast<uint32_t>(c));
  return out;
}

// The tool's line_of(c).
std::string line_of(char32_t c) {
  const ucd::Properties p = ucd::properties(c);
  const ucd::Numeric n = ucd::numeric(c);
  uint64_t bits = 0;
  std::memcpy(&bits, &n.value, sizeof bits);
  std::string line = fmt::format("{};{};{};{};{};{};{};{};{}", p.category, p.bidirectional, p.east_asian_width, p.mirrored,
                                 p.combining, ucd::decomposition(c), n.decimal < 0 ? "-" : std::to_string(n.decimal),
                                 n.digit < 0 ? "-" : std::to_string(n.digit), n.has ? fmt::format("{:x}", bits) : "-");
  if (c < 0xD800 || c > 0xDFFF)
    for (ucd::Form f : kForms) {   // appended piecewise: ";" + std::string trips GCC 12's -Wrestrict
      line += ';';
      line += hexs(ucd::normalize(f, std::u32string(1, c)));
    }
  return line;
}

std::vector<std::string> lines_starting(const std::string& word) {
  std::ifstream in(std::string(ATTN_TEST_DATA) + "/vectors/unicodedata.txt");
  REQUIRE(in.good());
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(word + " ", 0) == 0) out.push_back(line.substr(word.size() + 1));
  REQUIRE(!out.empty());
  return out;
}

struct Rng {   // xorshift64*, as the tool's Rng
  uint64_t s;
  uint64_t next(uint64_t n) {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return ((s * 0x2545F4914F6CDD1DULL) >> 33) % n;
  }
};

}  // namespace

TEST_CASE("unicodedata: every code point's properties and normal forms, digested per block") {
  int checked = 0;
  for (const std::string& b : lines_starting("block")) {
    std::istringstream in(b);
    uint32_t first = 0;
    uint64_t digest = 0;
    in >> std::hex >> first >> digest;
    std::string data;
    for (char32_t c = first; c < first + 4096; ++c) data += line_of(c) + "\n";
    INFO("block starting at U+" << std::hex << first);
    CHECK(fnv(data) == digest);
    ++checked;
  }
  CHECK(checked == 0x110000 / 4096);
}

TEST_CASE("unicodedata: sample code points line by line") {
  for (const std::string& s : lines_starting("sample")) {
    const size_t space = s.find(' ');
    const auto c = static_cast<char32_t>(std::stoul(s.substr(0, space), nullptr, 16));
    CHECK(line_of(c) == s.substr(space + 1));
  }
}

TEST_CASE("unicodedata: normalize and is_normalized of pseudo-random strings of marks, jamo and composites") {
  std::istringstream pool_line(lines_starting("pool")[0]);
  size_t n = 0;
  pool_line >> n;
  std::vector<char32_t> pool(n);
  for (auto& c : pool) {
    uint32_t x = 0;
    pool_line >> std::hex >> x;
    c = x;
  }
  std::istringstream spec(lines_starting("strings")[0]);
  uint64_t count = 0, length = 0, seed = 0, group = 0;
  spec >> std::dec >> count >> length >> std::hex >> seed >> std::dec >> group;
  const std::vector<std::string> groups = lines_starting("group");
  REQUIRE(groups.size() == count / group);
  Rng rng{seed};
  for (uint64_t g = 0; g < groups.size(); ++g) {
    std::string data, first;
    for (uint64_t k = 0; k < group; ++k) {
      std::u32string s;
      // As the tool: the length first (Python evaluates range(1 + rng.next(length)) first).
      const uint64_t size = 1 + rng.next(length);
      for (uint64_t j = 0; j < size; ++j) s += pool[rng.next(pool.size())];
      std::string line = hexs(s);
      for (ucd::Form f : kForms) {
        const std::u32string out = ucd::normalize(f, s);
        line += ';';
        line += hexs(out);
        line += out == s ? ";True" : ";False";
      }
      if (k == 0) first = line;
      data += line + "\n";
    }
    std::istringstream in(groups[g]);
    uint64_t index = 0, digest = 0;
    in >> std::dec >> index >> std::hex >> digest;
    std::string expected_first;
    std::getline(in >> std::ws, expected_first);
    CHECK(first == expected_first);
    CHECK(fnv(data) == digest);
  }
}
