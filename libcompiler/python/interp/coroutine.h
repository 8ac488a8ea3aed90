#pragma once
// A body of C++ code running on a stack of its own, which can suspend itself and be resumed
// later (ucontext). Generators run their frames in one, so `yield` can stop a tree-walking
// evaluation in the middle of any statement; the main script runs in one with a large stack so
// deep Python recursion reaches RecursionError before the C++ stack ends.
#include <cstddef>
#include <exception>
#include <functional>
#include <ucontext.h>

namespace kiln::python {

class Coroutine {
 public:
  Coroutine(std::function<void()> body, size_t stack_bytes);
  ~Coroutine();
  Coroutine(const Coroutine&) = delete;
  Coroutine& operator=(const Coroutine&) = delete;

  // Runs the body until it suspends or returns; an exception escaping the body is rethrown here.
  void resume();
  // From inside the body: back to the resume() that started this run.
  void suspend();
  bool finished() const { return finished_; }
  bool running() const { return running_; }
  // Started, not finished, and waiting in suspend() for the next resume().
  bool suspended() const { return started_ && !finished_ && !running_; }

 private:
  static void trampoline(unsigned high, unsigned low);

  std::function<void()> body_;
  void* stack_ = nullptr;
  size_t stack_bytes_;
  ucontext_t context_{};
  ucontext_t caller_{};
  bool started_ = false;
  bool finished_ = false;
  bool running_ = false;
  std::exception_ptr error_;
  // What AddressSanitizer is told at each stack switch (coroutine.cpp); unused without it.
  struct SanitizerStacks {
    void* caller_fake_stack = nullptr;  // the resumer's stack-use-after-return frames while the body runs
    void* body_fake_stack = nullptr;    // the body's, while it is suspended
    const void* caller_bottom = nullptr;  // the stack of the resume() that runs the body now
    size_t caller_size = 0;
  } sanitizer_;
};

}  // namespace kiln::python
