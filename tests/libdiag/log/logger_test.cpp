#include "libdiag/log/logger.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "libdiag/log/log_environment.h"
#include "libdiag/log/torch_logs_parser.h"
#include "tests/libdiag/log/log_capture.h"
#include "tests/support/shared_data.h"

namespace kiln::log {
namespace {

using test::LogCapture;

LogEnvironment with_torch_logs(std::string settings) {
  LogEnvironment environment;
  environment.torch_logs = std::move(settings);
  return environment;
}

// One message from one place, as PyTorch's modules log it.
struct Probe {
  std::optional<Component> component;  // a component's own message ...
  std::optional<Artifact> artifact;    // ... or an artifact
  const char* path;
  Level level;
};

const std::vector<Probe> kProbes = {
    {Component::dynamo, {}, "torch/_dynamo/guards.py", Level::Debug},
    {Component::dynamo, {}, "torch/_dynamo/guards.py", Level::Info},
    {Component::dynamo, {}, "torch/_dynamo/guards.py", Level::Warning},
    {Component::dynamo, {}, "torch/_dynamo/guards.py", Level::Error},
    {Component::dynamo, {}, "torch/_dynamo/output_graph.py", Level::Debug},
    {{}, Artifact::guards, "torch/_dynamo/guards.py", Level::Debug},
    {{}, Artifact::graph_code, "torch/_dynamo/output_graph.py", Level::Debug},
    {{}, Artifact::output_code, "torch/_inductor/graph.py", Level::Debug},
    {{}, Artifact::output_code, "torch/_inductor/graph.py", Level::Info},
    {Component::inductor, {}, "torch/_inductor/graph.py", Level::Debug},
    {Component::dynamic, {}, "torch/fx/experimental/symbolic_shapes.py", Level::Info},
    {Component::dynamic, {}, "torch/fx/experimental/symbolic_shapes.py", Level::Debug},
    {{}, Artifact::aot_graphs, "torch/_functorch/_aot_autograd/graph_capture.py", Level::Info},
    {Component::aot, {}, "torch/_functorch/_aot_autograd/graph_capture.py", Level::Debug},
    {{}, Artifact::graph_code_verbose, "torch/fx/passes/runtime_assert.py", Level::Debug},
};

// Emits every probe; '1' where something was written. Also checks that is_enabled never says
// no to a message that is then shown.
std::string shown_probes(LogCapture& capture) {
  std::string shown;
  for (const Probe& probe : kProbes) {
    capture.clear();
    bool enabled;
    if (probe.artifact) {
      enabled = is_enabled(*probe.artifact, probe.level);
      emit(*probe.artifact, probe.level, {probe.path, 1}, "0/0", "message");
    } else {
      enabled = is_enabled(*probe.component, probe.level);
      emit(*probe.component, probe.level, {probe.path, 1}, "0/0", "message");
    }
    const bool written = !capture.writes().empty();
    EXPECT_TRUE(enabled || !written) << probe.path;
    shown += written ? '1' : '.';
  }
  return shown;
}

TEST(Logger, FiltersAsPyTorchDoes) {
  // Each row: what PyTorch 2.11's loggers let through for the probes above under that
  // TORCH_LOGS (observed by logging from those modules with TORCH_LOGS set).
  const std::vector<std::pair<std::string, std::string>> observed = {
      {"dynamo", ".111......1...."},
      {"+dynamo", "1111111...11..."},
      {"-dynamo", "...1..........."},
      {"+all", "1111111..111111"},
      {"all", ".111......1.1.."},
      {"guards", "..11.1........."},
      {"-dynamo,guards", "...1.1........."},
      {"+dynamo,dynamic", "1111111...1...."},
      {"dynamic,+dynamo", "1111111...11..."},
      {"+export", "1111111...11..."},
      {"+inductor", "..11.....1....."},
      {"output_code", "..11...11......"},
      {"+all,-dynamo", "...1.....1..111"},
      {"+torch._dynamo.output_graph", "..111.1........"},
      {"+torch._functorch,-torch._functorch._aot_autograd", "..11..........."},
      {"-torch._functorch._aot_autograd,+torch._functorch", "..11........11."},
      {"-torch,+dynamo", "1111111...11..."},
      {"+torch._dynamo,-dynamo", "1111111........"},
      {"+torch.fx", "..11......11..1"},
  };
  LogCapture capture;
  EXPECT_EQ(shown_probes(capture), "..11...........");  // no TORCH_LOGS: warnings and errors
  for (const auto& [settings, expected] : observed) {
    init_logs(with_torch_logs(settings));
    EXPECT_EQ(shown_probes(capture), expected) << "TORCH_LOGS=" << settings;
  }
}

TEST(Logger, DisabledArtifactEmitsNothing) {
  LogCapture capture;
  init_logs(with_torch_logs("+all"));
  EXPECT_FALSE(is_enabled(Artifact::output_code));
  EXPECT_FALSE(is_enabled(Artifact::schedule, Level::Critical));
  emit(Artifact::output_code, Level::Debug, {"torch/_inductor/graph.py", 2552}, "0/0", "code");
  emit(Artifact::bytecode, Level::Critical, {"torch/_dynamo/convert_frame.py", 1}, "0/0", "x");
  EXPECT_EQ(capture.text(), "");

  init_logs(with_torch_logs("dynamo"));
  EXPECT_FALSE(is_enabled(Artifact::guards));
  EXPECT_FALSE(is_enabled(Component::dynamo, Level::Debug));
  EXPECT_TRUE(is_enabled(Component::dynamo, Level::Info));
  emit(Artifact::guards, Level::Debug, {"torch/_dynamo/guards.py", 3911}, "0/0", "GUARDS:");
  EXPECT_EQ(capture.text(), "");
}

TEST(Logger, KilnSourcePathsUseTheComponentsLogger) {
  LogCapture capture;
  init_logs(with_torch_logs("+torch._dynamo.output_graph"));
  emit(Component::dynamo, Level::Debug, {"libcompiler/capture/output_graph.cpp", 10}, "", "x");
  EXPECT_EQ(capture.text(), "");
  init_logs(with_torch_logs("+dynamo"));
  emit(Component::dynamo, Level::Debug, {"libcompiler/capture/output_graph.cpp", 10}, "", "x");
  EXPECT_NE(capture.text().find(" libcompiler/capture/output_graph.cpp:10] x\n"),
            std::string::npos);
}

TEST(Logger, WritesTheGlogPrefixWithPidAndCompileIdAndArtifact) {
  LogCapture capture;
  init_logs(with_torch_logs("guards"));
  emit(Artifact::guards, Level::Debug, {"torch/_dynamo/guards.py", 3911}, "1/0_1",
       "GUARDS:\n\nTREE_GUARD_MANAGER:");
  const std::vector<std::string> writes = capture.writes();
  ASSERT_EQ(writes.size(), 1u);  // one record, one write
  // Every line carries the same prefix: "V1122 08:52:16.123000 <pid> <path>:<line>] [..] [..]".
  const std::string& text = writes[0];
  const size_t end = text.find(" GUARDS:\n");
  ASSERT_NE(end, std::string::npos) << text;
  const std::string prefix = text.substr(0, end);
  EXPECT_EQ(text, prefix + " GUARDS:\n" + prefix + " \n" + prefix + " TREE_GUARD_MANAGER:\n");
  ASSERT_EQ(prefix.size() > 22 ? prefix[0] : '?', 'V') << prefix;
  EXPECT_EQ(prefix.substr(18, 3), "000") << prefix;  // whole milliseconds, as PyTorch's
  EXPECT_EQ(prefix.substr(21),
            " " + std::to_string(getpid()) + " torch/_dynamo/guards.py:3911] [1/0_1] [__guards]");
}

TEST(Logger, RecordsCarryTheRankWhileOneIsSet) {
  LogCapture capture;
  init_logs(with_torch_logs("ddp_graphs"));
  set_log_rank(1);
  emit(Artifact::ddp_graphs, Level::Debug, {"torch/_dynamo/backends/distributed.py", 596}, "4/0", "a\nb");
  set_log_rank(std::nullopt);
  emit(Artifact::ddp_graphs, Level::Debug, {"torch/_dynamo/backends/distributed.py", 596}, "4/0", "c");
  std::vector<std::string> lines;
  std::istringstream text(capture.text());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << capture.text();
  EXPECT_TRUE(lines[0].starts_with("[rank1]:V")) << lines[0];
  EXPECT_TRUE(lines[1].starts_with("[rank1]:V")) << lines[1];
  EXPECT_TRUE(lines[2].starts_with("V")) << lines[2];
}

TEST(Logger, BareFormatArtifactPrintsTheMessageAlone) {
  LogCapture capture;
  init_logs(with_torch_logs("custom_format_test_artifact"));
  emit(Artifact::custom_format_test_artifact, Level::Debug, {"torch/x.py", 1}, "0/0", "a\nb");
  EXPECT_EQ(capture.text(), "a\nb\n");
}

TEST(Logger, TraceIdFilterKeepsOnlyListedCompileIds) {
  LogCapture capture;
  LogEnvironment environment = with_torch_logs("recompiles");
  environment.trace_id_filter = " [0/1] , [2/0_1],";
  init_logs(environment);
  for (const char* id : {"0/0", "0/1", "2/0_1", ""})
    emit(Artifact::recompiles, Level::Debug, {"torch/_dynamo/guards.py", 4760}, id, id);
  const std::vector<std::string> writes = capture.writes();
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_NE(writes[0].find("] [0/1] [__recompiles] 0/1\n"), std::string::npos);
  EXPECT_NE(writes[1].find("] [2/0_1] [__recompiles] 2/0_1\n"), std::string::npos);
}

TEST(Logger, TorchLogsFormatReplacesThePrefix) {
  LogCapture capture;
  LogEnvironment environment = with_torch_logs("guards,dynamo");
  environment.logs_format =
      "%(name)s|%(levelname)-8s|%(lineno)d|%(filename)s|%(levelno)s|%(message)s";
  init_logs(environment);
  emit(Artifact::guards, Level::Debug, {"torch/_dynamo/guards.py", 3}, "0/0", "a\nb");
  emit(Component::dynamo, Level::Info, {"torch/_dynamo/guards.py", 4}, "0/0", "hi");
  // As PyTorch 2.11 prints it (the filename there was <string>).
  EXPECT_EQ(capture.text(),
            "torch._dynamo.guards.__guards|DEBUG   |3|guards.py|10|a\nb\n"
            "torch._dynamo.guards|INFO    |4|guards.py|20|hi\n");

  environment.logs_format = "short";
  init_logs(environment);
  capture.clear();
  emit(Component::dynamo, Level::Warning, {"torch/_dynamo/__init__.py", 1}, "", "w");
  EXPECT_EQ(capture.text(), "WARNING:torch._dynamo:w\n");
}

TEST(Logger, TorchLogsOutAppendsToTheFileToo) {
  LogCapture capture;
  const auto folder = kiln::test::scratchDir("log_out");
  const auto path = folder / "logs.txt";
  { std::ofstream(path) << "earlier\n"; }
  LogEnvironment environment = with_torch_logs("graph_breaks");
  environment.logs_out = path.string();
  init_logs(environment);
  emit(Artifact::graph_breaks, Level::Debug, {"torch/_dynamo/symbolic_convert.py", 5127}, "0/0",
       "Graph break in user code");
  set_log_output({});  // closes the file
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_EQ(content.str(), "earlier\n" + capture.text());
  EXPECT_NE(capture.text().find("[__graph_breaks] Graph break in user code\n"), std::string::npos);

  environment.logs_out = (folder / "missing" / "x.txt").string();
  EXPECT_THROW(init_logs(environment), std::runtime_error);
}

TEST(Logger, InitLogsRaisesForBadSettings) {
  LogCapture capture;
  EXPECT_THROW(init_logs(with_torch_logs("bogus")), LogSettingsError);
  EXPECT_THROW(init_logs(with_torch_logs("help")), LogSettingsError);
  LogEnvironment bad_format;
  bad_format.logs_format = "no fields";
  EXPECT_THROW(init_logs(bad_format), LogSettingsError);
}

TEST(Logger, ConcurrentMessagesAreWrittenWhole) {
  LogCapture capture;
  init_logs(with_torch_logs("graph_code"));
  constexpr int kThreads = 4, kMessages = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      const std::string message = "thread " + std::to_string(t) + "\nline two\nline three";
      for (int i = 0; i < kMessages; ++i)
        emit(Artifact::graph_code, Level::Debug, {"torch/_dynamo/output_graph.py", 2417}, "0/0",
             message);
    });
  for (std::thread& thread : threads) thread.join();
  const std::vector<std::string> writes = capture.writes();
  ASSERT_EQ(writes.size(), static_cast<size_t>(kThreads * kMessages));
  for (const std::string& write : writes) {
    const size_t end = write.find(" thread ");
    ASSERT_NE(end, std::string::npos) << write;
    const std::string prefix = write.substr(0, end);
    EXPECT_TRUE(prefix.ends_with("output_graph.py:2417] [0/0] [__graph_code]")) << write;
    const std::string thread = write.substr(end + 1, 8);  // "thread N"
    EXPECT_EQ(write, prefix + " " + thread + "\n" + prefix + " line two\n" + prefix +
                         " line three\n");
  }
}

}  // namespace
}  // namespace kiln::log
