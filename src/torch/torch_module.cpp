// torch/torch_module.cpp: the `torch` modules of a session: torch (every function row of the op
// table, constants, dtypes, Tensor, Size, device, grad mode, ...), torch.nn (Parameter, init,
// functional, and the modules of python/nn/*.py), torch.optim (python/optim.py) and
// torch.optim.lr_scheduler (python/lr_scheduler.py), torch.utils.data (python/utils/data/*.py),
// torch.distributions (python/distributions.py: Categorical, Normal, Uniform),
// their submodules (torch.optim.sgd, ...: the same objects) and one-line refusals of those attn
// has not; and the translation of core's errors into PyTorch's exceptions.
//
// What it is: add_torch(), which registers these with the interpreter: `import torch` makes
// the native parts; torch.nn, torch.optim and torch.utils are made the first time they are
// imported or named (`torch.optim.SGD` after a bare `import torch`, as PyTorch allows), so a
// lesson that only uses tensors never runs the module machinery. What it is not: the functions
// themselves (op_table.h) or the modules' code (python/).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>

#include "core/deadline.h"
#include "py/limits.h"
#include "torch/bindings.h"
#include "torch/coverage.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

std::shared_ptr<NamespaceObj> names() { return std::make_shared<NamespaceObj>(); }

// A torch function: binds through its row of the op table.
Value op_function(const std::string& name) {
  const OpTable::Op* op = torch_ops().function(name);
  return builtin("torch." + name, [op](Interpreter& in, CallArgs& a) { return torch_ops().call_function(in, *op, a); });
}

Value make_torch(Interpreter& in) {
  auto t = names();
  for (const std::string& name : torch_ops().function_names())
    if (name.rfind("nn.functional.", 0) != 0) t->names[name] = op_function(name);
  t->names["inf"] = Value::number(std::numeric_limits<double>::infinity());
  t->names["nan"] = Value::number(std::numeric_limits<double>::quiet_NaN());
  t->names["float32"] = t->names["float"] = dtype_value(core::DType::float32);
  t->names["int64"] = t->names["long"] = dtype_value(core::DType::int64);
  t->names["bool"] = dtype_value(core::DType::boolean);
  t->names["__version__"] = Value::str("1.13.1");
  t->names["Tensor"] = Value::of_class(tensor_class());
  t->names["Size"] = Value::of_class(size_class());
  t->names["dtype"] = Value::of_class(dtype_class());
  t->names["device"] = Value::of_class(device_class());
  t->names["Generator"] = Value::of_class(generator_class());
  t->names["default_generator"] = default_generator(in);
  add_torch_environment(*t);
  add_grad_mode(*t);
  add_optim_kernels(*t);
  add_nn_natives(*t);
  add_data_natives(*t);
  add_tensor_types(*t);
  add_autograd_natives(*t);
  // torch.nn, torch.optim, torch.utils: made when first named (PEP 562's module __getattr__).
  t->names["__getattr__"] = builtin("torch.__getattr__", [](Interpreter& inner, CallArgs& a) -> Value {
    const std::string name = str(arg(a, 0, "name"));
    if (name == "nn" || name == "optim" || name == "utils" || name == "distributions") return inner.import("torch." + name);
    if (name == "autograd") {   // python/autograd.py; PyTorch imports it with torch
      Value autograd = inner.import("torch.autograd");
      names_of(inner.import("torch")).names[name] = autograd;
      return autograd;
    }
    if (name == "save" || name == "load" || name == "serialization") {   // python/serialization.py, on first use
      Value serialization = inner.import("torch.serialization");
      Value v = name == "serialization" ? serialization : inner.getattr(serialization, name);
      names_of(inner.import("torch")).names[name] = v;   // found directly from now on
      return v;
    }
    for (const char* f : {"float64", "double", "float16", "half", "bfloat16", "DoubleTensor", "HalfTensor"})
      if (name == f) refuse_float64("torch." + name);
    throw AttributeError("module 'torch' has no attribute '" + name + "' (attn implements the parts of torch the lessons use)");
  });
  Value torch = module_value("torch", t);
  in.set_module("torch", torch);
  Value extra = in.import("torch._attn_extra");   // python/torch_extra.py: finfo, iinfo, get_default_dtype, ...
  for (const Value& n : py::as_seq(names_of(extra).names.at("__all__"))) t->names[n.s] = names_of(extra).names.at(n.s);
  return torch;
}

