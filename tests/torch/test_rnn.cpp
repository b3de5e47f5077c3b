// tests/torch/test_rnn.cpp: nn.RNN, nn.LSTM, nn.GRU, nn.RNNCell, nn.LSTMCell and nn.GRUCell against
// PyTorch 1.13.1's bits: outputs, hidden states, initial parameters and every .grad.
//
// What it is: a replay of tests/vectors/rnn_programs.txt (torch's AVX2 kernels, replayed with
// --cpu avx2) and rnn_scalar_programs.txt (its DEFAULT kernels, --cpu scalar), written by
// tools/make_rnn_vectors.py: each case is Python source (`src` lines) and, per line after it, an
// expression and torch's float32 bits for its value. Dropout between layers draws from the
// portable generator, as Debian's torch does.
// What it is not: the modules' printed forms and errors (tests/torch/nn_rnn.py), or the
// translation tutorial (tests/torch/rnn_translation.py).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "py/interpreter.h"
#include "torch/session.h"
#include "torch/values.h"

namespace {

struct Program {
  std::string name, source;
  std::vector<std::pair<std::string, std::vector<uint32_t>>> values;   // expression -> bits
};

std::vector<uint32_t> read_bits(std::istringstream& words) {
  size_t count = 0;
  words >> count;
  std::vector<uint32_t> bits(count);
  for (auto& b : bits) {
    std::string hex;
    words >> hex;
    b = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
  }
  return bits;
}

std::vector<Program> read_programs(const std::string& file) {
  const std::string path = std::string(ATTN_TEST_DATA) + "/vectors/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<Program> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("case program name=", 0) == 0) {
      out.push_back({line.substr(18), "", {}});
      continue;
    }
    REQUIRE(!out.empty());
    if (line.rfind("src ", 0) == 0) {
      out.back().source += line.substr(4) + "\n";
      continue;
    }
    std::istringstream words(line);
    std::string expr;
    words >> expr;
    std::vector<uint32_t> bits = read_bits(words);
    REQUIRE_MESSAGE(!words.fail(), "short line in " << path << ": " << expr);
    out.back().values.emplace_back(expr, std::move(bits));
  }
  return out;
}

std::string hex(uint32_t bits) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", bits);
  return buf;
}

// Runs the program and compares every listed value; returns the number of differing floats.
int replay(const Program& p, attn::core::CpuKernels cpu) {
  attn::torch::Session in(cpu, attn::core::DropoutRng::portable);
  in.run_cell("import torch\n" + p.source);
  int bad = 0;
  for (const auto& value : p.values) {
    const auto& expr = value.first;   // not a structured binding: clang 14 cannot capture one in
    const auto& want = value.second;  // the lambdas doctest's macros expand to
    in.run_cell("__value = (" + expr + ").detach()");
    const attn::core::Tensor t = attn::torch::as_tensor(in.python().lookup("__value"));
    REQUIRE_MESSAGE(t.numel() == static_cast<int64_t>(want.size()), p.name << ": " << expr);
    const std::vector<float> v = t.floats();
    for (size_t k = 0; k < want.size(); ++k) {
      uint32_t got;
      std::memcpy(&got, &v[k], sizeof got);
      if (got != want[k] && bad++ < 3)
        FAIL_CHECK(p.name << ": " << expr << "[" << k << "] is " << hex(got) << ", torch has " << hex(want[k]));
    }
  }
  return bad;
}

void replay_file(const std::string& file, attn::core::CpuKernels cpu) {
  int ran = 0;
  for (const Program& p : read_programs(file)) {
    CAPTURE(p.name);
    CHECK_MESSAGE(replay(p, cpu) == 0, p.name);
    ++ran;
  }
  CHECK(ran >= 50);
}

}  // namespace

TEST_CASE("recurrent modules and cells: outputs, hidden states, init and grads as PyTorch's, AVX2 family") {
  replay_file("rnn_programs.txt", attn::core::CpuKernels::avx2);
}

TEST_CASE("recurrent modules and cells: outputs, hidden states, init and grads as PyTorch's, scalar family") {
  replay_file("rnn_scalar_programs.txt", attn::core::CpuKernels::scalar);
}

TEST_CASE("LSTM's proj_size, which attn does not compute, is refused in one line") {
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::portable);
  const auto error_of = [&in](const std::string& code) -> std::string {
    try {
      in.run_cell(code);
    } catch (const attn::py::ScriptError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of("import torch\nlstm = torch.nn.LSTM(10, 20, proj_size=5)") ==
        "NotImplementedError: attn's LSTM has no projections (proj_size)");
  // proj_size's own checks come first, with PyTorch's messages
  CHECK(error_of("torch.nn.LSTM(10, 20, proj_size=20)") == "ValueError: proj_size has to be smaller than hidden_size");
  CHECK(error_of("torch.nn.LSTM(10, 20, proj_size=0)") == "");
}
