// core/parallel.h: a small persistent pool of std::threads for the big matrix products.
//
// What it is: `parallel::run(tasks, threads, body)` calls body(t) once for every t in
// [0, tasks), spread over at most `threads` threads (the caller is one of them), and returns
// when all are done. Tasks are handed out one at a time from a shared counter, so a core that
// another process is busy on simply takes fewer tasks.
// What it is not: a place where numbers are decided. Callers give each task its own output
// elements, so which thread runs a task (and how many threads there are) never changes a bit.
// The pool starts its threads on the first run that needs them; small work never does.
//
// Thread count: ATTN_NUM_THREADS (a whole number >= 1) if set, else
// std::thread::hardware_concurrency(). A value that is not a whole number >= 1 is ignored.
#pragma once

#include <cstdint>
#include <functional>

namespace attn::core::parallel {

// How many threads big products use unless their caller says (gemm::Config::threads):
// ATTN_NUM_THREADS, else the number of hardware threads (at least 1, at most 256). Read once;
// nothing in the process changes it afterwards.
int max_threads();

// Run body(t) for t in [0, tasks) on up to `threads` threads, the caller included. Runs
// inline when threads <= 1, tasks <= 1, or when called from inside a task. The first
// exception a task throws is rethrown here after every task has finished.
void run(int64_t tasks, int threads, const std::function<void(int64_t)>& body);

}  // namespace attn::core::parallel
