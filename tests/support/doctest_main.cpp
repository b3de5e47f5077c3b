// tests/support/doctest_main.cpp: doctest's main, compiled once and linked into every test binary.
// It also keeps the learner's progress (lab/progress.h) that the attn runs of a test write out of
// the real home: XDG_STATE_HOME, when unset (a binary run by hand, not by CTest, which sets it),
// becomes ATTN_TEST_STATE_DIR in the build tree.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("XDG_STATE_HOME", ATTN_TEST_STATE_DIR, /*overwrite=*/0);
  return doctest::Context(argc, argv).run();
}
