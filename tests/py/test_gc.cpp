// tests/py/test_gc.cpp: the session's cycle collector (py/gc.h) in a py::Interpreter alone: an
// unreachable cycle is cleared and freed; a cycle still referred to (from a lesson variable, from
// the C++ stack, from an object the collector cannot see into) is left whole; objects that
// outlive their session are let go safely. What it is not: the hostile programs that leaked
// before (tests/hostile/hostile.sh runs them, under LeakSanitizer in CI).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "py/gc.h"
#include "py/interpreter.h"

namespace {

using attn::py::CurrentScope;
using attn::py::Interpreter;
using attn::py::Value;

// A list that holds itself and `extra`: [extra, <itself>].
Value self_list(const Value& extra) {
  Value a = Value::list({extra});
  attn::py::as_seq(a).push_back(a);
  return a;
}

std::string run(Interpreter& in, const std::string& code) {
  in.run_cell(code);
  return in.take_output();
}

}  // namespace

TEST_CASE("gc: an unreachable cycle is cleared and freed, a list and an instance's") {
  Interpreter in;
  const CurrentScope running(in);
  Value a = self_list(Value::integer(1));
  std::weak_ptr<attn::py::Obj> weak = a.obj;
  a = Value::none();
  CHECK_FALSE(weak.expired());   // the cycle holds itself
  CHECK(in.gc().collect() == 1);
  CHECK(weak.expired());
  CHECK(run(in, "import gc\nclass A:\n    pass\nx = A()\ny = A()\nx.o = y\ny.o = x\ndel x, y\nprint(gc.collect())\n") == "4\n");
}

TEST_CASE("gc: a cycle a lesson variable refers to is left whole") {
  Interpreter in;
  CHECK(run(in, "import gc\na = [1]\na.append(a)\nd = {}\nd['me'] = d\nprint(gc.collect())\n") == "0\n");
  CHECK(run(in, "print(a[0], a[1] is a, d['me'] is d)\n") == "1 True True\n");
}

TEST_CASE("gc: a cycle the C++ side refers to is left whole, with what it reaches") {
  Interpreter in;
  const CurrentScope running(in);
  const Value inner = self_list(Value::str("inner"));
  const Value outer = self_list(inner);   // held on the C++ stack, reaching `inner`'s cycle
  Value garbage = self_list(outer);       // dropped: only its own cycle goes
  std::weak_ptr<attn::py::Obj> weak = garbage.obj;
  garbage = Value::none();
  CHECK(in.gc().collect() == 1);
  CHECK(weak.expired());
  REQUIRE(attn::py::as_seq(outer).size() == 2);
  CHECK(attn::py::as_seq(outer)[1].obj == outer.obj);
  REQUIRE(attn::py::as_seq(inner).size() == 2);
  CHECK(attn::py::as_seq(inner)[0].s == "inner");
}

TEST_CASE("gc: a reference the collector cannot see into keeps the cycle alive") {
  Interpreter in;
  const CurrentScope running(in);
  Value a = self_list(Value::integer(7));
  const Value holder = attn::py::builtin("holder", [a](Interpreter&, attn::py::CallArgs&) { return a; });
  std::weak_ptr<attn::py::Obj> weak = a.obj;
  a = Value::none();
  CHECK(in.gc().collect() == 0);
  REQUIRE_FALSE(weak.expired());
  CHECK(attn::py::as_seq(Value{Value::List, false, 0, 0, "", weak.lock()}).size() == 2);
}

TEST_CASE("gc: recursive inner functions are freed during the run, not piled up to the end") {
  Interpreter in;
  run(in, "def f(n):\n    def g(k):\n        return k if k < 1 else g(k - 1)\n    return g(n)\nf(1)\n");
  in.gc().collect();
  const size_t before = in.gc().tracked();
  CHECK(run(in, "s = 0\nfor i in range(20000):\n    s += f(2)\nprint(s)\n") == "0\n");
  CHECK(in.gc().tracked() < before + 50);
}

TEST_CASE("gc: automatic collections, and gc.disable() stopping them") {
  Interpreter in;
  CHECK(run(in, "import gc\nfor i in range(5000):\n    a = [i]\n    a.append(a)\nprint(gc.isenabled())\n") == "True\n");
  CHECK(in.gc().tracked() < 2 * attn::py::GcHeap::kMinThreshold);
  const size_t before = in.gc().tracked();
  in.run_cell("gc.disable()\nfor i in range(5000):\n    a = [i]\n    a.append(a)\nn = len(a)\n");   // the cell's end still collects
  CHECK(in.gc().tracked() < before + 50);
  CHECK(run(in, "print(gc.isenabled(), n)\n") == "False 2\n");
}

TEST_CASE("gc: a big live list paces the collections, so a loop making small objects beside it stays linear") {
  Interpreter in;
  in.run_cell("big = list(range(300000))\n");
  const size_t before = in.gc().collections();
  CHECK(run(in, "n = 0\nfor i in range(30000):\n    x = [i]\n    n += len(x)\nprint(n)\n") == "30000\n");
  // each collection looks at the 300,000 items, so the next waits for as many allocations:
  // none during the loop but the cell's own at its end (one every 700 made it 43, and quadratic)
  CHECK(in.gc().collections() - before <= 3);
}

TEST_CASE("gc: objects that outlive their session are let go safely") {
  Value kept;
  {
    Interpreter in;
    const CurrentScope running(in);
    kept = self_list(Value::integer(3));
    run(in, "a = [1]\na.append(a)\n");
  }
  CHECK(attn::py::as_seq(kept).size() == 2);
  attn::py::as_seq(kept).clear();   // breaks its own cycle: freed, with no heap to unlink from
}
