// tests/cli/test_warnings_cli.cpp: what attn writes on stderr for a lesson's warnings, through the
// real binary, against what CPython 3.11 wrote for the same cells.
//
// What it is: `attn run py-warnings.lesson` from tests/python/ must write exactly
// tests/python/py-warnings.stderr (tools/make_python_expected.py ran the cells as the lesson
// file's lines): `FILE:LINE: Category: message`, the source line, once per line under the default
// filters, stacklevel naming the caller, and PyTorch's own warning naming the user's line.
// What it is not: the warnings module's filters and records (tests/python/stdlib_warnings.cases).
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/files.h"
#include "support/run_attn.h"

TEST_CASE("attn run: a lesson's warnings on stderr are CPython's, file:line and source line") {
  const std::string folder = std::string(ATTN_TEST_DATA) + "/python";
  CliResult r = attn_process("run py-warnings.lesson --quiet", folder);
  CHECK(r.code == 0);
  CHECK(r.err == slurp(folder + "/py-warnings.stderr"));
}

// torch.nn.functional's Python part (python/nn/functional_extra.py) imports warnings on the line
// that warns, not when torch.nn is made (issue 21: its parse was ~1 ms of every torch.nn lesson):
// the warnings are the same, with the same file:line.
TEST_CASE("attn run: F.l1_loss's warnings, with warnings imported only when one is issued") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("attn-warn-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "w.lesson") << "# Warnings\nname: w\ngroup: concepts\norder: 1\nsource: a test\n\n## a: A\n\n```python\n"
                                     "import torch\nimport torch.nn.functional as F\np = torch.ones(3)\n"
                                     "print(F.l1_loss(p, torch.zeros(3), size_average=False))\n"
                                     "print(F.l1_loss(p, torch.zeros(2, 3)))\n```\n";
  CliResult r = attn_process("run w.lesson --quiet", dir.string());
  CHECK(r.code == 0);
  CHECK(r.out == "tensor(3.)\ntensor(1.)\n");
  CHECK(r.err == "<torch/nn/functional.py>:31: UserWarning: size_average and reduce args will be deprecated, please use "
                 "reduction='sum' instead.\n"
                 "w.lesson:14: UserWarning: Using a target size (torch.Size([2, 3])) that is different to the input size "
                 "(torch.Size([3])). This will likely lead to incorrect results due to broadcasting. Please ensure they have "
                 "the same size.\n  print(F.l1_loss(p, torch.zeros(2, 3)))\n");
  fs::remove_all(dir);
}
