// core/ops/bitwise.cpp: ~, &, |, ^, <<, >> on bool and integer tensors (ops/bitwise.h).
//
// What it is: a broadcast loop over int64 values (bool widened to 0/1), the result wrapped into
// the operands' promoted dtype (core::result_type). What it is not: float arithmetic: none is done.
#include "core/ops/bitwise.h"

#include "core/ops/views.h"

namespace attn::core {

namespace {

void require_integral(const Tensor& a, const char* op) {
  if (a.is_float()) throw TensorError(std::string("\"") + op + "_cpu\" not implemented for 'Float'");
}

}  // namespace

Tensor bitwise(BitOp op, const Tensor& a, const Tensor& b) {
  const char* name = op == BitOp::and_ ? "bitwise_and" : op == BitOp::or_ ? "bitwise_or" : "bitwise_xor";
  const Shape shape = broadcast_shapes(a.shape(), b.shape());   // TensorIterator checks shapes before the kernel dtypes
  require_integral(a, name);
  require_integral(b, name);
  const std::vector<int64_t> x = expand(a, shape).ints(), y = expand(b, shape).ints();
  std::vector<int64_t> out(x.size());
  for (size_t k = 0; k < x.size(); ++k)
    out[k] = op == BitOp::and_ ? (x[k] & y[k]) : op == BitOp::or_ ? (x[k] | y[k]) : (x[k] ^ y[k]);
  return from_ints(shape, out, result_type(a, b));   // wrapped into the promoted dtype
}

Tensor shift(bool left, const Tensor& a, const Tensor& b) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  const DType common = result_type(a, b);
  const char* name = left ? "\"lshift_cpu\"" : "\"rshift_cpu\"";
  if (common == DType::float32 || common == DType::boolean)
    throw TensorError(std::string(name) + " not implemented for '" + dtype_title(common) + "'");
  // Both operands in the common dtype first (uint8 >> -1 shifts by 255), then C's integer
  // promotion: below int64 the shift happens in a 32-bit int, whose count x86 masks to 5 bits.
  const std::vector<int64_t> x = expand(to_dtype(a, common), shape).ints(), y = expand(to_dtype(b, common), shape).ints();
  const uint64_t mask = common == DType::int64 ? 63 : 31;
  std::vector<int64_t> out(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    const unsigned count = static_cast<unsigned>(static_cast<uint64_t>(y[k]) & mask);
    out[k] = left ? static_cast<int64_t>(static_cast<uint64_t>(x[k]) << count) : x[k] >> count;
  }
  return from_ints(shape, out, common);   // wrapped into the common dtype
}

Tensor bitwise_not(const Tensor& a) {
  require_integral(a, "bitwise_not");
  std::vector<int64_t> v = a.ints();
  const bool is_bool = a.dtype() == DType::boolean;
  for (int64_t& x : v) x = is_bool ? !x : ~x;   // from_ints wraps ~x into a's dtype (~0 in uint8 is 255)
  return from_ints(a.shape(), v, a.dtype());
}

}  // namespace attn::core
