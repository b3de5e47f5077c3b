// core/tensor.h: the float32 / integer / bool tensor every lesson computes with, and the map of
// where each op of core lives.
//
// What it is: as at::Tensor, a small handle onto shared storage. A Tensor is a shape, strides
// (in elements), a storage offset and a dtype over a reference-counted Storage buffer, plus the
// autograd bookkeeping PyTorch prints (`grad_fn=<MmBackward0>`, `requires_grad=True`). Copying a
// Tensor copies this handle, never the elements. Views (view, reshape when it can, transpose, t,
// T, permute, unsqueeze, squeeze, expand, select, narrow, slicing, unbind, chunk, split) share
// their base's storage, as in PyTorch, and in-place ops (copy_, fill_, masked_fill_, add_, ...)
// write through them into it. Every other op returns a new, contiguous (row-major) tensor. This
// header also has what every op needs: construction, shape and broadcast helpers, make_view,
// with_grad and detach, dtype conversion.
// What it is not: the ops (core/ops/, below), the autograd engine (core/autograd.h:
// AutogradMeta points into its graph), a device or dtype system beyond float32, bool and the
// integer dtypes (int64, int32, int16, int8, uint8; no float64 or float16), or
// thread-safe for writes (one interpreter owns its tensors).
//
// Where an op lives. core/ is organised as ATen is (native/X.cpp and native/cpu/XKernel.cpp):
//   core/            the Tensor (tensor.h), autograd (autograd.h; autograd_engine.cpp: the graph,
//                    backward(), grad mode), the generator (random.h) and the plumbing: cpu.h
//                    (kernel families), strided.h, parallel.h, deadline.h, bits.h, errors.h.
//                    core/ops.h includes every ops/ header, as ATen/Functions.h does.
//   core/ops/F.h     one op family: its shape logic, forward AND backward (each grad:: factory
//   core/ops/F.cpp   beside the op it differentiates), on Tensors. Helpers in `detail`.
//   core/kernels/F   the loops whose rounding is PyTorch's, on raw buffers (no Tensor); F_avx2.cpp
//                    the same loops eight lanes per instruction; vec.h / vec_avx2.h the lanes.
//
//   torch op                                            ops/            kernels/
//   + - * / ** with a tensor or a number, -x            binary          (flat loops, Eigen)
//   pow(x, y), x ** y with PowBackward                  pow             sleef
//   exp tanh log erf rsqrt sqrt abs erfinv isnan isinf  unary           unary(_avx2), sleef
//   < <= == != >= >, where, equal                       compare
//   sum mean max amax argmax var std                    reduce          reduce
//   a gradient summed to its input's shape (sum_to)     sum_to          reduce
//   softmax                                             softmax         softmax(_avx2)
//   @ matmul dot, baddbmm (for attention)               linalg          linalg, gemm, gemm_micro
//   view reshape transpose t T permute squeeze
//     unsqueeze expand select narrow slice split
//     chunk unbind contiguous clone                     views
//   cat stack                                           cat
//   x[...], embedding lookup, repeat_interleave,
//     masked_fill                                       indexing
//   tril triu                                           triangular
//   copy_ fill_ masked_fill_ add_ sub_ mul_ div_        inplace
//   relu gelu                                           activation      activation, sleef
//   layer_norm                                          normalization   normalization
//   mse_loss                                            loss
//   einsum                                              einsum          (gemm)
//   arange linspace                                     range
//   rand randn, nn.Embedding / nn.Linear init, dropout  random          (core/random.h)
//   scaled_dot_product_attention, MultiheadAttention    attention       (the ops above)
//   ATen's vector body / scalar tail split              loops (detail)
//
// Writing a new op: declare it in its family's core/ops/F.h and define it in F.cpp, e.g.
//
//   Tensor square(const Tensor& a) {                        // y = x * x, any layout in
//     const Tensor x = to_float(a).contiguous();            // the same handle when it already is
//     Tensor out = empty(x.shape());                        // new, contiguous, zero-filled float32
//     const float* in = x.data<float>();  float* o = out.data<float>();
//     for (int64_t k = 0; k < x.numel(); ++k) o[k] = in[k] * in[k];
//     return with_grad(std::move(out), {&a}, "PowBackward0");   // the grad_fn PyTorch records
//   }
//
// (with_grad records the name only; autograd::record also takes the backward, written beside
// the op: see ops/unary.cpp.) Or skip the copy and walk a strided input: for_each_offset(
// x.shape(), [&](int64_t k, int64_t off) { o[k] = in[off] * in[off]; }, x.strides());
// (strided.h; it also walks several operands at once, e.g. both sides of a broadcast:
// broadcast_strides() gives each operand's strides in the output's shape.)
// Rules: read `data<T>()` (T = float, int64_t, uint8_t for bool) at offsets from strides(), or
// call contiguous() and read 0..numel-1; never write into an input (copy it with clone()); only
// in-place ops write (ops/inplace.cpp), and they call mark_written() so autograd can see it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cpu.h"

