// py/generator.cpp: Python's generators: generator functions (`yield`, `yield from`, send, throw,
// close, `return x` as StopIteration.value), generator expressions, and the iterator protocol
// every lazy consumer uses (Interpreter::iter / next).
//
// What it is: each generator runs its code on a C++ stack of its own (a hand-written switch on
// x86-64, ucontext elsewhere), so a `yield` anywhere in a tree-walking interpreter's recursion
// suspends it as it is: the stack keeps the half-evaluated expressions and statements; resuming
// switches back to it. The interpreter's
// per-run state (scopes, the exceptions being handled, the module) is swapped at each switch, as
// CPython swaps a generator's frame and exception state. No threads: one stack runs at a time, on
// the same thread (torch's grad mode is thread-local). AddressSanitizer is told of every switch
// (its fiber annotations); check_stack guards the generator's stack while it runs, so deep
// recursion inside a generator ends in the same one-line RecursionError as elsewhere. A generator
// dropped while suspended is closed when the running statement ends (its `finally` runs, as
// CPython's finaliser does); one still suspended when the session ends is unwound without running
// Python code. What it is not: coroutines (async/await), gi_frame and the other introspection
// attributes, or a limit on generators beyond limits::kMaxLiveGenerators.
#include <fmt/format.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>

#include "py/exceptions.h"
#include "py/interpreter.h"

#if defined(__SANITIZE_ADDRESS__)
#define ATTN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_ASAN 1
#endif
#endif
#ifdef ATTN_ASAN
#include <dlfcn.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace attn::py {

namespace {

// One switch between contexts. On x86-64, a hand-written switch (below): it saves the registers
// a call preserves and the FPU/SSE control words, and nothing else, where glibc's swapcontext also
// saves and restores the signal mask (two rt_sigprocmask system calls per switch, four per
// yield-and-resume). Elsewhere, ucontext (ATTN_PORTABLE_SWITCH forces it on x86-64 too). Under
// AddressSanitizer the ucontext path calls libc's swapcontext itself: ASan's interceptor of it
// prints a warning on stderr at the first switch and clears the target stack's shadow, which the
// fiber annotations around every switch and the unpoisoning of a stack when it is given back
// already do.
#if defined(__x86_64__) && defined(__ELF__) && !defined(ATTN_PORTABLE_SWITCH)
#define ATTN_ASM_SWITCH 1
#endif

#ifdef ATTN_ASM_SWITCH
// attn_py_switch(save, to): pushes rbp, rbx, r12-r15 and the x87 control word and MXCSR, stores
// the stack pointer in *save, loads `to` and pops the same from there. attn_py_start is where a
// new context's first switch returns to: it calls r13(r12) on a 16-byte aligned stack; the
// function never returns (a generator's main ends by switching away for good).
extern "C" void attn_py_switch(void** save, void* to);
extern "C" void attn_py_start();
asm(R"(
  .text
  .p2align 4
  .globl attn_py_switch
  .hidden attn_py_switch
  .type attn_py_switch, @function
attn_py_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw (%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  fldcw (%rsp)
  ldmxcsr 8(%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size attn_py_switch, .-attn_py_switch
  .p2align 4
  .globl attn_py_start
  .hidden attn_py_start
  .type attn_py_start, @function
attn_py_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size attn_py_start, .-attn_py_start
  .section .note.GNU-stack,"",@progbits
  .text
)");

}  // namespace

// Outside the anonymous namespace, as GenStack below: GenFrame holds two.
struct Context {
  void* sp = nullptr;   // its saved stack pointer while it is not running
};

namespace {

void switch_context(Context* from, const Context* to) { attn_py_switch(&from->sp, to->sp); }

// A context that, switched to, runs fn(arg) on [base, base + size): the frame attn_py_switch
// pops, with attn_py_start as its return address, the current control words, rbp 0 (the end of
// a frame-pointer walk).
void make_context(Context& c, char* base, size_t size, void (*fn)(void*), void* arg) {
  auto top = reinterpret_cast<uintptr_t>(base + size) & ~uintptr_t{15};
  auto* frame = reinterpret_cast<uint64_t*>(top - 88);   // 16 control + 6 registers + return address, then 8 spare
  uint16_t fpcw = 0;
  uint32_t mxcsr = 0;
  asm volatile("fnstcw %0" : "=m"(fpcw));
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  frame[0] = fpcw;
  frame[1] = mxcsr;
  frame[2] = 0;                                           // r15
  frame[3] = 0;                                           // r14
  frame[4] = reinterpret_cast<uint64_t>(fn);              // r13
  frame[5] = reinterpret_cast<uint64_t>(arg);             // r12
  frame[6] = 0;                                           // rbx
  frame[7] = 0;                                           // rbp
  frame[8] = reinterpret_cast<uint64_t>(&attn_py_start);  // returned to: rsp is then top - 16
  c.sp = frame;
}
#else
using Context = ucontext_t;
#ifdef ATTN_ASAN
void switch_context(ucontext_t* from, const ucontext_t* to) {
  using Fn = int (*)(ucontext_t*, const ucontext_t*);
  static const Fn libc = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "swapcontext"));
  libc ? libc(from, to) : swapcontext(from, to);
}
#else
void switch_context(ucontext_t* from, const ucontext_t* to) { swapcontext(from, to); }
#endif

void start_trampoline(unsigned lo, unsigned hi) {
  auto fn = reinterpret_cast<void (*)(void*)>(reinterpret_cast<uintptr_t*>((static_cast<uintptr_t>(hi) << 32) | lo)[0]);
  void* arg = reinterpret_cast<void**>((static_cast<uintptr_t>(hi) << 32) | lo)[1];
  fn(arg);
}

// makecontext passes ints: the two pointers go through `call`, which must outlive the first switch.
void make_context(ucontext_t& c, char* base, size_t size, void (*fn)(void*), void* arg) {
  thread_local void* call[2];
  call[0] = reinterpret_cast<void*>(fn);
  call[1] = arg;
  getcontext(&c);
  c.uc_stack.ss_sp = base;
  c.uc_stack.ss_size = size;
  c.uc_link = nullptr;
  auto p = reinterpret_cast<uintptr_t>(&call[0]);
  makecontext(&c, reinterpret_cast<void (*)()>(&start_trampoline), 2, static_cast<unsigned>(p & 0xffffffffu), static_cast<unsigned>(p >> 32));
}
#endif

// A generator's stack: kStackMargin of it is check_stack's margin, the rest its Python's depth.
#ifdef ATTN_ASAN
constexpr size_t kStackBytes = size_t{8} << 20;   // AddressSanitizer's frames are several times larger
#else
constexpr size_t kStackBytes = size_t{2} << 20;
#endif
constexpr size_t kGuardBytes = 64 * 1024;          // an unmapped page range below it: an overflow faults
constexpr size_t kPoolSize = 256;                   // stacks kept for the next generators
constexpr size_t kKeptBytes = 64 * 1024;           // of a pooled stack, the top stays resident

}  // namespace

