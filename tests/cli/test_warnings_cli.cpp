// tests/cli/test_warnings_cli.cpp: what attn writes on stderr for a lesson's warnings, through the
// real binary, against what CPython 3.11 wrote for the same cells.
//
// What it is: `attn run py-warnings.lesson` from tests/python/ must write exactly
// tests/python/py-warnings.stderr (tools/make_python_expected.py ran the cells as the lesson
// file's lines): `FILE:LINE: Category: message`, the source line, once per line under the default
// filters, stacklevel naming the caller, and PyTorch's own warning naming the user's line.
// What it is not: the warnings module's filters and records (tests/python/stdlib_warnings.cases).
#include <doctest/doctest.h>

#include <string>

#include "support/files.h"
#include "support/run_attn.h"

TEST_CASE("attn run: a lesson's warnings on stderr are CPython's, file:line and source line") {
  const std::string folder = std::string(ATTN_TEST_DATA) + "/python";
  CliResult r = attn_process("run py-warnings.lesson --quiet", folder);
  CHECK(r.code == 0);
  CHECK(r.err == slurp(folder + "/py-warnings.stderr"));
}
