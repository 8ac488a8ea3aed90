#include "libcompiler/python/interp/coroutine.h"

#include <cstdint>
#include <new>
#include <sys/mman.h>

namespace kiln::python {

Coroutine::Coroutine(std::function<void()> body, size_t stack_bytes)
    : body_(std::move(body)), stack_bytes_(stack_bytes) {
  // Reserved, not committed: pages are touched only as deep as the body recurses.
  stack_ = mmap(nullptr, stack_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stack_ == MAP_FAILED) throw std::bad_alloc();
}

Coroutine::~Coroutine() { munmap(stack_, stack_bytes_); }

void Coroutine::trampoline(unsigned high, unsigned low) {
  auto* self = reinterpret_cast<Coroutine*>((static_cast<uintptr_t>(high) << 32) | low);
  try {
    self->body_();
  } catch (...) {
    self->error_ = std::current_exception();
  }
  self->finished_ = true;
  swapcontext(&self->context_, &self->caller_);
}

void Coroutine::resume() {
  if (finished_) return;
  if (!started_) {
    started_ = true;
    getcontext(&context_);
    context_.uc_stack.ss_sp = stack_;
    context_.uc_stack.ss_size = stack_bytes_;
    context_.uc_link = nullptr;
    auto address = reinterpret_cast<uintptr_t>(this);
    makecontext(&context_, reinterpret_cast<void (*)()>(&Coroutine::trampoline), 2,
                static_cast<unsigned>(address >> 32), static_cast<unsigned>(address & 0xffffffffu));
  }
  running_ = true;
  swapcontext(&caller_, &context_);
  running_ = false;
  if (error_) {
    auto error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void Coroutine::suspend() { swapcontext(&context_, &caller_); }

}  // namespace kiln::python
