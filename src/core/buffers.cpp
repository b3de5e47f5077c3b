// core/buffers.cpp: zeroed and uninitialised tensor buffers and the bounded cache of big ones (buffers.h).
//
// What it is: calloc (malloc when uninitialised) for small buffers, from glibc's heap; for
// kMapAtLeast or more, anonymous mappings populated up front (chunk by chunk with a look at the
// deadline when huge), kept on release in a short list while they fit under the peak, and
// zero-filled again when reused for a zeroed buffer; any allocation that fails gives the cache
// back and tries once more. What it is not: the storage limits or their
// messages (tensor.cpp's Storage).
#include "core/buffers.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#ifdef __linux__
#include <malloc.h>
#include <sys/mman.h>
#endif

#include "core/deadline.h"

namespace attn::core::buffers {

namespace {

// Bytes held by live buffers (a mapping counts its whole length) and the most ever held at once.
std::atomic<size_t> t_live{0}, t_peak{0}, t_cached{0};
std::atomic<uint64_t> t_reused{0};

void add_live(size_t bytes) {
  const size_t now = t_live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  size_t peak = t_peak.load(std::memory_order_relaxed);
  while (now > peak && !t_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

#ifdef __linux__
// Buffers of 8 MB or more (a GPT-2-size layer's attention matrices are 48 MB at T = 1024, 805 MB
// at 4096) are mapped with MAP_POPULATE: the kernel hands over all their zeroed pages in one
// call instead of one page fault per 4 KB on first touch. Every op writes the whole of what it
// allocates, so nothing is mapped that would not have been touched anyway (as in PyTorch, whose
// zeros() writes every element). Measured on the layer at T = 4096 (tools/bench_mha.sh): 2.3 s
// of CPU instead of 2.9 s, the same peak RSS. (2 MB pages, MADV_HUGEPAGE, were slower here:
// compaction.)
//
// Populating a mapping of GBs takes seconds in the kernel (issue 20: an op on an expand()ed
// 30000 x 30000 view overran --time-limit by 3 s in MAP_POPULATE alone), so one of more than two
// chunks is populated a chunk at a time (MADV_POPULATE_WRITE, Linux 5.14), with a look at the
// deadline (core/deadline.h) after each; an older kernel leaves the rest to page faults. A
// reused buffer is zero-filled in the same chunks.
constexpr size_t kHeader = 64;   // the mapping's length, before the buffer; keeps it 64-byte aligned
constexpr size_t kChunk = size_t{64} << 20;
constexpr size_t kMaxCached = 64;   // mappings: a GPT block's forward+backward at T = 1024 holds 30 or more big ones at once
constexpr size_t kSlack = kMapAtLeast;
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

size_t length_of(const char* base) { return *reinterpret_cast<const size_t*>(base); }

// The cached mappings, oldest first. Never destroyed: tensors die during static destruction too.
struct Cache {
  std::mutex mutex;
  std::vector<char*> bases;
};
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

// Removes and returns the oldest cached mapping while `too_much()` holds; nullptr when none.
template <class Pred>
char* pop_oldest_if(Pred too_much) {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  if (c.bases.empty() || !too_much()) return nullptr;
  char* base = c.bases.front();
  c.bases.erase(c.bases.begin());
  t_cached.fetch_sub(length_of(base), std::memory_order_relaxed);
  return base;
}

// True when live + `extra` + cached would be more than kSlack over the peak. The slack lets the
// small tensors of a loop's step (a scalar, a mask) come and go without evicting the big ones.
bool over_peak(size_t extra) {
  return t_live.load(std::memory_order_relaxed) + extra + t_cached.load(std::memory_order_relaxed) >
         t_peak.load(std::memory_order_relaxed) + kSlack;
}

// Unmaps cached mappings, oldest first, while live + `extra` + cached is over the peak.
void trim(size_t extra) {
  while (t_cached.load(std::memory_order_relaxed) != 0) {
    char* base = pop_oldest_if([extra] { return over_peak(extra); });
    if (base == nullptr) return;
    munmap(base, length_of(base));
  }
}

// A cached mapping of `length` to `length + length/8` bytes (the smallest), or nullptr.
char* take(size_t length) {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  auto best = c.bases.end();
  for (auto it = c.bases.begin(); it != c.bases.end(); ++it) {
    const size_t have = length_of(*it);
    if (have >= length && have <= length + length / 8 && (best == c.bases.end() || have < length_of(*best))) best = it;
  }
  if (best == c.bases.end()) return nullptr;
  char* base = *best;
  c.bases.erase(best);
  t_cached.fetch_sub(length_of(base), std::memory_order_relaxed);
  return base;
}

// Keeps a released mapping if it fits under the peak and the list has room; false: unmap it.
bool keep(char* base) {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  const size_t length = length_of(base);
  if (c.bases.size() >= kMaxCached || over_peak(length)) return false;
  c.bases.push_back(base);
  t_cached.fetch_add(length, std::memory_order_relaxed);
  return true;
}

// Runs fill(at, n) over [0, length) in kChunk pieces, looking at the deadline after each when
// there are more than two; on DeadlineExceeded the mapping is unmapped and the error goes on.
template <class Fill>
void in_chunks(char* base, size_t length, Fill fill) {
  const bool look = length > 2 * kChunk;
  for (size_t at = 0; at < length; at += kChunk) {
    fill(at, std::min(kChunk, length - at));
    if (!look) continue;
    try {
      check_deadline();
    } catch (...) {
      munmap(base, length);
      throw;
    }
  }
}

char* map_fresh(size_t length) {
  const bool chunked = length > 2 * kChunk;
  void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (chunked ? 0 : MAP_POPULATE), -1, 0);
  if (p == MAP_FAILED) return nullptr;
  char* base = static_cast<char*>(p);
  if (chunked) in_chunks(base, length, [base](size_t at, size_t n) { madvise(base + at, n, MADV_POPULATE_WRITE); });
  *reinterpret_cast<size_t*>(base) = length;
  return base;
}

// A mapping of at least bytes + kHeader: a cached one (zero-filled again when `clear`), else fresh.
void* mapping(size_t bytes, bool clear) {
  const size_t length = bytes + kHeader;
  if (char* base = take(length)) {
    char* data = base + kHeader;
    if (clear) {
      in_chunks(base, length_of(base), [data, bytes](size_t at, size_t n) {
        if (at < bytes) std::memset(data + at, 0, std::min(n, bytes - at));
      });
    }
    add_live(length_of(base));
    t_reused.fetch_add(1, std::memory_order_relaxed);
    return data;
  }
  trim(length);
  char* base = map_fresh(length);
  if (base == nullptr) {
    release_cached();
    base = map_fresh(length);
    if (base == nullptr) return nullptr;
  }
  add_live(length);
  return base + kHeader;
}
#endif

}  // namespace

namespace {
#ifdef __linux__
// Below kMapAtLeast, glibc's heap: every such buffer from the heap (not mmap from 128 KB up, as
// glibc's adaptive threshold starts), and up to 4 x kMapAtLeast of free heap kept at its top
// rather than given back, so a training step's 1 to 8 MB temporaries (a (1024, 768) activation
// is 3 MB) do not fault in fresh pages every step. Setting either turns glibc's adaptation off.
bool keep_heap() {
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMapAtLeast));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(4 * kMapAtLeast));
  return true;
}
#endif

