#include "libcompiler/repro/script_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "libcompiler/repro/backend_override.h"
#include "libcompiler/repro/content_store.h"

namespace kiln::repro {

namespace {

std::string last_non_empty_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace

ScriptResult run_script(const ScriptCommand& command) {
  std::filesystem::create_directories(command.log.parent_path());
  const auto started = std::chrono::steady_clock::now();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);
    // Its own process group keeps a timeout's kill to the script; this keeps an interrupted
    // minify from leaving the script running.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    for (const auto& [name, value] : command.environment) setenv(name.c_str(), value.c_str(), 1);
    const int log = open(command.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
      close(log);
    }
    std::vector<std::string> argv = {command.interpreter.string(), command.script.string()};
    argv.insert(argv.end(), command.args.begin(), command.args.end());
    std::vector<char*> pointers;
    for (std::string& arg : argv) pointers.push_back(arg.data());
    pointers.push_back(nullptr);
    execvp(pointers[0], pointers.data());
    _exit(127);
  }
  setpgid(pid, pid);
  ScriptResult result;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (command.timeout && std::chrono::steady_clock::now() - started > *command.timeout) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.elapsed = std::chrono::steady_clock::now() - started;
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.last_line = last_non_empty_line(command.log);
  return result;
}

CaughtFailure catch_first_failure(ScriptCommand command, const std::filesystem::path& work_dir, ReproAfter after, int level,
                                  const std::optional<std::string>& backend) {
  command.environment["TORCHDYNAMO_REPRO_AFTER"] = after == ReproAfter::Aot ? "aot" : "dynamo";
  command.environment["TORCHDYNAMO_REPRO_LEVEL"] = std::to_string(level);
  command.environment["TORCHDYNAMO_REPRO_DIR"] = work_dir.string();
  // Real PyTorch (minify --python) ignores TORCHDYNAMO_REPRO_DIR and writes its launcher under
  // <debug root>/torch_compile_debug/run_<time>-pid_<pid>/minifier/.
  command.environment["TORCH_COMPILE_DEBUG_DIR"] = work_dir.string();
  if (backend) command.environment[kCompileBackendVariable] = *backend;
  // What an earlier run left must not pass for this run's dump, so only files written since this
  // run began count (less a margin: the file system stamps times from a coarse clock). Nothing is
  // removed: the same command run at once in the same folder may be reading them, and its dump,
  // made by the same command, is as good as this run's own.
  const std::filesystem::file_time_type began = std::filesystem::file_time_type::clock::now() - std::chrono::milliseconds(20);
  CaughtFailure caught;
  caught.run = run_script(command);
  std::filesystem::file_time_type newest = began;
  const auto take_if_newer = [&](const std::filesystem::path& path) {
    std::error_code error;
    const std::filesystem::file_time_type written = std::filesystem::last_write_time(path, error);
    if (error || written < newest) return;
    newest = written;
    caught.repro_file = path;
  };
  take_if_newer(work_dir / "minifier_launcher.py");
  std::error_code no_pytorch_runs;
  for (const auto& entry : std::filesystem::directory_iterator(work_dir / "torch_compile_debug", no_pytorch_runs))
    take_if_newer(entry.path() / "minifier" / "minifier_launcher.py");
  std::error_code no_checkpoints;
  if (caught.repro_file.empty())
    for (const auto& entry : std::filesystem::directory_iterator(work_dir / "checkpoints", no_checkpoints))
      if (entry.path().extension() == ".py") take_if_newer(entry.path());
  return caught;
}

std::filesystem::path work_dir_for(const std::filesystem::path& script, const std::vector<std::string>& args,
                                   const std::string& settings) {
  std::string identity = std::filesystem::absolute(script).lexically_normal().string() + "\n" + settings;
  for (const std::string& arg : args) identity += "\n" + arg;
  const char* root = std::getenv("TORCH_COMPILE_DEBUG_DIR");
  const std::filesystem::path base = root && *root ? std::filesystem::path(root) : std::filesystem::current_path();
  return (std::filesystem::absolute(base) / "torch_compile_debug" / "minify" /
          (script.stem().string() + "-" + sha1_hex(identity).substr(0, 10)))
      .lexically_normal();
}

}  // namespace kiln::repro
