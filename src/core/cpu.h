// core/cpu.h: which family of PyTorch's CPU kernels attn reproduces.
//
// PyTorch picks its kernels at run time by CPU capability. Two families print different digits
// for the same seed (docs/pytorch-numerics.md §1, §2, §5): the AVX2 kernels (x86-64 CPUs with AVX2 or
// AVX-512, e.g. Intel and AMD desktops and servers) and the scalar DEFAULT kernels (Apple
// Silicon and other ARM builds, x86 without AVX2, or ATEN_CPU_CAPABILITY=default). randn /
// normal_, uniform_ and softmax's exp differ between them. The article lessons were printed
// with the scalar family, the book chapter with AVX2; lessons declare theirs.
// The family is state of a run, never of the process: a py::Interpreter is made with one (its
// RunState), its core::Generator holds it, and core::exp / core::softmax take it as an argument.
// What it is not: a performance switch; both are emulated with the same plain C++.
#pragma once

#include <optional>
#include <string_view>

namespace attn::core {

enum class CpuKernels { avx2, scalar };
// Its spelling in `--cpu` and a lesson's `cpu:` header, and back (nullopt: not a family's name).
inline constexpr CpuKernels kCpuKernels[] = {CpuKernels::avx2, CpuKernels::scalar};
inline const char* to_string(CpuKernels k) { return k == CpuKernels::scalar ? "scalar" : "avx2"; }
inline std::optional<CpuKernels> parse_cpu_kernels(std::string_view s) {
  for (CpuKernels k : kCpuKernels)
    if (s == to_string(k)) return k;
  return std::nullopt;
}

}  // namespace attn::core