// Outside the anonymous namespace: GenFrame (declared in interpreter.h) holds one, and GCC's
// -Wsubobject-linkage warns about that when this file is part of a unity batch.
struct GenStack {
  char* map = nullptr;   // the mapping, guard included
  char* base = nullptr;  // lowest usable address
  size_t size = 0;
};

namespace {

using Stack = GenStack;

thread_local std::vector<Stack> stack_pool;

Stack take_stack() {
  if (!stack_pool.empty()) {
    Stack s = stack_pool.back();
    stack_pool.pop_back();
    return s;
  }
  void* m = mmap(nullptr, kStackBytes + kGuardBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (m == MAP_FAILED) throw MemoryError("attn could not map a stack for a generator");
  Stack s;
  s.map = static_cast<char*>(m);
  mprotect(s.map, kGuardBytes, PROT_NONE);
  s.base = s.map + kGuardBytes;
  s.size = kStackBytes;
  return s;
}

void give_stack(Stack s) {
  if (!s.map) return;
#ifdef ATTN_ASAN
  ASAN_UNPOISON_MEMORY_REGION(s.base, s.size);   // frames that never returned left their redzones
#endif
  if (stack_pool.size() >= kPoolSize) {
    munmap(s.map, kStackBytes + kGuardBytes);
    return;
  }
  // A pool of stacks: a loop making generators a collection frees in batches maps none. Only
  // the top of each stays resident; what a deep recursion touched below it goes back.
  madvise(s.base, s.size - kKeptBytes, MADV_DONTNEED);
  stack_pool.push_back(s);
}

// Unwinds a generator's stack when the session ends: a limit, so no except, finally or with
// runs Python code on the way out.
struct Unwind : LimitError {
  Unwind() : LimitError(0, "the session ended") {}
};

const ClassPtr& generator_class();

}  // namespace

// One generator's execution: its code, its stack, what it exchanges with whoever resumes it, and
// the interpreter's state that is its own while it is suspended.
struct GenFrame {
  Interpreter* in = nullptr;                      // null once the session has ended
  std::function<void(Interpreter&, GenFrame&)> body;   // runs on the generator's stack
  std::string qualname;                           // "f", "A.items", "<genexpr>"
  std::shared_ptr<Scope> scope;                   // its locals (cut when it is unwound: cycles)
  std::weak_ptr<NamespaceObj> module;             // weak: a module's names hold the generator
  std::string file;
  enum State { created, suspended, running, finished } state = created;
  // Exchanged at each switch.
  Value sent;                                     // in: what send() passes (None for next())
  std::exception_ptr thrown;                      // in: raised at the yield (throw(), close())
  bool killing = false;                           // in: unwind, running no Python
  bool yielded = false;                           // out: true: `value` was yielded; false: it returned
  Value value;
  std::exception_ptr error;                       // out: raised out of its code
  // Values its suspended C++ stack works on that hold other values: a generator expression's
  // iterable, the iterator a `yield from` delegates to. They live here, not in copies on the
  // stack, so that the collector sees them (a list holding a generator over itself is a cycle).
  std::vector<Value> held;
  bool finalizing = false;   // queued to be closed by the collector (GeneratorObj::gc_finalize)
  // The interpreter's state that is the generator's own while it is suspended.
  std::vector<std::shared_ptr<Scope>> frames;
  std::vector<std::exception_ptr> handling;
  std::shared_ptr<NamespaceObj> globals;
  std::string cur_file;
  int augmenting = 0;
  GenFrame* outer_gen = nullptr;
  // The stack and the two contexts.
  Stack stack;
  Context self{}, caller{};
  void* fake_stack = nullptr;                     // AddressSanitizer's fake stack of the generator
  const void* caller_bottom = nullptr;            // the resumer's stack, for the switch back
  size_t caller_size = 0;

