// py/gc.h: the session's cycle collector, as CPython's gc module: frees the reference cycles of
// lesson objects (a list that holds itself, two instances that refer to each other, a recursive
// inner function stored in the scope it closes over) that reference counting alone never frees.
//
// What it is: each Interpreter owns a GcHeap; every Tracked object (value.h: lists, tuples,
// dicts, sets, instances, functions, scopes) made while that session runs code links itself into
// it. A collection subtracts, from each tracked object's use_count(), the references other
// tracked objects hold to it (their gc_traverse); an object with references left is referred to
// from outside (the C++ stack, the session's globals, an object the collector cannot see into),
// and it and everything reachable from it are live. The rest is garbage: each is cleared
// (gc_clear) while held, so its cycles break and the objects free themselves. Conservative: a
// reference the collector is not shown keeps its object alive; it never frees an object
// something outside still holds. Collections run when the tracked allocations since the last
// one reach a threshold (700, or the objects that survived the last and the references they hold,
// so the work stays linear),
// at the end of each cell, when the session ends, and for `gc.collect()`.
// Classes, bound methods and suspended generators are seen into; a suspended generator in the
// garbage is closed first (its `finally` runs with every object whole, as CPython's finaliser
// does) and the rest is freed by the next collection (Interpreter::collect_cycles runs both).
// What it is not: generational or concurrent; `__del__` never runs and weakref callbacks are not
// supported. Native payloads other than those that override gc_traverse are not seen into: a
// cycle through them stays until the session ends.
#pragma once

#include <cstddef>
#include <cstdint>

#include "py/value.h"

namespace attn::py {

class GcHeap {
 public:
  static constexpr size_t kMinThreshold = 700;   // CPython's generation-0 threshold

  GcHeap() = default;
  ~GcHeap();   // a last collection, then the objects left (held from outside) are let go
  GcHeap(const GcHeap&) = delete;
  GcHeap& operator=(const GcHeap&) = delete;

  // Frees the unreachable cycles; returns how many objects were found unreachable.
  size_t collect();
  // An automatic collection is due (enabled, and enough allocations since the last).
  bool due() const {
    return enabled_ && (allocated_ >= threshold_ || (made_ && made_() - bytes_mark_ >= bytes_threshold_));
  }
  // Native buffers the objects may hold (torch's element buffers, which py does not name): a
  // collection is also due once `made` has grown, since the last, by kMinBytes or by what `held`
  // said then, whichever is more. Both count bytes; null turns the trigger off.
  using ByteMeter = uint64_t (*)();
  static constexpr uint64_t kMinBytes = uint64_t{256} << 20;
  void set_byte_meter(ByteMeter made, ByteMeter held);
  bool allocated_since() const { return allocated_ > 0; }   // anything tracked made since the last collection
  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  size_t tracked() const { return count_; }
  size_t collections() const { return collections_; }   // run so far (what the thresholds pace)

  // The heap Tracked objects made on this thread join (null: none); CurrentScope sets it.
  static GcHeap* current();
  static void set_current(GcHeap* heap);

 private:
  friend struct Tracked;
  friend struct GcCounter;
  friend struct GcMarker;
  void link(Tracked* o);
  void unlink(Tracked* o);

  Tracked* first_ = nullptr;
  size_t count_ = 0;                  // objects linked
  size_t allocated_ = 0;              // linked since the last collection
  size_t threshold_ = kMinThreshold;
  size_t collections_ = 0;
  ByteMeter made_ = nullptr, held_ = nullptr;
  uint64_t bytes_mark_ = 0;               // made_() at the last collection
  uint64_t bytes_threshold_ = kMinBytes;
  bool enabled_ = true;
  bool collecting_ = false;
};

// The `gc` module: collect(), enable(), disable(), isenabled().
void add_gc_module(class Interpreter& in);

}  // namespace attn::py