namespace attn::core {

// boolean: one byte per element, 0 or 1. The integer dtypes wrap around as PyTorch's do.
enum class DType { float32, int64, boolean, uint8, int8, int16, int32 };

using Shape = std::vector<int64_t>;

// Thrown for any operation PyTorch would reject (shape mismatch, bad dim, ...). The message
// reads like PyTorch's so a learner can search for it; python_type() is the exception PyTorch
// raises ("RuntimeError", or "IndexError" for an index out of range or an empty reduction).
class TensorError : public std::runtime_error {
 public:
  explicit TensorError(const std::string& message, const char* python_type = "RuntimeError")
      : std::runtime_error(message), python_type_(python_type) {}
  const char* python_type() const { return python_type_; }

 private:
  const char* python_type_;
};

// The most elements one tensor's storage may hold: 2^31, i.e. 8 GiB of float32 (enough for a
// GPT-2 layer's 12 x 4096 x 4096 attention weights, 201M elements, and the flash lesson at
// T = 8192). Asking for more is a TensorError naming the shape and this limit, never a crash;
// a view may span more (expand), as in PyTorch, since it allocates nothing.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 31;

int64_t element_size(DType dtype);   // bytes per element: 4, 8, 1, 1, 1, 2, 4
const char* dtype_short_name(DType dtype); // "float32", "int64", "bool", "uint8", ...
// The integer dtypes (not bool, not float32).
inline bool is_integral(DType d) { return d != DType::float32 && d != DType::boolean; }
// Calls f(T{}) with T the C++ element type of dtype: float, int64_t, uint8_t (bool and uint8),
// int8_t, int16_t, int32_t; f returns the same type for every T.
template <typename F>
decltype(auto) visit_element(DType d, F&& f) {
  switch (d) {
    case DType::int64: return f(int64_t{});
    case DType::boolean:
    case DType::uint8: return f(uint8_t{});
    case DType::int8: return f(int8_t{});
    case DType::int16: return f(int16_t{});
    case DType::int32: return f(int32_t{});
    case DType::float32: break;
  }
  return f(float{});
}

// Bytes of element buffers: made since the process started (never goes down), and held now.
// Every thread's; what the session's cycle collector watches (torch/torch_module.cpp), so a
// cycle that holds big tensors is freed before many such cycles pile up.
uint64_t storage_bytes_made();
uint64_t storage_bytes_held();

// One buffer of elements, shared by a tensor and all its views. Zero-filled when made, unless
// made for a writer that fills every element (uninitialized() below).
class Storage {
 public:
  // Room for n elements of dtype. TensorError over kMaxTensorElements or when memory runs out
  // (the message names `shape`, the tensor being made, and the bytes asked for).
  Storage(DType dtype, int64_t n, const Shape& shape, bool zero_fill = true);
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage();

  DType dtype() const { return dtype_; }
  int64_t size() const { return size_; }   // elements
  void* data() { return data_; }
  const void* data() const { return data_; }
  // Bumped by every in-place write through any view (PyTorch's version counter, shared by a
  // tensor and its views): autograd compares it to detect a saved tensor changed in place.
  uint64_t version() const { return version_; }
  void bump_version() { ++version_; }
  // A new op result filled by writes of the op's own (cat's copy_ into its slices): not in-place
  // ops anyone could see, so its version starts at 0 as ATen's out= kernels leave it.
  void forget_own_writes() { version_ = 0; }
  uint64_t* version_slot() { return &version_; }

