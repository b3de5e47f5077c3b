// core/tensor.h: the float32 / int64 / bool tensor every lesson computes with.
//
// What it is: a small, always-contiguous, row-major tensor of 0 to 4 dimensions with shapes in
// PyTorch order, plus the operations the lessons need, named as in PyTorch. Each operation also
// records the `grad_fn` name PyTorch 1.13 would print for it, so the printer can show
// `grad_fn=<MmBackward0>` where the article does.
// What it is not: an autograd engine (no gradients are computed), a view system (views copy;
// lesson tensors are tiny), or a general ND library (no strides, no devices).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cpu.h"

namespace attn::core {

enum class DType { float32, int64, boolean };

using Shape = std::vector<int64_t>;

// Thrown for any operation PyTorch would reject (shape mismatch, bad dim, ...). The message
// reads like PyTorch's so a learner can search for it.
struct TensorError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Tensor {
  Shape shape;                     // PyTorch order, e.g. {6, 3}; {} is a 0-d tensor
  DType dtype = DType::float32;
  std::vector<float> f;            // data when dtype == float32, row-major
  std::vector<int64_t> i;          // data when dtype is int64 or boolean (0/1), row-major
  bool requires_grad = false;      // true for Parameters and anything computed from them
  bool is_parameter = false;       // nn.Parameter: prints "Parameter containing:"
  std::string grad_fn;             // e.g. "MmBackward0"; empty for leaves and detached tensors

  int64_t dim() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  bool is_float() const { return dtype == DType::float32; }
  // Element k in row-major order as double (for printing and scalar extraction).
  double at(int64_t k) const { return is_float() ? static_cast<double>(f[k]) : static_cast<double>(i[k]); }
};

// ---- construction ----
Tensor empty(const Shape& shape, DType dtype = DType::float32);  // zero-filled (uses no RNG)
Tensor zeros(const Shape& shape);
Tensor ones(const Shape& shape);
Tensor full(const Shape& shape, float value);
Tensor scalar(float value);                                       // 0-d float tensor
Tensor from_floats(const Shape& shape, std::vector<float> data);  // data.size() == numel
Tensor from_ints(const Shape& shape, std::vector<int64_t> data, DType dtype = DType::int64);
Tensor arange(int64_t n);                                         // int64 [0, n)

// ---- shape helpers ----
int64_t numel_of(const Shape& shape);
int64_t normalize_dim(int64_t dim, int64_t ndim);                 // -1 -> ndim-1, range-checked
std::string shape_str(const Shape& shape);                        // "[6, 3]"

// ---- autograd bookkeeping: result of an op on these inputs gets this grad_fn name ----
Tensor with_grad(Tensor out, const std::vector<const Tensor*>& inputs, const char* grad_fn);
Tensor detach(const Tensor& t);

// ---- elementwise (broadcasting as in PyTorch) ----
enum class BinOp { add, sub, mul, div, pow };
Tensor binary(BinOp op, const Tensor& a, const Tensor& b);
Tensor binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left = false);
Tensor neg(const Tensor& a);
Tensor exp(const Tensor& a, CpuKernels cpu);                      // Sleef (avx2) or glibc expf (scalar)
Tensor to_bool(const Tensor& a);                                  // .bool()
Tensor to_float(const Tensor& a);                                 // .float()
enum class CmpOp { eq, ne, lt, le, gt, ge };
Tensor compare(CmpOp op, const Tensor& a, const Tensor& b);       // bool result

// ---- reductions and normalisation ----
Tensor sum(const Tensor& a);                                      // all elements -> 0-d
Tensor sum(const Tensor& a, int64_t dim, bool keepdim);
Tensor mean(const Tensor& a, int64_t dim, bool keepdim);
Tensor max(const Tensor& a);                                      // 0-d
Tensor softmax(const Tensor& a, int64_t dim, CpuKernels cpu);     // PyTorch's CPU kernels, bit-exact

// ---- linear algebra ----
Tensor matmul(const Tensor& a, const Tensor& b);                  // `@`, with batching
Tensor dot(const Tensor& a, const Tensor& b);                     // 1-D . 1-D -> 0-d

// ---- layout ----
Tensor transpose(const Tensor& a, int64_t d0, int64_t d1);
Tensor t(const Tensor& a);                                        // .t(): 2-D transpose (TBackward0)
Tensor T(const Tensor& a);                                        // .T: reversed dims (PermuteBackward0)
Tensor view(const Tensor& a, Shape shape);                        // one -1 allowed
Tensor contiguous(const Tensor& a);
Tensor unsqueeze(const Tensor& a, int64_t dim);
Tensor squeeze(const Tensor& a, int64_t dim);
Tensor cat(const std::vector<Tensor>& ts, int64_t dim);
Tensor stack(const std::vector<Tensor>& ts, int64_t dim);

// ---- masks ----
Tensor tril(const Tensor& a, int64_t diagonal = 0);
Tensor triu(const Tensor& a, int64_t diagonal = 0);
Tensor masked_fill(const Tensor& a, const Tensor& mask, float value);

// ---- indexing ----
// One index entry per leading dimension: an integer, or a slice start:stop:step
// (Python semantics, negative and out-of-range bounds clipped), or `None` (new axis).
struct Index {
  enum Kind { integer, slice, newaxis } kind = integer;
  int64_t value = 0;                 // for integer
  bool has_start = false, has_stop = false;
  int64_t start = 0, stop = 0, step = 1;  // for slice
};
Tensor index(const Tensor& a, const std::vector<Index>& idx);
Tensor index_select_rows(const Tensor& table, const Tensor& ids);  // embedding lookup: (V,D)[ids] -> (*ids.shape, D)

// ---- more ops for the concept lessons ----
Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);
Tensor var(const Tensor& a, bool unbiased = true);                 // all elements -> 0-d
Tensor var(const Tensor& a, int64_t dim, bool unbiased, bool keepdim);
Tensor repeat_interleave(const Tensor& a, int64_t repeats, int64_t dim);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor expand(const Tensor& a, const Shape& shape);               // -1 keeps a dim
Tensor argmax(const Tensor& a, int64_t dim, bool keepdim);
Tensor isnan(const Tensor& a);
Tensor isinf(const Tensor& a);
Tensor unary(const Tensor& a, const char* op);                     // "sqrt", "abs", "log"

// ---- scalar extraction ----
double item(const Tensor& a);                                      // numel must be 1

// ---- more ops for the concept lessons (layout, scaling) ----
Tensor permute(const Tensor& a, const Shape& dims);                // dims is a permutation; PermuteBackward0
Tensor amax(const Tensor& a, int64_t dim, bool keepdim);           // max along dim (NaN wins); AmaxBackward0
bool equal(const Tensor& a, const Tensor& b);                      // torch.equal: same shape, same values

}  // namespace attn::core
