// The repro files Kiln writes: PyTorch's layout, load_args lines with defaults left out, data in
// the content store or embedded, a script-defined backend carried along; and the file read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "kiln_config.h"
#include "libcompiler/backends/backends.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/python_repr.h"
#include "libcompiler/python/torch/checkpoint_archive.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libcompiler/repro/content_store.h"
#include "libcompiler/repro/input_reader.h"
#include "libcompiler/repro/install.h"
#include "libcompiler/repro/repro_header.h"
#include "libcompiler/repro/repro_writer.h"
#include "libcompiler/tensor/factories.h"
#include "tests/support/shared_data.h"

namespace kiln::repro {
namespace {

using ops::IValue;
using tensor::DType;
using tensor::Tensor;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Whether `wanted` occur in `text`, in this order.
::testing::AssertionResult in_order(const std::string& text, const std::vector<std::string>& wanted) {
  const std::vector<std::string> all = lines(text);
  auto at = all.begin();
  for (const std::string& line : wanted) {
    at = std::find(at, all.end(), line);
    if (at == all.end()) return ::testing::AssertionFailure() << "missing (or out of order): " << line << "\nin:\n" << text;
  }
  return ::testing::AssertionSuccess();
}

std::string bytes_of(const Tensor& t) {
  return std::string(static_cast<const char*>(t.storage().data()), t.storage().nbytes());
}

class WriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    python::install_torch(interp);
    capture::install_capture(interp);
    backends::install_backends();
    install_repro(interp);
    interp.out = &output;
  }
  // Modules run here are not the interpreter's: their globals (which their functions refer
  // back to) are cleared at the end, as the interpreter clears its own, or LeakSanitizer sees the
  // cycles.
  void TearDown() override {
    for (const python::Ref& module : modules) python::as<python::ModuleObject>(module).globals->clear();
  }
  python::Ref run(const std::string& source) {
    auto module = std::make_shared<python::ModuleObject>("written");
    module->globals = python::py_dict();
    module->globals->set("__name__", python::py_str("written"));
    modules.push_back(module);
    interp.exec_code(interp.load(source, "written.py"), *module);
    return module;
  }

  python::Interpreter interp;
  std::vector<python::Ref> modules;
  std::ostringstream output;
  std::filesystem::path store = test::scratchDir("repro_writer_store");
  Tensor small = tensor::tensor_from_values(std::vector<double>{1, 2, 3, 4}, {2, 2});
  Tensor weight = ops::reshape(tensor::arange(64, DType::Float32), {8, 8});
  Tensor transposed = ops::transpose(ops::reshape(tensor::arange(20, DType::Float32), {5, 4}), 0, 1);
  Tensor half = tensor::tensor_from_values(std::vector<double>{1, 2, 3}, {3}, DType::Float16);
  ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, x: \"f32[2, 2][2, 1]cpu\", w: \"f32[8, 8][8, 1]cpu\", t: \"f32[4, 5][1, 4]cpu\", "
                                     "h: \"f16[3][1]cpu\", m: \"f32[2, 3][3, 1]cpu\", n: \"Sym(7)\"):\n"
                                     "        relu = torch.ops.aten.relu.default(x);  x = None\n"
                                     "        return (relu, w, t, h, m, n)\n"),
                   {}};
};