// Where each of torch.nn's modules is defined (python/nn/*.py, as PyTorch's torch/nn/modules/*.py).
const std::map<std::string, std::string>& nn_module_files() {
  static const std::map<std::string, std::string> files = {
      {"Module", "module"},          {"Sequential", "container"},       {"ModuleList", "container"},
      {"ModuleDict", "container"},   {"Identity", "linear"},            {"Linear", "linear"},
      {"NonDynamicallyQuantizableLinear", "linear"},                    {"Embedding", "sparse"},
      {"Dropout", "dropout"},        {"ReLU", "activation"},            {"GELU", "activation"},
      {"Tanh", "activation"},        {"Sigmoid", "activation"},        {"Softmax", "activation"},         {"MultiheadAttention", "activation"},
      {"LayerNorm", "normalization"}, {"MSELoss", "loss"},
      {"LogSoftmax", "activation"},  {"NLLLoss", "loss"},               {"CrossEntropyLoss", "loss"},
      {"KLDivLoss", "loss"},         {"LazyLinear", "linear"},          {"Transformer", "transformer"},
      {"TransformerEncoder", "transformer"},                            {"TransformerDecoder", "transformer"},
      {"TransformerEncoderLayer", "transformer"},                       {"TransformerDecoderLayer", "transformer"},
      {"RNNBase", "rnn"},            {"RNN", "rnn"},                    {"LSTM", "rnn"},                   {"GRU", "rnn"},
      {"RNNCellBase", "rnn"},        {"RNNCell", "rnn"},                {"LSTMCell", "rnn"},               {"GRUCell", "rnn"},
      {"SiLU", "activation"},        {"LeakyReLU", "activation"},       {"Hardtanh", "activation"},
      {"ReLU6", "activation"},       {"Flatten", "flatten"},            {"Unflatten", "flatten"},
      {"Softsign", "activation"},    {"Softmin", "activation"},         {"L1Loss", "loss"}};
  return files;
}

// torch.nn.X and torch.nn.modules.X for a module class: its file runs the first time one of its
// names is asked for (PEP 562's module __getattr__), and the name is kept in both namespaces.
Value nn_getattr(Interpreter& in, const std::string& package, const std::string& name) {
  if (package == "torch.nn" && name == "utils") {   // torch.nn.utils: python/nn/utils.py
    Value utils = in.import("torch.nn.utils");
    names_of(in.import("torch.nn")).names[name] = utils;
    return utils;
  }
  auto it = nn_module_files().find(name);
  if (it == nn_module_files().end())
    throw AttributeError("module '" + package + "' has no attribute '" + name + "' (attn implements the parts of torch.nn the lessons use)");
  Value v = in.getattr(in.import("torch.nn.modules." + it->second), name);
  names_of(in.import("torch.nn")).names[name] = v;
  names_of(in.import("torch.nn.modules")).names[name] = v;
  return v;
}

