// tools/bench_gemm.cpp: how fast attn's exact matrix products are, against this machine's
// sgemm peak (OpenBLAS, when installed), with 1 and 2 threads.
//
// What it is: a benchmark, built as attn_bench_gemm and never run by ctest. For each size it
// prints the best GFLOP/s (2*m*n*k / seconds) over a few runs of attn's products (core/gemm),
// for each thread count, by wall time and per busy core (by CPU time, see best_time), and the
// same for OpenBLAS's cblas_sgemm loaded with dlopen: the machine's peak for comparison (FMA
// and its own summation order, so its bits differ from attn's; that is why attn does not just
// call it). It also checks that attn's result is the same bits for every thread count, and
// times the naive reference loop on the small sizes.
// What it is not: a test (nothing here can fail a build) or a benchmark of whole lessons.
//
// Usage: attn_bench_gemm [--sizes 128,512,1024,3000] [--threads 1,2] [--openblas PATH|none]
//                        [--seconds S] [--naive-max N] [--no-shapes] [--path avx2|portable]
// Besides the square sizes it times the products of a GPT-2-size attention layer at T = 1024
// and a 4096 x 4096 matrix-vector product (--no-shapes skips them).
// OpenBLAS: apt-get install libopenblas0-pthread (then keep the reference BLAS as the system
// default: update-alternatives --set libblas.so.3-x86_64-linux-gnu
// /usr/lib/x86_64-linux-gnu/blas/libblas.so.3, and the same for liblapack.so.3).
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/kernels/linalg.h"
#include "core/parallel.h"

namespace {

using namespace attn::core;

struct Options {
  std::vector<int64_t> sizes{128, 512, 1024, 3000};
  std::vector<int> threads{1, 2};
  std::string openblas = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0";
  double seconds = 0.5;     // keep re-running a size until this much time is spent (>= 1 run)
  int64_t naive_max = 512;  // time the reference loop on products up to naive_max^3
  bool shapes = true;       // also the attention-layer and matrix-vector shapes
  gemm::Path path = gemm::Path::automatic;
};

std::vector<int64_t> parse_list(const char* s) {
  std::vector<int64_t> out;
  for (const char* p = s; *p;) {
    char* end = nullptr;
    out.push_back(std::strtoll(p, &end, 10));
    if (end == p || out.back() < 1) {
      std::fprintf(stderr, "attn_bench_gemm: expected a list of positive numbers like 128,512, got '%s'\n", s);
      std::exit(2);
    }
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-shapes") {
      o.shapes = false;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "attn_bench_gemm: %s needs a value (see the header of tools/bench_gemm.cpp)\n", a.c_str());
      std::exit(2);
    }
    const char* v = argv[++i];
    if (a == "--sizes") o.sizes = parse_list(v);
    else if (a == "--threads") {
      o.threads.clear();
      for (int64_t t : parse_list(v)) o.threads.push_back(static_cast<int>(t));
    } else if (a == "--openblas") o.openblas = v;
    else if (a == "--seconds") o.seconds = std::atof(v);
    else if (a == "--naive-max") o.naive_max = parse_list(v).at(0);
    else if (a == "--path" && (std::strcmp(v, "avx2") == 0 || std::strcmp(v, "portable") == 0))
      o.path = std::strcmp(v, "avx2") == 0 ? gemm::Path::avx2 : gemm::Path::portable;
    else {
      std::fprintf(stderr, "attn_bench_gemm: unknown option %s (--sizes, --threads, --openblas, --seconds, --naive-max, --no-shapes, --path avx2|portable)\n", a.c_str());
      std::exit(2);
    }
  }
  return o;
}

// The best wall time and the best process CPU time of `run`, in seconds, over as many runs as
// fit in `budget` (at least one). On a machine shared with other work, wall time counts the
// time the kernel spent descheduled; CPU time (all threads) does not, so flop / CPU second is
// the speed per busy core whatever else runs.
struct Timing {
  double wall = 1e300, cpu = 1e300;
};

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

