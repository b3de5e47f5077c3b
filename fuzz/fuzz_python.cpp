// fuzz/fuzz_python.cpp: libFuzzer harness for the Python lexer and parser of lesson cells,
// py::parse_program (tokenize, parse, and destroying the syntax tree). Seeds: every ```python
// cell of lessons/ (fuzz/run.sh extracts them), tests/corpus/python/, fuzz/corpus/python/.
// What it is not: the interpreter: nothing is run, so no input can loop or allocate tensors.
#include "fuzz/harness.h"
#include "py/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string source = attn::fuzz::as_string(data, size);
  attn::fuzz::expect_clean_rejection([&] { attn::py::parse_program(source); });
  return 0;
}
