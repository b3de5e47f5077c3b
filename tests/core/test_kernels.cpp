// tests/core/test_kernels.cpp: core/kernels against bit patterns recorded from real PyTorch 1.13.1.
//
// What it is: a replay of tests/vectors/kernels_*.txt (written by tools/make_kernel_vectors.py,
// see its docstring for the format), for both kernel families of core/cpu.h: kernels_<group>.txt
// from torch's AVX2 kernels, replayed with CpuKernels::avx2, and
// kernels_scalar_<group>.txt from torch under ATEN_CPU_CAPABILITY=default, replayed with
// CpuKernels::scalar. Every output float must have the very bit pattern torch produced (NaN
// payloads excepted, see same_float); one differing bit fails the case and names it.
// What it is not: a PyTorch run. Regenerating the vectors is a deliberate, reviewable step:
//     /usr/bin/python3 tools/make_kernel_vectors.py
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/cpu.h"
#include "core/kernels/linalg.h"
#include "core/kernels/reduce.h"
#include "core/kernels/softmax.h"
#include "core/kernels/unary.h"

namespace kernels = attn::core::kernels;
using attn::core::CpuKernels;

namespace {

// ---- reading the vector files ----

struct Case {
  std::string op;                                   // e.g. "matmul"
  std::string line;                                 // the "case ..." line, for messages
  std::map<std::string, int64_t> dims;              // e.g. m=6 k=3 n=2
  std::map<std::string, std::vector<uint32_t>> arrays;  // name -> float bit patterns

  int64_t dim(const std::string& key) const { return dims.at(key); }

  std::vector<float> floats(const std::string& name) const {
    const auto& bits = arrays.at(name);
    std::vector<float> out(bits.size());
    std::memcpy(out.data(), bits.data(), bits.size() * sizeof(float));
    return out;
  }
};

std::vector<Case> read_cases(const std::string& file) {
  const std::string path = std::string(ATTN_TEST_DATA) + "/vectors/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string head;
    words >> head;
    if (head == "case") {
      Case c;
      c.line = line;
      words >> c.op;
      std::string kv;
      while (words >> kv) {
        const auto eq = kv.find('=');
        c.dims[kv.substr(0, eq)] = std::stoll(kv.substr(eq + 1));
      }
      cases.push_back(std::move(c));
      continue;
    }
    REQUIRE_MESSAGE(!cases.empty(), "array line before any case in " << path);
    size_t count = 0;
    words >> count;
    std::vector<uint32_t> bits(count);
    for (auto& b : bits) {
      std::string hex;
      words >> hex;
      b = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
    }
    REQUIRE_MESSAGE(!words.fail(), "short array line in " << path << ": " << head);
    cases.back().arrays[head] = std::move(bits);
  }
  return cases;
}

// All cases of one op in a file; fails if there are none, so a renamed op cannot pass silently.
std::vector<Case> cases_of(const std::string& file, const std::string& op) {
  std::vector<Case> out;
  for (auto& c : read_cases(file))
    if (c.op == op) out.push_back(c);
  REQUIRE_MESSAGE(!out.empty(), "no '" << op << "' cases in " << file);
  return out;
}

uint32_t bits_of(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

std::string hex8(uint32_t u) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(u));
  return buf;
}

bool is_nan_bits(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0; }

// Equal bit patterns, except that any NaN matches any NaN. Why NaNs are exempt: when both
// inputs of an x86 add/mul are NaN, the result carries the payload (and sign) of one of them,
// chosen by operand order, and compilers swap the operands of commutative ops freely. So which
// NaN pattern comes out of a softmax whose row holds a NaN is decided by how GCC compiled
// libtorch, not by the algorithm (torch gives ffffffff where a faithful port gives 7fc00000), and
// PyTorch prints every NaN as "nan". Rows of -inf, which make NaN from no NaN, do match bitwise.
bool same_float(uint32_t got, uint32_t want) {
  return got == want || (is_nan_bits(got) && is_nan_bits(want));
}

// Number of output floats that differ from torch's (same_float); 0 when all match.
size_t count_mismatches(const Case& c, const std::vector<float>& got) {
  const auto& want = c.arrays.at("out");
  if (got.size() != want.size()) return want.size() + 1;
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += !same_float(bits_of(got[i]), want[i]);
  return bad;
}

// Bitwise comparison of a whole output; reports the first differing element.
void check_bits(const Case& c, const std::vector<float>& got) {
  const auto& want = c.arrays.at("out");
  REQUIRE_MESSAGE(got.size() == want.size(), c.line);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!same_float(bits_of(got[i]), want[i])) {
      if (bad++ == 0) first = i;
    }
  }
  INFO(c.line);
  INFO("first mismatch at " << first << ": got " << hex8(bits_of(got[first])) << ", torch "
                            << hex8(want[first]) << "; " << bad << " of " << got.size()
                            << " differ");
  CHECK(bad == 0);
}

