// End-to-end tests of the kiln binary: the feature scripts of testdata/scripts print what CPython
// + PyTorch print (committed .out files, and the real thing when .reference/ exists), bad scripts
// fail with CPython's traceback, and the real PyTorch programs print PyTorch's numbers.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kiln_config.h"
#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/printed_numbers.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

TEST(KilnScripts, PrintWhatPyTorchPrinted) {
  auto scripts = scripts_in(kiln::test::testdataPath("scripts"));
  ASSERT_GE(scripts.size(), 8u);
  for (const auto& script : scripts) {
    SCOPED_TRACE(script.filename().string());
    RunResult result = run(kiln_binary(), script.filename().string(), script.parent_path());
    EXPECT_EQ(result.status, 0) << result.err;
    EXPECT_EQ(result.out, read_file(fs::path(script).replace_extension(".out")));
  }
}

TEST(KilnScripts, AgreeWithLivePyTorch) {
  if (!fs::exists(reference_python()))
    GTEST_SKIP() << ".reference/bin/python is absent: the scripts are compared with committed outputs only";
  for (const auto& script : scripts_in(kiln::test::testdataPath("scripts"))) {
    SCOPED_TRACE(script.filename().string());
    RunResult kiln = run(kiln_binary(), script.filename().string(), script.parent_path());
    RunResult python = run(reference_python().string(), script.filename().string(), script.parent_path());
    EXPECT_TRUE(printed_lines_agree(kiln.out, python.out)) << "kiln printed:\n" << kiln.out << "PyTorch printed:\n" << python.out;
  }
}

// Each bad script fails with exit status 1 and the traceback in its .err file ({dir} stands
// for the folder, since CPython names the script by its absolute path).
TEST(KilnScripts, BadScriptsReportMessageAndLocation) {
  fs::path dir = kiln::test::testdataPath("scripts/errors");
  auto scripts = scripts_in(dir);
  ASSERT_GE(scripts.size(), 8u);
  for (const auto& script : scripts) {
    SCOPED_TRACE(script.filename().string());
    RunResult result = run(kiln_binary(), script.filename().string(), dir);
    EXPECT_EQ(result.status, 1);
    std::string err = result.err;
    std::string prefix = fs::canonical(dir).string() + "/";
    for (size_t pos; (pos = err.find(prefix)) != std::string::npos;) err.replace(pos, prefix.size(), "{dir}/");
    EXPECT_EQ(err, read_file(fs::path(script).replace_extension(".err")));
  }
}

TEST(KilnRealPrograms, TrainMlpLossesMatchPyTorch) {
  KILN_REQUIRE_SHARED();
  fs::path program = kiln::test::realPath("pytorch-2.11/programs/train_mlp.py");
  RunResult result = run(kiln_binary(), quoted(program), program.parent_path());
  ASSERT_EQ(result.status, 0) << result.err;
  auto expected = nlohmann::json::parse(read_file(kiln::test::realPath("pytorch-2.11/expected/train_mlp.json")));
  auto lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), expected["stdout"].size());
  for (size_t i = 0; i < lines.size(); ++i) {
    double want = std::stod(expected["stdout"][i].get<std::string>());
    EXPECT_NEAR(std::stod(lines[i]), want, 1e-5 * std::fabs(want)) << "step " << i;
  }
}

// Programs whose printed lines need only eager features print exactly what PyTorch printed.
TEST(KilnRealPrograms, EagerProgramsPrintPyTorchsLines) {
  KILN_REQUIRE_SHARED();
  for (const char* name : {"layernorm_debug", "cond_model", "lr_sched", "recompile_shape", "item_break"}) {
    SCOPED_TRACE(name);
    fs::path program = kiln::test::realPath(std::string("pytorch-2.11/programs/") + name + ".py");
    RunResult result = run(kiln_binary(), quoted(program), program.parent_path());
    EXPECT_EQ(result.status, 0) << result.err;
    auto expected = nlohmann::json::parse(read_file(kiln::test::realPath(std::string("pytorch-2.11/expected/") + name + ".json")));
    EXPECT_EQ(lines_of(result.out), expected["stdout"].get<std::vector<std::string>>());
  }
}

TEST(KilnCli, VersionHelpCommandAndArgv) {
  fs::path here = kiln::test::scratchDir("kiln_cli");
  RunResult version = run(kiln_binary(), "--version", here);
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out, std::string("kiln ") + KILN_VERSION + "\n");
  RunResult help = run(kiln_binary(), "--help", here);
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("kiln -c CODE"), std::string::npos);
  RunResult code = run(kiln_binary(), "-c 'import sys; print(sys.argv)' a --b", here);
  EXPECT_EQ(code.status, 0);
  EXPECT_EQ(code.out, "['-c', 'a', '--b']\n");
  std::ofstream(here / "args.py") << "import sys\nprint(sys.argv[1:])\nsys.exit(3)\n";
  RunResult script = run(kiln_binary(), "args.py x --flag", here);
  EXPECT_EQ(script.status, 3);
  EXPECT_EQ(script.out, "['x', '--flag']\n");
  RunResult missing = run(kiln_binary(), "no_such_script.py", here);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("can't open file '" + (fs::canonical(here) / "no_such_script.py").string() + "'"), std::string::npos);
}