TEST_F(WriterTest, AfterAotFileLayoutAndInputs) {
  half.set_requires_grad(true);
  state.inputs = {IValue(small), IValue(weight), IValue(transposed), IValue(half), IValue(), IValue(int64_t{7})};
  setattr(interp, getattr(interp, interp.import_module("torch._inductor.config"), "cpp"), "inject_relu_bug_TESTING_ONLY",
          python::py_str("accuracy"));
  ReproScript script;
  script.state = state;
  script.command = "minify";
  script.save_dir = store;
  script.backend = "aot_eager";
  const std::string text = repro_script_text(interp, script);
  const std::string weight_hash = sha1_hex(bytes_of(weight));
  const std::string transposed_hash = sha1_hex(bytes_of(transposed));
  EXPECT_TRUE(in_order(text, {
                                 "import os",
                                 "import torch",
                                 "from torch import tensor, device",
                                 "from torch._dynamo.testing import rand_strided",
                                 "import torch._inductor.config",
                                 "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'accuracy'",
                                 "isolate_fails_code_str = None",
                                 "# kiln version: " KILN_VERSION,
                                 "from torch.nn import *",
                                 "class Repro(torch.nn.Module):",
                                 "    def forward(self, x, w, t, h, m, n):",
                                 "def embedded(tensor, values):",
                                 "def load_args(reader):",
                                 "    buf0 = reader.storage(None, 16)",
                                 "    embedded(reader.tensor(buf0, (2, 2), is_leaf=True), [[1.0, 2.0], [3.0, 4.0]])  # x",
                                 "    buf1 = reader.storage('" + weight_hash + "', 256)",
                                 "    reader.tensor(buf1, (8, 8), is_leaf=True)  # w",
                                 "    buf2 = reader.storage('" + transposed_hash + "', 80)",
                                 "    reader.tensor(buf2, (4, 5), (1, 4), is_leaf=True)  # t",
                                 "    buf3 = reader.storage(None, 6, dtype_hint=torch.float16)",
                                 "    embedded(reader.tensor(buf3, (3,), dtype=torch.float16, requires_grad=True, is_leaf=True), [1.0, 2.0, 3.0])  # h",
                                 "    buf4 = reader.storage(None, 24)",
                                 "    reader.tensor(buf4, (2, 3), is_leaf=True)  # m",
                                 "    reader.symint(7)  # n",
                                 "load_args._version = 0",
                                 "mod = Repro()",
                                 "if __name__ == '__main__':",
                                 "    from torch._dynamo.repro.after_aot import run_repro",
                                 "    with torch.no_grad():",
                                 "        run_repro(mod, load_args, accuracy=False, command='minify', save_dir=" + python::repr_str(store.string()) +
                                     ", tracing_mode='real', check_str=None, backend='aot_eager')",
                             }));
  EXPECT_EQ(text.find("backend='aot_eager'") == std::string::npos, false);

  // Read back: the same inputs (random data where only metadata was written).
  python::Ref module = run(text);
  python::Ref reader = make_input_reader(store);
  call(interp, as<python::ModuleObject>(module).globals->get("load_args"), std::vector<python::Ref>{reader});
  const std::vector<IValue> loaded = reader_inputs(interp, reader);
  ASSERT_EQ(loaded.size(), 6u);
  EXPECT_EQ(bytes_of(ops::contiguous(loaded[0].to_tensor())), bytes_of(small));
  EXPECT_EQ(bytes_of(loaded[1].to_tensor()), bytes_of(weight));
  EXPECT_EQ(loaded[2].to_tensor().strides(), (tensor::Shape{1, 4}));
  EXPECT_EQ(bytes_of(ops::contiguous(loaded[2].to_tensor())), bytes_of(ops::contiguous(transposed)));
  EXPECT_EQ(loaded[3].to_tensor().dtype(), DType::Float16);
  EXPECT_TRUE(loaded[3].to_tensor().requires_grad());
  EXPECT_EQ(loaded[4].to_tensor().sizes(), (tensor::Shape{2, 3}));
  EXPECT_EQ(loaded[5].to_int(), 7);
}

TEST_F(WriterTest, GetArgsGivesTheModuleWhichRunsEagerly) {
  // torch.ops.aten.<op>.<overload> calls run as Python code, on the inputs load_args makes.
  state.inputs = {IValue(ops::neg(small)), IValue(weight), IValue(transposed), IValue(half), IValue(), IValue(int64_t{7})};
  ReproScript script;
  script.state = state;
  script.save_dir = store;
  python::Ref module = run(repro_script_text(interp, script) +
                           "from torch._dynamo.repro.after_aot import run_repro\n"
                           "gm, args = run_repro(mod, load_args, command='get_args', save_dir=" + python::repr_str(store.string()) + ")\n"
                           "relu = gm(*args)[0]\n");
  const Tensor relu = python::to_tensor(as<python::ModuleObject>(module).globals->get("relu"), "relu");
  EXPECT_EQ(bytes_of(ops::contiguous(relu)), bytes_of(tensor::zeros({2, 2})));
}

