// core/parallel.cpp: the thread pool behind parallel::run (see parallel.h).
//
// One job at a time: run() publishes (body, tasks, helpers) under a mutex and bumps a
// generation counter; the first `helpers` pool threads and the caller then take task numbers
// from an atomic counter until none are left; run() waits for the helpers before returning.
// What it is not: a scheduler with priorities or nested parallelism (a task's own run() runs
// inline), or a place where numbers are decided (parallel.h).
#include "core/parallel.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/deadline.h"

namespace attn::core::parallel {

namespace {

constexpr int kMaxThreads = 256;

thread_local bool t_in_task = false;  // nested run() calls execute inline

// ATTN_NUM_THREADS if it is a whole number in [1, kMaxThreads], else 0.
int env_threads() {
  const char* s = std::getenv("ATTN_NUM_THREADS");
  if (s == nullptr || *s == '\0') return 0;
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (*end != '\0' || v < 1) return 0;
  return static_cast<int>(v < kMaxThreads ? v : kMaxThreads);
}

int default_threads() {
  static const int n = [] {
    if (int e = env_threads(); e > 0) return e;
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : static_cast<int>(hw < kMaxThreads ? hw : kMaxThreads);
  }();
  return n;
}

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lk(m_);
      stop_ = true;
    }
    cv_work_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  void run(int64_t tasks, int threads, const std::function<void(int64_t)>& body) {
    std::lock_guard<std::mutex> one_job(run_mutex_);
    const int helpers = threads - 1;
    while (static_cast<int>(workers_.size()) < helpers) {
      const int index = static_cast<int>(workers_.size());
      workers_.emplace_back([this, index] { worker_loop(index); });
    }
    {
      std::lock_guard<std::mutex> lk(m_);
      body_ = &body;
      tasks_ = tasks;
      next_.store(0);
      helpers_ = helpers;
      pending_ = helpers;
      error_ = nullptr;
      ++generation_;
    }
    cv_work_.notify_all();
    work();
    std::unique_lock<std::mutex> lk(m_);
    cv_done_.wait(lk, [this] { return pending_ == 0; });
    body_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // Take task numbers until none are left (caller and helpers alike).
  void work() {
    t_in_task = true;
    for (int64_t t = next_.fetch_add(1); t < tasks_; t = next_.fetch_add(1)) {
      try {
        (*body_)(t);
      } catch (...) {
        std::lock_guard<std::mutex> lk(m_);
        if (!error_) error_ = std::current_exception();
      }
    }
    t_in_task = false;
  }

  void worker_loop(int index) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_work_.wait(lk, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (index >= helpers_) continue;  // this job wants fewer threads
      }
      work();
      std::lock_guard<std::mutex> lk(m_);
      if (--pending_ == 0) cv_done_.notify_one();
    }
  }

  std::mutex run_mutex_;  // one job at a time
  std::mutex m_;          // guards everything below except next_
  std::condition_variable cv_work_, cv_done_;
  std::vector<std::thread> workers_;
  const std::function<void(int64_t)>* body_ = nullptr;
  int64_t tasks_ = 0;
  std::atomic<int64_t> next_{0};
  int helpers_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

int max_threads() { return default_threads(); }

void run(int64_t tasks, int threads, const std::function<void(int64_t)>& body) {
  if (threads > kMaxThreads) threads = kMaxThreads;
  if (threads > tasks) threads = static_cast<int>(tasks);
  if (threads <= 1 || t_in_task) {
    for (int64_t t = 0; t < tasks; ++t) body(t);
    return;
  }
  // The pool's threads work under the caller's deadline (core/deadline.h) for this job.
  const auto deadline = current_deadline();
  pool().run(tasks, threads, [&](int64_t t) {
    ScopedDeadline in_task(deadline);
    body(t);
  });
}

}  // namespace attn::core::parallel
