// core/tensor.cpp: Storage, the Tensor handle, construction, shape helpers, autograd
// bookkeeping and dtype conversion.
//
// What it is: the parts of core::Tensor every op relies on: allocation with overflow-checked
// sizes and an explicit limit (kMaxTensorElements), layout queries (is_contiguous as PyTorch
// computes it), element access for printers and tests, contiguous()/clone() and make_view.
// What it is not: an op (core/ops/, the map at the top of tensor.h) or a kernel (core/kernels/).
#include "core/tensor.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace attn::core {

// ---- dtypes ----

int64_t element_size(DType dtype) {
  switch (dtype) {
    case DType::float32: return 4;
    case DType::int64: return 8;
    case DType::boolean: return 1;
  }
  return 4;
}

const char* dtype_short_name(DType dtype) {
  switch (dtype) {
    case DType::float32: return "float32";
    case DType::int64: return "int64";
    case DType::boolean: return "bool";
  }
  return "float32";
}

// ---- Storage ----

namespace {

std::string gib(int64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0)); }

// Buffers of 8 MB or more (a GPT-2-size layer's attention matrices are 48 MB at T = 1024, 805 MB
// at 4096) are mapped with MAP_POPULATE: the kernel hands over all their zeroed pages in one
// call instead of one page fault per 4 KB on first touch. Every op writes the whole of what it
// allocates, so nothing is mapped that would not have been touched anyway (as in PyTorch, whose
// zeros() writes every element). Measured on the layer at T = 4096 (tools/bench_mha.sh): 2.3 s
// of CPU instead of 2.9 s, the same peak RSS. (2 MB pages, MADV_HUGEPAGE, were slower here:
// compaction.) Smaller buffers use calloc. The choice depends on the size alone, so
// release_buffer() knows which it was.
constexpr size_t kMapAtLeast = size_t{8} << 20;
constexpr size_t kHeader = 64;  // the mapping's length, before the buffer; keeps it 64-byte aligned

#ifdef __linux__
void* map_buffer(size_t bytes) {
  const size_t length = bytes + kHeader;
  void* base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  *static_cast<size_t*>(base) = length;
  return static_cast<char*>(base) + kHeader;
}
void unmap_buffer(void* data) {
  char* base = static_cast<char*>(data) - kHeader;
  munmap(base, *reinterpret_cast<size_t*>(base));
}
#endif

void* zeroed_buffer(size_t count, size_t element) {
#ifdef __linux__
  if (count * element >= kMapAtLeast) return map_buffer(count * element);
#endif
  return std::calloc(count, element);
}

void release_buffer(void* data, size_t bytes) {
  if (data == nullptr) return;
#ifdef __linux__
  if (bytes >= kMapAtLeast) return unmap_buffer(data);
#endif
  (void)bytes;
  std::free(data);
}

}  // namespace

Storage::Storage(DType dtype, int64_t n, const Shape& shape) : size_(n), dtype_(dtype) {
  if (n > kMaxTensorElements)
    throw TensorError(fmt::format(
        "a {} tensor of shape {} would hold {} elements ({}), over attn's limit of {} elements ({} of float32) per tensor",
        dtype_short_name(dtype), shape_str(shape), n, gib(n * element_size(dtype)), kMaxTensorElements,
        gib(kMaxTensorElements * 4)));
  if (n == 0) return;
  // calloc: large blocks come from the kernel already zeroed, so zero-filling costs no pass.
  data_ = zeroed_buffer(static_cast<size_t>(n), static_cast<size_t>(element_size(dtype)));
  if (data_ == nullptr)
    throw TensorError(fmt::format("can't allocate memory: you tried to allocate {} bytes for a {} tensor of shape {}",
                                  n * element_size(dtype), dtype_short_name(dtype), shape_str(shape)));
}

Storage::~Storage() { release_buffer(data_, static_cast<size_t>(size_ * element_size(dtype_))); }

// ---- Tensor ----

Tensor::Tensor() = default;

void Tensor::check_dtype(DType want) const {
  if (want != dtype_)
    throw TensorError(fmt::format("internal error: {} data read as {}", dtype_short_name(dtype_), dtype_short_name(want)));
}

int64_t Tensor::size(int64_t d) const { return shape_[static_cast<size_t>(normalize_dim(d, dim()))]; }

void Tensor::set_layout(Shape shape, Shape strides, int64_t offset) {
  numel_ = numel_of(shape);
  // PyTorch's compute_contiguous: from the last dim, each dim of size != 1 must have the stride
  // of the dims after it; an empty tensor is contiguous.
  contiguous_ = true;
  if (numel_ != 0) {
    int64_t expected = 1;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (shape[d] == 1) continue;
      if (strides[d] != expected) {
        contiguous_ = false;
        break;
      }
      expected *= shape[d];
    }
  }
  shape_ = std::move(shape);
  strides_ = std::move(strides);
  offset_ = offset;
}