TEST_F(WriterTest, InductorIsPyTorchsDefaultAndGoesUnnamed) {
  state.inputs = {IValue(small), IValue(weight), IValue(transposed), IValue(half), IValue(), IValue(int64_t{7})};
  ReproScript script;
  script.state = state;
  const std::string text = repro_script_text(interp, script);
  EXPECT_TRUE(in_order(text, {"        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='real', "
                              "check_str=None)"}));
  // Without a store, data too large to embed is not kept: the reader makes random data.
  EXPECT_TRUE(in_order(text, {"    buf1 = reader.storage(None, 256)"}));
}

TEST_F(WriterTest, AfterDynamoCarriesTheScriptsBackend) {
  python::Ref module = run("import torch\n"
                           "if True:\n"
                           "    def my_backend(gm, example_inputs):\n"
                           "        # refuses nothing\n"
                           "        return gm\n");
  state.inputs = {IValue(small), IValue(weight), IValue(transposed), IValue(half), IValue(), IValue(int64_t{7})};
  ReproScript script;
  script.after = ReproAfter::Dynamo;
  script.state = state;
  script.command = "minify";
  script.backend = "my_backend";
  script.backend_source = backend_source(as<python::ModuleObject>(module).globals->get("my_backend"));
  EXPECT_EQ(script.backend_source, "def my_backend(gm, example_inputs):\n    # refuses nothing\n    return gm\n");
  const std::string text = repro_script_text(interp, script);
  EXPECT_TRUE(in_order(text, {
                                 "import torch._dynamo",
                                 "class Repro(torch.nn.Module):",
                                 "mod = Repro()",
                                 "def my_backend(gm, example_inputs):",
                                 "    return gm",
                                 "def load_args(reader):",
                                 "    from torch._dynamo.repro.after_dynamo import run_repro",
                                 "    run_repro(mod, load_args, accuracy=False, command='minify',",
                                 "        save_dir=None, autocast=False, backend=my_backend)",
                             }));
  EXPECT_EQ(text.find("isolate_fails_code_str"), std::string::npos);
}

// The content store is torch.utils._content_store's layout: storages/<sha1> is torch.save of an
// UntypedStorage (data.pkl the storage's persistent id, its bytes record data/0), which PyTorch's
// InputReader loads; Kiln reads it back, and the raw <sha1>.bin files of older builds too.
TEST(ContentStore, StoragesAreTorchSaveFilesOfUntypedStorages) {
  const std::filesystem::path store = test::scratchDir("content_store_format");
  const std::string bytes = "\x01\x02\x03\x04 sixteen bytes";
  const std::string hash = write_storage(store, bytes);
  EXPECT_EQ(hash, sha1_hex(bytes));
  const std::filesystem::path file = store / "storages" / hash;
  ASSERT_TRUE(python::is_zip_file(file.string()));
  python::CheckpointArchiveReader archive(file.string());
  EXPECT_EQ(archive.read("data/0"), bytes);
  const std::optional<std::string> pickle = archive.read("data.pkl");
  ASSERT_TRUE(pickle);
  EXPECT_NE(pickle->find("torch.storage\nUntypedStorage\n"), std::string::npos);
  EXPECT_NE(pickle->find("storage"), std::string::npos);
  EXPECT_NE(pickle->find("cpu"), std::string::npos);  // where PyTorch's reader loads it
  EXPECT_EQ(read_storage(store, hash), bytes);
  EXPECT_EQ(read_storage(store, std::string(40, '0')), std::nullopt);

  // A GPU input's file names its device: PyTorch's InputReader loads storages where the file says,
  // whatever the reader.storage line says.
  const std::string gpu_bytes = "bytes of a tensor on cuda:0";
  const std::optional<std::string> gpu_pickle =
      python::CheckpointArchiveReader((store / "storages" / write_storage(store, gpu_bytes, tensor::Device::parse("cuda:0"))).string()).read("data.pkl");
  ASSERT_TRUE(gpu_pickle);
  EXPECT_NE(gpu_pickle->find("cuda:0"), std::string::npos);

  const std::string older = "raw bytes of an older build";
  std::ofstream(store / "storages" / (sha1_hex(older) + ".bin"), std::ios::binary) << older;
  EXPECT_EQ(read_storage(store, sha1_hex(older)), older);
}

