// fuzz/fuzz_answer.cpp: libFuzzer harness for the reader of students' answers, lab::parse_answer
// (.npy headers and data, text tables), with NaN refused and allowed. Seeds: tests/answers/,
// fuzz/corpus/answer/.
// What it is not: the grading (lab/grade.h).
#include "fuzz/harness.h"
#include "lab/answer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (bool allow_nan : {false, true})
    attn::fuzz::expect_clean_rejection([&] { attn::lab::parse_answer(bytes, "answer.npy", allow_nan); });
  return 0;
}
