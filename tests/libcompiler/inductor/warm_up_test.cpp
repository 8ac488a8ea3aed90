// The inductor's warm-up (JIT and cache database made in the background at torch.compile) and
// the cache database it opens: a fork while the warm-up runs leaves the child a usable JIT, the
// database follows TORCHINDUCTOR_CACHE_DIR when a script changes it after warming up, and the
// cache's key names the build that wrote an entry.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "libcompiler/aot/build_identity.h"
#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/inductor/compile_cache.h"
#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/inductor/warm_up.h"
#include "libcompiler/ir/readable_parser.h"

namespace {

using namespace kiln;
namespace fs = std::filesystem;

const char* kRelu = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu"):
        relu: "f32[8, 16][16, 1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (relu,)
)";

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kiln_warm_up_test_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  return dir;
}

// The child's exit status, or -1 when it has not ended within the time limit (it is killed).
int wait_for(pid_t child, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST(InductorWarmUp, AForkDuringTheWarmUpLeavesTheChildAUsableJit) {
  setenv("TORCHINDUCTOR_CACHE_DIR", fresh_dir("fork").c_str(), 1);
  inductor::start_warm_up();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Had the fork copied a JIT half made by the warm-up thread, this would wait forever.
    std::unique_ptr<ir::GraphModule> module = ir::parseReadable(kRelu);
    inductor::CompiledArtifacts artifacts = inductor::compile_graph(*module, {});
    _exit(artifacts.program ? 0 : 1);
  }
  EXPECT_EQ(wait_for(child, std::chrono::seconds(20)), 0);
}

TEST(InductorWarmUp, TheCacheDatabaseFollowsTheCacheDirectory) {
  const fs::path first = fresh_dir("first"), second = fresh_dir("second");
  setenv("TORCHINDUCTOR_CACHE_DIR", first.c_str(), 1);
  inductor::open_cache();
  EXPECT_TRUE(fs::exists(first / "fx_graph_cache.sqlite3"));

  setenv("TORCHINDUCTOR_CACHE_DIR", second.c_str(), 1);
  inductor::CacheKey key{"fwarmuptestkey", {}};
  inductor::cache_store(key, {"object", {"kernel_0"}});
  EXPECT_TRUE(fs::exists(second / "fx_graph_cache.sqlite3"));
  EXPECT_TRUE(inductor::cache_lookup(key).has_value());

  setenv("TORCHINDUCTOR_CACHE_DIR", first.c_str(), 1);
  EXPECT_FALSE(inductor::cache_lookup(key).has_value());
  fs::remove_all(first);
  fs::remove_all(second);
}

TEST(InductorWarmUp, TheCacheKeyNamesTheBuild) {
  const std::string& build = aot::build_identity();
  EXPECT_TRUE(std::regex_match(build, std::regex("build-id [0-9a-f]{16,}|size [0-9]+ mtime [0-9.]+"))) << build;
  std::unique_ptr<ir::GraphModule> module = ir::parseReadable(kRelu);
  const inductor::CacheKey key = inductor::cache_key(*module, {}, *inductor::backend_for_device(tensor::DeviceType::CPU));
  EXPECT_NE(std::find(key.components.begin(), key.components.end(), "kiln_build: " + build), key.components.end());
}
