// core/tensor.cpp: Storage, the Tensor handle, construction, shape helpers, autograd
// bookkeeping and dtype conversion.
//
// What it is: the parts of core::Tensor every op relies on: allocation with overflow-checked
// sizes and an explicit limit (kMaxTensorElements), layout queries (is_contiguous as PyTorch
// computes it), element access for printers and tests, contiguous()/clone() and make_view.
// What it is not: an op (core/ops/, the map at the top of tensor.h) or a kernel (core/kernels/).
#include "core/tensor.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "core/buffers.h"
#include "core/deadline.h"
#include "core/kernels/transpose.h"

namespace attn::core {

// ---- dtypes ----

int64_t element_size(DType dtype) {
  return visit_element(dtype, [](auto x) { return static_cast<int64_t>(sizeof(x)); });
}

const char* dtype_short_name(DType dtype) {
  switch (dtype) {
    case DType::float32: return "float32";
    case DType::int64: return "int64";
    case DType::boolean: return "bool";
    case DType::uint8: return "uint8";
    case DType::int8: return "int8";
    case DType::int16: return "int16";
    case DType::int32: return "int32";
  }
  return "float32";
}

const char* dtype_title(DType dtype) {
  switch (dtype) {
    case DType::float32: return "Float";
    case DType::int64: return "Long";
    case DType::boolean: return "Bool";
    case DType::uint8: return "Byte";
    case DType::int8: return "Char";
    case DType::int16: return "Short";
    case DType::int32: return "Int";
  }
  return "Float";
}

std::string tensor_type_name(DType dtype) { return std::string("torch.") + dtype_title(dtype) + "Tensor"; }

// ---- type promotion ----

namespace {

int category(DType d) { return d == DType::boolean ? 0 : d == DType::float32 ? 2 : 1; }

// Bytes of a signed integer dtype; uint8 ranks between bool and int8 only for the table below.
int signed_width(DType d) { return static_cast<int>(element_size(d)); }

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::float32 || b == DType::float32) return DType::float32;
  if (a == DType::boolean) return b;
  if (b == DType::boolean) return a;
  if (a == DType::uint8 || b == DType::uint8) {   // with a signed dtype: one wide enough for 0..255
    const DType s = a == DType::uint8 ? b : a;
    return s == DType::int8 ? DType::int16 : s;
  }
  return signed_width(a) >= signed_width(b) ? a : b;
}

DType result_type(const Tensor& a, const Tensor& b) {
  if ((a.dim() == 0) == (b.dim() == 0)) return promote_types(a.dtype(), b.dtype());
  const DType dimmed = a.dim() == 0 ? b.dtype() : a.dtype(), zero = a.dim() == 0 ? a.dtype() : b.dtype();
  return category(zero) > category(dimmed) ? promote_types(dimmed, zero) : dimmed;
}

DType result_type(const Tensor& a, DType number_category) {
  return category(number_category) > category(a.dtype()) ? number_category : a.dtype();
}

// ---- Storage ----

namespace {

std::string gib(int64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0)); }

std::atomic<uint64_t> bytes_made{0}, bytes_held{0};
}  // namespace

uint64_t storage_bytes_made() { return bytes_made.load(std::memory_order_relaxed); }
uint64_t storage_bytes_held() { return bytes_held.load(std::memory_order_relaxed); }

Storage::Storage(DType dtype, int64_t n, const Shape& shape, bool zero_fill) : size_(n), dtype_(dtype) {
  if (n > kMaxTensorElements)
    throw TensorError(fmt::format(
        "a {} tensor of shape {} would hold {} elements ({}), over attn's limit of {} elements ({} of float32) per tensor",
        dtype_short_name(dtype), shape_str(shape), n, gib(n * element_size(dtype)), kMaxTensorElements,
        gib(kMaxTensorElements * 4)));
  if (n == 0) return;
  // Zero-filled unless the caller fills every element: fresh pages come zeroed from the kernel,
  // reused big buffers are cleared (buffers.h).
  const auto size = static_cast<size_t>(n) * static_cast<size_t>(element_size(dtype));
  data_ = zero_fill ? buffers::zeroed(size) : buffers::uninitialized(size);
  if (data_ == nullptr)
    throw TensorError(fmt::format("can't allocate memory: you tried to allocate {} bytes for a {} tensor of shape {}",
                                  n * element_size(dtype), dtype_short_name(dtype), shape_str(shape)));
  const auto bytes = static_cast<uint64_t>(n * element_size(dtype));
  bytes_made.fetch_add(bytes, std::memory_order_relaxed);
  bytes_held.fetch_add(bytes, std::memory_order_relaxed);
}