 private:
  void* data_ = nullptr;
  int64_t size_ = 0;
  DType dtype_;
  uint64_t version_ = 0;
};

class Tensor;
namespace autograd {
class Node;        // core/autograd.h: one recorded op of the graph backward() walks
struct LeafGrad;   // a leaf's .grad, shared by every handle onto that leaf
struct ViewInfo;   // a differentiable view's base and how it was made (autograd.h)
// A view whose base (or another view of it) was written in place since its grad_fn was made
// gets its grad_fn remade (AsStridedBackward0 onto the base's new history), as PyTorch's
// VariableHooks::grad_fn does; nothing for any other tensor (autograd_views.cpp).
void refresh_view(const Tensor& t);
bool base_requires_grad(const Tensor& view);   // a view's base requires grad
// t's elements were moved from the buffer `from` into t's own (keep_layout): the version record
// of t's grad_fn for its saved result follows them, so writing t in place is still caught.
void result_moved(const Tensor& t, const std::shared_ptr<Storage>& from);
}  // namespace autograd

// What autograd knows about a tensor (core/autograd.h): one record per variable, shared by every
// handle copy (as a TensorImpl's AutogradMeta is), so an in-place op that gives a tensor a new
// history (x.mul_(2), or CopySlices on the base of a written view) is seen through every handle,
// views' records of their base included. An op's result, detach(), clone() and make_view() get a
// record of their own.
struct AutogradMeta {
  bool requires_grad = false;   // true for Parameters and anything computed from them
  bool is_parameter = false;    // nn.Parameter: prints "Parameter containing:"
  std::shared_ptr<autograd::Node> grad_fn;   // the op that made it; null for leaves and detached tensors
  uint32_t output_nr = 0;                    // which output of grad_fn (unbind, split: several)
  std::shared_ptr<autograd::LeafGrad> leaf;  // a leaf that requires grad: where its .grad goes
  std::shared_ptr<autograd::ViewInfo> view;  // a view made by a view op: its base (PyTorch's _base)
  std::weak_ptr<void> owner;                 // the Python object of this variable (torch's, for `is`)
  // The layout an in-place view op (t_, transpose_) last gave this variable. Handle copies made
  // before it (a view's record of its root base) keep their old layout; autograd::view_base reads
  // the base through this one, as PyTorch's views share their base's TensorImpl.
  struct Layout {
    Shape shape, strides;
    int64_t offset = 0;
  };
  std::optional<Layout> moved_layout;
};

class Tensor {
 public:
  Tensor();   // float32, shape [0]: no elements, no storage

  // ---- layout ----
  const Shape& shape() const { return shape_; }       // PyTorch order, e.g. {6, 3}; {} is 0-d
  const Shape& strides() const { return strides_; }   // in elements; 0 along an expanded dim
  int64_t offset() const { return offset_; }          // storage offset of element (0, ..., 0)
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return numel_; }            // checked against overflow when made
  int64_t size(int64_t dim) const;                    // shape()[dim], dim may be negative
  DType dtype() const { return dtype_; }
  bool is_float() const { return dtype_ == DType::float32; }
  // PyTorch's is_contiguous(): row-major without gaps (the stride of a size-1 dim is ignored).
  bool is_contiguous() const { return contiguous_; }

  // ---- elements ----
  // Element (0, ..., 0); element idx is at data<T>()[sum(idx[d] * strides()[d])]. T is float
  // for float32, int64_t for int64, uint8_t for bool and uint8, int8_t, int16_t, int32_t;
  // another T throws (a bug in the caller).
  // nullptr when the tensor has no elements.
  template <typename T> T* data();
  template <typename T> const T* data() const;
  // *this when already contiguous (no copy), else a row-major copy; autograd fields kept. For
  // kernels: the op `contiguous(t)` below is what records CloneBackward0.
  Tensor contiguous() const;
  // A new contiguous copy of the elements, owning its storage; autograd fields kept.
  Tensor clone() const;
  // Element k in row-major order (0 <= k < numel()), any layout: for printing, JSON, scalars
  // and tests, not inner loops (it divides per dim). at() widens to double (exact for float32
  // and bool, and for int64 within 2^53); int_at() is exact for every integer dtype and bool.
  double at(int64_t k) const;
  int64_t int_at(int64_t k) const;
  int64_t int_at_offset(int64_t off) const;           // the element at storage offset offset()+off
  float float_at(int64_t k) const;                    // float32 only
  std::vector<float> floats() const;                  // every element, row-major (float32 only)
  std::vector<int64_t> ints() const;                  // every element, row-major (integers or bool)

