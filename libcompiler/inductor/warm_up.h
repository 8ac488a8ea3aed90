#pragma once
// The inductor's first compile in a process waits ~2 ms for the LLVM JIT and host target to be
// made, the compile cache's database to be opened and OpenSSL to load (the cache keys' hashes). torch.compile starts that work on a
// background thread when it names the inductor backend, so that it overlaps graph capture (a
// cache hit then costs capture, lowering and linking only). PyTorch warms its compile workers at
// the same point.
namespace kiln::inductor {

// Starts the warm-up once per process; later calls return at once. A fork waits for it to end, so
// a child never inherits a half-made JIT.
void start_warm_up();

// Waits for the warm-up to end, when one started. A thread still at work while the process's exit
// handlers run would use what they destroy (OpenSSL's and LLVM's state): the apps hold a
// FinishWarmUpOnReturn in main, so that main's return waits for it.
void finish_warm_up();
struct FinishWarmUpOnReturn {
  FinishWarmUpOnReturn() = default;
  FinishWarmUpOnReturn(const FinishWarmUpOnReturn&) = delete;
  FinishWarmUpOnReturn& operator=(const FinishWarmUpOnReturn&) = delete;
  ~FinishWarmUpOnReturn() { finish_warm_up(); }
};

}  // namespace kiln::inductor
