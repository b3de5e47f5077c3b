// tests/lesson/test_export.cpp: what `attn export` writes, made in the lesson layer
// (lesson/export.h, lesson/export_write.h). The .npy bytes are compared with what numpy.save
// (1.24.2, Debian 12) wrote for the same arrays, byte for byte; the notebook's JSON is checked for
// its nbformat structure without a parser; and what export counts as its own (an index.json of
// attn's, a notebook attn wrote). What it is not: the real binary writing, replacing or refusing
// (tests/cli/test_export_cli.cpp, tests/cli/test_export_safety.cpp), or `attn completion`.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/ops.h"
#include "lesson/catalog.h"
#include "lesson/export.h"
#include "lesson/export_write.h"

namespace {

using namespace attn;

// What numpy.save writes: magic, version 1.0, header length, the header dict, `spaces` spaces
// (numbers read from numpy's own files), a newline, then the data bytes.
std::string numpy_file(const std::string& dict, size_t spaces, const std::string& data) {
  std::string header = dict + std::string(spaces, ' ') + "\n";
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

const lesson::Lesson& causal() {
  static std::vector<lesson::Lesson> all = lesson::load_catalog(lesson::lesson_dir());
  return lesson::find_lesson(all, "causal");
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t k = hay.find(needle); k != std::string::npos; k = hay.find(needle, k + 1)) ++n;
  return n;
}

}  // namespace

// ---- .npy ----

TEST_CASE(".npy bytes are numpy.save's, for each dtype") {
  using core::DType;
  // np.save(f, np.array([1.5, -2.0, 0.1], dtype=np.float32))
  CHECK(lesson::npy_bytes(core::from_floats({3}, {1.5f, -2.0f, 0.1f})) ==
        numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 60,
                   std::string("\x00\x00\xc0\x3f\x00\x00\x00\xc0\xcd\xcc\xcc\x3d", 12)));
  // np.save(f, np.array([[0, 1, -1], [2**40, 5, -7]], dtype=np.int64))
  CHECK(lesson::npy_bytes(core::from_ints({2, 3}, {0, 1, -1, int64_t(1) << 40, 5, -7})) ==
        numpy_file("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", 58,
                   std::string("\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00"
                               "\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\x01\x00\x00"
                               "\x05\x00\x00\x00\x00\x00\x00\x00\xf9\xff\xff\xff\xff\xff\xff\xff",
                               48)));
  // np.save(f, np.array([[True, False, True]]))
  CHECK(lesson::npy_bytes(core::from_ints({1, 3}, {1, 0, 1}, DType::boolean)) ==
        numpy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (1, 3), }", 58, std::string("\x01\x00\x01", 3)));
  // np.save(f, np.array(np.float32(-0.0))): a 0-d array gets no room to grow
  CHECK(lesson::npy_bytes(core::scalar(-0.0f)) ==
        numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 62, std::string("\x00\x00\x00\x80", 4)));
  // np.save(f, np.array([[inf], [-inf]], dtype=np.float32)): a masked score is -inf
  float inf = std::numeric_limits<float>::infinity();
  CHECK(lesson::npy_bytes(core::from_floats({2, 1}, {inf, -inf})) ==
        numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }", 58,
                   std::string("\x00\x00\x80\x7f\x00\x00\x80\xff", 8)));
  // np.save(f, np.zeros((1234567, 0), np.float32)): a long first axis uses up its growth room
  CHECK(lesson::npy_bytes(core::from_floats({1234567, 0}, {})) ==
        numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1234567, 0), }", 52, ""));
  // numpy's header for shape (0, 123456789012, 123456789012, 123456789012) outgrows 128 bytes
  core::Tensor wide = core::empty({0, 123456789012, 123456789012, 123456789012});
  std::string w = lesson::npy_bytes(wide);
  CHECK(w == numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 123456789012, 123456789012, 123456789012), }", 83, ""));
  CHECK(w.size() == 192);
}

