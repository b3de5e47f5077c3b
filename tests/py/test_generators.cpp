// tests/py/test_generators.cpp: generators in a py::Interpreter alone: tests/python/generators.cases
// against what CPython 3.11 printed (generators.expected, tools/make_python_expected.py), then
// what CPython cannot show: hostile generators stopped by attn's one-line limits, never a crash,
// and generators left suspended when a session ends (AddressSanitizer's leak checker runs this).
// What it is not: torch's generators (nn.Module.parameters(): tests/torch/).
#include <doctest/doctest.h>
#include <pthread.h>
#include <signal.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "py/interpreter.h"
#include "support/cases.h"
#include "support/files.h"

namespace {

using attn::py::Interpreter;
using attn::py::ScriptError;

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

// What a case prints in a fresh session, then `error: LINE: text` if it raised.
std::string run_case(const std::string& code, double time_limit = 60) {
  Interpreter in;
  in.set_import_dir(kFolder);
  in.set_time_limit(time_limit);
  return output_of_case<ScriptError>(in, code);
}

}  // namespace

TEST_CASE("generators: every case prints what CPython printed") {
  check_cases(kFolder, "generators", [](const std::string& code) { return run_case(code); });
}

TEST_CASE("generators: the repr names the function, as CPython's (the address aside)") {
  std::string out = run_case("def gen():\n    yield 1\nprint(gen())\nprint(x for x in [])\nprint(iter([1]))\n");
  CHECK(out.rfind("<generator object gen at 0x", 0) == 0);
  CHECK(out.find("\n<generator object <genexpr> at 0x") != std::string::npos);
}

TEST_CASE("hostile generators end in one line naming the limit") {
  // Endless recursion through yield from: Python's RecursionError (or attn's stack limit).
  std::string out = run_case("def g():\n    yield from g()\nlist(g())\n");
  CHECK((out.find("RecursionError: maximum recursion depth exceeded") != std::string::npos));
  // Deep ordinary recursion inside a generator's own stack.
  out = run_case("def f(n):\n    return f(n + 1)\ndef g():\n    yield f(0)\nnext(g())\n");
  CHECK(out.find("RecursionError: maximum recursion depth exceeded") != std::string::npos);
  // Never ending: the time limit (or the step limit), here one second.
  out = run_case("def forever():\n    while True:\n        yield 1\nfor x in forever():\n    pass\n", 1);
  CHECK((out.find("TimeoutError: the cell ran longer than its time limit of 1 seconds") != std::string::npos || out.find("steps") != std::string::npos));
  // Endless items into a list: a limit, never the machine's memory.
  out = run_case("def forever():\n    while True:\n        yield 1\nlist(forever())\n", 1);
  CHECK((out.find("TimeoutError") != std::string::npos || out.find("MemoryError") != std::string::npos || out.find("steps") != std::string::npos));
  out = run_case("def forever():\n    while True:\n        yield 1\nsum(x for x in forever())\n", 1);
  CHECK((out.find("TimeoutError") != std::string::npos || out.find("steps") != std::string::npos));
  // Too many started at once.
  out = run_case("def g():\n    yield 1\n    yield 2\nkeep = []\nfor i in range(3000):\n    it = g()\n    next(it)\n    keep.append(it)\n");
  CHECK(out.find("MemoryError: more than 2,000 generators started and not finished at once") != std::string::npos);
}

TEST_CASE("generators left suspended: unwound with the session, their finally not run, nothing leaked") {
  Interpreter* in = new Interpreter;
  in->run_cell(
      "def g(xs):\n    try:\n        for x in xs:\n            yield [x] * 3\n    finally:\n        print('cleanup')\n"
      "a = g(range(5))\nnext(a)\nb = (y for y in g([1, 2]))\nnext(b)\nc = g([0])\nselfref = []\nd = g([selfref])\nselfref.append(d)\nnext(d)\n");
  CHECK(in->take_output() == "");
  delete in;   // the sanitizer build's leak checker sees what would be left
  // A generator that outlives its session is finished.
  attn::py::Value kept;
  {
    Interpreter s;
    s.run_cell("def g():\n    yield 1\n    yield 2\nit = g()\nnext(it)\n");
    kept = s.lookup("it");
  }
  CHECK(kept.kind == attn::py::Value::Instance);
}

TEST_CASE("a generator's stack switches do not disturb exceptions being handled around it") {
  std::string out = run_case(
      "def g():\n    for i in range(3):\n        try:\n            raise ValueError(i)\n        except ValueError as e:\n            yield str(e)\n"
      "try:\n    raise KeyError('outer')\nexcept KeyError:\n    for v in g():\n        try:\n            raise TypeError(v)\n        except TypeError as t:\n            print('t', t)\n"
      "    try:\n        raise\n    except KeyError as k:\n        print('still', k)\n");
  CHECK(out == "t 0\nt 1\nt 2\nstill 'outer'\n");
}

// glibc's swapcontext saved and restored the signal mask at every switch (a system call each
// way): a mask changed while a generator was suspended was undone inside it when it resumed.
// The switch carries registers only, so the generator runs under its resumer's mask (x86-64:
// elsewhere generators still switch with ucontext).
#if defined(__x86_64__)
TEST_CASE("a generator switch leaves the signal mask alone") {
  sigset_t before, usr2;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  pthread_sigmask(SIG_UNBLOCK, &usr2, &before);
  Interpreter in;
  auto probe = std::make_shared<attn::py::NamespaceObj>();
  probe->names["blocked"] = attn::py::builtin("probe.blocked", [](Interpreter&, attn::py::CallArgs&) {
    sigset_t now;
    pthread_sigmask(SIG_SETMASK, nullptr, &now);
    return attn::py::Value::boolean(sigismember(&now, SIGUSR2) == 1);
  });
  probe->names["block"] = attn::py::builtin("probe.block", [usr2](Interpreter&, attn::py::CallArgs&) {
    pthread_sigmask(SIG_BLOCK, &usr2, nullptr);
    return attn::py::Value::none();
  });
  attn::py::Value module;
  module.kind = attn::py::Value::Namespace;
  module.s = "probe";
  module.obj = probe;
  in.set_module("probe", module);
  const std::string out = output_of_case<ScriptError>(in,
      "import probe\ndef g():\n    yield probe.blocked()\n    yield probe.blocked()\nit = g()\nprint(next(it))\nprobe.block()\nprint(next(it))\n");
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  CHECK(out == "False\nTrue\n");
}
#endif
