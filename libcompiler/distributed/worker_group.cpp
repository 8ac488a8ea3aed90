#include "libcompiler/distributed/worker_group.h"

#include <netdb.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <iterator>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "libdiag/log/logger.h"

extern char** environ;

namespace kiln::distributed {

namespace {

// What torchrun's agent logs come from, so that TORCH_LOGS' distributed settings apply to them.
constexpr log::SourceSite kElasticApiSite{"torch/distributed/elastic/multiprocessing/api.py", 1012};
constexpr log::SourceSite kElasticFailureSite{"torch/distributed/elastic/multiprocessing/api.py", 986};
constexpr log::SourceSite kAgentSite{"torch/distributed/elastic/agent/server/api.py", 739};

pid_t start_worker(const WorkerSpec& worker) {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const size_t equals = text.find('=');
    if (equals != std::string::npos) environment[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& [key, value] : worker.environment) environment[key] = value;
  std::vector<std::string> entries;
  for (const auto& [key, value] : environment) entries.push_back(key + "=" + value);
  std::vector<char*> envp, argv;
  for (std::string& entry : entries) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = worker.argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error = ::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data());
  if (error != 0) throw std::runtime_error("failed to start " + args[0] + ": " + std::strerror(error));
  return pid;
}

int exitcode_of(int status) { return WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status); }

// The signals torchrun's agent handles (TORCHELASTIC_SIGNALS_TO_HANDLE), caught while a group runs.
constexpr int kHandledSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
volatile std::sig_atomic_t received_signal = 0;
extern "C" void on_launcher_signal(int number) { received_signal = number; }

// Catches kHandledSignals for its lifetime, restoring the previous handlers after.
class SignalCatcher {
 public:
  SignalCatcher() {
    received_signal = 0;
    struct sigaction action {};
    action.sa_handler = on_launcher_signal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kHandledSignals); ++i) ::sigaction(kHandledSignals[i], &action, &previous_[i]);
  }
  ~SignalCatcher() {
    for (size_t i = 0; i < std::size(kHandledSignals); ++i) ::sigaction(kHandledSignals[i], &previous_[i], nullptr);
  }
  SignalCatcher(const SignalCatcher&) = delete;
  SignalCatcher& operator=(const SignalCatcher&) = delete;

 private:
  struct sigaction previous_[std::size(kHandledSignals)];
};

}  // namespace

WorkerGroupResult run_worker_group(const std::vector<WorkerSpec>& workers, std::chrono::milliseconds poll_interval,
                                   std::chrono::seconds grace) {
  struct Running {
    const WorkerSpec* spec;
    pid_t pid;
    bool ended = false;
  };
  const SignalCatcher catcher;
  std::vector<Running> running;
  for (const WorkerSpec& worker : workers) running.push_back({&worker, start_worker(worker)});
  WorkerGroupResult result;
  // Collects the workers that ended, one at a time in the order the system reports them, so
  // that the first failure seen is the first that happened; whether any is still running.
  auto reap = [&] {
    for (;;) {
      int status = 0;
      const pid_t done = ::waitpid(-1, &status, WNOHANG);
      if (done < 0 && errno == EINTR) continue;
      if (done <= 0) break;
      for (Running& r : running)
        if (r.pid == done && !r.ended) {
          r.ended = true;
          if (const int exitcode = exitcode_of(status); exitcode != 0)
            result.failures.push_back({r.spec->local_rank, r.spec->global_rank, r.pid, exitcode, std::chrono::system_clock::now()});
        }
    }
    return std::any_of(running.begin(), running.end(), [](const Running& r) { return !r.ended; });
  };
  // Failures are looked for more often than torchrun's monitor interval: a rank that fails
  // makes its peers fail a moment later, and the summary must name the first as the root cause.
  poll_interval = std::min(poll_interval, std::chrono::milliseconds(2));
  while (reap() && result.failures.empty() && !received_signal) std::this_thread::sleep_for(poll_interval);
  result.signal = received_signal;
  if (result.failures.empty() && !result.signal) return result;
  // A worker failed, or the launcher was told to stop: the group stops, as torchrun's agent
  // stops it, with the signal the launcher got or else SIGTERM.
  const int closing = result.signal ? result.signal : SIGTERM;
  if (result.signal)
    log::emit(log::Component::distributed, log::Level::Warning, kAgentSite, "",
              "Received " + std::to_string(result.signal) + " death signal, shutting down workers");
  for (Running& r : running) {
    if (r.ended) continue;
    log::emit(log::Component::distributed, log::Level::Warning, kElasticApiSite, "",
              "Sending process " + std::to_string(r.pid) + " closing signal SIG" + ::sigabbrev_np(closing));
    ::kill(r.pid, closing);
  }
  const auto deadline = std::chrono::steady_clock::now() + grace;
  bool killed = false;
  while (reap()) {
    if (!killed && std::chrono::steady_clock::now() >= deadline) {
      killed = true;
      for (Running& r : running)
        if (!r.ended) {
          log::emit(log::Component::distributed, log::Level::Warning, kElasticApiSite, "",
                    "Unable to shutdown process " + std::to_string(r.pid) + " via SIGTERM , forcefully exiting via SIGKILL");
          ::kill(r.pid, SIGKILL);
        }
    }
    std::this_thread::sleep_for(poll_interval);
  }
  if (result.failures.empty() || result.signal) return result;  // a stop the launcher was told to make is no failure
  const WorkerFailure& first = result.failures.front();
  log::emit(log::Component::distributed, log::Level::Error, kElasticFailureSite, "",
            "failed (exitcode: " + std::to_string(first.exitcode) + ") local_rank: " + std::to_string(first.local_rank) +
                " (pid: " + std::to_string(first.pid) + ") of binary: " + workers.front().argv.front());
  return result;
}

std::string current_executable() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("kiln") : self.string();
}

std::string fully_qualified_host_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "localhost";
  // As Python's getfqdn: the canonical name of the host's address, else an alias with a dot.
  addrinfo hints{};
  hints.ai_flags = AI_CANONNAME;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host, nullptr, &hints, &found) != 0) return host;
  std::string name = host;
  char reverse[NI_MAXHOST] = {};
  if (::getnameinfo(found->ai_addr, found->ai_addrlen, reverse, sizeof reverse, nullptr, 0, NI_NAMEREQD) == 0) name = reverse;
  ::freeaddrinfo(found);
  return name;
}

}  // namespace kiln::distributed