  // ---- storage ----
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  bool shares_storage(const Tensor& other) const { return storage_ && storage_ == other.storage_; }
  uint64_t version() const { return own_version_ ? *own_version_ : storage_ ? storage_->version() : 0; }
  // For in-place ops, before they write: bumps the version counter (the storage's, shared by every
  // view, or the one `.data` made).
  void mark_written() {
    if (own_version_) ++*own_version_;
    else if (storage_) storage_->bump_version();
  }
  // What a saved tensor's record watches: this handle's version counter (null without storage).
  std::shared_ptr<const uint64_t> version_counter() const {
    if (own_version_) return own_version_;
    if (!storage_) return nullptr;
    return std::shared_ptr<const uint64_t>(storage_, storage_->version_slot());
  }
  // x.data (PyTorch's variable_data): the same elements under a version counter of its own,
  // starting at 0, so writes through it are not seen by autograd's saved-tensor checks. Views
  // and detach() of this handle share the new counter.
  void new_version_counter() { own_version_ = std::make_shared<uint64_t>(0); }

  // x.data = src (PyTorch's set_data): this handle takes src's storage, layout and dtype and keeps
  // its own variable record (requires_grad, Parameter, grad_fn, .grad, the Python object).
  void set_data(const Tensor& src) {
    storage_ = src.storage_;
    shape_ = src.shape_;
    strides_ = src.strides_;
    offset_ = src.offset_;
    numel_ = src.numel_;
    dtype_ = src.dtype_;
    contiguous_ = src.contiguous_;
  }

  // ---- autograd bookkeeping ----
  // PyTorch's: true for a view whose base requires grad, even one made under no_grad.
  bool requires_grad() const { return autograd_->requires_grad || (autograd_->view && autograd::base_requires_grad(*this)); }
  // For a leaf: on gives it a .grad slot (kept while it stays on), off drops the slot.
  void set_requires_grad(bool on);
  bool is_parameter() const { return autograd_->is_parameter; }
  void set_parameter(bool on) { autograd_->is_parameter = on; }
  // The grad_fn's name, e.g. "MmBackward0"; "" for a leaf. A view written through (or whose base
  // was) since its grad_fn was made gets it remade first (refresh_view), as PyTorch's does.
  const std::string& grad_fn() const;
  bool is_leaf() const { return !autograd_->grad_fn; }   // PyTorch's: the record as it is, no refresh
  // The variable's record, shared by every handle copy (see AutogradMeta).
  AutogradMeta& autograd() { return *autograd_; }
  const AutogradMeta& autograd() const { return *autograd_; }
  // The record itself, for a saved tensor's weak handle (autograd.h SavedVersion::variable).
  const std::shared_ptr<AutogradMeta>& autograd_ptr() const { return autograd_; }
  // This handle becomes a new variable: a record of its own holding `meta` (an op's result).
  void new_variable(AutogradMeta meta = {}) { autograd_ = std::make_shared<AutogradMeta>(std::move(meta)); }

 private:
  friend Tensor empty(const Shape& shape, DType dtype);
  friend Tensor uninitialized(const Shape& shape, DType dtype);
  friend Tensor make_view(const Tensor& base, Shape shape, Shape strides, int64_t offset);
  friend Tensor relayout(Tensor out, Shape strides);
  void set_layout(Shape shape, Shape strides, int64_t offset);   // recomputes numel_, contiguous_
  int64_t offset_of(int64_t k) const;                            // row-major k -> element offset
  void check_dtype(bool ok, const char* want) const;

  std::shared_ptr<Storage> storage_;
  Shape shape_{0};
  Shape strides_{1};
  int64_t offset_ = 0;
  int64_t numel_ = 0;
  DType dtype_ = DType::float32;
  bool contiguous_ = true;
  std::shared_ptr<AutogradMeta> autograd_ = std::make_shared<AutogradMeta>();
  std::shared_ptr<uint64_t> own_version_;   // null: the storage's counter (all but `.data` handles)
};

