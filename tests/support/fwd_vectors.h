// tests/support/fwd_vectors.h: reading tests/vectors/fwd_*.txt (tools/make_fwd_vectors.py's format) and
// comparing float32 outputs bit for bit with what Debian's PyTorch 1.13 produced.
//
// What it is: "case <op> key=<int> ..." lines (a key ending in _bits holds an IEEE double's 64-bit
// pattern, a Python float the op received as a double), then "<array> <count> <hex>..." lines of
// float32 bit patterns. Any NaN matches any NaN (payloads depend on how libtorch was compiled;
// test_kernels.cpp explains why). What it is not: a PyTorch run.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace fwd {

// The two CPU kernel families the vectors were made for, and the prefix of their files.
struct Family {
  attn::core::CpuKernels cpu;
  const char* prefix;
};
inline const Family kFamilies[] = {{attn::core::CpuKernels::avx2, "fwd_"}, {attn::core::CpuKernels::scalar, "fwd_scalar_"}};

struct Case {
  std::string op, line;
  std::map<std::string, uint64_t> keys;
  std::map<std::string, std::vector<uint32_t>> arrays;

  int64_t key(const std::string& k) const { return static_cast<int64_t>(keys.at(k)); }
  double dbl(const std::string& k) const {   // a key_bits value: the double it encodes
    const uint64_t u = keys.at(k + "_bits");
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
  }
  bool has(const std::string& a) const { return arrays.count(a) != 0; }
  attn::core::Tensor tensor(const std::string& name, const attn::core::Shape& shape) const {
    const auto& bits = arrays.at(name);
    std::vector<float> v(bits.size());
    std::memcpy(v.data(), bits.data(), bits.size() * sizeof(float));
    return attn::core::from_floats(shape, v);
  }
};

inline std::vector<Case> read(const std::string& file, const std::string& op) {
  const std::string path = std::string(ATTN_TEST_DATA) + "/vectors/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<Case> all;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string head;
    words >> head;
    if (head == "case") {
      Case c;
      c.line = line;
      words >> c.op;
      std::string kv;
      while (words >> kv) {
        const auto eq = kv.find('=');
        const std::string value = kv.substr(eq + 1);
        c.keys[kv.substr(0, eq)] = value[0] == '-' ? static_cast<uint64_t>(std::stoll(value)) : std::stoull(value);
      }
      all.push_back(std::move(c));
      continue;
    }
    REQUIRE(!all.empty());
    size_t count = 0;
    words >> count;
    std::vector<uint32_t> bits(count);
    for (auto& b : bits) {
      std::string hex;
      words >> hex;
      b = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
    }
    REQUIRE_MESSAGE(!words.fail(), "short array line in " << path);
    all.back().arrays[head] = std::move(bits);
  }
  std::vector<Case> out;
  for (auto& c : all)
    if (c.op == op) out.push_back(std::move(c));
  REQUIRE_MESSAGE(!out.empty(), "no '" << op << "' cases in " << file);   // a renamed op cannot pass silently
  return out;
}

inline bool is_nan_bits(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0; }

// Every element of `got` has torch's bits for array `name`; names the first difference.
inline void check(const Case& c, const std::string& name, const attn::core::Tensor& got) {
  const auto& want = c.arrays.at(name);
  const std::vector<float> g = got.floats();
  REQUIRE_MESSAGE(g.size() == want.size(), c.line << " (" << name << ")");
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    uint32_t u;
    std::memcpy(&u, &g[i], sizeof u);
    if (u != want[i] && !(is_nan_bits(u) && is_nan_bits(want[i])))
      if (bad++ == 0) first = i;
  }
  INFO(c.line << " (" << name << ")");
  INFO("first mismatch at " << first << " of " << g.size() << "; " << bad << " differ");
  CHECK(bad == 0);
}

}  // namespace fwd
