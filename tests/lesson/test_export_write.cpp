// tests/lesson/test_export_write.cpp: what `attn export` counts as its own (lesson/export_write.h):
// the .npy files an index.json of attn's lists, and a notebook attn wrote. What it is not: the real
// binary replacing, refusing or rolling back an export (tests/cli/test_export_safety.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lesson/export_write.h"

TEST_CASE("attn_index_files and is_attn_notebook: what counts as attn's own") {
  using attn::lesson::attn_index_files;
  auto files = attn_index_files("{\n  \"lesson\": \"causal\",\n  \"cpu\": \"scalar\",\n  \"rng\": \"mkl\",\n  \"options\": {},\n  \"arrays\": [\n"
                                "    {\"file\": \"a__1__x.npy\", \"step\": \"a\"},\n    {\"file\": \"b-c__2__y_z.npy\", \"step\": \"b-c\"}\n  ]\n}\n");
  REQUIRE(files);
  CHECK(*files == std::vector<std::string>{"a__1__x.npy", "b-c__2__y_z.npy"});
  CHECK(attn_index_files("{\n  \"lesson\": \"causal\",\n  \"arrays\": []\n}\n")->empty());
  // A name that is not a plain .npy file name makes it someone else's: attn never removes ../ or /etc/...
  for (const char* bad : {"../x.npy", "/etc/passwd", "sub/x.npy", ".hidden.npy", "x.txt", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(attn_index_files(std::string("{\n  \"lesson\": \"c\",\n  \"arrays\": [\n    {\"file\": \"") + bad + "\"}\n  ]\n}\n"));
  }
  CHECK_FALSE(attn_index_files("{\"lesson\": \"causal\", \"arrays\": []}"));
  CHECK(attn::lesson::is_attn_notebook("{\n \"metadata\": {\n  \"attn\": {\n   \"cpu\": \"scalar\",\n   \"lesson\": \"causal\"\n  }\n },\n \"nbformat\": 4\n}"));
  CHECK_FALSE(attn::lesson::is_attn_notebook("{\n \"metadata\": {},\n \"nbformat\": 4\n}"));
  CHECK_FALSE(attn::lesson::is_attn_notebook("{\"attn\": {\"lesson\": \"x\"}}"));
}