// A folder runs its __main__.py, as CPython runs one; a folder without one is an error.
TEST(KilnCli, FolderArguments) {
  fs::path here = fs::temp_directory_path() / "kiln_cli_folders";
  fs::remove_all(here);
  fs::create_directories(here / "app");
  fs::create_directories(here / "empty");
  std::ofstream(here / "app" / "__main__.py") << "print('main of a folder')\n";
  RunResult app = run(kiln_binary(), "app", here);
  EXPECT_EQ(app.status, 0) << app.err;
  EXPECT_EQ(app.out, "main of a folder\n");
  RunResult empty = run(kiln_binary(), "empty", here);
  EXPECT_EQ(empty.status, 1);
  EXPECT_EQ(empty.err, "kiln: can't find '__main__' module in '" + (fs::canonical(here) / "empty").string() + "'\n");
}

// A script imports the modules and packages beside it (its folder leads sys.path, as in CPython),
// and folders it adds to sys.path; an error inside an imported module is reported in its file.
TEST(KilnCli, ScriptsImportTheirNeighbours) {
  fs::path here = fs::temp_directory_path() / "kiln_cli_imports";
  fs::remove_all(here);
  fs::create_directories(here / "proj" / "pkg");
  fs::create_directories(here / "extra");
  std::ofstream(here / "proj" / "helpers.py") << "SCALE = 3\ndef scaled(x):\n    return x * SCALE\n";
  fs::create_directories(here / "proj" / "pkg" / "models");
  std::ofstream(here / "proj" / "pkg" / "__init__.py") << "from pkg.layers import depth\n";
  std::ofstream(here / "proj" / "pkg" / "layers.py") << "depth = 2\n";
  // Relative imports, as a package such as torchvision's models writes them.
  std::ofstream(here / "proj" / "pkg" / "models" / "__init__.py") << "from .net import *\nfrom . import utils\n";
  std::ofstream(here / "proj" / "pkg" / "models" / "utils.py") << "from ..layers import depth as base_depth\nwidth = 4\n";
  std::ofstream(here / "proj" / "pkg" / "models" / "net.py")
      << "from .utils import width, base_depth\n__all__ = ['net']\ndef net():\n    return width * base_depth\n";
  std::ofstream(here / "extra" / "added.py") << "name = 'added'\n";
  std::ofstream(here / "proj" / "broken.py") << "x = 1\ny = undefined_name\n";
  std::ofstream(here / "proj" / "main.py")
      << "import sys, os\nimport helpers\nfrom pkg import depth\nimport pkg.layers\n"
         "print(helpers.scaled(2), depth, pkg.layers.depth, helpers.__file__.split('/')[-1])\n"
         "from pkg.models import net, utils\nprint(net(), utils.width, utils.__package__, pkg.__package__)\n"
         "try:\n    from . import helpers\nexcept ImportError as e:\n    print(e)\n"
         "sys.path.append(" << quoted(here / "extra") << ")\nimport added\nprint(added.name)\n"
         "try:\n    import missing_module\nexcept ModuleNotFoundError as e:\n    print(e)\nimport broken\n";
  RunResult result = run(kiln_binary(), "proj/main.py", here);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.out, "6 2 2 helpers.py\n8 4 pkg.models pkg\nattempted relative import with no known parent package\n"
                        "added\nNo module named 'missing_module'\n");
  EXPECT_NE(result.err.find("File \"" + (fs::canonical(here) / "proj" / "broken.py").string() + "\", line 2, in <module>"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("NameError: name 'undefined_name' is not defined"), std::string::npos) << result.err;
}

// SIGINT raises KeyboardInterrupt where the script is, as in CPython: its traceback, then the
// status a shell gives a process SIGINT ended (130).
TEST(KilnCli, InterruptRaisesKeyboardInterrupt) {
  fs::path here = fs::temp_directory_path() / "kiln_cli_interrupt";
  fs::remove_all(here);
  fs::create_directories(here);
  std::ofstream(here / "spin.py") << "def spin():\n    n = 0\n    while True:\n        n += 1\n\nspin()\n";
  const std::string kiln = kiln_binary(), script = (here / "spin.py").string(), err_file = (here / "err.txt").string();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (!std::freopen(err_file.c_str(), "w", stderr) || !std::freopen("/dev/null", "w", stdout)) _exit(126);
    execl(kiln.c_str(), kiln.c_str(), script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::seconds(2));
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  // As CPython: the traceback, then the process ends by SIGINT itself, so that a shell sees the
  // signal (not an exit status of 130).
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "wait status " << status;
  const std::string err = kiln::test::read_file(err_file);
  EXPECT_NE(err.find("Traceback (most recent call last):"), std::string::npos) << err;
  EXPECT_NE(err.find("in spin\n"), std::string::npos) << err;
  const std::string last_line = "\nKeyboardInterrupt\n";
  EXPECT_TRUE(err.size() >= last_line.size() && err.compare(err.size() - last_line.size(), last_line.size(), last_line) == 0) << err;
}

// A compiled function that recurses without end fails at once with RecursionError (each level
// captured and then run eagerly again took minutes).
TEST(KilnCli, CompiledInfiniteRecursionFailsFast) {
  fs::path here = fs::temp_directory_path() / "kiln_cli_recursion";
  fs::remove_all(here);
  fs::create_directories(here);
  std::ofstream(here / "recurse.py") << "import torch\n@torch.compile\ndef f(x):\n    return f(x + 1)\n"
                                       "try:\n    f(torch.ones(2))\nexcept RecursionError:\n    print('RecursionError')\n";
  RunResult recursed = run("timeout", "60 " + kiln::test::quoted(kiln_binary()) + " recurse.py", here);
  EXPECT_EQ(recursed.status, 0) << recursed.err;
  EXPECT_EQ(recursed.out, "RecursionError\n");
  EXPECT_EQ(recursed.err.find("Capturing f failed"), std::string::npos) << recursed.err;
}

}  // namespace