// ---- the kernels run on one case (outputs, not yet compared) ----

std::vector<float> run_exp(const Case& c, CpuKernels cpu) {
  const auto in = c.floats("in");
  std::vector<float> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = kernels::vec_exp(in[i], cpu);
  return out;
}

std::vector<float> run_softmax_lastdim(const Case& c, CpuKernels cpu) {
  const auto in = c.floats("in");
  std::vector<float> out(in.size());
  kernels::softmax_lastdim(in.data(), out.data(), c.dim("rows"), c.dim("n"), cpu);
  return out;
}

std::vector<float> run_softmax_inner(const Case& c, CpuKernels cpu) {
  const auto in = c.floats("in");
  std::vector<float> out(in.size());
  kernels::softmax_inner(in.data(), out.data(), c.dim("outer"), c.dim("dim"), c.dim("inner"), cpu);
  return out;
}

std::vector<float> run_matmul(const Case& c) {
  const auto a = c.floats("a"), b = c.floats("b");
  std::vector<float> out(c.dim("m") * c.dim("n"));
  kernels::matmul(a.data(), b.data(), out.data(), c.dim("m"), c.dim("k"), c.dim("n"));
  return out;
}

std::vector<float> run_bmm(const Case& c) {
  const auto a = c.floats("a"), b = c.floats("b");
  const int64_t batch = c.dim("batch"), m = c.dim("m"), k = c.dim("k"), n = c.dim("n");
  std::vector<float> out(batch * m * n);
  for (int64_t i = 0; i < batch; ++i)
    kernels::matmul(a.data() + i * m * k, b.data() + i * k * n, out.data() + i * m * n, m, k, n);
  return out;
}

std::vector<float> run_matvec(const Case& c) {
  const auto a = c.floats("a"), x = c.floats("x");
  std::vector<float> out(c.dim("m"));
  kernels::matvec(a.data(), x.data(), out.data(), c.dim("m"), c.dim("k"));
  return out;
}

std::vector<float> run_vecmat(const Case& c) {
  const auto x = c.floats("x"), b = c.floats("b");
  std::vector<float> out(c.dim("n"));
  kernels::vecmat(x.data(), b.data(), out.data(), c.dim("k"), c.dim("n"));
  return out;
}

std::vector<float> run_dot(const Case& c) {
  const auto a = c.floats("a"), b = c.floats("b");
  return {kernels::dot(a.data(), b.data(), c.dim("n"))};
}

// nn.Linear is addmm(bias, x, W.t()). With reference BLAS that is sgemm('T','N', beta=1):
// C = 1*sum + 1*bias, the bias added once after the whole sum. So Linear = matmul(x, W^T), then
// an ordinary float add of the bias; the linear cases pin that down for tensor.cpp.
std::vector<float> run_linear(const Case& c) {
  const auto x = c.floats("x"), w = c.floats("w"), bias = c.floats("bias");
  const int64_t m = c.dim("m"), k = c.dim("k"), n = c.dim("n");
  std::vector<float> wt(k * n);  // W is (n,k); W^T is (k,n)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j) wt[j * n + i] = w[i * k + j];
  std::vector<float> out(m * n);
  kernels::matmul(x.data(), wt.data(), out.data(), m, k, n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) out[i * n + j] = out[i * n + j] + bias[j];
  return out;
}

std::vector<float> run_sum_dim(const Case& c) {
  const auto in = c.floats("in");
  std::vector<float> out(c.dim("outer") * c.dim("inner"));
  kernels::sum_dim(in.data(), out.data(), c.dim("outer"), c.dim("dim"), c.dim("inner"));
  return out;
}

std::vector<float> run_sum_all(const Case& c) {
  const auto in = c.floats("in");
  return {kernels::sum_all(in.data(), c.dim("n"))};
}

using Run = std::vector<float> (*)(const Case&);                    // rounds alike in both families
using FamilyRun = std::vector<float> (*)(const Case&, CpuKernels);  // exp, softmax: takes the family

// Every `op` case of tests/vectors/<file>, run with kernel family `k`, equals torch bit for bit.
void replay(CpuKernels k, const std::string& file, const std::string& op, FamilyRun run) {
  for (const auto& c : cases_of(file, op)) check_bits(c, run(c, k));
}

// The same for a kernel that takes no family: `k` names the family whose torch wrote <file>.
void replay(CpuKernels /*k*/, const std::string& file, const std::string& op, Run run) {
  for (const auto& c : cases_of(file, op)) check_bits(c, run(c));
}

// How many `op` cases of <file> the *other* family gets wrong somewhere (a vector file that
// cannot tell the families apart would give 0).
size_t cases_failing_with(CpuKernels k, const std::string& file, const std::string& op, FamilyRun run) {
  size_t failing = 0;
  for (const auto& c : cases_of(file, op)) failing += count_mismatches(c, run(c, k)) != 0;
  return failing;
}

}  // namespace