Value make_nn(Interpreter& in) {
  auto nn = names();
  auto functional = names();
  for (const std::string& name : torch_ops().function_names())
    if (name.rfind("nn.functional.", 0) == 0) functional->names[name.substr(14)] = op_function(name);
  Value f = module_value("torch.nn.functional", functional);
  auto parameter = names();
  parameter->names["Parameter"] = Value::of_class(parameter_class());
  auto modules = names();
  modules->names["__getattr__"] = builtin("torch.nn.modules.__getattr__", [](Interpreter& inner, CallArgs& a) {
    return nn_getattr(inner, "torch.nn.modules", str(arg(a, 0, "name")));
  });
  nn->names["Parameter"] = Value::of_class(parameter_class());
  nn->names["functional"] = f;
  nn->names["init"] = make_nn_init();
  nn->names["parameter"] = module_value("torch.nn.parameter", parameter);
  nn->names["modules"] = module_value("torch.nn.modules", modules);
  nn->names["__getattr__"] = builtin("torch.nn.__getattr__", [](Interpreter& inner, CallArgs& a) {
    return nn_getattr(inner, "torch.nn", str(arg(a, 0, "name")));
  });
  Value nn_value = module_value("torch.nn", nn);
  in.set_module("torch.nn", nn_value);
  in.set_module("torch.nn.functional", f);
  in.set_module("torch.nn.init", nn->names["init"]);
  in.set_module("torch.nn.parameter", nn->names["parameter"]);
  in.set_module("torch.nn.modules", nn->names["modules"]);
  Value extra = in.import("torch.nn._attn_functional");   // python/nn/functional_extra.py: l1_loss, softsign, softmin
  for (const Value& n : py::as_seq(names_of(extra).names.at("__all__"))) functional->names[n.s] = names_of(extra).names.at(n.s);
  return nn_value;
}

Value make_utils(Interpreter& in) {
  auto utils = names();
  Value v = module_value("torch.utils", utils);
  in.set_module("torch.utils", v);
  utils->names["data"] = in.import("torch.utils.data");
  return v;
}

// torch.utils.data: the names of its modules (python/utils/data/*.py, as PyTorch's files). The
// package is registered before they run, as sys.modules would hold it, since each imports it first.
Value make_utils_data(Interpreter& in) {
  auto data = names();
  Value v = module_value("torch.utils.data", data);
  in.set_module("torch.utils.data", v);
  const std::vector<std::pair<std::string, std::vector<std::string>>> parts = {
      {"sampler", {"BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler", "WeightedRandomSampler"}},
      {"dataset", {"ChainDataset", "ConcatDataset", "Dataset", "IterableDataset", "Subset", "TensorDataset", "random_split"}},
      {"dataloader", {"DataLoader", "_DatasetKind", "get_worker_info", "default_collate", "default_convert"}}};
  for (const auto& part : parts) {
    NamespaceObj& from = names_of(in.import("torch.utils.data." + part.first));
    for (const std::string& n : part.second) data->names[n] = from.names.at(n);
  }
  return v;
}

// A submodule PyTorch defines a few of a package's names in (torch.optim.sgd, ...): those of
// `names` the package has, the same objects.
Value part_of(Interpreter& in, const std::string& name, const std::string& package, const std::vector<std::string>& names) {
  NamespaceObj& from = names_of(in.import(package));
  auto part = std::make_shared<NamespaceObj>();
  for (const std::string& n : names)
    if (from.names.count(n)) part->names[n] = from.names.at(n);
  return module_value(name, part);
}

// The submodules of torch 1.13.1's packages attn implements (torch, torch.nn, torch.optim,
// torch.utils, torch.utils.data, torch.nn.modules, torch.nn.utils: pkgutil.iter_modules over each, without
// private ones) that attn has not: importing one says so in one line, where a name PyTorch lacks
// is Python's `No module named`.
const std::vector<std::string>& torch_submodules_refused() {
  static const std::vector<std::string> names = [] {
    const std::vector<std::pair<std::string, std::vector<std::string>>> packages = {
        {"torch", {"amp", "ao", "contrib", "cpu", "distributed", "fft", "functional",
                   "futures", "fx", "hub", "jit", "library", "linalg", "masked", "monitor", "multiprocessing", "nested",
                   "onnx", "overrides", "package", "profiler", "quantization", "quasirandom", "random", "return_types",
                   "sparse", "special", "storage", "testing", "torch_version", "types", "version"}},
        {"torch.autograd", {"forward_ad", "functional", "gradcheck", "graph", "profiler", "profiler_legacy",
                            "profiler_util"}},
        {"torch.nn", {"backends", "common_types", "cpp", "grad", "intrinsic", "parallel", "qat", "quantizable",
                      "quantized"}},
        {"torch.nn.utils", {"convert_parameters", "fusion", "init", "memory_format", "parametrizations", "parametrize",
                            "prune", "spectral_norm", "stateless", "weight_norm"}},
        {"torch.optim", {"adadelta", "adagrad", "adamax", "asgd", "lbfgs", "nadam", "radam",
                         "rmsprop", "rprop", "sparse_adam", "swa_utils"}},
        {"torch.utils", {"backcompat", "benchmark", "bottleneck", "bundled_inputs", "checkpoint", "collect_env",
                         "cpp_backtrace", "cpp_extension", "dlpack", "file_baton", "hipify", "hooks", "jit", "mkldnn",
                         "mobile_optimizer", "model_dump", "model_zoo", "show_pickle", "tensorboard",
                         "throughput_benchmark"}},
        {"torch.utils.data", {"backward_compatibility", "communication", "dataloader_experimental", "datapipes",
                              "distributed", "graph", "graph_settings"}},
        {"torch.nn.modules", {"adaptive", "batchnorm", "channelshuffle", "conv", "distance", "fold",
                              "instancenorm", "lazy", "padding", "pixelshuffle", "pooling",
                              "upsampling", "utils"}}};
    std::vector<std::string> out;
    for (const auto& [package, subs] : packages)
      for (const std::string& sub : subs) out.push_back(package + "." + sub);
    return out;
  }();
  return names;
}