// ---- construction ----
Tensor empty(const Shape& shape, DType dtype = DType::float32);  // contiguous, zero-filled (no RNG)
// Contiguous, its elements left as the memory had them (at::empty): only for an op's output
// that its kernel writes element by element, every element, before anything can read it.
Tensor uninitialized(const Shape& shape, DType dtype = DType::float32);
Tensor zeros(const Shape& shape);
Tensor ones(const Shape& shape);
Tensor full(const Shape& shape, float value);
Tensor scalar(float value);                                       // 0-d float tensor
Tensor from_floats(const Shape& shape, const std::vector<float>& data);  // data.size() == numel
// Each value wrapped into dtype as PyTorch's integer casts do (300 -> 44 in uint8); bool: != 0.
Tensor from_ints(const Shape& shape, const std::vector<int64_t>& data, DType dtype = DType::int64);

// ---- shape helpers ----
// The number of elements of `shape`; TensorError if a dim is negative or the product overflows.
int64_t numel_of(const Shape& shape);
Shape contiguous_strides(const Shape& shape);                     // row-major strides
int64_t normalize_dim(int64_t dim, int64_t ndim);                 // -1 -> ndim-1, range-checked
std::string shape_str(const Shape& shape);                        // "[6, 3]"
Shape broadcast_shapes(const Shape& a, const Shape& b);           // PyTorch's rule and message
// t's strides seen from `shape` (t broadcast to it): 0 along broadcast and added leading dims.
Shape broadcast_strides(const Tensor& t, const Shape& shape);

// ---- views: share `base`'s storage (autograd fields from base; ops/views.h's ops set grad_fn) ----
// The tensor of this shape and strides over base's storage, starting at storage offset
// `offset`; nothing is checked but the caller's arithmetic (for ops that compute a view).
Tensor make_view(const Tensor& base, Shape shape, Shape strides, int64_t offset);

// ---- TensorIterator's output layout ----
// `out`, a new contiguous result of an elementwise op over `inputs` (any broadcast to its
// shape), with the strides PyTorch's TensorIterator gives it (compute_strides,
// reorder_dimensions, allocate_or_resize_outputs): the inputs' memory order, so x.T + 1 is
// not contiguous and views of it follow. The same variable and values; only the layout (a new
// buffer) changes, and only when an input is not contiguous. Called by torch/'s elementwise
// bindings; printing is unaffected (it reads row-major). `scalar_operand`: the op also takes a
// Python number as a wrapped 0-d tensor (x + 1, x == 0), which rules out fast_set_up.
Tensor keep_layout(Tensor out, const std::vector<const Tensor*>& inputs, bool scalar_operand = false);
// `out`, a new contiguous copy of `input` (a cast or clone: _to_copy and clone with
// preserve_format), with the strides PyTorch gives it: a dense input's own strides (a size-1
// dim's too), else at::infer_dense_strides (the input's memory order, dense).
Tensor preserve_layout(Tensor out, const Tensor& input);
// TensorIteratorBase::reorder_dimensions over operands' strides (each in `shape`, 0 along
// broadcast dims): the dims from innermost (perm[0]) to outermost, as TensorIterator walks them.
std::vector<size_t> iterator_order(const Shape& shape, const std::vector<Shape>& strides);
// The strides TensorIterator allocates its output with over operands of these strides (as
// iterator_order takes them): dense in that order, the contiguous ones when it is the identity.
Shape iterator_output_strides(const Shape& shape, const std::vector<Shape>& strides);
// `out` (contiguous) with its elements laid out anew at these strides (dense over its shape):
// the same variable and values in a new buffer (restrided in place when only size-1 dims differ).
Tensor relayout(Tensor out, Shape strides);
// PyTorch's is_non_overlapping_and_dense for a shape and strides.
bool dense_layout(const Shape& shape, const Shape& strides);

// ---- autograd bookkeeping (core/autograd.h records the node) ----
// The result of an op on these inputs: when one of them requires grad, `out` gets a grad_fn
// node of this name. Without a backward function the node is recorded for printing only, and
// backward() through it raises that its derivative is not implemented in attn.
Tensor with_grad(Tensor out, const std::vector<const Tensor*>& inputs, const char* grad_fn);
Tensor detach(const Tensor& t);                                   // shares storage, no grad

