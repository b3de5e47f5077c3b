// torch/session.h: a torch session: a Python session (py::Interpreter) with torch importable,
// and torch's own per-session state beside it.
//
// What it is: what a lesson run talks to. It owns the interpreter, adds the `torch` modules to it
// (torch_module.cpp), and keeps torch's state for it (TorchState: the CPU kernel family whose
// rounding exp, softmax, rand and randn reproduce, the generator behind nn.Dropout's mask,
// torch's default generator, print options, grad mode, the autograd sequence numbers). Nothing
// numeric is process-wide: two sessions, or a re-run with other options, never see each other's.
// While a cell runs, the session installs its grad mode, its autograd sequence counter and its
// kernels' deadline on the thread (core/), and takes them back after. What a cell printed comes
// back as plain records (printed.h), never as interpreter values.
// What it is not: Python semantics (py/), the ops (op_table.h), or the lesson format (lesson/).
#pragma once

#include <string>
#include <vector>

#include "core/autograd.h"
#include "core/cpu.h"
#include "core/random.h"
#include "print/tensor_str.h"
#include "py/interpreter.h"
#include "torch/printed.h"

namespace attn::torch {

// torch's state in one session, kept as the interpreter's extension (state(in)).
struct TorchState : py::Extension {
  core::CpuKernels cpu = core::CpuKernels::avx2;
  core::DropoutRng rng = core::DropoutRng::mkl;
  core::Generator generator{core::CpuKernels::avx2};   // torch.manual_seed reseeds it; its family is `cpu`
  uint64_t initial_seed = 67280421310721ULL;           // torch.initial_seed(): the last manual_seed (PyTorch's default)
  py::Value default_generator;                         // torch.default_generator, made on first use
  print::PrintOptions print_options;                   // torch.set_printoptions: this session's, from the defaults
  bool grad_enabled = true;                            // torch.is_grad_enabled() between cells (core holds it while one runs)
  core::autograd::SequenceCounter sequence;            // the creation numbers of this session's autograd nodes
  bool warned_uint8_where = false;                     // torch.where's uint8-condition warning (TORCH_WARN_ONCE) given
};

// The torch state of the session `in` belongs to.
TorchState& state(py::Interpreter& in);

// Makes `import torch` (torch.nn, torch.nn.functional, torch.optim, torch.utils.data, ...)
// available in `in`, and translates core's errors into PyTorch's exceptions there.
void add_torch(py::Interpreter& in);

class Session {
 public:
  Session(core::CpuKernels cpu, core::DropoutRng rng);

  // Runs one cell (py::Interpreter::run_cell) with this session's grad mode, autograd sequence
  // and the cell's deadline installed for the kernels. A Python error is a py::ScriptError.
  void run_cell(const std::string& source, bool echo_last = false, int first_line = 1);
  std::string take_output() { return py_.take_output(); }
  // Every value print() (or a cell's echo) showed since the last call, as plain records.
  std::vector<Printed> take_printed();
  const std::vector<Printed>& printed() const { return printed_; }   // ... without taking them
  void set_time_limit(double seconds) { py_.set_time_limit(seconds); }
  void set_import_dir(std::string dir) { py_.set_import_dir(std::move(dir)); }
  void set_main_file(std::string name) { py_.set_main_file(std::move(name)); }   // what warnings name
  void set_code_name(std::string what) { py_.set_code_name(std::move(what)); }   // what limits' messages call it

  core::CpuKernels cpu() const { return state_->cpu; }
  core::DropoutRng rng() const { return state_->rng; }
  py::Interpreter& python() { return py_; }

 private:
  py::Interpreter py_;
  TorchState* state_;
  std::vector<Printed> printed_;
};

}  // namespace attn::torch
