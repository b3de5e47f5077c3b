// tests/py/test_py_ints.cpp: Python's int in lesson cells: unbounded, never wrapping, never a signal
// (issue 9), in a py::Interpreter alone. Each expected string is what python3.11 prints for the same
// code, or the error it raises. What it is not: an int reaching torch (tests/torch/test_py_limits_torch.cpp).
#include <doctest/doctest.h>

#include <string>

#include "py/interpreter.h"

namespace {

std::string run(const std::string& code) {
  attn::py::Interpreter in;
  in.run_cell(code);
  return in.take_output();
}

std::string error_of(const std::string& code) {
  try {
    run(code);
  } catch (const attn::py::ScriptError& e) {
    return std::to_string(e.line) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("ints past 64 bits are exact, as Python's") {
  CHECK(run("print(2**200)") == "1606938044258990275541962092341162602522202993782792835301376\n");
  CHECK(run("print(2**64)") == "18446744073709551616\n");
  CHECK(run("print(9223372036854775807 + 1)") == "9223372036854775808\n");
  CHECK(run("print(int('123456789012345678901234567890'))") == "123456789012345678901234567890\n");
  CHECK(run("print(~(2**64), (2**64) >> 3, 1 << 70, (2**65) & (2**65 - 1), -(2**64) | 5)") ==
        "-18446744073709551617 2305843009213693952 1180591620717411303424 0 -18446744073709551611\n");
  CHECK(run("print({2**64: 1, 2.0**64: 2}, len({2**100, 2**100, -2**100}))") == "{18446744073709551616: 2} 2\n");   // hash(2**64) == hash(2.0**64)
  CHECK(run("print(2**63 == 2.0**63, 2**53 + 1 == 2.0**53)") == "True False\n");
  CHECK(run("print(round(12345, -2), round(2.5), 10**20 / 3)") == "12300 2 3.333333333333333e+19\n");
  CHECK(run("print(format(2**70, ','), f'{2**70:_x}')") == "1,180,591,620,717,411,303,424 40_0000_0000_0000_0000\n");
  CHECK(run("print(int(1e300) == 10**300, int(1e300) > 0)") == "False True\n");
  CHECK(run("print(str(int(1e300))[:20])") == "10000000000000000525\n");
}

TEST_CASE("INT64_MIN // -1 and % -1 are answers, not SIGFPE") {
  CHECK(run("print((-2)**63 // -1)") == "9223372036854775808\n");
  CHECK(run("print((-2)**63 % -1)") == "0\n");
  CHECK(run("print(-7 // 2, -7 % 2, 7 % -2, -7.5 // 2, -7.5 % 2)") == "-4 1 -1 -4.0 0.5\n");
  CHECK(run("print(abs(-2**63), -(-2**63))") == "9223372036854775808 9223372036854775808\n");
}

TEST_CASE("float literals past the float range are inf or 0.0, as Python reads them") {
  CHECK(run("print(1e400, -1e400, 1e-400)") == "inf -inf 0.0\n");
}

TEST_CASE("int errors are Python's, one line each") {
  CHECK(error_of("5 // 0") == "1: ZeroDivisionError: integer division or modulo by zero");
  CHECK(error_of("5 % 0") == "1: ZeroDivisionError: integer modulo by zero");
  CHECK(error_of("1.0 // 0") == "1: ZeroDivisionError: float floor division by zero");
  CHECK(error_of("float(2**1024)") == "1: OverflowError: int too large to convert to float");
  CHECK(error_of("[1] * 2**64") == "1: OverflowError: cannot fit 'int' into an index-sized integer");
  CHECK(error_of("[1, 2][2**64]") == "1: IndexError: cannot fit 'int' into an index-sized integer");
  CHECK(error_of("int(float('inf'))") == "1: OverflowError: cannot convert float infinity to integer");
  CHECK(error_of("x = str(10**5000)").rfind("1: ValueError: Exceeds the limit (4300 digits) for integer string conversion", 0) == 0);
}

TEST_CASE("an int too large to compute fails at once, naming the limit") {
  std::string e = error_of("x = 1\ny = 2**(10**18)");
  CHECK(e.rfind("2: OverflowError: int too large", 0) == 0);
  CHECK(e.find("limits::kMaxIntBits") != std::string::npos);
  CHECK(error_of("x = 10**100000").find("limits::kMaxIntBits") != std::string::npos);
}