// ---- dtype ----
Tensor to_bool(const Tensor& a);                                  // .bool()  (self if bool)
Tensor to_float(const Tensor& a);                                 // .float() (self if float32)
Tensor to_dtype(const Tensor& a, DType dtype);                    // self if already dtype
// An int64 value as PyTorch stores it in an integer dtype or bool (wrapping modulo 2^bits).
int64_t wrap_int(int64_t v, DType dtype);
// A float as PyTorch's CPU cast stores it in an integer dtype (x86's cvttss2si: truncation
// toward zero; NaN, inf and out-of-range values give the type's INT_MIN; uint8, int8 and int16
// go through int32 and wrap: 300.f -> 44 in uint8, 1e10f -> 0). No C++ cast out of range.
int64_t float_to_int(double v, DType dtype);
// c10's overflows<T>(v), the check before a Python number is stored into an integer dtype: an
// integral value must lie in [lowest, max] (for uint8 down to -255 as well, as it wraps); a
// float one in [lowest, max] and not NaN. False for bool and float32.
bool value_overflows(double v, bool integral, DType dtype);

// PyTorch 1.13's type promotion (c10::promoteTypes): bool < integers < float32; two integer
// dtypes give the wider, uint8 with a signed one the next signed dtype wide enough for both
// (uint8 + int8 -> int16, uint8 + int64 -> int64).
DType promote_types(DType a, DType b);
// torch.result_type of two tensors: a 0-d tensor beside a dimensioned one counts only when its
// category (bool, integer, float) is higher (uint8 tensor + int64 0-d tensor -> uint8).
DType result_type(const Tensor& a, const Tensor& b);
// torch.result_type(tensor, python number): the number's category is bool, int64 or float32;
// it counts only when higher than the tensor's (uint8 + 5 -> uint8, uint8 + 2.5 -> float32).
DType result_type(const Tensor& a, DType number_category);
// PyTorch's name of a dtype in messages: "Float", "Long", "Bool", "Byte", "Char", "Short", "Int".
const char* dtype_title(DType dtype);
// The legacy type name PyTorch's x.type() and some messages give: "torch.FloatTensor", "torch.ByteTensor".
std::string tensor_type_name(DType dtype);

// ---- scalar extraction ----
double item(const Tensor& a);                                      // numel must be 1

// ---- for the ops in core/ops/ (not called from outside core) ----
namespace detail {
// `shape` viewed as (outer, shape[dim], inner) around dim, the layout reduction kernels take;
// (1, 1, 1) for a 0-d shape.
struct DimSplit {
  int64_t outer = 1, size = 1, inner = 1;
};
DimSplit split_at(const Shape& shape, int64_t dim);
// TensorError "<op>: expected a floating point tensor, got an integer one" unless a is float32.
void require_float(const Tensor& a, const char* op);
}  // namespace detail

// ---- Tensor::data<T> ----
namespace detail {
// Whether a buffer of dtype d holds elements of C++ type T (uint8_t: bool or uint8).
template <typename T> struct ElementOf;
template <> struct ElementOf<float> { static bool holds(DType d) { return d == DType::float32; } static constexpr const char* name = "float"; };
template <> struct ElementOf<int64_t> { static bool holds(DType d) { return d == DType::int64; } static constexpr const char* name = "int64_t"; };
template <> struct ElementOf<uint8_t> { static bool holds(DType d) { return d == DType::boolean || d == DType::uint8; } static constexpr const char* name = "uint8_t"; };
template <> struct ElementOf<int8_t> { static bool holds(DType d) { return d == DType::int8; } static constexpr const char* name = "int8_t"; };
template <> struct ElementOf<int16_t> { static bool holds(DType d) { return d == DType::int16; } static constexpr const char* name = "int16_t"; };
template <> struct ElementOf<int32_t> { static bool holds(DType d) { return d == DType::int32; } static constexpr const char* name = "int32_t"; };
}  // namespace detail

template <typename T>
T* Tensor::data() {
  check_dtype(detail::ElementOf<T>::holds(dtype_), detail::ElementOf<T>::name);
  T* base = storage_ ? static_cast<T*>(storage_->data()) : nullptr;
  return base ? base + offset_ : nullptr;   // a zero-size storage has no memory to offset into
}

template <typename T>
const T* Tensor::data() const {
  check_dtype(detail::ElementOf<std::remove_const_t<T>>::holds(dtype_), detail::ElementOf<T>::name);
  const T* base = storage_ ? static_cast<const T*>(storage_->data()) : nullptr;
  return base ? base + offset_ : nullptr;
}

}  // namespace attn::core

#include "core/strided.h"   // for_each_offset: walking strided operands
