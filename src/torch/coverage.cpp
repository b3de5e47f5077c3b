// torch/coverage.cpp: the coverage page, read from attn itself: the op table's rows, the names of
// the torch modules a session makes, and probes of a fresh session for the Python builtins, the
// methods of str/list/tuple/dict/set, the Tensor attributes and the importable modules.
//
// What it is: coverage_page(), the Markdown of docs/coverage.md (`attn coverage` prints it; the
// CTest test coverage_cli fails when the file differs). The candidate names probed are those of
// Python 3.11 and PyTorch 1.13.1, printed by the reference (the command is above each list).
// What it is not: the statements and constructs of attn's Python (docs/lesson-authors.md, "What attn's Python
// supports", tested by tests/python/) or a list of each function's supported arguments.
#include "torch/coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

// python3 -c "import builtins; print([n for n in dir(builtins) if not n.startswith('_') and n[0].islower()])"
const std::vector<std::string> kBuiltins = {
    "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable",
    "chr", "classmethod", "compile", "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod",
    "enumerate", "eval", "exec", "exit", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr",
    "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len", "license", "list",
    "locals", "map", "max", "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property",
    "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum",
    "super", "tuple", "type", "vars", "zip"};

// python3 -c "print([n for n in dir(T) if not n.startswith('_')])" for each type T
const std::vector<std::pair<std::string, std::vector<std::string>>> kMethods = {
    {"str",
     {"capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format", "format_map",
      "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric",
      "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans", "partition",
      "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split",
      "splitlines", "startswith", "strip", "swapcase", "title", "translate", "upper", "zfill"}},
    {"list", {"append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse", "sort"}},
    {"tuple", {"count", "index"}},
    {"dict", {"clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"}},
    {"set",
     {"add", "clear", "copy", "difference", "difference_update", "discard", "intersection", "intersection_update",
      "isdisjoint", "issubset", "issuperset", "pop", "remove", "symmetric_difference", "symmetric_difference_update",
      "union", "update"}}};

// The value of each type the probes ask for a method.
const std::map<std::string, std::string> kExample = {{"str", "''"}, {"list", "[]"}, {"tuple", "()"}, {"dict", "{}"}, {"set", "set()"}};

// torch 1.13.1: [n for n in dir(torch.Tensor) if not n.startswith('_') and not callable(getattr(torch.Tensor, n))]
const std::vector<std::string> kTensorAttributes = {
    "H", "T", "data", "device", "dtype", "grad", "grad_fn", "imag", "is_cpu", "is_cuda", "is_ipu", "is_leaf",
    "is_meta", "is_mkldnn", "is_mps", "is_nested", "is_ort", "is_quantized", "is_sparse", "is_sparse_csr",
    "is_vulkan", "is_xpu", "layout", "mH", "mT", "name", "names", "ndim", "output_nr", "real", "requires_grad",
    "retains_grad", "shape", "volatile"};

// Whether `code` runs in a fresh session that has run `setup`.
bool runs(const std::string& setup, const std::string& code) {
  Session s(core::CpuKernels::avx2, core::DropoutRng::mkl);
  try {
    s.run_cell(setup);
    s.run_cell(code);
    return true;
  } catch (const py::ScriptError&) {
    return false;
  }
}

// `a`, `b`, ... as Markdown code, comma-separated, after `lead`, wrapped at 100 columns.
std::string listed(const std::vector<std::string>& names, const std::string& prefix = "", const std::string& lead = "") {
  if (names.empty()) return lead + "(none)\n";
  std::string out, line = lead;
  for (size_t k = 0; k < names.size(); ++k) {
    std::string item = "`" + prefix + names[k] + "`" + (k + 1 < names.size() ? "," : "");
    if (line.size() > lead.size() && line.size() + 1 + item.size() > 100) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() || line == lead ? "" : " ") + item;
  }
  return out + line + "\n";
}

// The module's public names, without the modules it imported (torch.optim's `torch`).
std::vector<std::string> public_names(Interpreter& in, const std::string& module) {
  std::vector<std::string> out;
  for (const auto& [name, value] : names_of(in.import(module)).names)
    if (name[0] != '_' && (value.kind != Value::Namespace || value.s == module + "." + name)) out.push_back(name);
  return out;
}

// The names a module lists in __all__ (torch.optim.lr_scheduler's schedulers), sorted.
std::vector<std::string> all_names(Interpreter& in, const std::string& module) {
  std::vector<std::string> out;
  for (const Value& v : py::as_seq(names_of(in.import(module)).names.at("__all__"))) out.push_back(v.s);
  std::sort(out.begin(), out.end());
  return out;
}

std::string section(const std::string& title, const std::vector<std::string>& names, const std::string& prefix = "") {
  return fmt::format("## {} ({})\n\n{}\n", title, names.size(), listed(names, prefix));
}