Storage::~Storage() {
  const auto bytes = static_cast<size_t>(size_ * element_size(dtype_));
  if (data_) bytes_held.fetch_sub(bytes, std::memory_order_relaxed);
  buffers::release(data_, bytes);
}

// ---- Tensor ----

Tensor::Tensor() = default;

void Tensor::check_dtype(bool ok, const char* want) const {
  if (!ok) throw TensorError(fmt::format("internal error: {} data read as {}", dtype_short_name(dtype_), want));
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
  return visit_element(dtype_, [&](auto x) { return static_cast<double>(data<decltype(x)>()[off]); });
}

int64_t Tensor::int_at(int64_t k) const { return int_at_offset(offset_of(k)); }

int64_t Tensor::int_at_offset(int64_t off) const {
  return visit_element(dtype_, [&](auto x) -> int64_t {
    using T = decltype(x);
    if constexpr (std::is_same_v<T, float>) return data<int64_t>()[off];   // throws: not an integer tensor
    else return static_cast<int64_t>(data<T>()[off]);
  });
}

float Tensor::float_at(int64_t k) const { return data<float>()[offset_of(k)]; }

std::vector<float> Tensor::floats() const {
  const Tensor c = contiguous();
  const float* p = c.data<float>();
  return std::vector<float>(p, p + numel_);
}

std::vector<int64_t> Tensor::ints() const {
  const Tensor c = contiguous();
  return visit_element(dtype_, [&](auto x) {
    using T = decltype(x);
    if constexpr (std::is_same_v<T, float>) {
      const int64_t* p = c.data<int64_t>();   // throws: not an integer tensor
      return std::vector<int64_t>(p, p + numel_);
    } else {
      const T* p = c.data<T>();
      return std::vector<int64_t>(p, p + numel_);
    }
  });
}

namespace {

// A transposed layout (x.t(), a (T, 768) view of a (768, T) tensor): some dim p before the last
// has stride 1 and the last does not. Copied in square tiles of the (p, last) plane, so that both
// the reads (along p) and the writes (along the last dim) stay in a few cache lines, instead of
// one read per cache line element by element. False (nothing done) for any other layout.
template <typename T>
bool transposed_copy(const Tensor& src, const T* in, T* out) {
  const Shape& shape = src.shape();
  const Shape& st = src.strides();
  const size_t last = shape.size() - 1;
  if (st[last] == 1 || shape[last] < 8) return false;
  size_t p = last;
  for (size_t q = 0; q < last; ++q)
    if (st[q] == 1 && shape[q] >= 8) p = q;
  if (p == last) return false;
  Shape out_st(shape.size(), 1);   // out is row-major
  for (size_t q = last; q-- > 0;) out_st[q] = out_st[q + 1] * shape[q + 1];
  Shape rest, in_rest, out_rest;   // the other dims: one tiled plane each
  for (size_t q = 0; q < last; ++q)
    if (q != p) {
      rest.push_back(shape[q]);
      in_rest.push_back(st[q]);
      out_rest.push_back(out_st[q]);
    }
  const int64_t rows = shape[p], cols = shape[last], in_col = st[last], out_row = out_st[p];
  constexpr int64_t kTile = 16;
  for_each_offset(rest, [&](int64_t, int64_t off_in, int64_t off_out) {
    if constexpr (sizeof(T) == 4) {   // float32, int32: as bit patterns, 8 x 8 blocks in registers
      kernels::transpose_plane32(reinterpret_cast<const uint32_t*>(in + off_in), in_col,
                                 reinterpret_cast<uint32_t*>(out + off_out), out_row, rows, cols);
      return;
    }
    for (int64_t i0 = 0; i0 < rows; i0 += kTile, check_deadline())   // a look at the clock per strip of 16 rows
      for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
        const int64_t i1 = std::min(rows, i0 + kTile), j1 = std::min(cols, j0 + kTile);
        for (int64_t i = i0; i < i1; ++i)
          for (int64_t j = j0; j < j1; ++j) out[off_out + i * out_row + j] = in[off_in + i + j * in_col];
      }
  }, in_rest, out_rest);
  return true;
}