  ~GenFrame() { give_stack(stack); }
  void arrived() {   // on the generator's stack, after a switch into it
#ifdef ATTN_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, &caller_bottom, &caller_size);
#endif
  }
  void leave(bool final) {   // from the generator's stack to its resumer's
#ifdef ATTN_ASAN
    __sanitizer_start_switch_fiber(final ? nullptr : &fake_stack, caller_bottom, caller_size);
#else
    (void)final;
#endif
    switch_context(&self, &caller);
    arrived();
  }
  static void main(void* frame);
};

void GenFrame::main(void* frame) {
  auto* g = static_cast<GenFrame*>(frame);
  g->arrived();
  try {
    if (g->killing) throw Unwind();
    if (g->thrown) std::rethrow_exception(std::exchange(g->thrown, nullptr));
    g->body(*g->in, *g);
  } catch (...) {
    g->error = std::current_exception();
  }
  g->state = finished;
  g->yielded = false;
  g->leave(true);
}

// The Python object: `<generator object f at 0x...>`, of class generator.
// The collector sees a suspended or unstarted generator's locals (an object holding a generator
// over its own method, `self.it = self.items()`, is a cycle): clearing it hands the frame over as
// dropping it would (closed when the statement ends), which lets go of the locals.
struct GeneratorObj : InstanceObj {
  GenFrame* frame = nullptr;
  ~GeneratorObj() override;
  void gc_traverse(GcVisitor& visit) override;
  void gc_clear() override;
  bool gc_finalize() override;
  static void let_go(GenFrame* frame);   // as dropping it: closed later, or freed through the trashcan
};

namespace {
// A frame to delete, as an object the trashcan can queue.
struct FrameRelease : Obj {
  GenFrame* frame;
  explicit FrameRelease(GenFrame* f) : frame(f) {}
  ~FrameRelease() override { delete frame; }
};
}  // namespace

void GeneratorObj::let_go(GenFrame* frame) {
  if (frame && frame->state == GenFrame::suspended && frame->in) {
    frame->in->dropped_gens_.push_back({frame, nullptr});   // closed when the statement ends: its finally runs
    return;
  }
  // Through the trashcan: a generator over a generator over ... 100,000 deep (each frame holds the
  // one it iterates) frees one frame at a time, not by recursion.
  if (frame) release_later(std::make_shared<FrameRelease>(frame));
}

GeneratorObj::~GeneratorObj() { let_go(frame); }

void GeneratorObj::gc_traverse(GcVisitor& visit) {
  InstanceObj::gc_traverse(visit);
  if (!frame || frame->state == GenFrame::running) return;   // a running one is held by the stack running it
  visit(frame->scope);
  for (const auto& s : frame->frames) visit(s);
  for (const Value& v : frame->held) visit(v);
}

void GeneratorObj::gc_clear() { let_go(std::exchange(frame, nullptr)); }

// Suspended: closed when the statement ends (or by collect_cycles at once), its frame still its
// own and the object kept alive till then, so a `finally` that stores the generator somewhere
// live finds it whole (CPython's resurrection), and one that steps another generator of the
// cycle finds that one whole too. Closed, it is finished: the next collection clears it.
bool GeneratorObj::gc_finalize() {
  if (!frame || frame->state != GenFrame::suspended || !frame->in) return false;
  if (frame->finalizing) return true;   // queued by an earlier collection, not closed yet
  frame->finalizing = true;
  frame->in->dropped_gens_.push_back({frame, shared_from_this()});
  return true;
}

size_t Interpreter::collect_cycles() {
  size_t found = gc_.collect();
  if (!dropped_gens_.empty()) {   // generators among the garbage: closed now, then the rest freed
    close_dropped();
    found += gc_.collect();
  }
  return found;
}

namespace {

int generator_tag;

GenFrame* frame_of(const Value& v) {
  auto* g = native_cast<GeneratorObj>(v, &generator_tag);
  return g ? g->frame : nullptr;
}

bool is_stop_iteration(const std::exception_ptr& e, Value* value = nullptr) {
  try {
    std::rethrow_exception(e);
  } catch (const PyError& p) {
    if (!is_instance_of(p, "StopIteration")) return false;
    if (value) {
      const Value* v = static_cast<InstanceObj*>(p.exc().obj.get())->find("value");
      *value = v ? *v : Value::none();
    }
    return true;
  } catch (...) {
  }
  return false;
}

bool is_class(const std::exception_ptr& e, const char* cls) {
  try {
    std::rethrow_exception(e);
  } catch (const PyError& p) {
    return is_instance_of(p, cls);
  } catch (...) {
  }
  return false;
}

}  // namespace

// Runs `g` until it yields or ends. The resumer's state is put aside, the generator's own put
// in place (its scopes go on top of the resumer's, as a called frame's do), and back after.
void Interpreter::resume(GenFrame& g) {
  if (g.state == GenFrame::running) throw ValueError("generator already executing");
  if (!g.killing && frames_.size() > 200) throw RecursionError("maximum recursion depth exceeded");   // calls.cpp's kMaxCallDepth
  g.in = this;
  if (g.state == GenFrame::created) {
    if (!g.killing && live_gens_.size() >= limits::kMaxLiveGenerators)
      collect_cycles();   // suspended generators in unreachable cycles are closed first, as CPython frees them
    if (!g.killing && live_gens_.size() >= limits::kMaxLiveGenerators)
      throw LimitError(0, fmt::format("MemoryError: more than {} generators started and not finished at once (attn's limit, "
                                      "limits::kMaxLiveGenerators)", with_commas(limits::kMaxLiveGenerators)));
    g.stack = take_stack();
    make_context(g.self, g.stack.base, g.stack.size, &GenFrame::main, &g);
    live_gens_.push_back(&g);
  }
  const size_t frames_base = frames_.size(), handling_base = handling_.size();
  std::shared_ptr<NamespaceObj> globals = globals_;
  std::string file = file_;
  const int augmenting = augmenting_item_;
  GenFrame* outer = gen_;
  for (auto& f : g.frames) frames_.push_back(std::move(f));
  for (auto& h : g.handling) handling_.push_back(std::move(h));
  g.frames.clear();
  g.handling.clear();
  if (g.globals) {
    globals_ = std::move(g.globals);
    file_ = std::move(g.cur_file);
  }
  augmenting_item_ = g.augmenting;
  gen_ = &g;
  g.state = GenFrame::running;
  uintptr_t floor = set_stack_floor(reinterpret_cast<uintptr_t>(g.stack.base) + kStackMargin);
#ifdef ATTN_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, g.stack.base, g.stack.size);
#endif
  switch_context(&g.caller, &g.self);
#ifdef ATTN_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  set_stack_floor(floor);
  for (size_t k = frames_base; k < frames_.size(); ++k) g.frames.push_back(std::move(frames_[k]));
  frames_.resize(frames_base);
  for (size_t k = handling_base; k < handling_.size(); ++k) g.handling.push_back(std::move(handling_[k]));
  handling_.resize(handling_base);
  g.globals = std::move(globals_);
  g.cur_file = std::move(file_);
  g.augmenting = augmenting_item_;
  globals_ = std::move(globals);
  file_ = std::move(file);
  augmenting_item_ = augmenting;
  gen_ = outer;
  if (g.state == GenFrame::running) g.state = GenFrame::suspended;
  if (g.state == GenFrame::finished) {
    live_gens_.erase(std::remove(live_gens_.begin(), live_gens_.end(), &g), live_gens_.end());
    give_stack(std::exchange(g.stack, Stack{}));
    g.frames.clear();
    g.handling.clear();
    g.globals.reset();
    std::shared_ptr<Scope> scope = std::move(g.scope);   // (a closure made inside keeps the scope)
    auto body = std::move(g.body);
    if (g.killing && scope) {
      // The session is over: cut cycles through its locals. What they free may free this very
      // generator (a cycle through its own locals), so `g` is not touched after this.
      std::map<std::string, Value> vars = std::move(scope->vars);
      scope->vars.clear();
    }
  }
}

// `yield v` in the running generator: hands v to the resumer and waits; what comes back is
// send()'s value, or throw()'s exception raised here.
Value Interpreter::yield_value(Value v) {
  GenFrame* g = gen_;
  if (!g) throw SyntaxError("'yield' outside function");
  g->value = std::move(v);
  g->yielded = true;
  g->leave(false);
  if (g->killing) throw Unwind();
  if (g->thrown) std::rethrow_exception(std::exchange(g->thrown, nullptr));
  return std::exchange(g->sent, Value::none());
}

namespace {

// One step of `g`: send `sent` (or raise `thrown` at its yield); the yielded value, or nullopt
// when it returned (its value in g.value). An exception out of it propagates.
std::optional<Value> step(Interpreter& in, GenFrame& g, Value sent, std::exception_ptr thrown);

}  // namespace

class GenAccess {
 public:
  static void resume(Interpreter& in, GenFrame& g) { in.resume(g); }
};

namespace {

std::optional<Value> step(Interpreter& in, GenFrame& g, Value sent, std::exception_ptr thrown) {
  if (g.state == GenFrame::finished) {
    if (thrown) std::rethrow_exception(thrown);
    g.value = Value::none();
    return std::nullopt;
  }
  if (g.state == GenFrame::created && !sent.is_none())
    throw TypeError("can't send non-None value to a just-started generator");
  g.sent = std::move(sent);
  g.thrown = std::move(thrown);
  g.error = nullptr;
  GenAccess::resume(in, g);
  if (g.yielded) return std::exchange(g.value, Value::none());
  if (std::exception_ptr e = std::exchange(g.error, nullptr)) {
    // PEP 479: a StopIteration raised inside a generator is a RuntimeError out of it, raised
    // where it was resumed (the generator's frame is gone from its traceback), with the
    // StopIteration as its __cause__ (as `raise ... from`: __suppress_context__ set too).
    if (is_stop_iteration(e)) {
      PyError converted = RuntimeError("generator raised StopIteration");
      try {
        std::rethrow_exception(e);
      } catch (const PyError& stop) {
        inst(converted.exc()).set("__cause__", stop.exc());
        inst(converted.exc()).set("__suppress_context__", Value::boolean(true));
      }
      throw converted;
    }
    std::rethrow_exception(e);
  }
  return std::nullopt;
}

Value stop_iteration(const Value& value) {
  return value.is_none() ? new_exception("StopIteration", {}) : new_exception("StopIteration", {value});
}

GenFrame& self_frame(CallArgs& a, const char* name) {
  GenFrame* g = a.pos.empty() ? nullptr : frame_of(a.pos[0]);
  if (!g) throw TypeError(fmt::format("descriptor '{}' for 'generator' objects doesn't apply to this object", name));
  return *g;
}

Value gen_send(Interpreter& in, CallArgs& a) {
  GenFrame& g = self_frame(a, "send");
  if (a.pos.size() != 2 || !a.kw.empty()) throw TypeError(fmt::format("generator.send() takes exactly one argument ({} given)", a.pos.size() - 1));
  Value keep = a.pos[0];
  if (std::optional<Value> v = step(in, g, a.pos[1], nullptr)) return *v;
  throw PyError(stop_iteration(std::exchange(g.value, Value::none())));
}

Value gen_next(Interpreter& in, CallArgs& a) {
  GenFrame& g = self_frame(a, "__next__");
  Value keep = a.pos[0];
  if (std::optional<Value> v = step(in, g, Value::none(), nullptr)) return *v;
  throw PyError(stop_iteration(std::exchange(g.value, Value::none())));
}

// throw(exc) / throw(cls) / throw(cls, value): raised at the yield the generator waits at.
Value gen_throw(Interpreter& in, CallArgs& a) {
  GenFrame& g = self_frame(a, "throw");
  if (a.pos.size() < 2 || a.pos.size() > 4 || !a.kw.empty())
    throw TypeError(fmt::format("throw expected at least 1 argument, got {}", a.pos.size() - 1));
  Value keep = a.pos[0];
  Value exc = a.pos[1];
  if (exc.kind == Value::Class && is_exception_class(std::static_pointer_cast<ClassObj>(exc.obj))) {
    CallArgs c;
    if (a.pos.size() > 2 && !a.pos[2].is_none()) {
      if (is_exception(a.pos[2])) exc = a.pos[2];
      else c.pos.push_back(a.pos[2]);
    }
    if (exc.kind == Value::Class) exc = in.call(exc, c);
  } else if (!is_exception(exc)) {
    throw TypeError("exceptions must be classes or instances deriving from BaseException, not " + type_name(exc));
  } else if (a.pos.size() > 2 && !a.pos[2].is_none()) {
    throw TypeError("instance exception may not have a separate value");
  }
  std::exception_ptr thrown = std::make_exception_ptr(PyError(exc));
  if (g.state == GenFrame::created) {   // never started: it ends, and the exception comes straight out
    g.state = GenFrame::finished;
    std::rethrow_exception(thrown);
  }
  if (std::optional<Value> v = step(in, g, Value::none(), thrown)) return *v;
  throw PyError(stop_iteration(std::exchange(g.value, Value::none())));
}

// close(): GeneratorExit at its yield; it must end (return, or raise GeneratorExit/StopIteration).
void close_frame(Interpreter& in, GenFrame& g) {
  if (g.state == GenFrame::created) g.state = GenFrame::finished;
  if (g.state != GenFrame::suspended) return;
  std::exception_ptr exit = std::make_exception_ptr(PyError(new_exception("GeneratorExit", {})));
  try {
    if (step(in, g, Value::none(), exit)) throw RuntimeError("generator ignored GeneratorExit");
  } catch (const PyError& e) {
    if (!is_instance_of(e, "GeneratorExit")) throw;
  }
}

Value gen_close(Interpreter& in, CallArgs& a) {
  GenFrame& g = self_frame(a, "close");
  if (a.pos.size() != 1 || !a.kw.empty()) throw TypeError(fmt::format("generator.close() takes no arguments ({} given)", a.pos.size() - 1));
  Value keep = a.pos[0];
  close_frame(in, g);
  return Value::none();
}

Value gen_iter(Interpreter&, CallArgs& a) {
  self_frame(a, "__iter__");
  return a.pos[0];
}

const ClassPtr& generator_class() {
  static const ClassPtr cls = [] {
    ClassPtr c = make_native_class("generator", "builtins");
    c->native_tag = &generator_tag;
    c->no_instance_dict = true;
    c->slots.make = [](Interpreter&, const ClassPtr&, CallArgs&) -> Value { throw TypeError("cannot create 'generator' instances"); };
    c->slots.repr = [](Interpreter&, const Value& self) {
      const GenFrame* g = frame_of(self);
      return fmt::format("<generator object {} at {}>", g ? g->qualname : "?", fmt::ptr(self.obj.get()));
    };
    c->methods["send"] = method("send", gen_send);
    c->methods["throw"] = method("throw", gen_throw);
    c->methods["close"] = method("close", gen_close);
    c->methods["__next__"] = method("__next__", gen_next);
    c->methods["__iter__"] = method("__iter__", gen_iter);
    return c;
  }();
  return cls;
}

// Remembers a scope to empty when the session ends (Interpreter::closures_), forgetting those
// gone already when the list is full (and making room for as many again when most are alive, so
// each pass is paid for by as many new entries, as Interpreter::make_function does), so a loop
// making generators does not grow the list.
void remember_scope(std::vector<std::weak_ptr<Scope>>& scopes, const std::shared_ptr<Scope>& s) {
  if (scopes.size() >= 4096 && scopes.size() == scopes.capacity()) {
    scopes.erase(std::remove_if(scopes.begin(), scopes.end(), [](const std::weak_ptr<Scope>& w) { return w.expired(); }), scopes.end());
    if (scopes.size() > scopes.capacity() / 2) scopes.reserve(2 * scopes.capacity());
  }
  scopes.push_back(s);
}

Value new_generator(Interpreter& in, std::unique_ptr<GenFrame> frame) {
  auto o = std::make_shared<GeneratorObj>();
  o->cls = generator_class();
  frame->in = &in;
  o->frame = frame.release();
  return Value::of_instance(std::move(o));
}

}  // namespace

Value Interpreter::make_generator(const FunctionObj& f, std::shared_ptr<Scope> local, std::shared_ptr<NamespaceObj> module) {
  auto g = std::make_unique<GenFrame>();
  g->qualname = f.qualname;
  g->scope = local;
  local->generator = true;
  g->module = module;
  g->file = f.file;
  std::shared_ptr<const Stmt> def = f.def;
  g->body = [def](Interpreter& in, GenFrame& frame) {
    RunIn run(in, frame.scope, frame.module.lock(), frame.file);
    Value ret;
    in.exec(def->body, &ret);
    frame.value = ret;
  };
  remember_scope(closures_, g->scope);   // its locals may hold it: emptied when the session ends
  return new_generator(*this, std::move(g));
}

// (a for x in xs if c for y in ys): xs is iterated now, in the scope around it (iter(xs)'s error
// comes at once, as in Python); the rest runs, in a scope of its own, as the generator is stepped.
Value Interpreter::make_genexp(const Expr& e) {
  Value first = eval(*e.comps.at(0).iter);
  if (first.kind == Value::Instance) first = iter(first);   // a list or range is walked by for_each
  else if (!iterable(first)) throw TypeError("'" + type_name(first) + "' object is not iterable");
  auto g = std::make_unique<GenFrame>();
  g->qualname = "<genexpr>";
  g->scope = std::make_shared<Scope>();
  g->scope->kind = Scope::comprehension;
  g->scope->generator = true;
  g->scope->parent = frames_.empty() ? nullptr : frames_.back();
  g->module = globals_;
  g->file = file_;
  auto tree = std::make_shared<Expr>(e);   // shares the children: the tree lives as long as the generator
  remember_scope(closures_, g->scope);   // it and the scope around it may hold each other: emptied when the session ends
  if (g->scope->parent) remember_scope(closures_, g->scope->parent);
  g->held.push_back(std::move(first));   // its only reference: the collector sees it
  g->body = [tree](Interpreter& in, GenFrame& frame) {
    RunIn run(in, frame.scope, frame.module.lock(), frame.file);
    in.genexp_loop(*tree, 0, frame.held.front());
  };
  return new_generator(*this, std::move(g));
}

// A list's or an iterator's item goes straight into the target, with no copy left on the
// generator's stack while it is suspended: the scope holds it, where the collector sees it.
void Interpreter::genexp_loop(const Expr& e, size_t level, const Value& it) {
  const Comprehension& c = e.comps[level];
  auto rest = [&] {   // the conditions, then the next level or the yield
    tick();
    for (const ExprPtr& cond : c.conds)
      if (!truth(eval(*cond))) return;
    if (level + 1 == e.comps.size()) yield_value(eval(*e.a));
    else genexp_loop(e, level + 1, eval(*e.comps[level + 1].iter));
  };
  if (it.kind == Value::List && !static_cast<const SeqObj*>(it.obj.get())->cls) {
    const std::vector<Value>& items = static_cast<const SeqObj*>(it.obj.get())->items;
    for (size_t k = 0; k < items.size(); ++k) {   // by index: the loop may change the list
      assign(*c.target, Value(items[k]));
      rest();
    }
    return;
  }
  if (it.kind == Value::Instance && (frame_of(it) || is_iterator(it))) {
    for (;;) {
      std::optional<Value> item = next(it);
      if (!item) return;
      assign(*c.target, *item);
      item.reset();
      rest();
    }
  }
  for_each(it, [&](const Value& item) {
    assign(*c.target, item);
    rest();
    return true;
  });
}

// `yield from it`: every item of it passes through to the resumer, send() and throw() pass
// through to it when it is a generator; its return value is the expression's value.
// While it delegates, the iterator is held by the generator's frame alone (GenFrame::held).
Value Interpreter::yield_from(Value delegate) {
  GenFrame* self = gen_;
  const size_t slot = self->held.size();
  self->held.push_back(std::move(delegate));
  struct Drop {
    GenFrame* g;
    size_t slot;
    ~Drop() { g->held.resize(slot); }
  } drop{self, slot};
  const Value& iterable = self->held[slot];
  GenFrame* sub = frame_of(iterable);
  if (!sub) {
    for_each(iterable, [this](const Value& item) {
      yield_value(item);
      return true;
    });
    return Value::none();
  }
  Value sent = Value::none();
  std::exception_ptr thrown;
  for (;;) {
    std::optional<Value> item;
    if (thrown && is_class(thrown, "GeneratorExit")) {   // close() closes the inner one first
      close_frame(*this, *sub);
      std::rethrow_exception(thrown);
    }
    item = step(*this, *sub, std::exchange(sent, Value::none()), std::exchange(thrown, nullptr));
    if (!item) return std::exchange(sub->value, Value::none());
    GenFrame* g = gen_;
    g->value = std::move(*item);
    g->yielded = true;
    g->leave(false);
    if (g->killing) throw Unwind();
    thrown = std::exchange(g->thrown, nullptr);
    sent = std::exchange(g->sent, Value::none());
  }
}

// Generators dropped while suspended: each is closed, as CPython's finaliser closes it; what its
// `finally` raises is dropped, as CPython reports it only on stderr ("Exception ignored in").
// The collector's (DroppedGen::owner set) go first to last, each closed to the end before the
// next, as CPython runs finalisers: a statement ending inside one's `finally` closes none of them.
void Interpreter::close_dropped() {
  while (!dropped_gens_.empty()) {
    auto at = dropped_gens_.end() - 1;
    if (at->owner) {
      if (finalizing_) return;   // the outer close_dropped goes on with them
      at = std::find_if(dropped_gens_.begin(), dropped_gens_.end(), [](const DroppedGen& d) { return d.owner != nullptr; });
    }
    DroppedGen d = std::move(*at);
    dropped_gens_.erase(at);
    std::unique_ptr<GenFrame> owned(d.owner ? nullptr : d.frame);   // else its generator object's
    GenFrame* g = d.frame;
    struct Finalizing {
      bool& flag;
      bool was;
      ~Finalizing() { flag = was; }
    } finalizing{finalizing_, finalizing_};
    if (d.owner) finalizing_ = true;
    std::exception_ptr limit;
    try {
      close_frame(*this, *g);
    } catch (const PyError&) {
    } catch (...) {
      limit = std::current_exception();
    }
    if (g->state == GenFrame::suspended) {   // it yielded again: unwound without more Python
      g->killing = true;
      resume(*g);
    }
    if (limit) std::rethrow_exception(limit);
  }
}

// The session ends: every generator still suspended is unwound (its stack's C++ objects freed),
// running no Python code.
void Interpreter::end_generators() {
  auto unwind = [this](GenFrame& g) {
    if (g.state != GenFrame::suspended) return;
    g.killing = true;
    try {
      resume(g);
    } catch (...) {
    }
  };
  for (;;) {   // unwinding one may drop others (a `yield from`'s inner generator): until none is left
    if (!dropped_gens_.empty()) {
      DroppedGen d = std::move(dropped_gens_.back());
      dropped_gens_.pop_back();
      unwind(*d.frame);
      if (!d.owner) delete d.frame;
    } else if (!live_gens_.empty()) {
      GenFrame* g = live_gens_.back();
      unwind(*g);
      if (!live_gens_.empty() && live_gens_.back() == g) live_gens_.pop_back();
    } else {
      break;
    }
  }
}

// ---- the iterator protocol ----

Value Interpreter::iter(const Value& v) {
  if (frame_of(v) || is_iterator(v)) return v;
  if (v.kind == Value::Instance || py_subclass(v)) {   // class L(list) with its own __iter__ too
    const ClassObj& cls = *type_of(v);
    if (const Value* own = cls.find_method("__iter__")) {
      Value it = call_dunder(*own, v, {});
      if (frame_of(it) || is_iterator(it)) return it;
      if (it.kind != Value::Instance || !type_of(it)->find_method("__next__"))
        throw TypeError("iter() returned non-iterator of type '" + type_name(it) + "'");
      return it;
    }
  }
  CallArgs a;
  a.pos.push_back(v);
  return call(builtins_.at("iter"), a);   // the built-in iterators (a snapshot of a list, a range, ...)
}

std::optional<Value> Interpreter::next(const Value& it) {
  tick();
  if (GenFrame* g = frame_of(it)) {
    Value keep = it;
    return step(*this, *g, Value::none(), nullptr);
  }
  if (is_iterator(it)) return iterator_step(it);
  const Value* fn = it.kind == Value::Instance ? type_of(it)->find_method("__next__") : nullptr;
  if (!fn) throw TypeError("'" + type_name(it) + "' object is not an iterator");
  try {
    return call_dunder(*fn, it, {});
  } catch (const PyError& e) {
    if (!is_instance_of(e, "StopIteration")) throw;
  }
  return std::nullopt;
}

bool is_generator(const Value& v) { return frame_of(v) != nullptr; }

}  // namespace attn::py
