#pragma once
// The worker processes of the torchrun-compatible launcher (torch.distributed.run), as
// torchelastic's local agent runs them: one process per local rank with its environment; the
// group is watched until every worker ended, and on the first failure the others are sent
// SIGTERM (SIGKILL after a grace period), so that no rank waits forever on a dead peer.
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace kiln::distributed {

struct WorkerSpec {
  std::vector<std::string> argv;                  // argv[0] is the program, found on PATH
  std::map<std::string, std::string> environment;  // set on top of the launcher's own
  int local_rank = 0;
  int global_rank = 0;
};

struct WorkerFailure {
  int local_rank = 0;
  int global_rank = 0;
  int pid = 0;
  int exitcode = 0;  // a signal's number negated, as Python's subprocess reports it
  std::chrono::system_clock::time_point time;
};

struct WorkerGroupResult {
  // The workers that did not exit 0, in the order their ends were seen (the first is the root
  // cause; the others mostly ended by the SIGTERM it caused).
  std::vector<WorkerFailure> failures;
  // The signal (SIGINT, SIGTERM, SIGHUP or SIGQUIT) the launcher got while the group ran, which
  // it passed on to the workers before stopping them; 0 when none came.
  int signal = 0;
};

// Starts every worker and waits for the group; `poll_interval` is torchrun's --monitor-interval
// and `grace` how long stopped workers have before SIGKILL. A signal to the launcher stops the
// group too, as torchrun's agent does, so that no worker outlives it.
WorkerGroupResult run_worker_group(const std::vector<WorkerSpec>& workers, std::chrono::milliseconds poll_interval,
                                   std::chrono::seconds grace);

// The path of the running executable (the kiln binary the workers run).
std::string current_executable();
// socket.getfqdn() of this host, which failure summaries name.
std::string fully_qualified_host_name();

}  // namespace kiln::distributed
