// The minify command's start again on the host (host_placement.h): a process that initialised
// CUDA before run_repro runs replaces itself with the same binary and command line, and the new
// process keeps every CUDA storage on the host from its first line. The start again is an exec,
// so it is tested in a forked child that execs this test binary into the disabled test below.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "libcompiler/repro/host_placement.h"
#include "libcompiler/tensor/host_stand_in.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::repro {
namespace {

constexpr const char* kWhatTheRestartSees = "HostPlacement.DISABLED_WhatAProcessStartedAgainSees";

// Run only as the process started again by the test below (it is disabled in ordinary runs).
TEST(HostPlacement, DISABLED_WhatAProcessStartedAgainSees) {
  stand_in_from_start_if_asked();
  const tensor::Tensor t = tensor::Tensor::empty({2, 3}, tensor::DType::Float32, tensor::Device::parse("cuda"));
  EXPECT_EQ(t.device(), tensor::Device::parse("cpu"));
  EXPECT_EQ(tensor::stood_in_for(tensor::DeviceType::CUDA), tensor::Device::parse("cuda:0"));
  // Started once, not again: the variable the restart set says so.
  EXPECT_FALSE(must_start_again_on_host());
}

TEST(HostPlacement, AProcessStartedAgainRunsTheSameCommandLineWithCudaOnTheHost) {
  const std::filesystem::path output = std::filesystem::temp_directory_path() / ("host_placement_" + std::to_string(getpid()) + ".txt");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int fd = open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    try {
      start_again_on_host({std::string("--gtest_filter=") + kWhatTheRestartSees, "--gtest_also_run_disabled_tests"});
    } catch (...) {
    }
    _exit(99);  // the exec failed
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  std::stringstream text;
  text << std::ifstream(output).rdbuf();
  std::filesystem::remove(output);
  ASSERT_TRUE(WIFEXITED(status)) << text.str();
  EXPECT_EQ(WEXITSTATUS(status), 0) << text.str();
  // The command line reached the new process: it ran that one test, and it passed.
  EXPECT_NE(text.str().find("[  PASSED  ] 1 test."), std::string::npos) << text.str();
}

TEST(HostPlacement, AProcessThatNeverTouchedCudaDoesNotStartAgain) {
  EXPECT_FALSE(must_start_again_on_host());
}

}  // namespace
}  // namespace kiln::repro
