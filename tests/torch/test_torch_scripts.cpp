// tests/torch/test_torch_scripts.cpp: whole Python programs of tests/torch/ run by attn's interpreter,
// their printed output compared exactly with what Debian's PyTorch 1.13.1 printed for the same
// file (tests/torch/NAME.expected, written by tools/make_torch_expected.py under the reference
// BLAS): the torch functions and nn modules of issue 11 with their reprs, and the tutorials'
// programs (a GPT-style block, multi-head attention written several ways).
// What it is not: a PyTorch run; and the expected text is never edited by hand.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "torch/session.h"
#include "torch/values.h"
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
std::string run_in_attn(const std::string& name, attn::core::CpuKernels cpu = attn::core::CpuKernels::avx2) {
  attn::torch::Session in(cpu, attn::core::DropoutRng::portable);
  in.run_cell(slurp(std::string(ATTN_TEST_DATA) + "/torch/" + name + ".py"));
  return in.take_output();
}

// NAME.expected is torch's AVX2 kernels; NAME.scalar.expected (cpu scalar) its DEFAULT ones.
void check_script(const std::string& name, attn::core::CpuKernels cpu = attn::core::CpuKernels::avx2) {
  const bool scalar = cpu == attn::core::CpuKernels::scalar;
  const std::string want = slurp(std::string(ATTN_TEST_DATA) + "/torch/" + name + (scalar ? ".scalar" : "") + ".expected");
  std::string got;
  try {
    got = run_in_attn(name, cpu);
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
TEST_CASE("torch.nn: parameters(), children(), modules() and their named_ forms are generators") { check_script("nn_generators"); }
TEST_CASE("tutorial: a GPT-style block (LayerNorm, GELU, feed-forward, shortcuts, multi-head attention)") { check_script("gpt_block"); }
TEST_CASE("tutorial: gradients through the GPT block (print_gradients with and without shortcuts, loss.backward())") {
  check_script("gpt_gradients");
}
TEST_CASE("autograd in training loops: in-place updates (-=, sub_), zero_, retain_grad, grad_fn, errors") {
  check_script("autograd_api");
}
TEST_CASE("torch.autograd: grad, backward, Variable, errors, custom Functions trained as in PyTorch's tutorials") {
  check_script("autograd_module");
}
TEST_CASE("autograd errors: a saved tensor modified in place (version counter), in-place ops on a leaf") {
  check_script("autograd_errors");
}
TEST_CASE("tutorial: gradients through multi-head attention written five ways (einsum, SDPA, nn.MultiheadAttention, ...)") {
  check_script("mha_gradients");
}
TEST_CASE("torch.optim.SGD: step() and zero_grad() as 1.13's for-loop implementation (momentum, nesterov, weight decay)") {
  check_script("optim_sgd");
  check_script("optim_sgd", attn::core::CpuKernels::scalar);
}
TEST_CASE("autograd: x[idx] = y records CopySlices; gradients to the old x and to y as PyTorch's") {
  check_script("autograd_copyslices");
}
TEST_CASE("autograd: every view op x every in-place op as 1.13 (CopySlices, AsStridedBackward0, its errors)") {
  check_script("views");   // tests/torch/views.py, written by tools/make_views_test.py
}
TEST_CASE("autograd: `a @ b`'s grad_fn and next_functions tree for every 1-D..4-D pairing, as 1.13's _matmul_impl records it") {
  check_script("matmul_graph");
}
TEST_CASE("advanced indexing: bool scalars, masks, index tensors, ints, slices, None, ... in any dims; x[key] = v; index_put_") {
  check_script("advanced_indexing");
}
TEST_CASE("einsum of one or two operands as 1.13 computes it: letters summed inside one operand first, then bmm; bits, grads, grad_fn") {
  check_script("einsum_sums");
}
TEST_CASE("einsum of three and four operands, generated: diagonals, size-1 letters, 0-d operands; left to right as 1.13 (review 29 #11)") {
  check_script("einsum_operands");
}
TEST_CASE("autograd: every differentiable op with its result or an input written in place before backward (saved tensors)") {
  check_script("saved");   // tests/torch/saved.py, written by tools/make_saved_test.py
}
TEST_CASE("torch.optim.AdamW: step() as 1.13's for-loop implementation (weight decay, betas, eps, amsgrad)") {
  check_script("optim_adamw");
  check_script("optim_adamw", attn::core::CpuKernels::scalar);
}
TEST_CASE("torch.optim.Adam: step() as 1.13's for-loop implementation (L2 weight decay, amsgrad, maximize, groups)") {
  check_script("optim_adam");
  check_script("optim_adam", attn::core::CpuKernels::scalar);
}
TEST_CASE("Optimizer.state_dict() and load_state_dict(): ids, printed dicts, a round trip that continues exactly") {
  check_script("optim_state_dict");
}
TEST_CASE("a user's subclass of torch.optim.Optimizer: @torch.no_grad() step, self.state[p], lr changed by hand") {
  check_script("optim_custom");
  check_script("optim_custom", attn::core::CpuKernels::scalar);
}
TEST_CASE("torch.save / torch.load: kept in the session's memory, printed results as PyTorch's files give") {
  check_script("serialization");
}
TEST_CASE("torch.nn.utils.rnn: pad_sequence (CopySlices gradients), pack_padded_sequence, pack_sequence, errors") {
  check_script("nn_utils_rnn");
}
TEST_CASE("nn.RNN, nn.LSTM, nn.GRU and their Cells: reprs, parameter names and order, state_dict, shapes, errors") {
  check_script("nn_rnn");
}
TEST_CASE("tutorial: seq2seq translation (EncoderRNN with nn.GRU, Bahdanau attention decoder), Adam steps, greedy decoding") {
  check_script("rnn_translation");
}
TEST_CASE("torch.optim.lr_scheduler: every scheduler's learning rates, state_dict, verbose, warnings, errors") {
  check_script("lr_scheduler");
}
TEST_CASE("findings of tools/torchfuzz.py: values, dtypes, grad_fn names and error messages where attn differed") {
  check_script("fuzz");
}
TEST_CASE("Tensor._version of fresh results, which the saved-tensor refusal's message quotes") {
  check_script("versions");   // tests/torch/versions.py
}

TEST_CASE("memory layout as TensorIterator keeps it (strides of elementwise results, sort, .grad) and reductions in its order") {
  check_script("layout");   // tests/torch/layout.py: findings 01, 02, 08, 11 and 12's cumsum of -0.0
}
TEST_CASE("tutorials' ops: clamp, norm, scatter, index_fill, nonzero, unique, repeat, F.pad, cpu/cuda, int(t), cudnn") {
  check_script("tutorial_ops");
}
TEST_CASE("tutorials' autograd: relu_, masked and index-tensor assignment, LazyLinear, clip_grad_norm_/clip_grad_value_") {
  check_script("tutorial_autograd");
}
TEST_CASE("tutorial: multi-head attention written five ways (class, combined QKV, einsum, SDPA, nn.MultiheadAttention)") {
  check_script("mha_variants");
}

namespace {

// The error a snippet raises in attn ("" when none), as the lesson runner shows it.
std::string error_of(const std::string& code) {
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::portable);
  try {
    in.run_cell("import torch\nimport torch.nn as nn\n" + code);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("bad arguments to issue 11's functions raise PyTorch's errors, word for word") {
  // Each message is what Debian's torch 1.13.1 raised for the same call.
  CHECK(error_of("torch.device('gpu')") ==
        "RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, vulkan, "
        "mps, meta, hpu, privateuseone device type at start of device string: gpu");
  CHECK(error_of("torch.device('cuda:x')") == "RuntimeError: Invalid device string: 'cuda:x'");
  CHECK(error_of("torch.device('cuda:0', 1)") ==
        "RuntimeError: type (string) must not include an index because index was passed explicitly: cuda:0");
  CHECK(error_of("torch.device('cuda', -1)") == "RuntimeError: Device index must not be negative");
  CHECK(error_of("torch.arange(0.0, float('inf'), 1.0)") == "RuntimeError: unsupported range: 0 -> inf");
  CHECK(error_of("nn.Sequential(3)") == "TypeError: int is not a Module subclass");
  CHECK(error_of("nn.MultiheadAttention(5, 2)") == "AssertionError: embed_dim must be divisible by num_heads");
  CHECK(error_of("nn.LayerNorm(4)(torch.ones(2, 3))") ==
        "RuntimeError: Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]");
  CHECK(error_of("nn.GELU(approximate='x')(torch.ones(2))") == "RuntimeError: approximate argument must be either none or tanh.");
  CHECK(error_of("nn.init.kaiming_uniform_(torch.ones(3))") ==
        "ValueError: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  CHECK(error_of("x = torch.ones(1, 2, 3)\ntorch.nn.functional.scaled_dot_product_attention(x, x, x, attn_mask=torch.ones(2, 2), is_causal=True)") ==
        "RuntimeError: _scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
  CHECK(error_of("p = nn.Parameter(torch.ones(2))\np.fill_(1)") ==
        "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.");
  // Keywords attn does not know raise as PyTorch does, never silently.
  CHECK(error_of("nn.GELU(approx='tanh')") == "TypeError: GELU.__init__() got an unexpected keyword argument 'approx'");
  CHECK(error_of("torch.tanh(torch.ones(2), alpha=1)") == "TypeError: tanh() got an unexpected keyword argument 'alpha'");
}
TEST_CASE("what attn refuses of the tutorials' constructs, in one line naming it") {
  CHECK(error_of("torch.ones(2).numpy()") == "NotImplementedError: attn has no NumPy: Tensor.numpy() is not available (use .tolist() or .item())");
  CHECK(error_of("nn.functional.pad(torch.ones(2, 3), (1, 1), mode='reflect')").rfind("NotImplementedError: torch.nn.functional.pad", 0) == 0);
  CHECK(error_of("torch.unique(torch.ones(3), sorted=False)").rfind("NotImplementedError: torch.unique", 0) == 0);
  // written through the view x[:, 1:] now, as PyTorch does: no error (CopySlices)
  CHECK(error_of("x = torch.ones(3, 3, requires_grad=True) * 1\nx[torch.tensor([0]), 1:] = 0.0\nx.sum().backward()") == "");
  // index tensors separated by a slice: their dims first, as PyTorch (advanced_indexing.py)
  CHECK(error_of("x = torch.ones(3, 3, 3)\nassert x[torch.tensor([0]), 1:, torch.tensor([1])].shape == (1, 2)") == "");
}
TEST_CASE("issue 18's ops: max/min(dim) as torch.return_types, sort, topk, flip, all/any, ~ & |, losses, randint, randperm") {
  check_script("select_ops");
}
TEST_CASE("tutorials' support: Tensor.device into a factory, torch.utils.data.Dataset as a base class") {
  check_script("tutorial_support");
}
TEST_CASE("integer dtypes: uint8/int8/int16/int32 repr, casts, promotion table, wrap-around, uint8 masks, legacy types") {
  check_script("int_dtypes");
}

TEST_CASE("torch.utils.data: shuffled DataLoaders over epochs, samplers, random_split, Tensor.random_, then the same random stream") {
  check_script("data_loader");
}
TEST_CASE("torch.utils.data: default_collate, IterableDataset, ConcatDataset, workers, a training loop, PyTorch's errors") {
  check_script("data_collate");
}
TEST_CASE("torch.utils.data: what attn cannot do says so in one line; inspect.signature is not implemented") {
  CHECK(error_of("from torch.utils.data import default_collate\ndefault_collate([0.5, 1.5])") ==
        "NotImplementedError: attn has no torch.float64: default_collate makes one of a batch of Python floats "
        "(return a float32 tensor from the dataset instead)");
  // nanoGPT's model.py imports inspect for a method the tutorials do not call.
  CHECK(error_of("import inspect\ninspect.signature(print)") == "NotImplementedError: attn does not implement inspect.signature()");
  CHECK(error_of("from torch.utils.data import DataPipe") ==
        "ImportError: cannot import name 'DataPipe' from 'torch.utils.data' (attn implements the parts of it the lessons use)");
}

TEST_CASE("nn.MultiheadAttention with key_padding_mask, merged with bool and float attn_mask") { check_script("mha_padding"); }
TEST_CASE("F.scaled_dot_product_attention: masks, causal, scale, dropout; MultiheadAttention dropout") { check_script("sdpa"); }
TEST_CASE("nn.MultiheadAttention fast path under torch.no_grad(), next to the slow path") { check_script("mha_fast"); }
TEST_CASE("nn.TransformerEncoder/Decoder(Layer), nn.Transformer: the transformer tutorial's encoder, train and eval, reprs, errors") { check_script("transformer_modules"); }
TEST_CASE("where 1.13's TransformerEncoder(Layer) takes a fast path (eval, batch_first, no grad), attn refuses in one line") {
  const std::string layer = "l = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True).eval()\nx = torch.randn(2, 4, 8)\n";
  CHECK(error_of(layer + "with torch.no_grad():\n    l(x)") ==
        "NotImplementedError: TransformerEncoderLayer: attn does not implement 1.13's fast path "
        "torch._transformer_encoder_layer_fwd (eval mode, batch_first, no grad)");
  CHECK(error_of(layer + "with torch.no_grad():\n    l(x, src_mask=nn.Transformer.generate_square_subsequent_mask(4))") == "");
  CHECK(error_of(layer + "l(x)") == "");   // grad enabled: the slow path
  const std::string padded = layer + "enc = nn.TransformerEncoder(l, 2).eval()\nwith torch.no_grad():\n"
                                     "    enc(x, src_key_padding_mask=torch.tensor(";
  CHECK(error_of(padded + "[[False, False, True, True], [False] * 4]))") ==
        "NotImplementedError: TransformerEncoder: attn does not implement 1.13's nested-tensor fast path "
        "(eval mode, batch_first, src_key_padding_mask, no grad)");
  // A mask that is not left-aligned fails mask_check: each layer's fast path instead.
  CHECK(error_of(padded + "[[False, True, False, True], [False] * 4]))").rfind(
            "NotImplementedError: TransformerEncoderLayer: attn does not implement", 0) == 0);
}
TEST_CASE("modules and torch's values are classes: isinstance, reprs, registration, optimizers' tables, bool * bool (issue 17)") {
  check_script("modules_as_classes");
}

TEST_CASE("copy.deepcopy of tensors, Parameters and nn modules (tied weights, state_dict) as torch 1.13") { check_script("deepcopy"); }
TEST_CASE("torch.sin / torch.cos: a Transformer tutorial's positional encoding, the methods, their backward") {
  check_script("positional_encoding");
}
TEST_CASE("named ops: add/sub with alpha, mul, div with rounding_mode, comparisons and aliases, logical/bitwise, in-place unary "
          "forms, floor/ceil/round/trunc/sign/frac/square, clamp_min/max, cumsum, logsumexp, mm/mv/outer, with grad_fn and gradients") {
  check_script("named_ops");
}
TEST_CASE("tutorial ops: sigmoid and its gradient (both kernel families), flatten, expand_as, gather, roll, uniform_, normal_, "
          "inference_mode, number / tensor") {
  check_script("tutorial_ops2");
  check_script("tutorial_ops2", attn::core::CpuKernels::scalar);
}
TEST_CASE("shape, creation and indexing ops transformer code calls, finfo/iinfo, F.one_hot, silu, leaky_relu, hardtanh, relu6 "
          "and their modules, Flatten, Unflatten (both kernel families)") {
  check_script("shape_ops3");
  check_script("shape_ops3", attn::core::CpuKernels::scalar);
}

TEST_CASE("torch.distributions (Categorical, Normal, Uniform), multinomial with replacement, normal with tensors, axis=") {
  check_script("distributions");
}

TEST_CASE("torch.triu_indices / tril_indices, and a causal mask written through them") { check_script("tri_indices"); }

TEST_CASE("F.nll_loss and F.cross_entropy over (N, C, d1, ...) input: values, gradients, errors") { check_script("nll_nd"); }
TEST_CASE("F.cross_entropy with label_smoothing and class-probability targets: values, graph, gradient bits, errors") {
  check_script("cross_entropy_smoothing");
}
TEST_CASE("Tensor.register_hook on leaves and non-leaves, handles, retain_grad's order, hook errors") { check_script("grad_hooks"); }
TEST_CASE("Tensor dunders by name (t.__add__(u), t.__iadd__(u), ...) and unbound from the class") { check_script("tensor_dunders"); }
TEST_CASE("logsumexp over several dims; masks of other dtypes in masked_fill, masked_select, where; cumsum to ints") {
  check_script("reductions_masks");
}

TEST_CASE("reference cycles and the gc module: a cycle nothing refers to is freed by gc.collect(), one a name reaches is left "
          "whole, a model holding itself trains through collections") { check_script("gc"); }

TEST_CASE("Python lists as tensor indices: x[[0, 2]], x[idx, [1, 2]], y[[0, 3]] = 1, NumPy's list-as-tuple rule") { check_script("list_index"); }

TEST_CASE("every op of the table on int64, bool and float32 tensors, 0-d, empty, 1-D, 2-D, mixed dtypes (tools/make_dtypes_test.py), "
          "and the torchfuzz findings on integers, empty dims and messages") { check_script("op_dtypes"); }

TEST_CASE("issue 20's torch items: several '...' in an index, integer shifts, fmod/remainder (in place, zero divisors, "
          "gradients), cumsum/cumprod with dtype=int8, logical_not's strides, tril_/triu_ on an expanded view, einsum "
          "over 3+ operands, amax/amin over several dims, negative print options") { check_script("indexing_shifts_amax"); }
TEST_CASE("review 26: a frozen Parameter's repr, x.data = t, masked_fill with an integer 0/1 mask, randperm(-1), matmul's "
          "grad_fn over 1-D..4-D operands (the size-1 transposed fold), a Python bool as an index") { check_script("review_findings"); }
TEST_CASE("review 28: batch_first GRU/RNN output transposed in place (TransposeBackward1), Tensor.transpose_ and t_, "
          "`x in t` as (x == t).any()") {
  check_script("fix28");
}
TEST_CASE("review 29: an in-place write through a view taken before its base's t_()/transpose_() (CopySlices in the "
          "base's layout now), tensor ** tensor and pow_ over permuted layouts (Sleef over the coalesced run), unary ops of expand()ed inputs, x[0:n] = v as CopyBackwards, a[:, 1:] += a[:, :-1] (overlap TOO_HARD: no copy)") {
  check_script("fix29");
}
TEST_CASE("review 30: x.data's own version counter (a write through it between forward and backward is not an error), "
          "einsum of 3+ operands with a size-0 letter") {
  check_script("review30");
}
TEST_CASE("issue 20's open items: x.__class__ of tensors, Parameters, modules, dtypes, devices, Size, optimizers; "
          "index_put_ and scatter_ from a source sharing self's memory or of another dtype (PyTorch's refusals); integer einsum") {
  check_script("fix30");
}
TEST_CASE("review 30 #11/#9: in-place ops from a TOO_HARD overlapping source (blocks of 64 bytes: 8 int64s; alpha=, pow_, "
          "//=, %=, fmod_, remainder_, clamp_, bitwise, shifts), silu/pow backward on permuted layouts") {
  check_script("fix30b");
}
