// core/ops/inplace.cpp: operations that write into an existing tensor: copy_, fill_, masked_fill_
// and the arithmetic add_/sub_/mul_/div_ (binary_, binary_scalar_) (ops/inplace.h).
//
// What it is: writes through `self`'s strides into its storage, so a view written in place
// changes its base and every other view of it, exactly as in PyTorch (`x.T[0] = 1`,
// `x[0].masked_fill_(m, v)`, `y = x.view(6); y[0] = 5`). PyTorch's guards come first: a
// written-to tensor whose elements overlap (an expanded dim) is refused by copy_ and the
// arithmetic (fill_ and masked_fill_ allow it, as PyTorch does), and a source that partly
// overlaps the destination is refused; one that shares storage without overlapping is read
// before anything is written, and one PyTorch cannot tell about (TOO_HARD: neither is dense, as
// a[:, 1:] and a[:, :-1]) is read as PyTorch's loop reads it, after its earlier writes. Every write bumps the storage's version counter.
// What it is not: autograd's in-place rules (core/autograd_views.cpp: autograd::in_place).
#include <cstring>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>

#include "core/ops/inplace.h"

#include "core/ops/loops.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

const char* kInternalOverlap =
    "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
    "Please clone() the tensor before performing the operation.";
const char* kPartialOverlap =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
    "location. Please clone() the tensor before performing the operation.";

// PyTorch's is_non_overlapping_and_dense (core::dense_layout, tensor.h).
bool non_overlapping_and_dense(const Tensor& t) { return dense_layout(t.shape(), t.strides()); }

// PyTorch's refusal to write into a tensor whose elements overlap (stride 0, size > 1).
void check_no_internal_overlap(const Tensor& t) {
  if (t.numel() == 0) return;   // nothing is written (an empty result's strides hold zeros: compatible_stride)
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.strides()[d] == 0 && t.shape()[d] > 1) throw TensorError(kInternalOverlap);
}

enum class Overlap { none, full, partial, too_hard };

// at::get_overlap_status for two tensors of one dtype.
Overlap overlap_status(const Tensor& a, const Tensor& b) {
  if (!a.shares_storage(b) || a.numel() == 0 || b.numel() == 0) return Overlap::none;
  if (!non_overlapping_and_dense(a) || !non_overlapping_and_dense(b)) return Overlap::too_hard;
  const int64_t a0 = a.offset(), a1 = a0 + a.numel(), b0 = b.offset(), b1 = b0 + b.numel();
  if (a0 == b0 && a1 == b1) return a.strides() == b.strides() ? Overlap::full : Overlap::partial;
  return a0 < b1 && b0 < a1 ? Overlap::partial : Overlap::none;
}

// `src` in self's dtype, safe to read while self is written: refuses a partial overlap, and
// copies a source that shares self's storage in a way PyTorch cannot rule out overlapping (of
// another dtype: one of self's goes through overlapping_loop).
Tensor readable_source(const Tensor& self, const Tensor& src) {
  Tensor s = to_dtype(src, self.dtype());
  switch (overlap_status(self, s)) {
    case Overlap::partial: throw TensorError(kPartialOverlap);
    case Overlap::too_hard: return s.clone();
    default: return s;
  }
}

// c10's name of an element type in "value cannot be converted to type X without overflow".
const char* c_type_name(DType d) {
  switch (d) {
    case DType::uint8: return "uint8_t";
    case DType::int8: return "int8_t";
    case DType::int16: return "int16_t";
    case DType::int32: return "int";
    case DType::boolean: return "bool";
    default: return "int64_t";
  }
}

// A fill value for an integer element, as c10::checked_convert (value_overflows), stored
// truncated toward zero and wrapped (-1 -> 255 in uint8); an overflow is PyTorch's error.
int64_t checked_int(double v, bool integral, DType d) {
  if (d == DType::boolean) return v != 0.0;
  if (value_overflows(v, integral, d))
    throw TensorError(fmt::format("value cannot be converted to type {} without overflow", c_type_name(d)));
  return wrap_int(static_cast<int64_t>(v), d);
}

