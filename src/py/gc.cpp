// py/gc.cpp: the cycle collector (see gc.h): the heap's list of tracked objects, a collection,
// and the `gc` module.
#include "py/gc.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::py {

namespace {

thread_local GcHeap* current_heap = nullptr;

enum GcState : int { kIdle = 0, kCounting = 1, kReachable = 2 };

}  // namespace

GcHeap* GcHeap::current() { return current_heap; }
void GcHeap::set_current(GcHeap* heap) { current_heap = heap; }

Tracked::Tracked() {
  gc_tracked = true;
  if (current_heap) current_heap->link(this);
}

Tracked::Tracked(const Tracked& other) : Obj(other), std::enable_shared_from_this<Tracked>(other) {
  gc_tracked = true;
  if (current_heap) current_heap->link(this);
}

Tracked::~Tracked() {
  if (gc_heap) gc_heap->unlink(this);
}

void GcHeap::link(Tracked* o) {
  o->gc_heap = this;
  o->gc_prev = nullptr;
  o->gc_next = first_;
  if (first_) first_->gc_prev = o;
  first_ = o;
  ++count_;
  ++allocated_;
}

void GcHeap::unlink(Tracked* o) {
  if (o->gc_prev) o->gc_prev->gc_next = o->gc_next;
  else first_ = o->gc_next;
  if (o->gc_next) o->gc_next->gc_prev = o->gc_prev;
  o->gc_heap = nullptr;
  --count_;
}

// The object `held` is, if it is one of this collection's candidates; else null.
static Tracked* gc_candidate(const GcHeap* heap, Obj* held) {
  if (!held || !held->gc_tracked) return nullptr;
  auto* t = static_cast<Tracked*>(held);
  return t->gc_heap == heap && t->gc_state != kIdle ? t : nullptr;
}

// Subtracts each reference a candidate holds to another from that one's count.
struct GcCounter final : GcVisitor {
  const GcHeap* heap;
  explicit GcCounter(const GcHeap* h) : heap(h) {}
  void visit(Obj* held) override {
    if (Tracked* t = gc_candidate(heap, held)) --t->gc_refs;
  }
};

// Marks what a live object reaches as live, with its own stack (no recursion on deep values).
struct GcMarker final : GcVisitor {
  const GcHeap* heap;
  std::vector<Tracked*> todo;
  size_t visits = 0;   // references the live objects hold: what the next collection looks at again
  explicit GcMarker(const GcHeap* h) : heap(h) {}
  // Returns the references the live candidates hold (what the next collection will look at again).
  static size_t find_garbage(GcHeap& heap, std::vector<Tracked*>& all, std::vector<std::shared_ptr<Tracked>>& garbage);
  void visit(Obj* held) override {
    ++visits;
    Tracked* t = gc_candidate(heap, held);
    if (!t || t->gc_state == kReachable) return;
    t->gc_state = kReachable;
    todo.push_back(t);
  }
};

// The candidates (every linked object a shared_ptr owns; use_count 0: being freed, or not owned
// by one, so never a candidate and what it holds counts as held from outside) into `all`, and
// those nothing outside reaches, held, into `garbage`.
size_t GcMarker::find_garbage(GcHeap& heap, std::vector<Tracked*>& all, std::vector<std::shared_ptr<Tracked>>& garbage) {
  all.reserve(heap.count_);
  for (Tracked* o = heap.first_; o; o = o->gc_next) {
    const long n = o->weak_from_this().use_count();
    if (n <= 0) continue;
    o->gc_refs = n;
    o->gc_state = kCounting;
    all.push_back(o);
  }
  GcCounter counter(&heap);
  for (Tracked* o : all) o->gc_traverse(counter);
  GcMarker marker(&heap);
  for (Tracked* o : all)
    if (o->gc_refs > 0 && o->gc_state == kCounting) {
      o->gc_state = kReachable;
      marker.todo.push_back(o);
    }
  while (!marker.todo.empty()) {
    Tracked* o = marker.todo.back();
    marker.todo.pop_back();
    o->gc_traverse(marker);
  }
  for (Tracked* o : all)
    if (o->gc_state == kCounting) garbage.push_back(o->shared_from_this());
  return marker.visits;
}

size_t GcHeap::collect() {
  if (collecting_) return 0;
  collecting_ = true;
  ++collections_;
  std::vector<Tracked*> all;
  std::vector<std::shared_ptr<Tracked>> garbage;
  size_t references = 0;
  try {
    references = GcMarker::find_garbage(*this, all, garbage);
  } catch (...) {   // no memory for the lists: nothing is cleared, the states are reset
    for (Tracked* o : all) o->gc_state = kIdle;
    collecting_ = false;
    throw;
  }
  for (Tracked* o : all) o->gc_state = kIdle;
  all = {};   // from here on objects are freed: no raw pointer to them is kept
  bool finalized = false;   // a finaliser queued work that needs the garbage whole: clear nothing now
  // Oldest first (the heap links new objects at its head), as CPython's finalize_garbage goes:
  // the generators are closed in the order they are handed over.
  for (auto o = garbage.rbegin(); o != garbage.rend(); ++o) finalized = (*o)->gc_finalize() || finalized;
  if (!finalized)
    for (const auto& o : garbage) o->gc_clear();
  const size_t found = garbage.size();
  garbage.clear();   // the cycles are broken: each frees itself
  allocated_ = 0;
  // The next is due after as many allocations as what survived (objects, and the references
  // they hold): a million-item list kept alive costs a million visits a collection, so a loop
  // making small objects beside it stays linear. (The garbage's own references are paid for
  // by the allocations that made it.)
  threshold_ = std::max({kMinThreshold, count_, references});
  if (made_) {
    bytes_mark_ = made_();
    bytes_threshold_ = std::max(kMinBytes, held_ ? held_() : 0);
  }
  collecting_ = false;
  return found;
}

void GcHeap::set_byte_meter(ByteMeter made, ByteMeter held) {
  made_ = made;
  held_ = held;
  bytes_mark_ = made_ ? made_() : 0;
}

GcHeap::~GcHeap() {
  try {
    collect();
  } catch (...) {   // out of memory for the lists: what is left is only not freed
  }
  while (first_) unlink(first_);
}

void add_gc_module(Interpreter& in) {
  in.add_module("gc", [](Interpreter&) {
    auto ns = std::make_shared<NamespaceObj>();
    ns->names["collect"] = builtin("gc.collect", [](Interpreter& i, CallArgs& a) {
      if (a.pos.size() > 1 || !a.kw.empty()) throw TypeError(fmt::format("collect() takes at most 1 argument ({} given)", a.pos.size() + a.kw.size()));
      return Value::integer(static_cast<int64_t>(i.collect_cycles()));
    });
    ns->names["enable"] = builtin("gc.enable", [](Interpreter& i, CallArgs& a) {
      no_args(a, "enable");
      i.gc().set_enabled(true);
      return Value::none();
    });
    ns->names["disable"] = builtin("gc.disable", [](Interpreter& i, CallArgs& a) {
      no_args(a, "disable");
      i.gc().set_enabled(false);
      return Value::none();
    });
    ns->names["isenabled"] = builtin("gc.isenabled", [](Interpreter& i, CallArgs& a) {
      no_args(a, "isenabled");
      return Value::boolean(i.gc().enabled());
    });
    return module_value("gc", ns);
  });
}

}  // namespace attn::py
