#include "libcompiler/inductor/warm_up.h"

#include <pthread.h>

#include <mutex>
#include <thread>

#include "libcompiler/inductor/codegen/cpu_llvm/kernel_jit.h"
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
        host_target();
        open_cache();
        // OpenSSL's first digest loads its configuration and providers: the cache keys' hashes.
        ir::sha256Hex("");
      } catch (...) {
      }
    });
  }
  // At exit: joined before LLVM's statics, made before this object, are destroyed (the JIT and
  // the cache database it makes are never destroyed).
  ~WarmUp() { finish(); }

  void finish() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable()) thread_.join();
  }

  static WarmUp& instance() {
    static WarmUp warm_up;
    return warm_up;
  }

 private:
  static void finish_before_fork() { instance().finish(); }

  std::mutex mutex_;
  std::thread thread_;
};

}  // namespace

void start_warm_up() { WarmUp::instance(); }

}  // namespace kiln::inductor