// Stores v into every element of self (any layout) at which keep(mask offset) holds.
template <typename T, typename Keep>
void fill_where(Tensor& self, T v, const Tensor* mask, Keep keep) {
  T* p = self.data<T>();
  if (mask == nullptr) return for_each_offset(self.shape(), [&](int64_t, int64_t i) { p[i] = v; }, self.strides());
  // a select, not a branch: the compiler vectorises it along the innermost run
  for_each_offset(self.shape(), [&](int64_t, int64_t i, int64_t j) { p[i] = keep(j) ? v : p[i]; }, self.strides(),
                  broadcast_strides(*mask, self.shape()));
}

// fill_ and masked_fill_'s store: value converted to self's dtype (checked for the integers).
void fill_masked(Tensor& self, const Tensor* mask, const uint8_t* keep, double value, bool integral) {
  const auto at = [keep](int64_t j) { return keep == nullptr || keep[j] != 0; };
  visit_element(self.dtype(), [&](auto x) {
    using T = decltype(x);
    if constexpr (std::is_same_v<T, float>) fill_where(self, static_cast<float>(value), mask, at);
    else fill_where(self, static_cast<T>(checked_int(value, integral, self.dtype())), mask, at);
  });
}

// self[idx] = src[idx] for every idx, src already in self's dtype and of a broadcastable shape.
template <typename T>
void assign(Tensor& self, const Tensor& src) {
  T* o = self.data<T>();
  const T* x = src.data<T>();
  for_each_offset(self.shape(), [&](int64_t, int64_t i, int64_t j) { o[i] = x[j]; }, self.strides(),
                  broadcast_strides(src, self.shape()));
}

// The broadcast shape of self and other must be self's own (PyTorch's in-place rule).
void check_broadcast_into(const Tensor& self, const Shape& other) {
  const Shape shape = broadcast_shapes(self.shape(), other);
  if (shape != self.shape())
    throw TensorError(fmt::format("output with shape {} doesn't match the broadcast shape {}", shape_str(self.shape()),
                                  shape_str(shape)));
}

std::string type_title(DType d) { return dtype_title(d); }

// c10::canCast: an in-place result may narrow within its category (int64 into int16 wraps), never
// go from float to an integer or from a number to bool.
bool can_cast(DType from, DType to) {
  if (from == DType::float32 && to != DType::float32) return false;
  return !(from != DType::boolean && to == DType::boolean);
}

// The elements of one vector step of ATen's cpu_kernel_vec for a dtype: 2 vectors of 32 bytes
// (AVX2's, and the DEFAULT build's Vectorized<T> too): 16 floats or int32s, 8 int64s, 64 uint8s.
int64_t vec_step(DType d) { return 64 / element_size(d); }

// The blocks in which PyTorch's loop reads and writes self from src when get_overlap_status calls
// it TOO_HARD (neither is dense: a[:, 1:] and a[:, :-1]): PyTorch copies nothing and its loop reads
// memory as it writes it. TensorIterator's order (binary_loop), each inner run's vector body
// `step` elements at a time (all read before any is stored), then its tail one by one; step 1 is
// a scalar kernel (cpu_kernel): every element alone. visit(self offsets, src offsets) per block.
template <typename V>
void overlapping_blocks(const Tensor& self, const Tensor& src, int64_t step, V visit) {
  const Tensor b = expand(src, self.shape());   // [self's shape], a view
  const detail::BinaryLoop loop = detail::binary_loop(self, b, step);
  const std::vector<size_t> perm = iterator_order(self.shape(), {self.strides(), b.strides()});
  const Shape rows = contiguous_strides(self.shape());
  Shape shape, sa, sb, sk;   // outermost first, in the iterator's order
  for (size_t p = perm.size(); p-- > 0;) {
    shape.push_back(self.shape()[perm[p]]);
    sa.push_back(self.strides()[perm[p]]);
    sb.push_back(b.strides()[perm[p]]);
    sk.push_back(rows[perm[p]]);
  }
  std::vector<int64_t> outs, ins;   // the block being gathered
  const auto flush = [&] {
    if (!outs.empty()) visit(outs, ins);
    outs.clear();
    ins.clear();
  };
  const int64_t base_a = self.offset(), base_b = b.offset();
  for_each_offset(shape, [&](int64_t, int64_t i, int64_t j, int64_t k) {
    if (loop.tail[static_cast<size_t>(k)] != 0) flush();
    outs.push_back(base_a + i);
    ins.push_back(base_b + j);
    if (loop.tail[static_cast<size_t>(k)] != 0 || static_cast<int64_t>(outs.size()) == step) flush();
  }, sa, sb, sk);
  flush();
}

