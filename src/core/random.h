// core/random.h: PyTorch's CPU random generator, bit for bit (torch 1.13).
//
// What it is: the mt19937 torch.manual_seed seeds, and the exact transforms PyTorch applies on
// top of it into float buffers: torch.rand, uniform_ (nn.Linear's initialisation), randn /
// normal_ (the 16-block path and the small double path with its cached sample; nn.Embedding's),
// and the two dropout masks (portable 53-bit path and MKL's MCG31 stream). uniform_ and normal_ follow the kernel family
// (core/cpu.h) the Generator was made with: the AVX2 kernels (FMA-contracted, Cephes
// polynomials) or the scalar DEFAULT kernels (glibc logf/sincosf, separate roundings). The facts
// behind every line are in docs/pytorch-numerics.md §1, §2, §6; tests/vectors/ holds PyTorch's
// own numbers for both families.
// What it is not: tensors (ops/random.h makes torch.rand, randn, the initialisers and dropout
// with a Generator), a general statistics library, or thread-parallel.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/cpu.h"

namespace attn::core {

enum class DropoutRng {
  portable,  // every build without MKL on Intel: per element (random64() & (2^53-1)) * 2^-53
  mkl        // MKL builds on Intel CPUs: one random() seeds an MCG31m1 stream
};
// Its spelling in `--rng` and a lesson's `rng:` header, and back (nullopt: not a generator's name).
inline constexpr DropoutRng kDropoutRngs[] = {DropoutRng::mkl, DropoutRng::portable};
inline const char* to_string(DropoutRng r) { return r == DropoutRng::portable ? "portable" : "mkl"; }
inline std::optional<DropoutRng> parse_dropout_rng(std::string_view s) {
  for (DropoutRng r : kDropoutRngs)
    if (s == to_string(r)) return r;
  return std::nullopt;
}

// One PyTorch session's default CPU generator. Its kernel family is fixed when it is made, as
// torch's is by the build and the CPU it runs on: it decides the arithmetic of uniform_ and
// normal_, not the draws.
class Generator {
 public:
  explicit Generator(CpuKernels cpu);   // PyTorch's default seed, 67280421310721
  CpuKernels cpu() const { return cpu_; }
  void manual_seed(uint64_t seed);   // also clears the cached normal sample
  uint32_t random();                 // one 32-bit mt19937 output
  uint64_t random64();               // (first << 32) | second

  void fill_rand(float* out, int64_t n);                              // torch.rand
  void fill_uniform(float* out, int64_t n, double from, double to);   // Tensor.uniform_
  void fill_normal(float* out, int64_t n, double mean, double std);   // torch.randn / normal_
  // Bernoulli(p_keep) keep-mask as 1.0f / 0.0f, in memory order.
  void fill_bernoulli(float* out, int64_t n, double p_keep, DropoutRng kind);

 private:
  // n uniform_real<float> draws (24 bits * 2^-24) in order, checking the time limit as it goes.
  void fill_uniform24(float* out, int64_t n);
  // out[0..n) from the next n mt19937 words, a block at a time: map(words, out, m) turns m words
  // into m floats; the time limit is checked after each block.
  template <class Map>
  void fill_words(float* out, int64_t n, Map map);
  // One at::normal_distribution<double> sample (the <16 path), using and refilling the cache.
  double normal_double(double mean, double std);

  // at::mt19937 (ATen/core/MT19937RNGEngine.h): standard MT19937 on 32-bit words, the same
  // stream as std::mt19937 (which libstdc++ runs on 64-bit words, about 3x slower).
  struct Mt19937 {
    std::array<uint32_t, 624> state{};
    int next = 624;            // index of the next word to temper; 624: twist first
    void seed(uint32_t s);     // init_with_uint32
    void twist();              // next_state
    uint32_t operator()();     // one tempered output
    void fill(uint32_t* out, int64_t n);   // the next n outputs, as n calls of operator()
  };
  CpuKernels cpu_;
  Mt19937 engine_;
  std::optional<double> next_double_normal_;  // CPUGeneratorImpl::next_double_normal_sample_
};

}  // namespace attn::core
