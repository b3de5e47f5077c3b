// tests/torch/test_torch_imports.cpp: torch's submodules that PyTorch 1.13 has and attn has not
// (torch.optim.lr_scheduler, torch.distributions, ...) are refused in one line naming them, in
// every import form, where a name PyTorch lacks is Python's own ModuleNotFoundError.
//
// What it is not: the import forms attn supports, against what PyTorch printed
// (tests/python/imports.cases, tests/torch/test_python_torch.cpp).
#include <doctest/doctest.h>

#include <string>

#include "torch/session.h"

namespace {

std::string error_of(const std::string& code) {
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  try {
    in.run_cell(code);
  } catch (const attn::py::ScriptError& e) {
    return std::to_string(e.line) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a torch submodule attn has not: one line naming it, in every import form") {
  const std::string lr = "2: ModuleNotFoundError: attn does not support the module 'torch.optim.lr_scheduler' (README: torch and torch.nn)";
  CHECK(error_of("import torch\nfrom torch.optim import lr_scheduler") == lr);
  CHECK(error_of("import torch\nimport torch.optim.lr_scheduler as s") == lr);
  CHECK(error_of("import torch\nfrom torch.optim.lr_scheduler import StepLR") == lr);
  CHECK(error_of("from torch.distributions import Categorical") ==
        "1: ModuleNotFoundError: attn does not support the module 'torch.distributions' (README: torch and torch.nn)");
  CHECK(error_of("import torch.nn.utils") ==
        "1: ModuleNotFoundError: attn does not support the module 'torch.nn.utils' (README: torch and torch.nn)");
  CHECK(error_of("from torch.utils.data import distributed") ==
        "1: ModuleNotFoundError: attn does not support the module 'torch.utils.data.distributed' (README: torch and torch.nn)");
  CHECK(error_of("from torch.utils.data import sampler\nimport torch.utils.data.dataloader as d\nprint(d.DataLoader)") == "");
  CHECK(error_of("import torch.no_such_module") == "1: ModuleNotFoundError: No module named 'torch.no_such_module'");
  CHECK(error_of("import torch.cuda\nimport torch.backends\nprint(torch.cuda.is_available())") == "");
}
