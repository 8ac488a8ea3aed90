#include "libcompiler/tensor/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

namespace kiln::tensor {

namespace {

thread_local bool in_parallel_region = false;

// Worker threads that run queued chunks; the caller of parallel_for runs chunks too.
class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

  void submit(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
  }

  // Runs one queued task on the calling thread; false when the queue is empty.
  bool run_one() {
    std::function<void()> task;
    {
      std::lock_guard lock(mutex_);
      if (tasks_.empty()) return false;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
    return true;
  }

 private:
  void work() {
    in_parallel_region = true;
    while (true) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
        if (stopping_ && tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

// Sized once, for the threads first asked for: more chunks than workers queue, and the caller
// runs queued chunks too.
ThreadPool& pool() {
  static ThreadPool instance(num_threads() - 1);
  return instance;
}

}  // namespace

namespace {

int default_num_threads() {
  if (const char* env = std::getenv("KILN_NUM_THREADS"); env && std::atoi(env) > 0) return std::atoi(env);
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::atomic<int> threads_in_use{default_num_threads()};

}  // namespace

void run_openmp_passively(char** argv) {
  static constexpr const char* kMarker = "KILN_OMP_WAIT_POLICY_SET";  // this process set it
  if (std::getenv(kMarker)) {
    unsetenv("OMP_WAIT_POLICY");
    unsetenv(kMarker);
    return;
  }
  if (std::getenv("OMP_WAIT_POLICY")) return;
  setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
  setenv(kMarker, "1", 1);
  execv("/proc/self/exe", argv);
  // No /proc, or no right to execute: go on as loaded (libgomp spins after oneDNN's calls).
  unsetenv("OMP_WAIT_POLICY");
  unsetenv(kMarker);
}

int num_threads() { return threads_in_use.load(std::memory_order_relaxed); }

void set_num_threads(int threads) { threads_in_use.store(std::max(1, threads), std::memory_order_relaxed); }

void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
  if (begin >= end) return;
  const int64_t range = end - begin;
  const int threads = num_threads();
  if (in_parallel_region || threads == 1 || range <= grain) {
    body(begin, end);
    return;
  }
  const int64_t chunks = std::min<int64_t>(threads, (range + grain - 1) / grain);
  const int64_t chunk = (range + chunks - 1) / chunks;

  std::mutex done_mutex;
  std::condition_variable done;
  int64_t pending = chunks;
  std::exception_ptr failure;
  auto run_chunk = [&](int64_t chunk_begin) {
    try {
      body(chunk_begin, std::min(end, chunk_begin + chunk));
    } catch (...) {
      std::lock_guard lock(done_mutex);
      if (!failure) failure = std::current_exception();
    }
    std::lock_guard lock(done_mutex);
    if (--pending == 0) done.notify_all();
  };
  for (int64_t c = 1; c < chunks; ++c) pool().submit([&, c] { run_chunk(begin + c * chunk); });
  in_parallel_region = true;
  run_chunk(begin);
  // Help with queued chunks instead of sleeping while they wait for a worker.
  while (pool().run_one()) {
  }
  in_parallel_region = false;
  std::unique_lock lock(done_mutex);
  done.wait(lock, [&] { return pending == 0; });
  if (failure) std::rethrow_exception(failure);
}

}  // namespace kiln::tensor