// Files written for real PyTorch (minify --python) carry the launcher's config lines, read from
// its header, in place of Kiln's.
TEST_F(WriterTest, ConfigLinesCanComeFromTheLauncher) {
  const std::string launcher =
      "import torch._inductor.config\n"
      "torch._inductor.config.inplace_buffers = True\n"
      "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'compile_error'\n"
      "torch.fx.experimental._config.use_duck_shape = False\n"
      "torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()\n"
      "x = torch.config.not_at_top = 1\n"
      "    torch._inductor.config.indented = 1\n";
  const std::vector<std::string> config = config_lines_of(launcher);
  EXPECT_EQ(config, (std::vector<std::string>{"torch._inductor.config.inplace_buffers = True",
                                               "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'compile_error'",
                                               "torch.fx.experimental._config.use_duck_shape = False"}));
  state.inputs = {IValue(small), IValue(weight), IValue(transposed), IValue(half), IValue(), IValue(int64_t{7})};
  ReproScript script;
  script.state = state;
  script.config = config;
  const std::string text = repro_script_text(interp, script);
  EXPECT_TRUE(in_order(text, {"import torch._functorch.config", "torch._inductor.config.inplace_buffers = True",
                              "torch.fx.experimental._config.use_duck_shape = False", "from torch.nn import *"}));
}

// A PyTorch launcher only names a script-defined backend: the script gives its def (at any depth)
// and the script's imports.
TEST_F(WriterTest, ABackendIsFoundInTheScriptThatDefinesIt) {
  const std::filesystem::path script = test::scratchDir("backend_in_script") / "model.py";
  std::ofstream(script) << "import os, sys, torch\n"
                           "mode = sys.argv[1]\n"
                           "if mode == 'dynamo_backend':\n"
                           "    def toy_compiler(gm, _):\n"
                           "        for node in gm.graph.nodes:\n"
                           "            assert node.target != torch.relu, 'no relu'\n"
                           "        return gm\n"
                           "print('done')\n";
  EXPECT_EQ(backend_source_in_script(interp, script, "toy_compiler"),
            "import os, sys, torch\n\ndef toy_compiler(gm, _):\n    for node in gm.graph.nodes:\n"
            "        assert node.target != torch.relu, 'no relu'\n    return gm\n");
  EXPECT_EQ(backend_source_in_script(interp, script, "no_such_backend"), "");
  EXPECT_EQ(backend_source_in_script(interp, script.parent_path() / "missing.py", "toy_compiler"), "");
}

TEST_F(WriterTest, LegacyReprosRun) {
  // The PyTorch 2.0 format: rand_strided inputs, make_fx, compile_fx_inner (here with the testing
  // AOT backend standing in for inductor, which makes relu compute x + 1).
  setenv("KILN_COMPILE_BACKEND", "aot_eager_relu_bug_TESTING_ONLY", 1);
  python::Ref module = run("import torch\n"
                           "from torch._dynamo.testing import rand_strided\n"
                           "from torch.fx.experimental.proxy_tensor import make_fx\n"
                           "import torch._inductor.config\n"
                           "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'accuracy'\n"
                           "from torch.nn import *\n"
                           "class Repro(torch.nn.Module):\n"
                           "    def __init__(self):\n"
                           "        super().__init__()\n"
                           "\n"
                           "    def forward(self, arg0_1):\n"
                           "        relu = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None\n"
                           "        return (relu,)\n"
                           "\n"
                           "args = [((2, 3), (3, 1), torch.float32, 'cpu')]\n"
                           "args = [rand_strided(sh, st, dt, dev) for (sh, st, dt, dev) in args]\n"
                           "mod = make_fx(Repro())(*args)\n"
                           "from torch._inductor.compile_fx import compile_fx_inner\n"
                           "compiled = compile_fx_inner(mod, args)\n"
                           "difference = (compiled(args)[0] - (args[0] + 1)).abs().max().item()\n");
  unsetenv("KILN_COMPILE_BACKEND");
  EXPECT_EQ(python::to_double(interp, as<python::ModuleObject>(module).globals->get("difference")), 0.0);
}

}  // namespace
}  // namespace kiln::repro