// Copies the elements of `src` (any layout) into the contiguous buffer `out`, same dtype.
template <typename T>
void gather_into(const Tensor& src, T* out) {
  const T* in = src.data<T>();
  if (src.is_contiguous()) {
    if (src.numel() > 0) std::memcpy(out, in, static_cast<size_t>(src.numel()) * sizeof(T));
    return;
  }
  const int64_t d = src.dim();
  if (d >= 2 && src.strides()[d - 1] == 1 && src.shape()[d - 1] >= 16) {   // rows contiguous: a memcpy each
    // (a (b, T, heads, 64) view of a (b, heads, T, 64) tensor, the heads' context made contiguous)
    const int64_t row = src.shape()[d - 1];
    const Shape rows(src.shape().begin(), src.shape().end() - 1), steps(src.strides().begin(), src.strides().end() - 1);
    for_each_offset(rows, [&](int64_t k, int64_t off) { std::memcpy(out + k * row, in + off, static_cast<size_t>(row) * sizeof(T)); },
                    steps);
    return;
  }
  if (d >= 2 && transposed_copy(src, in, out)) return;
  for_each_offset(src.shape(), [&](int64_t k, int64_t off) { out[k] = in[off]; }, src.strides());
}

}  // namespace

namespace {

// The fields of m a new variable takes over ("autograd fields kept"): not its view record or
// its Python object.
AutogradMeta own_history(const AutogradMeta& m) {
  AutogradMeta out = m;
  out.view.reset();
  out.owner.reset();
  return out;
}

}  // namespace

Tensor Tensor::clone() const {
  Tensor out = uninitialized(shape_, dtype_);   // gather_into writes every element
  visit_element(dtype_, [&](auto x) { gather_into(*this, out.data<decltype(x)>()); });
  out.new_variable(own_history(autograd()));
  return out;
}

Tensor Tensor::contiguous() const { return contiguous_ ? *this : clone(); }

// ---- TensorIterator's output layout ----