std::string torch_part() {
  Session s(core::CpuKernels::avx2, core::DropoutRng::mkl);
  s.run_cell("import torch, torch.nn, torch.nn.init, torch.nn.utils, torch.optim, torch.optim.lr_scheduler, torch.utils.data, torch.autograd\n"
             "import torch.distributions\n"
             "torch.save, torch.load");   // in a cell: its deadline; naming save and load makes them torch's names
  Interpreter& in = s.python();
  std::vector<std::string> functions, functional, others, methods = torch_ops().method_names(), attributes;
  for (const std::string& f : torch_ops().function_names())
    (f.rfind("nn.functional.", 0) == 0 ? functional : functions).push_back(f.rfind("nn.functional.", 0) == 0 ? f.substr(14) : f);
  for (const std::string& n : public_names(in, "torch.nn.functional"))   // those written in Python (nn/functional_extra.py)
    if (std::find(functional.begin(), functional.end(), n) == functional.end()) functional.push_back(n);
  std::sort(functional.begin(), functional.end());
  const std::set<std::string> ops(functions.begin(), functions.end());
  for (const std::string& n : public_names(in, "torch"))
    if (!ops.count(n)) others.push_back(n);
  for (const std::string& a : kTensorAttributes)
    if (runs("import torch\nt = torch.ones(2, 2)", "t." + a)) attributes.push_back(a);
  std::vector<std::string> nn = nn_module_names();
  for (const std::string& n : public_names(in, "torch.nn"))
    if (std::find(nn.begin(), nn.end(), n) == nn.end()) nn.push_back(n);
  std::sort(nn.begin(), nn.end());
  return section("torch functions, from the op table", functions, "torch.") +
         section("Other names in torch (dtypes, classes, grad mode, seeds, printing)", others, "torch.") +
         section("Tensor methods, from the op table", methods, "Tensor.") +
         section("Tensor attributes (of PyTorch's, those attn has)", attributes, "Tensor.") +
         section("torch.nn: modules and names", nn, "nn.") +
         section("torch.nn.functional", functional, "F.") +
         section("torch.nn.init", public_names(in, "torch.nn.init"), "nn.init.") +
         section("torch.nn.utils", public_names(in, "torch.nn.utils"), "nn.utils.") +
         section("torch.autograd", public_names(in, "torch.autograd"), "torch.autograd.") +
         section("torch.optim", public_names(in, "torch.optim"), "torch.optim.") +
         section("torch.optim.lr_scheduler", all_names(in, "torch.optim.lr_scheduler"), "lr_scheduler.") +
         section("torch.utils.data", public_names(in, "torch.utils.data"), "torch.utils.data.") +
         section("torch.distributions", all_names(in, "torch.distributions"), "torch.distributions.");
}

std::string python_part() {
  std::vector<std::string> have, lack;
  for (const std::string& b : kBuiltins) (runs("", "_ = " + b) ? have : lack).push_back(b);
  std::string out = section("Python builtins (of Python 3.11's, those attn has)", have) +
                    listed(lack, "", "Not supported: ") + "\n";
  for (const auto& [type, names] : kMethods) {
    have.clear();
    lack.clear();
    for (const std::string& m : names) (runs("", "_ = " + kExample.at(type) + "." + m) ? have : lack).push_back(m);
    out += section(type + " methods (of Python 3.11's, those attn has)", have, type + ".") + listed(lack, type + ".", "Not supported: ") + "\n";
  }
  Session s(core::CpuKernels::avx2, core::DropoutRng::mkl);
  std::vector<std::string> modules, refused;
  for (const std::string& m : s.python().module_names())
    if (m.find("_attn") == std::string::npos)   // attn's own helpers (_attn_stdlib, torch._attn_extra), not for lessons
      (runs("", "import " + m) ? modules : refused).push_back(m);
  return out + section("Modules lesson code can import", modules) +
         "Also: `.py` files and package folders beside the lesson (`from mypkg.model import GPT`, relative\n"
         "imports inside the package).\n\n" + listed(refused, "", "Refused in one line (PyTorch 1.13 has them, attn has not): ");
}

}  // namespace

std::string coverage_page() {
  return "# What lesson code may use: the coverage page\n\n"
         "Generated by `attn coverage` from attn itself (the op table, the torch modules, and probes of a\n"
         "fresh session); the CTest test `coverage_cli` fails when this file differs from what attn prints,\n"
         "so it cannot go stale: regenerate it with `./build/attn coverage > docs/coverage.md`. Python's\n"
         "statements and constructs are in docs/lesson-authors.md, \"What attn's Python supports\"; anything else fails\n"
         "with one line naming it.\n\n" +
         torch_part() + python_part();
}

}  // namespace attn::torch