// zeroed() and uninitialized(): calloc or malloc below kMapAtLeast, a mapping from kMapAtLeast.
void* allocate(size_t bytes, bool clear) {
#ifdef __linux__
  static const bool heap_kept = keep_heap();
  (void)heap_kept;
  if (bytes >= kMapAtLeast) return mapping(bytes, clear);
  add_live(bytes);
  if (t_cached.load(std::memory_order_relaxed) != 0) trim(0);
#endif
  void* data = clear ? std::calloc(bytes, 1) : std::malloc(bytes);
#ifdef __linux__
  if (data == nullptr && t_cached.load(std::memory_order_relaxed) != 0) {   // the cache gives way first
    release_cached();
    data = clear ? std::calloc(bytes, 1) : std::malloc(bytes);
  }
  if (data == nullptr) t_live.fetch_sub(bytes, std::memory_order_relaxed);
#endif
  return data;
}
}  // namespace

void* zeroed(size_t bytes) { return allocate(bytes, true); }
void* uninitialized(size_t bytes) { return allocate(bytes, false); }

void release(void* data, size_t bytes) {
  if (data == nullptr) return;
#ifdef __linux__
  if (bytes >= kMapAtLeast) {
    char* base = static_cast<char*>(data) - kHeader;
    const size_t length = length_of(base);
    t_live.fetch_sub(length, std::memory_order_relaxed);
    if (!keep(base)) munmap(base, length);
    return;
  }
  t_live.fetch_sub(bytes, std::memory_order_relaxed);
#endif
  std::free(data);
}

void release_cached() {
#ifdef __linux__
  while (char* base = pop_oldest_if([] { return true; })) munmap(base, length_of(base));
  t_peak.store(t_live.load(std::memory_order_relaxed), std::memory_order_relaxed);   // the next cell's own peak
#endif
}

size_t cached_bytes() { return t_cached.load(std::memory_order_relaxed); }
uint64_t reused_count() { return t_reused.load(std::memory_order_relaxed); }

}  // namespace attn::core::buffers
