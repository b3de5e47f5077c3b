// core/ops/range.cpp: arange and linspace (ops/range.h).
//
// What it is: arange_kernel and linspace_kernel (RangeFactoriesKernel.cpp) through
// cpu_serial_kernel_vec: each 8-element vector from one base value, the last `n % 16` elements
// one by one (ops/loops.h kVecStep), as ATen rounds them.
// What it is not: ranges of other dtypes than int64 and float32.
#include "core/ops/range.h"

#include <fmt/format.h>

#include <cmath>

#include "core/ops/loops.h"

namespace attn::core {

namespace {

using detail::avx2;
using detail::kVecStep;

}  // namespace

Tensor arange(int64_t n) { return arange(0, n, 1); }

Tensor arange(int64_t start, int64_t end, int64_t step) {
  if (step == 0) throw TensorError("step must be nonzero");
  if ((step > 0 && end < start) || (step < 0 && end > start))
    throw TensorError("upper bound and larger bound inconsistent with step sign");
  // ceil((end - start) / step) in 128 bits: end - start may not fit in int64.
  const __int128 span = static_cast<__int128>(end) - start;
  const __int128 count = step > 0 ? (span + step - 1) / step : (span + step + 1) / step;
  if (count > kMaxTensorElements)
    throw TensorError(fmt::format("arange of {} elements (from {} to {} by {}) is over attn's limit of {} elements per tensor",
                                  static_cast<int64_t>(count < INT64_MAX ? count : INT64_MAX), start, end, step, kMaxTensorElements));
  Tensor t = empty({static_cast<int64_t>(count)}, DType::int64);
  int64_t* p = t.data<int64_t>();
  for (int64_t k = 0; k < t.numel(); ++k) p[k] = start + k * step;
  return t;
}

// linspace_kernel (RangeFactoriesKernel.cpp) through cpu_serial_kernel_vec: each 8-element
// vector is Vectorized::arange(base, step) = base + fl32(k*step) from one base, chosen once
// per vector from the first or second half; the last steps % 16 elements one by one. The AVX2
// build fuses `start + step*idx` and `end - step*(steps-idx-1)` (GCC contraction), DEFAULT does not.
Tensor linspace(double start, double end, int64_t steps, CpuKernels cpu) {
  if (steps < 0) throw TensorError("number of steps must be non-negative");
  Tensor out = empty({steps});
  if (steps == 0) return out;
  float* o = out.data<float>();
  const float s = static_cast<float>(start), e = static_cast<float>(end);
  if (steps == 1) {
    o[0] = s;
    return out;
  }
  const float step = (e - s) / static_cast<float>(steps - 1);
  const int64_t halfway = steps / 2;
  const auto first = [&](int64_t i) {
    return avx2(cpu) ? std::fma(step, static_cast<float>(i), s) : s + step * static_cast<float>(i);
  };
  const auto second = [&](int64_t i) {
    const float r = static_cast<float>(steps - i - 1);
    return avx2(cpu) ? std::fma(-step, r, e) : e - step * r;
  };
  const int64_t n_vec = steps - steps % kVecStep;
  for (int64_t idx = 0; idx < n_vec; idx += 8) {
    const float base = idx < halfway ? first(idx) : second(idx);
    o[idx] = base;
    for (int64_t k = 1; k < 8; ++k) o[idx + k] = base + static_cast<float>(k) * step;
  }
  for (int64_t i = n_vec; i < steps; ++i) o[i] = i < halfway ? first(i) : second(i);
  return out;
}

// arange_kernel with a float32 result: start and step stay doubles (accscalar_t); a vector's
// base is fl32(start + step*idx), its elements fl32(double(base) + k*step); the tail
// fl32(start + step*idx). Same in both families.
Tensor arange_float(double start, double end, double step) {
  if (step == 0) throw TensorError("step must be nonzero");
  if (!std::isfinite(start) || !std::isfinite(end))
    throw TensorError(fmt::format("unsupported range: {} -> {}", start, end));
  if ((step > 0 && end < start) || (step < 0 && end > start))
    throw TensorError("upper bound and larger bound inconsistent with step sign");
  const double size = std::ceil((end - start) / step);
  Tensor out = empty({static_cast<int64_t>(size)});
  float* o = out.data<float>();
  const int64_t n = out.numel(), n_vec = n - n % kVecStep;
  for (int64_t idx = 0; idx < n_vec; idx += 8) {
    const float base = static_cast<float>(start + step * static_cast<double>(idx));
    for (int64_t k = 0; k < 8; ++k) o[idx + k] = static_cast<float>(static_cast<double>(base) + static_cast<double>(k) * step);
  }
  for (int64_t i = n_vec; i < n; ++i) o[i] = static_cast<float>(start + step * static_cast<double>(i));
  return out;
}

}  // namespace attn::core
