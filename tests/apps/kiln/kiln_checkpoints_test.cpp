// torch.save / torch.load against PyTorch's checkpoint format: testdata/checkpoints/write_checkpoint.py
// saves a training checkpoint and read_checkpoint.py loads it, prints it and resumes training.
// Whoever wrote it and whoever reads it, the reader prints read_checkpoint.out (recorded from
// PyTorch reading its own file). Broken files fail with an error that says what is wrong.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

fs::path checkpoints() { return kiln::test::testdataPath("checkpoints"); }

std::string expected_reading() { return read_file(checkpoints() / "read_checkpoint.out"); }

// Writes a checkpoint with `writer` (kiln or Python) into `scratch` and returns its path.
fs::path write_checkpoint(const std::string& writer, const fs::path& scratch) {
  fs::path file = scratch / "checkpoint.pt";
  RunResult wrote = run(writer, quoted(checkpoints() / "write_checkpoint.py") + " " + quoted(file), checkpoints());
  EXPECT_EQ(wrote.status, 0) << wrote.err;
  return file;
}

RunResult read_checkpoint(const std::string& reader, const fs::path& file) {
  return run(reader, quoted(checkpoints() / "read_checkpoint.py") + " " + quoted(file), checkpoints());
}

TEST(KilnCheckpoints, KilnReadsWhatKilnWrote) {
  fs::path file = write_checkpoint(kiln_binary(), scratchDir("checkpoint_kiln"));
  RunResult read = read_checkpoint(kiln_binary(), file);
  ASSERT_EQ(read.status, 0) << read.err;
  EXPECT_EQ(read.out, expected_reading());
}

TEST(KilnCheckpoints, InterchangeWithLivePyTorch) {
  if (!fs::exists(reference_python()))
    GTEST_SKIP() << reference_python().string() << " is absent: checkpoint interchange with PyTorch skipped";
  fs::path by_pytorch = write_checkpoint(reference_python().string(), scratchDir("checkpoint_by_pytorch"));
  fs::path by_kiln = write_checkpoint(kiln_binary(), scratchDir("checkpoint_by_kiln"));
  RunResult pytorch_own = read_checkpoint(reference_python().string(), by_pytorch);
  EXPECT_EQ(pytorch_own.out, expected_reading()) << "read_checkpoint.out is stale: record it again with PyTorch";
  RunResult kiln_reads_pytorch = read_checkpoint(kiln_binary(), by_pytorch);
  EXPECT_EQ(kiln_reads_pytorch.status, 0) << kiln_reads_pytorch.err;
  EXPECT_EQ(kiln_reads_pytorch.out, expected_reading());
  RunResult pytorch_reads_kiln = read_checkpoint(reference_python().string(), by_kiln);
  EXPECT_EQ(pytorch_reads_kiln.status, 0) << pytorch_reads_kiln.err;
  EXPECT_EQ(pytorch_reads_kiln.out, expected_reading());
}

// Each broken file: the loader exits 1 with the error type and message in its traceback.
TEST(KilnCheckpoints, BrokenFilesFailWithAClearError) {
  fs::path scratch = scratchDir("checkpoint_broken");
  fs::path good = write_checkpoint(kiln_binary(), scratch);
  std::string bytes = read_file(good);
  auto write = [&](const std::string& name, const std::string& content) {
    std::ofstream(scratch / name, std::ios::binary) << content;
    return scratch / name;
  };
  struct Case {
    fs::path file;
    std::string error;
  };
  std::vector<Case> cases = {
      {scratch / "missing.pt", "FileNotFoundError: [Errno 2] No such file or directory"},
      {write("text.pt", "hello world"), "RuntimeError: kiln's torch.load reads PyTorch's zip checkpoints"},
      {write("truncated.pt", bytes.substr(0, bytes.size() / 2)),
       "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory"},
      {write("cut_pickle.pt", bytes.substr(0, 300)), "RuntimeError: PytorchStreamReader failed reading zip archive"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file.filename().string());
    RunResult read = read_checkpoint(kiln_binary(), c.file);
    EXPECT_EQ(read.status, 1);
    EXPECT_NE(read.err.find(c.error), std::string::npos) << read.err;
    EXPECT_NE(read.err.find("read_checkpoint.py\", line"), std::string::npos) << read.err;
  }
}

// A global outside the weights-only set is refused by default, with PyTorch's error type. The
// file is made by the system's CPython (zipfile + pickle of os.system), as an attacker would.
TEST(KilnCheckpoints, UnknownGlobalsAreRefusedByDefault) {
  fs::path scratch = scratchDir("checkpoint_globals");
  std::ofstream(scratch / "load.py") << "import sys, torch\ntorch.load(sys.argv[1])\n";
  std::ofstream(scratch / "make_evil.py") << "import os, pickle, zipfile\n"
                                            "with zipfile.ZipFile('evil.pt', 'w') as z:\n"
                                            "    z.writestr('evil/data.pkl', pickle.dumps(os.system, protocol=2))\n"
                                            "    z.writestr('evil/version', '3')\n";
  RunResult made = run("python3", "make_evil.py", scratch);
  ASSERT_EQ(made.status, 0) << made.err;
  RunResult read = run(kiln_binary(), "load.py evil.pt", scratch);
  EXPECT_EQ(read.status, 1);
  EXPECT_NE(read.err.find("_pickle.UnpicklingError: Weights only load failed."), std::string::npos) << read.err;
  EXPECT_NE(read.err.find("Unsupported global: GLOBAL posix.system"), std::string::npos) << read.err;
}

}  // namespace