int64_t Tensor::offset_of(int64_t k) const {
  int64_t off = 0;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    off += (k % shape_[d]) * strides_[d];
    k /= shape_[d];
  }
  return off;
}

double Tensor::at(int64_t k) const {
  const int64_t off = offset_of(k);
  switch (dtype_) {
    case DType::float32: return static_cast<double>(data<float>()[off]);
    case DType::int64: return static_cast<double>(data<int64_t>()[off]);
    case DType::boolean: return data<uint8_t>()[off];
  }
  return 0.0;
}

int64_t Tensor::int_at(int64_t k) const {
  const int64_t off = offset_of(k);
  if (dtype_ == DType::boolean) return data<uint8_t>()[off];
  return data<int64_t>()[off];
}

float Tensor::float_at(int64_t k) const { return data<float>()[offset_of(k)]; }

std::vector<float> Tensor::floats() const {
  const Tensor c = contiguous();
  const float* p = c.data<float>();
  return std::vector<float>(p, p + numel_);
}

std::vector<int64_t> Tensor::ints() const {
  const Tensor c = contiguous();
  if (dtype_ == DType::boolean) {
    const uint8_t* p = c.data<uint8_t>();
    return std::vector<int64_t>(p, p + numel_);
  }
  const int64_t* p = c.data<int64_t>();
  return std::vector<int64_t>(p, p + numel_);
}

namespace {

// Copies the elements of `src` (any layout) into the contiguous buffer `out`, same dtype.
template <typename T>
void gather_into(const Tensor& src, T* out) {
  const T* in = src.data<T>();
  if (src.is_contiguous()) {
    if (src.numel() > 0) std::memcpy(out, in, static_cast<size_t>(src.numel()) * sizeof(T));
    return;
  }
  for_each_offset(src.shape(), [&](int64_t k, int64_t off) { out[k] = in[off]; }, src.strides());
}

}  // namespace

Tensor Tensor::clone() const {
  Tensor out = empty(shape_, dtype_);
  switch (dtype_) {
    case DType::float32: gather_into(*this, out.data<float>()); break;
    case DType::int64: gather_into(*this, out.data<int64_t>()); break;
    case DType::boolean: gather_into(*this, out.data<uint8_t>()); break;
  }
  out.autograd_ = autograd_;
  return out;
}

Tensor Tensor::contiguous() const { return contiguous_ ? *this : clone(); }

// ---- views ----

Tensor make_view(const Tensor& base, Shape shape, Shape strides, int64_t offset) {
  Tensor out = base;
  out.set_layout(std::move(shape), std::move(strides), offset);
  return out;
}

// ---- construction ----

Tensor empty(const Shape& shape, DType dtype) {
  for (int64_t d : shape)
    if (d < 0) throw TensorError(fmt::format("Trying to create tensor with negative dimension {}: {}", d, shape_str(shape)));
  // PyTorch's computeStorageNbytesContiguous: elements, then bytes, each checked.
  int64_t n = 1, bytes = 0;
  bool overflow = false;
  for (int64_t d : shape) overflow |= __builtin_mul_overflow(n, d, &n);
  overflow |= __builtin_mul_overflow(n, element_size(dtype), &bytes);
  if (overflow) throw TensorError(fmt::format("Storage size calculation overflowed with sizes={}", shape_str(shape)));
  Tensor t;
  t.dtype_ = dtype;
  t.set_layout(shape, contiguous_strides(shape), 0);
  t.storage_ = std::make_shared<Storage>(dtype, t.numel_, shape);
  return t;
}

Tensor zeros(const Shape& shape) { return empty(shape); }
Tensor ones(const Shape& shape) { return full(shape, 1.0f); }

Tensor full(const Shape& shape, float value) {
  Tensor t = empty(shape);
  std::fill_n(t.data<float>(), t.numel(), value);
  return t;
}

Tensor scalar(float value) { return from_floats({}, {value}); }

Tensor from_floats(const Shape& shape, const std::vector<float>& data) {
  Tensor t = empty(shape);
  if (static_cast<int64_t>(data.size()) != t.numel())
    throw TensorError(fmt::format("{} values do not fill shape {}", data.size(), shape_str(shape)));
  std::copy(data.begin(), data.end(), t.data<float>());
  return t;
}

Tensor from_ints(const Shape& shape, const std::vector<int64_t>& data, DType dtype) {
  Tensor t = empty(shape, dtype);
  if (static_cast<int64_t>(data.size()) != t.numel())
    throw TensorError(fmt::format("{} values do not fill shape {}", data.size(), shape_str(shape)));
  if (dtype == DType::boolean) {
    uint8_t* p = t.data<uint8_t>();
    for (size_t k = 0; k < data.size(); ++k) p[k] = data[k] != 0;
  } else if (dtype == DType::int64) {
    std::copy(data.begin(), data.end(), t.data<int64_t>());
  } else {
    throw TensorError("from_ints: dtype must be int64 or bool");
  }
  return t;
}

