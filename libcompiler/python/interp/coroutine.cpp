#include "libcompiler/python/interp/coroutine.h"

#include <cstdint>
#include <new>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define KILN_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_ADDRESS_SANITIZER 1
#endif
#endif
#ifdef KILN_ADDRESS_SANITIZER
#include <sanitizer/common_interface_defs.h>
#endif

namespace kiln::python {

namespace {

// AddressSanitizer tracks which stack a thread runs on: a switch it is not told about makes the
// other stack look like a wild region (false positives, and a warning at every throw, which
// unpoisons "the stack" on its way out). Every swapcontext is bracketed by these two.
void start_stack_switch(void** fake_stack_save, const void* bottom, size_t size) {
#ifdef KILN_ADDRESS_SANITIZER
  __sanitizer_start_switch_fiber(fake_stack_save, bottom, size);
#else
  (void)fake_stack_save, (void)bottom, (void)size;
#endif
}

void finish_stack_switch(void* fake_stack_save, const void** bottom_old, size_t* size_old) {
#ifdef KILN_ADDRESS_SANITIZER
  __sanitizer_finish_switch_fiber(fake_stack_save, bottom_old, size_old);
#else
  (void)fake_stack_save, (void)bottom_old, (void)size_old;
#endif
}

}  // namespace

Coroutine::Coroutine(std::function<void()> body, size_t stack_bytes)
    : body_(std::move(body)), stack_bytes_(stack_bytes) {
  // Reserved, not committed: pages are touched only as deep as the body recurses.
  stack_ = mmap(nullptr, stack_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stack_ == MAP_FAILED) throw std::bad_alloc();
}

Coroutine::~Coroutine() { munmap(stack_, stack_bytes_); }

void Coroutine::trampoline(unsigned high, unsigned low) {
  auto* self = reinterpret_cast<Coroutine*>((static_cast<uintptr_t>(high) << 32) | low);
  SanitizerStacks& sanitizer = self->sanitizer_;
  finish_stack_switch(nullptr, &sanitizer.caller_bottom, &sanitizer.caller_size);
  try {
    self->body_();
  } catch (...) {
    self->error_ = std::current_exception();
  }
  self->finished_ = true;
  // No place to save the body's fake frames: this stack is never returned to.
  start_stack_switch(nullptr, sanitizer.caller_bottom, sanitizer.caller_size);
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
  start_stack_switch(&sanitizer_.caller_fake_stack, stack_, stack_bytes_);
  swapcontext(&caller_, &context_);
  finish_stack_switch(sanitizer_.caller_fake_stack, nullptr, nullptr);
  running_ = false;
  if (error_) {
    auto error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void Coroutine::suspend() {
  start_stack_switch(&sanitizer_.body_fake_stack, sanitizer_.caller_bottom, sanitizer_.caller_size);
  swapcontext(&context_, &caller_);
  // The next resume() may come from another stack (a generator driven by another generator).
  finish_stack_switch(sanitizer_.body_fake_stack, &sanitizer_.caller_bottom, &sanitizer_.caller_size);
}

}  // namespace kiln::python