// ---- AVX2 family (kernels_*.txt; torch's default on this machine) ----

TEST_CASE("kernels::vec_exp equals torch.exp (Sleef expf8_u10, FMA) bit for bit") {
  replay(CpuKernels::avx2, "kernels_exp.txt", "exp", run_exp);
}

TEST_CASE("kernels::softmax_lastdim equals torch.softmax(x, -1)") {
  replay(CpuKernels::avx2, "kernels_softmax.txt", "softmax_lastdim", run_softmax_lastdim);
}

TEST_CASE("kernels::softmax_inner equals torch.softmax over a dim that is not the last") {
  replay(CpuKernels::avx2, "kernels_softmax.txt", "softmax_inner", run_softmax_inner);
}

TEST_CASE("kernels::matmul equals torch mm (and N-D @ 2-D, which folds into mm)") {
  replay(CpuKernels::avx2, "kernels_matmul.txt", "matmul", run_matmul);
}

TEST_CASE("kernels::matmul per batch equals torch bmm / batched matmul") {
  replay(CpuKernels::avx2, "kernels_matmul.txt", "bmm", run_bmm);
}

TEST_CASE("kernels::matvec equals torch (m,k) @ (k)") {
  replay(CpuKernels::avx2, "kernels_matmul.txt", "matvec", run_matvec);
}

TEST_CASE("kernels::vecmat equals torch (k) @ (k,n)") {
  replay(CpuKernels::avx2, "kernels_matmul.txt", "vecmat", run_vecmat);
}

TEST_CASE("kernels::dot equals torch.dot") {
  replay(CpuKernels::avx2, "kernels_matmul.txt", "dot", run_dot);
}

TEST_CASE("nn.Linear equals kernels::matmul(x, W^T) followed by + bias") {
  replay(CpuKernels::avx2, "kernels_matmul.txt", "linear", run_linear);
}

TEST_CASE("kernels::sum_dim equals torch x.sum(dim)") {
  replay(CpuKernels::avx2, "kernels_sum.txt", "sum_dim", run_sum_dim);
}

TEST_CASE("kernels::sum_all equals torch x.sum()") {
  replay(CpuKernels::avx2, "kernels_sum.txt", "sum_all", run_sum_all);
}

// ---- scalar family (kernels_scalar_*.txt; torch with ATEN_CPU_CAPABILITY=default) ----

TEST_CASE("scalar kernels: vec_exp equals DEFAULT torch.exp (glibc expf)") {
  replay(CpuKernels::scalar, "kernels_scalar_exp.txt", "exp", run_exp);
}

TEST_CASE("scalar kernels: softmax_lastdim equals DEFAULT torch.softmax(x, -1)") {
  replay(CpuKernels::scalar, "kernels_scalar_softmax.txt", "softmax_lastdim",
         run_softmax_lastdim);
}

TEST_CASE("scalar kernels: softmax_inner equals DEFAULT torch.softmax over another dim") {
  replay(CpuKernels::scalar, "kernels_scalar_softmax.txt", "softmax_inner", run_softmax_inner);
}

TEST_CASE("scalar kernels: mm, bmm, mv, 1-D @ 2-D, dot, nn.Linear equal DEFAULT torch") {
  const std::string file = "kernels_scalar_matmul.txt";
  replay(CpuKernels::scalar, file, "matmul", run_matmul);
  replay(CpuKernels::scalar, file, "bmm", run_bmm);
  replay(CpuKernels::scalar, file, "matvec", run_matvec);
  replay(CpuKernels::scalar, file, "vecmat", run_vecmat);
  replay(CpuKernels::scalar, file, "dot", run_dot);
  replay(CpuKernels::scalar, file, "linear", run_linear);
}

TEST_CASE("scalar kernels: sum_dim and sum_all equal DEFAULT torch x.sum(dim), x.sum()") {
  replay(CpuKernels::scalar, "kernels_scalar_sum.txt", "sum_dim", run_sum_dim);
  replay(CpuKernels::scalar, "kernels_scalar_sum.txt", "sum_all", run_sum_all);
}

// The families really differ where the scalar vectors say they do: replayed with the AVX2
// kernels, the DEFAULT exp and softmax outputs must fail (else the scalar tests above could pass
// with the scalar family switched off). Sums and products round alike in both, so not checked.
TEST_CASE("scalar vectors tell the families apart (exp, softmax)") {
  CHECK(cases_failing_with(CpuKernels::avx2, "kernels_scalar_exp.txt", "exp", run_exp) > 0);
  CHECK(cases_failing_with(CpuKernels::avx2, "kernels_scalar_softmax.txt", "softmax_lastdim",
                           run_softmax_lastdim) > 0);
  CHECK(cases_failing_with(CpuKernels::avx2, "kernels_scalar_softmax.txt", "softmax_inner",
                           run_softmax_inner) > 0);
}