void add_torch_submodules(Interpreter& in) {
  in.add_module("torch.optim.optimizer", [](Interpreter& i) { return part_of(i, "torch.optim.optimizer", "torch.optim", {"Optimizer", "required"}); });
  in.add_module("torch.optim.sgd", [](Interpreter& i) { return part_of(i, "torch.optim.sgd", "torch.optim", {"SGD"}); });
  in.add_module("torch.optim.adamw", [](Interpreter& i) { return part_of(i, "torch.optim.adamw", "torch.optim", {"AdamW"}); });
  in.add_module("torch.optim.adam", [](Interpreter& i) { return part_of(i, "torch.optim.adam", "torch.optim", {"Adam"}); });
  for (const char* name : {"cuda", "backends"})   // torch_env.cpp's namespaces, as modules
    in.add_module(std::string("torch.") + name, [name](Interpreter& i) { return i.getattr(i.import("torch"), name); });
  in.add_module("torch.backends.cudnn", [](Interpreter& i) { return i.getattr(i.import("torch.backends"), "cudnn"); });
  for (const std::string& name : torch_submodules_refused())
    in.add_module(name, [name](Interpreter&) -> Value {
      throw ModuleNotFoundError("No module named '" + name + "' (attn's torch has torch.nn, torch.nn.functional, "
                                "torch.nn.init, torch.nn.utils, torch.autograd, torch.optim, torch.optim.lr_scheduler, torch.utils.data, torch.distributions; "
                                "docs/coverage.md lists what they have)");
    });
}

// core's errors as PyTorch raises them: a rejected op is RuntimeError (IndexError, ValueError
// where PyTorch says so), a kernel past the cell's deadline ends the run.
void translate_core_errors() {
  try {
    throw;
  } catch (const core::TensorError& e) {
    throw py::error(e.python_type(), e.what());
  } catch (const core::DeadlineExceeded& e) {
    const py::Interpreter* in = py::Interpreter::current();
    throw py::LimitError(0, py::timeout_message(e.seconds, in ? in->code_name() : "the cell"));
  } catch (...) {
  }
}

}  // namespace

std::vector<std::string> nn_module_names() {
  std::vector<std::string> out;
  for (const auto& [name, file] : nn_module_files()) out.push_back(name);
  return out;
}

std::string_view python_source(std::string_view file) {
  for (const auto& [name, text] : python_sources())
    if (name == file) return text;
  throw std::logic_error("torch: no embedded Python file " + std::string(file));
}

