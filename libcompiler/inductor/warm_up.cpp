#include "libcompiler/inductor/warm_up.h"

#include <pthread.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/inductor/compile_cache.h"
#include "libcompiler/ir/structural_hash.h"

namespace kiln::inductor {

namespace {

class WarmUp {
 public:
  WarmUp() {
    pthread_atfork(finish_before_fork, nullptr, nullptr);
    thread_ = std::thread([] {
      // A failure here shows again, with its message, at the compile that needs the JIT.
      try {
        backend_for_device(tensor::DeviceType::CPU)->target();
        open_cache();
        // OpenSSL's first digest loads its configuration and providers: the cache keys' hashes.
        ir::sha256Hex("");
      } catch (...) {
      }
    });
  }
  // Should the process exit without finish_warm_up (std::exit from deep inside): joined at least
  // before the statics made before this object are destroyed (the JIT and the cache database
  // the thread makes are never destroyed).
  ~WarmUp() { finish(); }

  void finish() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable()) thread_.join();
  }

  static WarmUp& instance() {
    static WarmUp warm_up;
    started = true;
    return warm_up;
  }
  static inline std::atomic<bool> started = false;

 private:
  static void finish_before_fork() { instance().finish(); }

  std::mutex mutex_;
  std::thread thread_;
};

}  // namespace

void start_warm_up() { WarmUp::instance(); }

void finish_warm_up() {
  if (WarmUp::started) WarmUp::instance().finish();
}

}  // namespace kiln::inductor