TEST_CASE(".npy bytes of the narrower integer dtypes are numpy.save's") {
  using core::DType;
  // np.save(f, np.array([0, 255, 7], dtype=np.uint8))
  CHECK(lesson::npy_bytes(core::from_ints({3}, {0, 255, 7}, DType::uint8)) ==
        numpy_file("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", 60, std::string("\x00\xff\x07", 3)));
  // np.save(f, np.array([-128, 127, -1], dtype=np.int8))
  CHECK(lesson::npy_bytes(core::from_ints({3}, {-128, 127, -1}, DType::int8)) ==
        numpy_file("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }", 60, std::string("\x80\x7f\xff", 3)));
  // np.save(f, np.array([[-32768, 300, -2]], dtype=np.int16))
  CHECK(lesson::npy_bytes(core::from_ints({1, 3}, {-32768, 300, -2}, DType::int16)) ==
        numpy_file("{'descr': '<i2', 'fortran_order': False, 'shape': (1, 3), }", 58, std::string("\x00\x80\x2c\x01\xfe\xff", 6)));
  // np.save(f, np.array([[-2**31, 2**31 - 1], [-5, 70000]], dtype=np.int32)), written from a transposed view
  const core::Tensor t = core::transpose(core::from_ints({2, 2}, {-2147483648LL, -5, 2147483647, 70000}, DType::int32), 0, 1);
  CHECK(lesson::npy_bytes(t) ==
        numpy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", 58,
                   std::string("\x00\x00\x00\x80\xff\xff\xff\x7f\xfb\xff\xff\xff\x70\x11\x01\x00", 16)));
  CHECK(lesson::numpy_dtype(DType::uint8) == "uint8");
  CHECK(lesson::numpy_dtype(DType::int32) == "int32");
}

TEST_CASE("every .npy header ends at a multiple of 64 bytes, with a newline") {
  for (core::Shape shape : std::vector<core::Shape>{{}, {1}, {6}, {6, 6}, {2, 6, 6}, {2, 2, 6, 6}, {50000, 3}, {1024, 1024}}) {
    CAPTURE(core::shape_str(shape));
    core::Tensor t = core::zeros(shape);
    std::string b = lesson::npy_bytes(t);
    size_t header_end = 10 + (static_cast<unsigned char>(b[8]) | static_cast<unsigned char>(b[9]) << 8);
    CHECK(header_end % 64 == 0);
    CHECK(b[header_end - 1] == '\n');
    CHECK(b.size() == header_end + 4 * static_cast<size_t>(t.numel()));
  }
}

TEST_CASE("printed expressions become file-name parts") {
  CHECK(lesson::sanitise_name("attn_weights") == "attn_weights");
  CHECK(lesson::sanitise_name("sa(x)") == "sa_x");
  CHECK(lesson::sanitise_name("attn_weights.sum(dim=1)") == "attn_weights_sum_dim_1");
  CHECK(lesson::sanitise_name("x @ W_query") == "x_W_query");
  CHECK(lesson::sanitise_name("_") == "value");
  CHECK(lesson::sanitise_name("") == "value");
  CHECK(lesson::sanitise_name("ω₂") == "value");
  CHECK(lesson::sanitise_name("torch.softmax(attn_scores / d_out_kq**0.5, dim=1)") == "torch_softmax_attn_scores_d_out_kq_0_5_dim_1");
  CHECK(lesson::sanitise_name(std::string(60, 'a') + "(x)").size() == 48);
  CHECK(lesson::sanitise_name(std::string(47, 'a') + ".b") == std::string(47, 'a'));   // no trailing '_'
}

TEST_CASE("the causal lesson's tensors: file names and index.json") {
  lesson::RunOptions opts;
  opts.seed = "42";
  lesson::LessonRun run = lesson::run_lesson(causal(), opts);
  auto arrays = lesson::list_arrays(run);
  REQUIRE(arrays.size() == 7);
  CHECK(arrays[0].file == "scores__1__attn_scores.npy");
  CHECK(arrays[2].file == "tril__1__mask_simple.npy");
  CHECK(arrays[6].file == "softmax-masked__1__attn_weights.npy");
  CHECK(arrays[6].shape == core::Shape{6, 6});
  CHECK(arrays[6].dtype == "float32");
  std::string index = lesson::index_json(run, opts, arrays);
  // The seed is a number, as in the lesson JSON (issue 10: it was the string "42").
  CHECK(index.rfind("{\n  \"lesson\": \"causal\",\n  \"cpu\": \"scalar\",\n  \"rng\": \"mkl\",\n  \"options\": {\"seed\": 42},\n  \"arrays\": [\n", 0) == 0);
  CHECK(index.find("    {\"file\": \"neg-inf__1__masked.npy\", \"step\": \"neg-inf\", \"cell\": 1, \"name\": \"masked\", \"shape\": [6, 6], "
                   "\"dtype\": \"float32\"},\n") != std::string::npos);
  CHECK(index.ends_with("\"dtype\": \"float32\"}\n  ]\n}\n"));
}

// ---- notebook ----

