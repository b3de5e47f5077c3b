// torch/session.cpp: a torch session, and what a cell printed as plain records (see session.h,
// printed.h).
#include "torch/session.h"

#include <algorithm>
#include <chrono>

#include "core/buffers.h"
#include "core/deadline.h"
#include "py/exceptions.h"
#include "py/ints.h"
#include "py/limits.h"
#include "torch/values.h"

namespace attn::torch {

TorchState& state(py::Interpreter& in) { return in.extension<TorchState>(); }

namespace {

// The containers being copied on this thread: one met again inside itself (a.append(a)) is
// kept as an object of its type (JSON null), as a record cannot hold a cycle.
thread_local std::vector<const py::Obj*> copying;

// A copy of `v` as it is now, as plain data: tensors cloned, containers copied at every depth.
PlainValue plain(py::Interpreter& in, const Value& v) {
  py::ValueDepthGuard guard("while copying a printed value");
  PlainValue p;
  p.type = py::type_name(v);
  const bool container = v.kind == Value::List || v.kind == Value::Tuple || v.kind == Value::Set || v.kind == Value::Dict;
  if (container && std::find(copying.begin(), copying.end(), v.obj.get()) != copying.end()) {
    p.kind = PlainValue::object;
    return p;
  }
  struct Entered {
    bool on;
    explicit Entered(bool c, const py::Obj* o) : on(c) { if (on) copying.push_back(o); }
    ~Entered() { if (on) copying.pop_back(); }
  } entered(container, v.obj.get());
  switch (v.kind) {
    case Value::None: return p;
    case Value::Bool: p.kind = PlainValue::boolean, p.b = v.b; return p;
    case Value::Int:
      p.kind = PlainValue::integer;
      if (v.is_big()) p.digits = py::int_repr(v);
      else p.i = v.i;
      return p;
    case Value::Float: p.kind = PlainValue::real, p.f = v.f; return p;
    case Value::Str: p.kind = PlainValue::string, p.s = v.s; return p;
    case Value::List: case Value::Tuple: case Value::Set:
      p.kind = PlainValue::sequence;
      for (const Value& x : in.iterate(v)) p.items.push_back(plain(in, x));
      return p;
    case Value::Dict:
      p.kind = PlainValue::mapping;
      for (const auto& [k, x] : static_cast<const py::DictObj*>(v.obj.get())->items) {
        p.keys.push_back(in.str_of(k));
        p.items.push_back(plain(in, x));
      }
      return p;
    default: break;
  }
  if (is_tensor(v)) {
    p.kind = PlainValue::tensor;
    p.t = as_tensor(v).clone();
    return p;
  }
  if (is_dtype(v)) {
    p.kind = PlainValue::string;
    p.s = dtype_name(dtype_of(v));
    return p;
  }
  p.kind = PlainValue::object;
  return p;
}

}  // namespace

Session::Session(core::CpuKernels cpu, core::DropoutRng rng) {
  auto st = std::make_unique<TorchState>();
  st->cpu = cpu;
  st->rng = rng;
  st->generator = core::Generator(cpu);
  state_ = st.get();
  py_.set_extension(std::type_index(typeid(TorchState)), std::move(st));
  add_torch(py_);
  py_.on_print = [this](const std::string& name, const Value& v, const std::string& text) {
    printed_.push_back({name, text, plain(py_, v)});
  };
}

std::vector<Printed> Session::take_printed() {
  std::vector<Printed> out = std::move(printed_);
  printed_.clear();
  return out;
}

void Session::run_cell(const std::string& source, bool echo_last, int first_line) {
  // The thread's autograd state is this session's while the cell runs, and is kept for the next.
  const core::autograd::SequenceScope sequence(state_->sequence);
  const core::autograd::GradModeGuard grad_mode(state_->grad_enabled);
  struct KeepGradMode {
    TorchState& s;
    ~KeepGradMode() { s.grad_enabled = core::autograd::grad_enabled(); }
  } keep{*state_};
  // Big buffers cached for reuse during the cell go back to the system when it ends (core/buffers.h).
  struct ReleaseCachedBuffers {
    ~ReleaseCachedBuffers() { core::buffers::release_cached(); }
  } release_buffers;
  // The kernels of one huge op look at the cell's deadline too (core/deadline.h).
  const double seconds = py_.time_limit();
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  const core::ScopedDeadline kernels_deadline(deadline, seconds);
  py_.run_cell(source, echo_last, first_line);
}

}  // namespace attn::torch
