// tests/cli/test_coverage_cli.cpp: docs/coverage.md is exactly what `attn coverage` prints now, so
// the coverage page cannot go stale: a row added to the op table, an nn module or a builtin
// fails this test until the page is regenerated (`./build/attn coverage > docs/coverage.md`).
// Also that the page knows what it should (a torch function, a refused module, a builtin attn
// lacks) and the command's exit code.
//
// What it is not: a test of the functions listed (tests/torch/, tests/python/).
#include <doctest/doctest.h>

#include <string>

#include "support/run_attn.h"

TEST_CASE("docs/coverage.md is what attn coverage prints") {
  CliResult r = attn_process("coverage");
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const std::string page = slurp(std::string(ATTN_TEST_DATA) + "/../docs/coverage.md");
  CHECK_MESSAGE(r.out == page, "docs/coverage.md is stale: ./build/attn coverage > docs/coverage.md");
  CHECK(r.out.find("`torch.softmax`") != std::string::npos);
  CHECK(r.out.find("`F.scaled_dot_product_attention`") != std::string::npos);
  CHECK(r.out.find("`nn.MultiheadAttention`") != std::string::npos);
  CHECK(r.out.find("`torch.optim.lr_scheduler`") != std::string::npos);   // refused
  CHECK(r.out.find("Not supported: `aiter`") != std::string::npos);
}