// ---- shape helpers ----

int64_t numel_of(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw TensorError(fmt::format("Trying to create tensor with negative dimension {}: {}", d, shape_str(shape)));
    if (__builtin_mul_overflow(n, d, &n)) throw TensorError(fmt::format("Storage size calculation overflowed with sizes={}", shape_str(shape)));
  }
  return n;
}

Shape contiguous_strides(const Shape& shape) {
  Shape s(shape.size(), 1);
  // In uint64: a shape with a 0 among huge sizes, (0, 123456789012, 123456789012), holds no
  // element but its strides overflow int64 (signed overflow is UB; they wrap, as in PyTorch, and
  // are never used to reach an element). A shape with elements has numel() checked, so fits.
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    s[d] = static_cast<int64_t>(static_cast<uint64_t>(s[d + 1]) * static_cast<uint64_t>(std::max<int64_t>(shape[d + 1], 1)));
  return s;
}

int64_t normalize_dim(int64_t dim, int64_t ndim) {
  int64_t lo = ndim == 0 ? -1 : -ndim, hi = ndim == 0 ? 0 : ndim - 1;
  if (dim < lo || dim > hi)
    throw TensorError(fmt::format("Dimension out of range (expected to be in range of [{}, {}], but got {})", lo, hi, dim),
                      "IndexError");
  return dim < 0 ? dim + std::max<int64_t>(ndim, 1) : dim;
}

std::string shape_str(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

// PyTorch's broadcast rule: align trailing dims; each pair must be equal or one of them 1.
Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t k = 0; k < n; ++k) {
    const int64_t da = k < n - a.size() ? 1 : a[k - (n - a.size())];
    const int64_t db = k < n - b.size() ? 1 : b[k - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw TensorError(fmt::format(
          "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}", da, db, k));
    out[k] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_strides(const Tensor& t, const Shape& shape) {
  const size_t lead = shape.size() - t.shape().size();
  Shape strides(shape.size(), 0);
  for (size_t d = 0; d < t.shape().size(); ++d)
    if (t.shape()[d] != 1) strides[lead + d] = t.strides()[d];
  return strides;
}

detail::DimSplit detail::split_at(const Shape& shape, int64_t dim) {
  DimSplit s;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < dim) s.outer *= shape[d];
    else if (d == dim) s.size = shape[d];
    else s.inner *= shape[d];
  }
  return s;
}

void detail::require_float(const Tensor& a, const char* op) {
  if (!a.is_float())
    throw TensorError(fmt::format("{}: expected a floating point tensor, got an integer one", op));
}

// ---- autograd bookkeeping (with_grad: autograd_engine.cpp) ----

Tensor detach(const Tensor& t) {
  Tensor out = t;
  out.autograd() = AutogradMeta{};
  return out;
}

// ---- dtype conversion ----

namespace {

// A float32 to int64 as x86's cvttss2si does it for PyTorch: truncation, and INT64_MIN for NaN,
// infinities and values out of range (where a C++ cast would be undefined).
int64_t float_to_int64(float v) {
  if (!(v >= -9223372036854775808.0f && v < 9223372036854775808.0f)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

template <typename From, typename To>
void convert(const Tensor& a, Tensor& out) {
  const From* in = a.data<From>();
  To* o = out.data<To>();
  for_each_offset(a.shape(), [&](int64_t k, int64_t off) {
    if constexpr (std::is_same_v<To, uint8_t>) o[k] = in[off] != 0;
    else if constexpr (std::is_same_v<From, float> && std::is_same_v<To, int64_t>) o[k] = float_to_int64(in[off]);
    else o[k] = static_cast<To>(in[off]);
  }, a.strides());
}

template <typename From>
Tensor convert_from(const Tensor& a, DType dtype) {
  Tensor out = empty(a.shape(), dtype);
  switch (dtype) {
    case DType::float32: convert<From, float>(a, out); break;
    case DType::int64: convert<From, int64_t>(a, out); break;
    case DType::boolean: convert<From, uint8_t>(a, out); break;
  }
  return out;
}

}  // namespace

Tensor to_dtype(const Tensor& a, DType dtype) {
  if (a.dtype() == dtype) return a;
  Tensor out;
  switch (a.dtype()) {
    case DType::float32: out = convert_from<float>(a, dtype); break;
    case DType::int64: out = convert_from<int64_t>(a, dtype); break;
    case DType::boolean: out = convert_from<uint8_t>(a, dtype); break;
  }
  return with_grad(std::move(out), {&a}, "ToCopyBackward0");
}

Tensor to_float(const Tensor& a) { return to_dtype(a, DType::float32); }
Tensor to_bool(const Tensor& a) { return to_dtype(a, DType::boolean); }

// ---- scalar extraction ----

double item(const Tensor& a) {
  if (a.numel() != 1)
    throw TensorError(fmt::format("a Tensor with {} elements cannot be converted to Scalar", a.numel()));
  return a.at(0);
}

}  // namespace attn::core