Timing best_time(const std::function<void()>& run, double budget) {
  Timing best;
  double spent = 0;
  do {
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best.wall = std::min(best.wall, s);
    best.cpu = std::min(best.cpu, cpu_seconds() - c0);
    spent += s;
  } while (spent < budget);
  return best;
}

// OpenBLAS through dlopen, so the build needs no BLAS headers or link flags.
struct OpenBlas {
  using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                         float*, int);
  using Sgemv = void (*)(int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
  Sgemm sgemm = nullptr;
  Sgemv sgemv = nullptr;
  void (*set_threads)(int) = nullptr;
  char* (*corename)() = nullptr;

  explicit OpenBlas(const std::string& path) {
    if (path == "none") return;
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      std::printf("OpenBLAS: not loaded (%s); install libopenblas0-pthread to compare\n", dlerror());
      return;
    }
    sgemm = reinterpret_cast<Sgemm>(dlsym(h, "cblas_sgemm"));
    sgemv = reinterpret_cast<Sgemv>(dlsym(h, "cblas_sgemv"));
    set_threads = reinterpret_cast<void (*)(int)>(dlsym(h, "openblas_set_num_threads"));
    corename = reinterpret_cast<char* (*)()>(dlsym(h, "openblas_get_corename"));
    if (sgemm == nullptr || sgemv == nullptr || set_threads == nullptr) sgemm = nullptr;
  }
  // C(m,n) = A(m,k) @ B(k,n), row-major (CblasRowMajor = 101, CblasNoTrans = 111).
  void matmul(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) const {
    sgemm(101, 111, 111, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0f, a,
          static_cast<int>(k), b, static_cast<int>(n), 0.0f, c, static_cast<int>(n));
  }
  // y(m) = A(m,k) @ x(k)
  void matvec(int64_t m, int64_t k, const float* a, const float* x, float* y) const {
    sgemv(101, 111, static_cast<int>(m), static_cast<int>(k), 1.0f, a, static_cast<int>(k), x, 1, 0.0f, y, 1);
  }
};

std::vector<float> random_matrix(int64_t rows, int64_t cols, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(rows * cols));
  for (float& x : v) x = dist(gen);
  return v;
}

