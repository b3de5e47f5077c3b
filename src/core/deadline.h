// core/deadline.h: the wall-clock deadline of the work running on this thread, which the long
// kernels look at so that ONE huge op (a 5000 x 10000 @ 10000 x 5000 product, an einsum over
// 10^11 terms) stops near the caller's time limit instead of running on for minutes (issue 9).
//
// What it is: a per-thread deadline (none by default), set for a scope by ScopedDeadline
// (py::Interpreter sets it for each cell from --time-limit), carried into the pool's threads by
// parallel::run, and check_deadline(), which throws DeadlineExceeded once it has passed. The
// kernels call it between blocks of work (a block of a matrix product, a stretch of an einsum, a
// row of a softmax), never per element: the cost is a clock read every few milliseconds, and no
// number changes. DeadlineMeter is the cheap form for element loops: it counts the elements done
// and looks at the clock once per kDeadlineStride of them (for_each_offset, the elementwise maps,
// the sums, sort, cumsum and cat use it), so an op over an expand()ed 30000 x 30000 view stops
// near the limit too (issue 20). What it is not: a limit of its own (the caller names and words it).
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>

namespace attn::core {

using DeadlineClock = std::chrono::steady_clock;

// Thrown by check_deadline(); `seconds` is the limit ScopedDeadline was given, for the message.
struct DeadlineExceeded : std::runtime_error {
  double seconds;
  explicit DeadlineExceeded(double s) : std::runtime_error("the time limit has passed"), seconds(s) {}
};

namespace detail {
struct Deadline {
  DeadlineClock::time_point at = DeadlineClock::time_point::max();   // max: no deadline
  double seconds = 0;
};
inline thread_local Deadline t_deadline;
}  // namespace detail

// This thread's deadline, to hand to another thread (parallel::run does).
inline detail::Deadline current_deadline() { return detail::t_deadline; }

inline void check_deadline() {
  const detail::Deadline& d = detail::t_deadline;
  if (d.at != DeadlineClock::time_point::max() && DeadlineClock::now() > d.at) throw DeadlineExceeded(d.seconds);
}

// Elements between two looks at the clock in a DeadlineMeter: a fraction of a millisecond of the
// cheapest loop, so the clock read (~20 ns) costs nothing measurable and the limit holds to ms.
inline constexpr int64_t kDeadlineStride = int64_t{1} << 18;

// add(n) after n elements of work; past kDeadlineStride of them since the last look, check_deadline().
class DeadlineMeter {
 public:
  void add(int64_t work) {
    left_ -= work;
    if (left_ < 0) {
      left_ = kDeadlineStride;
      check_deadline();
    }
  }

 private:
  int64_t left_ = kDeadlineStride;
};

// Sets this thread's deadline until the end of the scope (then the previous one again).
class ScopedDeadline {
 public:
  explicit ScopedDeadline(detail::Deadline d) : previous_(detail::t_deadline) { detail::t_deadline = d; }
  ScopedDeadline(DeadlineClock::time_point at, double seconds) : ScopedDeadline(detail::Deadline{at, seconds}) {}
  ~ScopedDeadline() { detail::t_deadline = previous_; }
  ScopedDeadline(const ScopedDeadline&) = delete;
  ScopedDeadline& operator=(const ScopedDeadline&) = delete;

 private:
  detail::Deadline previous_;
};

}  // namespace attn::core
