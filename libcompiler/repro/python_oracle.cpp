#include "libcompiler/repro/python_oracle.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

namespace kiln::repro {

const char* pytorch_oracle_server_source();  // pytorch_oracle_server.py, compiled in

namespace {

using namespace std::chrono_literals;

// What a PyTorch launcher sets that must not reach its candidates: the repro wrapper would wrap
// each candidate's compile again (and report an accuracy failure as "an unrelated issue", so that
// the candidate passes), and every candidate would write a trace.
constexpr const char* kLauncherOnlyVariables[] = {"TORCHDYNAMO_REPRO_AFTER", "TORCHDYNAMO_REPRO_LEVEL", "TORCH_TRACE"};

// Long enough for `import torch` on a loaded machine, short enough to say so when PY is no Python.
constexpr auto kServerStartLimit = 180s;

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

std::string last_lines(const std::filesystem::path& path, size_t count) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::string text;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) text += "\n  " + lines[i];
  return text;
}

sockaddr_un socket_address(const std::filesystem::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string text = path.string();
  if (text.size() >= sizeof address.sun_path) throw std::runtime_error("socket path too long: " + text);
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return address;
}

}  // namespace

PythonOracle::PythonOracle(std::string python, const std::filesystem::path& work_dir, ReproScript candidate_file)
    : python_(std::move(python)), work_dir_(work_dir / "pytorch_oracle"), candidate_file_(std::move(candidate_file)) {
  candidate_file_.command = "run";
  for (const char* name : kLauncherOnlyVariables) unsetenv(name);
  std::filesystem::create_directories(work_dir_);
  const std::filesystem::path server_file = work_dir_ / "pytorch_oracle_server.py";
  const std::filesystem::path server_log = work_dir_ / "server.log";
  write_file(server_file, pytorch_oracle_server_source());
  std::string socket_dir = (std::filesystem::temp_directory_path() / "kiln-oracle-XXXXXX").string();
  if (!mkdtemp(socket_dir.data())) throw std::runtime_error("cannot make a folder for the oracle's socket in " + socket_dir);
  socket_dir_ = socket_dir;
  const std::string socket_path = (socket_dir_ / "socket").string();

  int ready[2];
  if (pipe(ready) != 0) throw std::runtime_error("pipe failed");
  server_ = fork();
  if (server_ < 0) throw std::runtime_error("fork failed");
  if (server_ == 0) {
    // Its own process group, so that ending it ends the candidates still running under it.
    setpgid(0, 0);
    dup2(ready[1], STDOUT_FILENO);
    const int log = open(server_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) dup2(log, STDERR_FILENO);
    close(ready[0]);
    close(ready[1]);
    execlp(python_.c_str(), python_.c_str(), server_file.c_str(), socket_path.c_str(), static_cast<char*>(nullptr));
    dprintf(STDERR_FILENO, "cannot run %s: %s\n", python_.c_str(), std::strerror(errno));
    _exit(127);
  }
  setpgid(server_, server_);
  close(ready[1]);
  // "ready" comes once torch is imported and the socket listens; EOF means the server died.
  std::string said;
  const auto deadline = std::chrono::steady_clock::now() + kServerStartLimit;
  while (said.find('\n') == std::string::npos) {
    pollfd waiting{ready[0], POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left <= 0ms || poll(&waiting, 1, int(left.count())) <= 0) break;
    char buffer[256];
    const ssize_t n = read(ready[0], buffer, sizeof buffer);
    if (n <= 0) break;
    said.append(buffer, size_t(n));
  }
  close(ready[0]);
  if (said.rfind("ready\n", 0) != 0) {
    stop();
    throw std::runtime_error("the PyTorch oracle did not start under " + python_ + " (a Python with torch is needed); its log, " +
                             server_log.string() + ", ends:" + last_lines(server_log, 3));
  }
}

PythonOracle::~PythonOracle() { stop(); }

void PythonOracle::stop() {
  if (server_ > 0) {
    kill(-server_, SIGKILL);
    waitpid(server_, nullptr, 0);
    server_ = -1;
  }
  std::error_code ignored;
  if (!socket_dir_.empty()) std::filesystem::remove_all(socket_dir_, ignored);
}

Failure PythonOracle::run(const std::string& repro_text) const {
  static std::atomic<int> counter{0};
  const std::filesystem::path file = work_dir_ / ("candidate-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".py");
  write_file(file, repro_text);
  const int connection = socket(AF_UNIX, SOCK_STREAM, 0);
  const sockaddr_un address = socket_address(socket_dir_ / "socket");
  if (connection < 0 || connect(connection, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
    throw std::runtime_error("cannot reach the PyTorch oracle: " + std::string(std::strerror(errno)));
  const std::string request = file.string() + "\n";
  if (write(connection, request.data(), request.size()) != ssize_t(request.size())) throw std::runtime_error("cannot write to the PyTorch oracle");
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = read(connection, buffer, sizeof buffer)) > 0;) answer.append(buffer, size_t(n));
  close(connection);
  if (answer.empty()) raise(SIGKILL);  // the candidate's process died: so does this test's
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
  std::filesystem::remove(file.string() + ".log", ignored);
  const nlohmann::json outcome = nlohmann::json::parse(answer);
  const std::string type = outcome.at("type").get<std::string>();
  if (type.empty()) return {};
  const std::string message = outcome.at("message").get<std::string>();
  return {type == "AccuracyError" ? Failure::Kind::Accuracy : Failure::Kind::Exception, type, message};
}

Failure PythonOracle::run(python::Interpreter& interp, const ReproState& state) const {
  ReproScript script = candidate_file_;
  script.state = state;
  return run(repro_script_text(interp, script));
}

}  // namespace kiln::repro