std::string one_decimal(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

// One product to time: batch x (m,k) @ (k,n); matvec: (m,k) @ (k) (n = 1).
struct Case {
  std::string label;
  int64_t batch, m, k, n;
  bool matvec = false;
  double flop() const { return 2.0 * batch * m * k * n; }
};

// The square sizes asked for, then the products of a GPT-2-size attention layer at T = 1024
// (768 wide, 12 heads of 64) and the two matrix-vector shapes.
std::vector<Case> cases(const Options& o) {
  std::vector<Case> out;
  for (int64_t s : o.sizes) out.push_back({std::to_string(s) + "^3", 1, s, s, s});
  if (!o.shapes) return out;
  out.push_back({"x@W 1024x768x2304", 1, 1024, 768, 2304});
  out.push_back({"q@kT 12x1024x64x1024", 12, 1024, 64, 1024});
  out.push_back({"w@v 12x1024x1024x64", 12, 1024, 1024, 64});
  out.push_back({"vecmat 4096x4096", 1, 1, 4096, 4096});
  out.push_back({"matvec 4096x4096", 1, 4096, 4096, 1, true});
  return out;
}

struct Operands {
  std::vector<float> a, b, c;
  std::vector<int64_t> oa, ob;
  explicit Operands(const Case& x)
      : a(random_matrix(x.batch * x.m, x.k, 1)), b(random_matrix(x.batch * x.k, x.n, 2)),
        c(static_cast<size_t>(x.batch * x.m * x.n)) {
    for (int64_t q = 0; q < x.batch; ++q) {
      oa.push_back(q * x.m * x.k);
      ob.push_back(q * x.k * x.n);
    }
  }
};

// attn's product with the default split, on the path and thread count of `cfg`.
void run_attn(const Case& x, Operands& d, const gemm::Config& cfg) {
  if (x.matvec) return gemm::matvec(x.m, x.k, d.a.data(), x.k, d.b.data(), d.c.data(), cfg);
  gemm::batched_matmul(x.batch, x.m, x.n, x.k, {d.a.data(), x.k, 1}, d.oa.data(), {d.b.data(), x.n, 1},
                       d.ob.data(), d.c.data(), cfg);
}

void run_naive(const Case& x, Operands& d) {
  if (x.matvec) return kernels::reference::matvec(d.a.data(), d.b.data(), d.c.data(), x.m, x.k);
  for (int64_t q = 0; q < x.batch; ++q)
    kernels::reference::matmul(d.a.data() + d.oa[q], d.b.data() + d.ob[q], d.c.data() + q * x.m * x.n, x.m, x.k, x.n);
}

void run_blas(const OpenBlas& blas, const Case& x, Operands& d, std::vector<float>& c) {
  if (x.matvec) return blas.matvec(x.m, x.k, d.a.data(), d.b.data(), c.data());
  for (int64_t q = 0; q < x.batch; ++q)
    blas.matmul(x.m, x.n, x.k, d.a.data() + d.oa[q], d.b.data() + d.ob[q], c.data() + q * x.m * x.n);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const OpenBlas blas(o.openblas);
  std::printf("attn gemm path: %s; threads by default (ATTN_NUM_THREADS or hardware): %d\n",
              gemm::resolve(o.path) == gemm::Path::avx2 ? "avx2" : "portable",
              parallel::max_threads());
  if (blas.sgemm && blas.corename) std::printf("OpenBLAS core: %s\n", blas.corename());
  std::printf("%-22s %7s %12s %12s %12s %12s %9s\n", "product", "threads", "attn GFLOP/s", "per core",
              "OpenBLAS", "per core", "same bits");
  std::vector<std::string> summary;  // attn per core against OpenBLAS's single-core speed
  for (const Case& x : cases(o)) {
    Operands d(x);
    std::vector<float> first;
    double blas_single = 0;  // OpenBLAS, 1 thread, per core: the peak this product is held to
    for (int t : o.threads) {
      const gemm::Config cfg{.path = o.path, .threads = t};
      const Timing attn = best_time([&] { run_attn(x, d, cfg); }, o.seconds);
      if (first.empty()) first = d.c;
      const bool same = std::memcmp(first.data(), d.c.data(), d.c.size() * sizeof(float)) == 0;
      std::string ob = "-", ob_core = "-";
      if (blas.sgemm) {
        blas.set_threads(t);
        std::vector<float> c(d.c.size());
        const Timing b = best_time([&] { run_blas(blas, x, d, c); }, o.seconds);
        if (t == 1) blas_single = x.flop() / b.cpu / 1e9;
        ob = one_decimal(x.flop() / b.wall / 1e9);
        ob_core = one_decimal(x.flop() / b.cpu / 1e9);
      }
      std::printf("%-22s %7d %12.1f %12.1f %12s %12s %9s\n", x.label.c_str(), t, x.flop() / attn.wall / 1e9,
                  x.flop() / attn.cpu / 1e9, ob.c_str(), ob_core.c_str(), same ? "yes" : "NO");
      if (blas_single > 0)
        summary.push_back(x.label + ", " + std::to_string(t) + " thread(s): " +
                          one_decimal(100 * x.flop() / attn.cpu / 1e9 / blas_single) + "%");
      if (t == o.threads.front() && x.flop() <= 2.0 * o.naive_max * o.naive_max * o.naive_max)
        std::printf("%-22s %7d %12.1f   (the naive reference loop)\n", x.label.c_str(), 1,
                    x.flop() / best_time([&] { run_naive(x, d); }, 0).wall / 1e9);
    }
  }
  if (!summary.empty()) std::printf("\nattn per core as a share of OpenBLAS with 1 thread (per core), same product:\n");
  for (const std::string& line : summary) std::printf("  %s\n", line.c_str());
  return 0;
}
