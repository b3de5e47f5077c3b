// tests/torch/test_torch_imports.cpp: torch's submodules that PyTorch 1.13 has and attn has not
// (torch.optim.swa_utils, torch.fft, ...) are refused in one line naming them, in
// every import form, where a name PyTorch lacks is Python's own ModuleNotFoundError; and
// torch.optim.lr_scheduler, which attn has, in every import form.
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

// What every refusal of a torch submodule adds after its name.
#define TORCH_HAS                                                                                                  \
  "(attn's torch has torch.nn, torch.nn.functional, torch.nn.init, torch.nn.utils, torch.autograd, "              \
  "torch.optim, torch.optim.lr_scheduler, torch.utils.data, torch.distributions; docs/coverage.md lists what they have)"

TEST_CASE("torch.load of a name this run did not save: FileNotFoundError saying why") {
  const std::string e = error_of("import torch\ntorch.load('weights.pt')");   // its line is serialization.py's
  CHECK(e.substr(e.find(": ") + 2) ==
        "FileNotFoundError: [Errno 2] No such file or directory: 'weights.pt' (attn's torch.load reads only what "
        "torch.save kept in this run: lesson code has no file access)");
}

TEST_CASE("a torch submodule attn has not: one line naming it, in every import form") {
  const std::string swa = "2: ModuleNotFoundError: No module named 'torch.optim.swa_utils' " TORCH_HAS;
  CHECK(error_of("import torch\nfrom torch.optim import swa_utils") == swa);
  CHECK(error_of("import torch\nimport torch.optim.swa_utils as s") == swa);
  CHECK(error_of("import torch\nfrom torch.optim.swa_utils import SWALR") == swa);
  CHECK(error_of("from torch.fft import rfft") == "1: ModuleNotFoundError: No module named 'torch.fft' " TORCH_HAS);
  CHECK(error_of("from torch.distributions import Categorical\nimport torch.distributions as dist\nprint(dist.Normal)") == "");
  CHECK(error_of("from torch.distributions.categorical import Categorical") == "");
  CHECK(error_of("from torch.nn.utils.prune import l1_unstructured") ==
        "1: ModuleNotFoundError: No module named 'torch.nn.utils.prune' " TORCH_HAS);
  CHECK(error_of("from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence\nimport torch.nn.utils.rnn as rnn_utils") == "");
  CHECK(error_of("from torch.nn.utils.rnn import pad_packed_sequence, unpack_sequence, PackedSequence") == "");
  CHECK(error_of("import torch.nn.utils\nfrom torch.nn.utils.clip_grad import clip_grad_norm_") == "");
  CHECK(error_of("from torch.utils.data import distributed") ==
        "1: ModuleNotFoundError: No module named 'torch.utils.data.distributed' " TORCH_HAS);
  CHECK(error_of("from torch.utils.data import sampler\nimport torch.utils.data.dataloader as d\nprint(d.DataLoader)") == "");
  CHECK(error_of("import torch.no_such_module") == "1: ModuleNotFoundError: No module named 'torch.no_such_module'");
  CHECK(error_of("import torch.cuda\nimport torch.backends\nprint(torch.cuda.is_available())") == "");
}

TEST_CASE("torch.autograd in every import form; its parts attn has not refused in one line") {
  CHECK(error_of("from torch.autograd import Variable\nimport torch\nassert isinstance(torch.ones(1), Variable)") == "");
  CHECK(error_of("import torch\nassert torch.autograd.Variable is torch.autograd.variable.Variable") == "");
  CHECK(error_of("import torch.autograd as ag\nfrom torch.autograd.function import Function\nassert ag.Function is Function") == "");
  CHECK(error_of("import torch\nassert torch.autograd.function.Function is torch.autograd.Function") == "");
  CHECK(error_of("from torch.autograd.grad_mode import no_grad\nimport torch\nassert no_grad is torch.no_grad") == "");
  CHECK(error_of("from torch.autograd import functional") ==
        "1: ModuleNotFoundError: No module named 'torch.autograd.functional' " TORCH_HAS);
  const std::string functional = error_of("import torch\ntorch.autograd.functional.jacobian");   // raised in autograd.py
  CHECK(functional.substr(functional.find(": ") + 2) ==
        "NotImplementedError: torch.autograd.functional is not implemented: attn's torch.autograd has backward, "
        "grad, Function, Variable and grad mode");
  const std::string gradcheck = error_of("from torch.autograd import gradcheck\ngradcheck(None, ())");
  CHECK(gradcheck.substr(gradcheck.find(": ") + 2) ==
        "NotImplementedError: torch.autograd.gradcheck is not implemented: it needs float64 tensors and attn's "
        "are float32");
}

TEST_CASE("torch.optim.lr_scheduler in every import form, and as an attribute after import torch") {
  const std::string use = "\nopt = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=0.1)\n";
  CHECK(error_of("import torch\nimport torch.optim as optim" + use + "s = optim.lr_scheduler.StepLR(opt, 2)") == "");
  CHECK(error_of("import torch\nfrom torch.optim import lr_scheduler" + use + "s = lr_scheduler.StepLR(opt, 2)") == "");
  CHECK(error_of("import torch\nfrom torch.optim.lr_scheduler import StepLR" + use + "s = StepLR(opt, 2)") == "");
  CHECK(error_of("import torch" + use + "s = torch.optim.lr_scheduler.StepLR(opt, 2)") == "");
  CHECK(error_of("import torch\nimport torch.optim.lr_scheduler as sched" + use + "s = sched.StepLR(opt, 2)") == "");
  CHECK(error_of("import torch\nimport torch.optim.lr_scheduler" + use + "s = torch.optim.lr_scheduler.StepLR(opt, 2)") == "");
  CHECK(error_of("import torch\nfrom torch.optim.adam import Adam\nfrom torch.optim import Adam as A\nassert A is Adam") == "");
  const std::string missing = error_of("import torch\nx = torch.optim.no_such_thing");   // raised by optim.py's __getattr__
  CHECK(missing.find("AttributeError: module 'torch.optim' has no attribute 'no_such_thing'") != std::string::npos);
}