// self = f(self, src) elementwise through overlapping_blocks in vector steps (add_, copy_, ...).
// T: self's element type (src's too).
template <typename T, typename F>
void overlapping_loop(Tensor& self, const Tensor& src, F f) {
  T* base = self.data<T>() - self.offset();   // the storage both index
  std::vector<T> results;
  self.mark_written();
  overlapping_blocks(self, src, vec_step(self.dtype()), [&](const std::vector<int64_t>& outs, const std::vector<int64_t>& ins) {
    results.clear();
    for (size_t k = 0; k < outs.size(); ++k) results.push_back(f(base[outs[k]], base[ins[k]]));
    for (size_t k = 0; k < outs.size(); ++k) base[outs[k]] = results[k];
  });
}

bool too_hard(const Tensor& self, const Tensor& src) {
  return self.dim() > 0 && self.dtype() == src.dtype() && overlap_status(self, src) == Overlap::too_hard;
}

}  // namespace

void copy_(Tensor& self, const Tensor& src) {
  check_broadcast_into(self, src.shape());
  check_no_internal_overlap(self);
  if (overlap_status(self, src) == Overlap::full && self.dtype() == src.dtype()) return;   // x.copy_(x)
  if (too_hard(self, src))
    return visit_element(self.dtype(), [&](auto x) {
      using T = decltype(x);
      overlapping_loop<T>(self, src, [](T, T v) { return v; });
    });
  const Tensor s = readable_source(self, src);
  self.mark_written();
  visit_element(self.dtype(), [&](auto x) { assign<decltype(x)>(self, s); });
}

bool inplace_too_hard(const Tensor& self, const Tensor& src) { return too_hard(self, src); }

void overlapping_apply(Tensor& self, const Tensor& src, bool vectorised,
                       const std::function<Tensor(const Tensor&, const Tensor&)>& op) {
  check_no_internal_overlap(self);
  self.mark_written();
  visit_element(self.dtype(), [&](auto e) {
    using T = decltype(e);
    T* base = self.data<T>() - self.offset();   // the storage both index
    const int64_t step = vectorised ? vec_step(self.dtype()) : 1;
    overlapping_blocks(self, src, step, [&](const std::vector<int64_t>& outs, const std::vector<int64_t>& ins) {
      const int64_t n = static_cast<int64_t>(outs.size());
      Tensor x = empty({n}, self.dtype()), y = empty({n}, self.dtype());   // [n] each: the block's operands
      for (int64_t k = 0; k < n; ++k) {
        x.data<T>()[k] = base[outs[static_cast<size_t>(k)]];
        y.data<T>()[k] = base[ins[static_cast<size_t>(k)]];
      }
      const Tensor r = to_dtype(op(x, y), self.dtype()).contiguous();   // [n]
      for (int64_t k = 0; k < n; ++k) base[outs[static_cast<size_t>(k)]] = r.data<T>()[k];
    });
  });
}

void fill_(Tensor& self, double value, bool integral) {
  self.mark_written();
  fill_masked(self, nullptr, nullptr, value, integral);
}

namespace {

// The low byte of element k of a mask that is not bool (little-endian: the byte ATen's masked_fill
// kernel reads when it takes the mask's elements as unsigned char): the float's bits, the
// integer's two's complement.
uint8_t low_byte(const Tensor& mask, int64_t k) {
  if (mask.is_float()) {
    const float f = mask.float_at(k);
    uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    return static_cast<uint8_t>(bits & 0xffu);
  }
  return static_cast<uint8_t>(static_cast<uint64_t>(mask.int_at(k)) & 0xffu);
}

// The mask as 1.13's masked_fill kernel reads it: a bool mask as it is; any other dtype's
// elements by their low byte, which must be 0 or 1 (a uint8 2, an int64 -1 or a float 0.1 is
// "Mask tensor can take 0 and 1 values only"; a float 1.0 reads 0 and fills nothing, an int64 257
// reads 1). attn checks every element first, then fills.
Tensor bool_mask(const Tensor& mask) {
  if (mask.dtype() == DType::boolean) return mask;
  std::vector<int64_t> bytes(static_cast<size_t>(mask.numel()));
  for (int64_t k = 0; k < mask.numel(); ++k) {
    const uint8_t b = low_byte(mask, k);
    if (b > 1) throw TensorError("Mask tensor can take 0 and 1 values only");
    bytes[static_cast<size_t>(k)] = b;
  }
  return to_dtype(from_ints(mask.shape(), bytes), DType::boolean);
}

}  // namespace

