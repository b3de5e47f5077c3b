// tests/test_torch_scripts.cpp: whole Python programs of tests/torch/ run by attn's interpreter,
// their printed output compared exactly with what Debian's PyTorch 1.13.1 printed for the same
// file (tests/torch/NAME.expected, written by tools/make_torch_expected.py under the reference
// BLAS): the torch functions and nn modules of issue 11 with their reprs, and the tutorials'
// programs (a GPT-style block, multi-head attention written several ways).
// What it is not: a PyTorch run; and the expected text is never edited by hand.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "py/interpreter.h"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Debian's torch runs the AVX2 kernels and draws dropout masks the portable (non-MKL) way.
std::string run_in_attn(const std::string& name) {
  attn::py::Interpreter in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::portable);
  in.run_cell(slurp(std::string(ATTN_TEST_DATA) + "/torch/" + name + ".py"));
  return in.take_output();
}

void check_script(const std::string& name) {
  const std::string want = slurp(std::string(ATTN_TEST_DATA) + "/torch/" + name + ".expected");
  std::string got;
  try {
    got = run_in_attn(name);
  } catch (const std::exception& e) {
    FAIL(name << ".py raised: " << std::string(e.what()));
  } catch (...) {
    FAIL(name << ".py raised a non-standard exception");
  }
  if (got == want) return;
  std::istringstream g(got), w(want);
  std::string gl, wl;
  int line = 1;
  while (std::getline(w, wl)) {   // name the first line that differs
    if (!std::getline(g, gl)) gl = "<end of output>";
    if (gl != wl) break;
    ++line;
  }
  FAIL_CHECK(name << ".py: output line " << line << " differs\n  PyTorch: " << wl << "\n  attn:    " << gl);
}

}  // namespace

TEST_CASE("torch functions: tanh, pow, pi, linspace, arange, unbind, to(device), set_printoptions") { check_script("ops"); }
TEST_CASE("torch.nn: ReLU, GELU, LayerNorm, Sequential, ModuleList, parameters, init, reprs") { check_script("nn"); }
TEST_CASE("tutorial: a GPT-style block (LayerNorm, GELU, feed-forward, shortcuts, multi-head attention)") { check_script("gpt_block"); }
TEST_CASE("tutorial: multi-head attention written five ways (class, combined QKV, einsum, SDPA, nn.MultiheadAttention)") {
  check_script("mha_variants");
}
