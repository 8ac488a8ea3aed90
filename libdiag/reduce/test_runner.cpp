#include "libdiag/reduce/test_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace kiln::reduce {
namespace {

[[noreturn]] void throw_errno(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

// A pidfd becomes readable when its process exits: one poll() waits for any child or the nearest
// deadline without SIGCHLD handlers, which would reach into the caller's signal setup.
int open_pidfd(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }

[[noreturn]] void run_child(const ChildTest& test, std::span<const size_t> kept, bool quiet, pid_t parent) {
  setpgid(0, 0);
  // In its own process group the child would outlive a reducer killed by Ctrl-C (a hung
  // candidate forever): it dies with its parent instead.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(125);
  // A crash must reach the parent as a signal, not as a sanitizer report turned exit status.
  for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(signal_number, SIG_DFL);
  const int null_fd = open("/dev/null", O_RDWR);
  if (null_fd >= 0) {
    dup2(null_fd, STDIN_FILENO);
    if (quiet) {
      dup2(null_fd, STDOUT_FILENO);
      dup2(null_fd, STDERR_FILENO);
    }
    if (null_fd > STDERR_FILENO) close(null_fd);
  }
  int status = 125;
  try {
    status = test(kept);
  } catch (...) {
    status = 125;  // a throwing test is a failed test, not an interesting one
  }
  // _exit: the parent's atexit handlers and buffered streams belong to the parent.
  _exit(status);
}

}  // namespace

TestRunner::TestRunner(ChildTest test, RunnerOptions options) : test_(std::move(test)), options_(options) {
  options_.jobs = std::max<size_t>(options_.jobs, 1);
}

TestRunner::~TestRunner() { cancel_all(); }

void TestRunner::start(size_t tag, std::span<const size_t> kept) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw_errno("fork");
  if (pid == 0) run_child(test_, kept, options_.quiet, parent);
  // Also set in the parent, so that a timeout kill right after fork already reaches the group.
  setpgid(pid, pid);
  const int pidfd = open_pidfd(pid);
  if (pidfd < 0) {
    const int saved = errno;
    kill(-pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    errno = saved;
    throw_errno("pidfd_open");
  }
  running_.push_back({tag, pid, pidfd, std::chrono::steady_clock::now() + options_.timeout});
}

TestRunner::Finished TestRunner::reap(size_t index, bool timed_out) {
  const Child child = running_[index];
  running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(index));
  if (timed_out) kill(-child.pid, SIGKILL);
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  // Whatever the test left running in its group (a daemonised helper, a hung grandchild) dies.
  kill(-child.pid, SIGKILL);
  close(child.pidfd);
  Outcome outcome = Outcome::NotInteresting;
  if (timed_out)
    outcome = Outcome::TimedOut;
  else if (WIFSIGNALED(status))
    outcome = Outcome::Crashed;
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    outcome = Outcome::Interesting;
  return {child.tag, outcome};
}

TestRunner::Finished TestRunner::wait() {
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    auto nearest = running_.front().deadline;
    for (size_t i = 0; i < running_.size(); ++i) {
      if (running_[i].deadline <= now) return reap(i, true);
      nearest = std::min(nearest, running_[i].deadline);
    }
    std::vector<pollfd> fds;
    for (const Child& child : running_) fds.push_back({child.pidfd, POLLIN, 0});
    const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(nearest - now).count();
    const int ready = poll(fds.data(), fds.size(), static_cast<int>(wait_ms));
    if (ready < 0 && errno != EINTR) throw_errno("poll");
    for (size_t i = 0; ready > 0 && i < fds.size(); ++i)
      if (fds[i].revents) return reap(i, false);
  }
}

void TestRunner::cancel_all() {
  for (const Child& child : running_) kill(-child.pid, SIGKILL);
  while (!running_.empty()) reap(0, false);
}

}  // namespace kiln::reduce