bool dense_layout(const Shape& shape, const Shape& strides) {
  std::vector<size_t> dims(shape.size());
  for (size_t d = 0; d < dims.size(); ++d) dims[d] = d;
  std::sort(dims.begin(), dims.end(), [&](size_t a, size_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (size_t d : dims) {
    if (shape[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= shape[d];
  }
  return true;
}

// TensorIteratorBase::reorder_dimensions over the operands' strides (each in the output's
// shape, 0 along broadcast dims): an insertion sort from the innermost dim, the first operand
// with distinct nonzero strides deciding, equal strides putting the smaller size first.
// perm[0] is the innermost dim.
std::vector<size_t> iterator_order(const Shape& shape, const std::vector<Shape>& strides) {
  const size_t nd = shape.size();
  std::vector<size_t> perm(nd);
  for (size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  const auto should_swap = [&](size_t d0, size_t d1) {
    for (const Shape& st : strides) {
      const int64_t s0 = st[d0], s1 = st[d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 != s1) return s0 < s1 ? -1 : 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

namespace {

// TensorIteratorBase::compute_strides for one operand in the output's `shape`: 0 along added
// leading dims and along dims it broadcasts (size 1 where the output's is not); a size-1 dim of
// the output keeps the operand's own stride, which reorder_dimensions then compares.
Shape iterator_operand_strides(const Tensor& t, const Shape& shape) {
  const size_t lead = shape.size() - t.shape().size();
  Shape strides(shape.size(), 0);
  for (size_t d = 0; d < t.shape().size(); ++d)
    if (!(t.shape()[d] == 1 && shape[lead + d] != 1)) strides[lead + d] = t.strides()[d];
  return strides;
}


// TensorImpl::compute_channels_last_contiguous_2d: a 4-d tensor whose dims of size > 1 are dense in
// the order C, W, H, N (size-1 dims' strides ignored).
bool channels_last_contiguous(const Tensor& t) {
  if (t.dim() != 4) return false;
  int64_t expected = 1;
  for (size_t d : {1, 3, 2, 0}) {
    if (t.shape()[d] == 1) continue;
    if (t.strides()[d] != expected) return false;
    expected *= t.shape()[d];
  }
  return true;
}

// c10's get_channels_last_strides_2d: the strides of empty(shape, memory_format=channels_last).
Shape channels_last_strides(const Shape& shape) {
  Shape s(4);
  s[1] = 1;
  s[3] = shape[1];
  s[2] = s[3] * shape[3];
  s[0] = s[2] * shape[2];
  return s;
}

// The strides TensorIterator gives a new output of `shape` over these inputs (and a wrapped
// Python number, a 0-d operand, when `scalar_operand`). fast_set_up when every operand has the
// output's shape: all contiguous, the contiguous strides; all 4-d channels-last contiguous, the
// channels-last strides (size-1 dims get theirs, not the inputs'); all dense with one set of
// strides, those. Else reorder_dimensions' order, the contiguous strides when it is the identity.
Shape iterator_strides(const Shape& shape, const std::vector<const Tensor*>& inputs, bool scalar_operand) {
  bool same_shape = !inputs.empty() && !(scalar_operand && !shape.empty()), contiguous = true, dense = true;
  for (const Tensor* t : inputs) {
    same_shape = same_shape && t->shape() == shape;
    contiguous = contiguous && t->is_contiguous();
    dense = dense && same_shape && t->strides() == inputs[0]->strides() && dense_layout(shape, t->strides());
  }
  if (same_shape && contiguous) return contiguous_strides(shape);
  if (same_shape && shape.size() == 4 && numel_of(shape) > 0 &&
      std::all_of(inputs.begin(), inputs.end(), [](const Tensor* t) { return channels_last_contiguous(*t); }))
    return channels_last_strides(shape);
  if (same_shape && dense) return inputs.back()->strides();
  std::vector<Shape> strides;
  for (const Tensor* t : inputs) strides.push_back(iterator_operand_strides(*t, shape));
  return iterator_output_strides(shape, strides);
}

}  // namespace

Shape iterator_output_strides(const Shape& shape, const std::vector<Shape>& strides) {
  const std::vector<size_t> perm = iterator_order(shape, strides);
  bool reversed = true;
  for (size_t i = 0; i < perm.size(); ++i) reversed = reversed && perm[i] == perm.size() - 1 - i;
  if (reversed) return contiguous_strides(shape);
  Shape out(shape.size());   // compatible_stride over the permuted shape
  int64_t acc = 1;
  for (size_t d : perm) {
    out[d] = acc;
    acc *= shape[d];
  }
  return out;
}

Tensor keep_layout(Tensor out, const std::vector<const Tensor*>& inputs, bool scalar_operand) {
  if (!out.is_contiguous() || out.dim() == 0) return out;   // an empty result too: compatible_stride's zeros
  std::vector<const Tensor*> ops;
  for (const Tensor* t : inputs)
    if (t->dim() <= out.dim()) ops.push_back(t);
  Shape strides = iterator_strides(out.shape(), ops, scalar_operand);
  if (strides == out.strides()) return out;
  return relayout(std::move(out), std::move(strides));
}

// at::infer_dense_strides: the dims in reorder_dimensions' order for one operand (a 0 stride
// ambiguous), dense strides in that order, size-0 and size-1 dims not multiplying.
Tensor preserve_layout(Tensor out, const Tensor& input) {
  if (!out.is_contiguous() || out.dim() == 0 || input.shape() != out.shape()) return out;
  Shape strides = input.strides();   // empty_strided: a dense (or empty) input's own strides
  if (input.numel() != 0 && !dense_layout(input.shape(), input.strides())) {
    const std::vector<size_t> perm = input.dim() == 1 ? std::vector<size_t>{0} : iterator_order(input.shape(), {input.strides()});
    int64_t acc = 1;
    for (size_t d : perm) {
      strides[d] = acc;
      if (input.shape()[d] > 1) acc *= input.shape()[d];
    }
  }
  if (strides == out.strides()) return out;
  return relayout(std::move(out), std::move(strides));
}

Tensor relayout(Tensor out, Shape strides) {
  bool same_places = out.numel_ == 0;   // only size-1 dims' strides differ: the same buffer, restrided
  if (!same_places) {
    same_places = true;
    for (size_t d = 0; d < strides.size(); ++d) same_places = same_places && (out.shape_[d] == 1 || strides[d] == out.strides_[d]);
  }
  if (same_places) {
    out.set_layout(out.shape_, std::move(strides), out.offset_);
    return out;
  }
  Tensor flat = empty({out.numel_}, out.dtype_);
  visit_element(out.dtype_, [&](auto x) {
    using T = decltype(x);
    const T* in = out.data<T>();
    T* o = flat.data<T>();
    for_each_offset(out.shape_, [&](int64_t k, int64_t off) { o[off] = in[k]; }, strides);
  });
  Tensor r = out;   // the same variable (autograd record), its elements laid out anew
  r.storage_ = flat.storage_;
  r.own_version_.reset();   // the new buffer's own counter
  r.set_layout(out.shape_, std::move(strides), 0);
  autograd::result_moved(r, out.storage_);
  return r;
}

// ---- views ----

Tensor make_view(const Tensor& base, Shape shape, Shape strides, int64_t offset) {
  Tensor out = base;
  out.new_variable(own_history(base.autograd()));
  out.set_layout(std::move(shape), std::move(strides), offset);
  return out;
}

// ---- construction ----

namespace {
// empty() and uninitialized(): the shape checked, then a contiguous tensor on a new Storage.
Shape checked_shape(const Shape& shape, DType dtype) {
  for (int64_t d : shape)
    if (d < 0) throw TensorError(fmt::format("Trying to create tensor with negative dimension {}: {}", d, shape_str(shape)));
  // PyTorch's computeStorageNbytesContiguous: elements, then bytes, each checked.
  int64_t n = 1, bytes = 0;
  bool overflow = false;
  for (int64_t d : shape) overflow |= __builtin_mul_overflow(n, d, &n);
  overflow |= __builtin_mul_overflow(n, element_size(dtype), &bytes);
  if (overflow) throw TensorError(fmt::format("Storage size calculation overflowed with sizes={}", shape_str(shape)));
  return contiguous_strides(shape);
}
}  // namespace

Tensor empty(const Shape& shape, DType dtype) {
  Tensor t;
  t.dtype_ = dtype;
  t.set_layout(shape, checked_shape(shape, dtype), 0);
  t.storage_ = std::make_shared<Storage>(dtype, t.numel_, shape);
  return t;
}

Tensor uninitialized(const Shape& shape, DType dtype) {
  Tensor t;
  t.dtype_ = dtype;
  t.set_layout(shape, checked_shape(shape, dtype), 0);
  t.storage_ = std::make_shared<Storage>(dtype, t.numel_, shape, false);
  return t;
}

Tensor zeros(const Shape& shape) { return empty(shape); }
Tensor ones(const Shape& shape) { return full(shape, 1.0f); }

Tensor full(const Shape& shape, float value) {
  Tensor t = uninitialized(shape);   // every element filled below
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
  if (dtype == DType::float32) throw TensorError("from_ints: dtype must be an integer dtype or bool");
  visit_element(dtype, [&](auto x) {
    using T = decltype(x);
    T* p = t.data<T>();
    for (size_t k = 0; k < data.size(); ++k) p[k] = static_cast<T>(wrap_int(data[k], dtype));
  });
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
  for (size_t k = n; k-- > 0;) {   // from the last dim, as ATen's infer_size: its error names the rightmost mismatch
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
  out.new_variable();
  return out;
}

// ---- dtype conversion ----

namespace {

// A float32 to int64 as x86's cvttss2si does it for PyTorch: truncation, and INT64_MIN for NaN,
// infinities and values out of range (where a C++ cast would be undefined).
int64_t float_to_int64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// The same through int32 (cvttss2si with a 32-bit destination): INT32_MIN out of range.
int64_t float_to_int32(double v) {
  if (!(v >= -2147483648.0 && v < 2147483648.0)) return INT32_MIN;
  return static_cast<int64_t>(v);
}

// Element conversion as PyTorch's static_cast between dtypes: to bool is != 0; to an integer
// dtype wraps (integers) or truncates (floats, see float_to_int); to float32 rounds.
template <typename From, typename To>
void convert(const Tensor& a, Tensor& out) {
  const From* in = a.data<From>();
  To* o = out.data<To>();
  const DType to = out.dtype();
  for_each_offset(a.shape(), [&](int64_t k, int64_t off) {
    if (to == DType::boolean) o[k] = in[off] != 0;
    else if constexpr (std::is_same_v<To, float>) o[k] = static_cast<float>(in[off]);
    else if constexpr (std::is_same_v<From, float>) o[k] = static_cast<To>(float_to_int(in[off], to));
    else o[k] = static_cast<To>(wrap_int(static_cast<int64_t>(in[off]), to));
  }, a.strides());
}

template <typename From>
Tensor convert_from(const Tensor& a, DType dtype) {
  Tensor out = empty(a.shape(), dtype);
  visit_element(dtype, [&](auto x) { convert<From, decltype(x)>(a, out); });
  return out;
}

}  // namespace

int64_t wrap_int(int64_t v, DType dtype) {
  const auto u = static_cast<uint64_t>(v);
  switch (dtype) {
    case DType::boolean: return v != 0;
    case DType::uint8: return static_cast<int64_t>(u & 0xffu);
    case DType::int8: return static_cast<int64_t>(static_cast<int8_t>(static_cast<uint8_t>(u & 0xffu)));
    case DType::int16: return static_cast<int64_t>(static_cast<int16_t>(static_cast<uint16_t>(u & 0xffffu)));
    case DType::int32: return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(u & 0xffffffffu)));
    default: return v;
  }
}

bool value_overflows(double v, bool integral, DType d) {
  if (d == DType::boolean || d == DType::float32) return false;
  const double lo = d == DType::uint8 ? (integral ? -255.0 : 0.0) : d == DType::int8 ? -128.0 : d == DType::int16 ? -32768.0
                    : d == DType::int32 ? -2147483648.0 : -9223372036854775808.0;
  const double hi = d == DType::uint8 ? 255.0 : d == DType::int8 ? 127.0 : d == DType::int16 ? 32767.0 : d == DType::int32 ? 2147483647.0 : 0.0;
  if (d == DType::int64) return !(v >= lo && v < 9223372036854775808.0);
  return !(v >= lo && v <= hi);
}

int64_t float_to_int(double v, DType dtype) {
  if (dtype == DType::boolean) return v != 0;
  if (dtype == DType::int64) return float_to_int64(v);
  return wrap_int(float_to_int32(v), dtype);
}

Tensor to_dtype(const Tensor& a, DType dtype) {
  if (a.dtype() == dtype) return a;
  Tensor out = visit_element(a.dtype(), [&](auto x) { return convert_from<decltype(x)>(a, dtype); });
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
