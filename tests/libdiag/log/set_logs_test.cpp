#include "libdiag/log/set_logs.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "libdiag/log/log_environment.h"
#include "libdiag/log/logger.h"
#include "tests/libdiag/log/log_capture.h"
#include "tests/libdiag/log/log_levels.h"

namespace kiln::log {
namespace {

std::string error_of(std::vector<SetLogsArgument> keywords,
                     std::vector<SetLogsArgument> modules = {}) {
  try {
    set_logs_settings(keywords, modules);
  } catch (const LogSettingsError& error) {
    return error.what();
  }
  return "(no error)";
}

// TORCH_LOGS is unset for the test and restored afterwards.
class SetLogs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* value = getenv("TORCH_LOGS")) saved_ = value;
    unsetenv("TORCH_LOGS");
  }
  void TearDown() override {
    if (saved_) setenv("TORCH_LOGS", saved_->c_str(), 1);
    else unsetenv("TORCH_LOGS");
  }
  std::optional<std::string> saved_;
};

TEST_F(SetLogs, ComponentLevelsAndArtifactSwitches) {
  const LogSettings s = set_logs_settings(
      {{"dynamo", kDebug}, {"graph_code", true}, {"guards", false}, {"all", kError}}, {});
  EXPECT_EQ(s.effective_level("torch._dynamo.output_graph"), kDebug);
  EXPECT_EQ(s.effective_level("torch._inductor"), kError);  // all= sets the torch root
  EXPECT_TRUE(s.artifact_enabled(Artifact::graph_code));
  EXPECT_FALSE(s.artifact_enabled(Artifact::guards));
}

TEST_F(SetLogs, KeywordsApplyInPyTorchsOrderWhateverTheirOrderHere) {
  // PyTorch applies dynamo, then dynamic, then export: the later one wins on shared loggers.
  const LogSettings a = set_logs_settings({{"dynamic", kInfo}, {"dynamo", kDebug}}, {});
  EXPECT_EQ(a.effective_level("torch.fx.experimental.symbolic_shapes"), kInfo);
  const LogSettings b = set_logs_settings({{"export", kError}, {"dynamo", kDebug}}, {});
  EXPECT_EQ(b.effective_level("torch._dynamo"), kError);
}

TEST_F(SetLogs, ModulesTakeNamesOfEveryKind) {
  const LogSettings s = set_logs_settings(
      {}, {{"torch._dynamo.output_graph", kDebug}, {"recompiles", true}, {"aot", kInfo}});
  EXPECT_EQ(s.effective_level("torch._dynamo.output_graph"), kDebug);
  EXPECT_EQ(s.effective_level("torch._dynamo.guards"), kWarning);
  EXPECT_TRUE(s.artifact_enabled(Artifact::recompiles));
  EXPECT_EQ(s.effective_level("torch._functorch._aot_autograd"), kInfo);
}

TEST_F(SetLogs, BadArgumentsGetPyTorchsMessages) {
  EXPECT_EQ(error_of({{"guards", 1}}), "Expected bool to enable artifact guards, received 1");
  const std::string levels = ", valid level values are: 50,40,30,20,10,0";
  EXPECT_EQ(error_of({{"dynamo", true}}), "Unrecognized log level for log dynamo: True" + levels);
  EXPECT_EQ(error_of({{"dynamo", 15}}), "Unrecognized log level for log dynamo: 15" + levels);
  EXPECT_EQ(error_of({}, {{"bogus", kDebug}}),
            "Unrecognized log or artifact name passed to set_logs: bogus");
  EXPECT_EQ(error_of({}, {{"all", kDebug}}),  // `all` is a keyword, not a registered name
            "Unrecognized log or artifact name passed to set_logs: all");
  EXPECT_EQ(error_of({{"dynamo", false}}), "(no error)");  // False == 0 == NOTSET
}

TEST_F(SetLogs, ReplacesTheSettingsInForce) {
  test::LogCapture capture;
  LogEnvironment environment;
  environment.torch_logs = "+all";  // as if TORCH_LOGS had been read at import ...
  init_logs(environment);           // ... but it is no longer in the environment
  EXPECT_TRUE(is_enabled(Component::inductor, Level::Debug));

  set_logs({{"guards", true}});
  EXPECT_FALSE(is_enabled(Component::inductor, Level::Debug));
  EXPECT_TRUE(is_enabled(Artifact::guards));
  set_logs({{"recompiles", true}});
  EXPECT_FALSE(is_enabled(Artifact::guards));  // each call starts from nothing
  EXPECT_TRUE(is_enabled(Artifact::recompiles));
  EXPECT_EQ(capture.text(), "");
}

TEST_F(SetLogs, TorchLogsInTheEnvironmentTakesPrecedence) {
  test::LogCapture capture;
  setenv("TORCH_LOGS", "recompiles", 1);
  init_logs(LogEnvironment::from_process());
  set_logs({{"guards", true}, {"dynamo", kDebug}});
  EXPECT_TRUE(is_enabled(Artifact::recompiles));
  EXPECT_FALSE(is_enabled(Artifact::guards));
  EXPECT_FALSE(is_enabled(Component::dynamo, Level::Debug));
  const std::string text = capture.text();
  EXPECT_TRUE(text.starts_with("W")) << text;
  EXPECT_TRUE(text.ends_with(
      " torch/_logging/_internal.py:488] Using TORCH_LOGS environment variable for log settings, "
      "ignoring call to set_logs\n"))
      << text;
}

}  // namespace
}  // namespace kiln::log