TEST_CASE("the notebook: nbformat 4.5, markdown prose, code as run, attn's output beside it") {
  lesson::RunOptions opts;
  opts.seed = "42";
  lesson::LessonRun run = lesson::run_lesson(causal(), opts);
  std::string nb = lesson::notebook_json(run, opts, "attn export causal --notebook causal.ipynb --seed 42");
  CHECK(nb.rfind("{\n \"cells\": [\n", 0) == 0);
  CHECK(nb.ends_with("\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"));
  CHECK(nb.find("\"kernelspec\": {\n   \"display_name\": \"Python 3\",\n   \"language\": \"python\",\n   \"name\": \"python3\"\n  }") !=
        std::string::npos);
  // one code cell per lesson cell, plus the kernel pin of a scalar-kernel lesson
  size_t cells = 0;
  for (const auto& s : causal().steps) cells += s.cells.size();
  CHECK(count(nb, "\"cell_type\": \"code\"") == cells + 1);
  CHECK(count(nb, "\"execution_count\": null") == cells + 1);
  CHECK(count(nb, "\"outputs\": []") == cells + 1);
  // markdown: the title, how it was made, each step's prose, and what attn printed under 7 cells
  CHECK(count(nb, "\"cell_type\": \"markdown\"") == 2 + causal().steps.size() + 7);
  CHECK(nb.find("    \"# Causal self-attention: hiding the future\\n\",\n") != std::string::npos);
  CHECK(nb.find("Made by `attn export causal --notebook causal.ipynb --seed 42`") != std::string::npos);
  CHECK(nb.find("    \"## tril: A lower-triangular mask of ones\\n\",\n") != std::string::npos);
  CHECK(nb.find("    \"os.environ[\\\"ATEN_CPU_CAPABILITY\\\"] = \\\"default\\\"\"\n") != std::string::npos);
  // the code as it ran: --seed 42 applied in the setup cell and the others; the last line has no "\n"
  CHECK(nb.find("\"id\": \"setup-1\",\n   \"metadata\": {\n    \"tags\": [\n     \"setup\"\n    ]\n   },") != std::string::npos);
  CHECK(count(nb, "    \"torch.manual_seed(42)\\n\",\n") == 2);
  CHECK(nb.find("\"torch.manual_seed(123)\\n\"") == std::string::npos);
  CHECK(nb.find("    \"print(attn_weights)\"\n   ]") != std::string::npos);
  CHECK(nb.find("    \"attn printed:\\n\",\n    \"\\n\",\n    \"```text\\n\",\n    \"tensor([[1., 0., 0., 0., 0., 0.],\\n\",") !=
        std::string::npos);
  // cell ids are unique
  std::vector<std::string> ids;
  for (size_t k = nb.find("\"id\": \""); k != std::string::npos; k = nb.find("\"id\": \"", k + 1))
    ids.push_back(nb.substr(k + 7, nb.find('"', k + 7) - k - 7));
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  CHECK(ids.size() == count(nb, "\"cell_type\""));
  // brackets balance outside strings: a cheap stand-in for "it parses"
  int depth = 0, min_depth = 0, controls = 0;
  bool in_str = false;
  for (size_t k = 0; k < nb.size(); ++k) {
    char c = nb[k];
    if (in_str) {
      if (c == '\\') ++k;
      else if (c == '"') in_str = false;
      else controls += static_cast<unsigned char>(c) < 0x20;   // JSON strings escape these
    } else if (c == '"') in_str = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') min_depth = std::min(min_depth, --depth);
  }
  CHECK(depth == 0);
  CHECK(min_depth == 0);
  CHECK_FALSE(in_str);
  CHECK(controls == 0);
}

TEST_CASE("an AVX2 lesson's notebook has no kernel pin; a dropout lesson's names its mask") {
  std::vector<lesson::Lesson> all = lesson::load_catalog(lesson::lesson_dir());
  lesson::RunOptions opts;
  lesson::LessonRun run = lesson::run_lesson(lesson::find_lesson(all, "dropout"), opts);
  std::string nb = lesson::notebook_json(run, opts, "attn export dropout --notebook d.ipynb");
  CHECK(nb.find("ATEN_CPU_CAPABILITY") == std::string::npos);
  CHECK(nb.find("with its AVX2 CPU kernels (`--cpu avx2`)") != std::string::npos);
  CHECK(nb.find("**Dropout:** attn drew the masks as PyTorch builds with MKL do on Intel CPUs (`--rng mkl`") != std::string::npos);
}

// ---- what counts as attn's own ----

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
