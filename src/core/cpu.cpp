// core/cpu.cpp: the process-wide CPU kernel family (see cpu.h).
#include "core/cpu.h"

namespace attn::core {

namespace {
CpuKernels g_kernels = CpuKernels::avx2;
}

void set_cpu_kernels(CpuKernels k) { g_kernels = k; }
CpuKernels cpu_kernels() { return g_kernels; }

}  // namespace attn::core
