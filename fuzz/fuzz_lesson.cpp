// fuzz/fuzz_lesson.cpp: libFuzzer harness for the lesson-file reader, lesson::parse_lesson
// (header, steps, fences, the `sentence = '...'` scan). Seeds: lessons/, fuzz/corpus/lesson/.
// What it is not: a run of the cells (the Python harness is fuzz_python.cpp).
#include "fuzz/harness.h"
#include "lesson/lesson_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = attn::fuzz::as_string(data, size);
  attn::fuzz::expect_clean_rejection([&] { attn::lesson::parse_lesson(text, "fuzz.lesson"); });
  return 0;
}
