// core/buffers.h: the memory under every tensor's Storage: zeroed buffers, and a bounded cache
// of the big ones so that a loop making the same big temporaries does not map, fault in and
// unmap hundreds of MB each time (issue 21: twenty `x * x` on 1024 x 3072 spent 100 of their
// 116 ms in the kernel).
//
// What it is: zeroed(bytes) / uninitialized(bytes) / release(data, bytes), the only allocation
// calls Storage makes.
// Buffers of kMapAtLeast (8 MB) or more are whole mappings; a released one is kept for reuse
// while the storage held plus the cache stays within 8 MB of the most storage held at once since
// the cache was last emptied (so the cache does not raise the peak), and is zero-filled when
// reused by zeroed(). release_cached() gives the cache back to the system and starts a new peak (a session
// calls it at every cell's end); a mapping that fails does too, then retries. Smaller buffers are
// glibc's, told to take them all from its heap and to keep some free heap (buffers.cpp keep_heap),
// so that a step's 1 to 8 MB temporaries do not fault in fresh pages every time either.
// What it is not: a general allocator, or Storage's limits and accounting (tensor.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::core::buffers {

constexpr size_t kMapAtLeast = size_t{8} << 20;

void* zeroed(size_t bytes);               // nullptr when out of memory
// The same without the zero-fill (a reused buffer keeps its old bytes): only for a caller that
// writes every byte before anything reads it (an op's output its kernel fills element by element).
void* uninitialized(size_t bytes);
void release(void* data, size_t bytes);   // data from zeroed(bytes) or uninitialized(bytes), or nullptr
void release_cached();                    // unmap every cached buffer; peak := what is live
size_t cached_bytes();                    // what the cache holds now (for tests)
uint64_t reused_count();                  // zeroed() calls the cache answered (for tests)

}  // namespace attn::core::buffers
