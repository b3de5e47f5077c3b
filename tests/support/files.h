// tests/support/files.h: reading a whole file into a string, for any test binary.
// What it is not: a check that the file exists (a missing file reads as ""; a test that needs it
// says so with its own REQUIRE).
#pragma once

#include <fstream>
#include <iterator>
#include <string>

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