void masked_fill_(Tensor& self, const Tensor& mask_in, float value, bool integral) {
  check_broadcast_into(self, mask_in.shape());
  const Tensor mask = bool_mask(mask_in);   // mask_in's shape
  const Tensor m = overlap_status(self, mask) == Overlap::none ? mask : mask.clone();
  self.mark_written();
  fill_masked(self, &m, m.data<uint8_t>(), value, integral);
}

// self (op)= other: the out-of-place result (the same arithmetic, bit for bit), written back.
void check_inplace_operand(const Tensor& self, const Tensor& other) {
  check_no_internal_overlap(self);
  if (overlap_status(self, other) == Overlap::partial) throw TensorError(kPartialOverlap);
}

void check_no_overlap(const Tensor& self, const Tensor& other) {
  const Overlap o = overlap_status(self, other);
  if (o == Overlap::partial || o == Overlap::full) throw TensorError(kPartialOverlap);
}

void binary_(BinOp op, Tensor& self, const Tensor& other) {
  check_broadcast_into(self, other.shape());
  check_inplace_operand(self, other);
  const bool integral = is_integral(self.dtype()) && self.dtype() != DType::boolean;
  if ((self.dtype() == DType::float32 || (integral && op != BinOp::div)) && op != BinOp::pow && too_hard(self, other))
    return visit_element(self.dtype(), [&](auto e) {
      using T = decltype(e);
      if constexpr (std::is_floating_point_v<T>) {
        overlapping_loop<T>(self, other, [op](T x, T y) { return op == BinOp::add ? x + y : op == BinOp::sub ? x - y : op == BinOp::mul ? x * y : x / y; });
      } else {   // wrapping, as ATen's integer kernels
        using U = std::make_unsigned_t<T>;
        overlapping_loop<T>(self, other, [op](T x, T y) {
          const U a = static_cast<U>(x), b = static_cast<U>(y);
          return static_cast<T>(op == BinOp::add ? static_cast<U>(a + b) : op == BinOp::sub ? static_cast<U>(a - b) : static_cast<U>(a * b));
        });
      }
    });
  if (self.dtype() == DType::float32 && other.dtype() == DType::float32 && self.is_contiguous() &&
      other.is_contiguous() && other.shape() == self.shape()) {
    // ATen's add_/mul_ write self through TensorIterator: binary()'s flat loop into self's own
    // elements (the same bits), no result buffer and no copy back (accumulating .grad, an update).
    self.mark_written();
    binary_flat(op, self.data<float>(), other.data<float>(), self.data<float>(), self.numel());
    return;
  }
  const Tensor r = binary(op, self, other);
  if (!can_cast(r.dtype(), self.dtype()))
    throw TensorError(fmt::format("result type {} can't be cast to the desired output type {}", type_title(r.dtype()),
                                  type_title(self.dtype())));
  copy_(self, r);
}

void write_result_(Tensor& self, const Tensor& r) {
  if (!can_cast(r.dtype(), self.dtype()))
    throw TensorError(fmt::format("result type {} can't be cast to the desired output type {}", type_title(r.dtype()),
                                  type_title(self.dtype())));
  copy_(self, r);
}

void binary_scalar_(BinOp op, Tensor& self, double s, std::optional<DType> number) {
  check_no_internal_overlap(self);
  const Tensor r = binary_scalar(op, self, s, false, number);
  if (!can_cast(r.dtype(), self.dtype()))
    throw TensorError(fmt::format("result type {} can't be cast to the desired output type {}", type_title(r.dtype()),
                                  type_title(self.dtype())));
  copy_(self, r);
}

}  // namespace attn::core