void add_torch(Interpreter& in) {
  in.add_error_translator(translate_core_errors);
  in.gc().set_byte_meter(core::storage_bytes_made, core::storage_bytes_held);   // cycles holding big tensors go early
  in.add_module("torch", make_torch);
  in.add_module("torch.nn", make_nn);
  in.add_module("torch.nn.functional", [](Interpreter& i) { i.import("torch.nn"); return i.import("torch.nn.functional"); });
  in.add_module("torch.nn.init", [](Interpreter& i) { i.import("torch.nn"); return i.import("torch.nn.init"); });
  in.add_module("torch.nn.parameter", [](Interpreter& i) { i.import("torch.nn"); return i.import("torch.nn.parameter"); });
  in.add_module("torch.nn.modules", [](Interpreter& i) { i.import("torch.nn"); return i.import("torch.nn.modules"); });
  for (const char* file : {"module", "container", "linear", "sparse", "dropout", "activation", "normalization", "loss", "transformer", "rnn", "flatten"})
    in.add_source_module(std::string("torch.nn.modules.") + file, std::string("<torch/nn/modules/") + file + ".py>",
                         python_source(std::string("nn/") + file + ".py"));
  in.add_source_module("torch.nn._attn_functional", "<torch/nn/functional.py>", python_source("nn/functional_extra.py"));
  in.add_source_module("torch.nn.utils", "<torch/nn/utils/clip_grad.py>", python_source("nn/utils.py"));
  in.add_source_module("torch.nn.utils.rnn", "<torch/nn/utils/rnn.py>", python_source("nn/utils_rnn.py"));
  in.add_module("torch.nn.utils.clip_grad", [](Interpreter& i) { return part_of(i, "torch.nn.utils.clip_grad", "torch.nn.utils", {"clip_grad_norm_", "clip_grad_norm", "clip_grad_value_"}); });
  in.add_source_module("torch._attn_extra", "<torch>", python_source("torch_extra.py"));
  in.add_source_module("torch.optim", "<torch.optim>", python_source("optim.py"));
  // torch.autograd (python/autograd.py) and the submodules PyTorch splits it into, the same objects.
  in.add_source_module("torch.autograd", "<torch/autograd/__init__.py>", python_source("autograd.py"));
  in.add_module("torch.autograd.grad_mode", [](Interpreter& i) {
    return part_of(i, "torch.autograd.grad_mode", "torch.autograd", {"no_grad", "enable_grad", "set_grad_enabled", "inference_mode"});
  });
  in.add_module("torch.autograd.function", [](Interpreter& i) {
    return part_of(i, "torch.autograd.function", "torch.autograd",
                   {"Function", "FunctionCtx", "InplaceFunction", "once_differentiable"});
  });
  in.add_module("torch.autograd.variable", [](Interpreter& i) { return part_of(i, "torch.autograd.variable", "torch.autograd", {"Variable"}); });
  in.add_module("torch.autograd.anomaly_mode", [](Interpreter& i) {
    return part_of(i, "torch.autograd.anomaly_mode", "torch.autograd", {"detect_anomaly", "set_detect_anomaly"});
  });
  in.add_source_module("torch.serialization", "<torch/serialization.py>", python_source("serialization.py"));
  in.add_source_module("torch.optim.lr_scheduler", "<torch.optim.lr_scheduler>", python_source("lr_scheduler.py"));
  in.add_source_module("torch.distributions", "<torch/distributions>", python_source("distributions.py"));
  in.add_module("torch.distributions.constraints", [](Interpreter& i) { return i.getattr(i.import("torch.distributions"), "constraints"); });
  for (const char* sub : {"distribution", "categorical", "bernoulli", "normal", "uniform", "utils"})
    in.add_module(std::string("torch.distributions.") + sub, [](Interpreter& i) { return i.import("torch.distributions"); });
  in.add_module("torch.utils", make_utils);
  in.add_module("torch.utils.data", make_utils_data);
  in.add_module("torch.utils.data._utils", [](Interpreter&) { return module_value("torch.utils.data._utils", names()); });
  for (const char* file : {"dataset", "sampler", "dataloader"})
    in.add_source_module(std::string("torch.utils.data.") + file, std::string("<torch/utils/data/") + file + ".py>",
                         python_source(std::string("utils/data/") + file + ".py"));
  in.add_source_module("torch.utils.data._utils.collate", "<torch/utils/data/_utils/collate.py>",
                       python_source("utils/data/collate.py"));
  add_torch_submodules(in);
}

}  // namespace attn::torch
