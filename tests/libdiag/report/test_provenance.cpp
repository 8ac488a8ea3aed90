#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kiln_config.h"
#include "libdiag/report/break_digest.h"
#include "libdiag/report/provenance_mapping.h"
#include "libdiag/report/provenance_page.h"
#include "libdiag/report/python_highlight.h"
#include "tests/support/shared_data.h"

namespace kiln::report {
namespace {

const char* kPreGrad = R"(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[8, 10][10, 1]cpu"):
        l_x_ = L_x_

         # File: model.py:29 in forward, code: x = self.fc1(x)
        x: "f32[8, 16][16, 1]cpu" = torch._C._nn.linear(l_x_);  l_x_ = None
        y: "f32[8, 16][16, 1]cpu" = torch.relu(x);  x = None
        return (y,)
)";

const char* kPostGrad = R"(class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 10][10, 1]cpu"):
         # File: model.py:29 in forward, code: x = self.fc1(x)
        mm: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mm.default(arg0_1, arg1_1)
        add: "f32[8, 16][16, 1]cpu" = torch.ops.aten.add.Tensor(mm, 1)
        relu: "f32[8, 16][16, 1]cpu" = torch.ops.aten.relu.default(add)
        return (relu,)
)";

const char* kPython = R"(# AOT ID: ['0_inference']
from ctypes import c_void_p
import torch

cpp_fused_add_relu_0 = async_compile.cpp_pybinding(['float*'], '''
extern "C" void kernel(float* in_out_ptr0) {}
''')

def call(args):
    arg0_1, = args
    buf0 = empty_strided_cpu((8, 16), (16, 1), torch.float32)
    extern_kernels.mm(arg0_1, arg1_1, out=buf0)
    cpp_fused_add_relu_0(buf0)
    return (buf0, )
)";

const char* kMappings = R"({
  "version": 2.0,
  "preToPost": {"x": ["mm", "add"], "y": ["relu"], "missing": ["mm"]},
  "postToPre": {"mm": ["x"], "add": ["x"], "relu": ["y", "nowhere"]},
  "cppCodeToPost": {"cpp_fused_add_relu_0": ["add", "relu"], "extern_kernels.mm": ["mm"]},
  "postToCppCode": {"add": ["cpp_fused_add_relu_0"], "relu": ["cpp_fused_add_relu_0"], "mm": ["extern_kernels.mm"]}
})";

TEST(ProvenanceMapping, GraphLinesByNodeName) {
  const nlohmann::json mappings = compute_line_mappings({kPreGrad, kPostGrad, "", "", kMappings});
  // x is line 6 of the pre-grad graph, y line 7; mm, add, relu are lines 4, 5, 6 post-grad.
  EXPECT_EQ(mappings["preToPost"], nlohmann::json::parse(R"({"6": [4, 5], "7": [6]})"));
  EXPECT_EQ(mappings["postToPre"], nlohmann::json::parse(R"({"4": [6], "5": [6], "6": [7]})"));
}

TEST(ProvenanceMapping, PythonKernelLinesCountFromTheAotIdLine) {
  const nlohmann::json plain = compute_line_mappings({kPreGrad, kPostGrad, kPython, "", kMappings});
  // Only lines from "def call(args):" on count: the definition on line 5 is not a launch.
  EXPECT_EQ(plain["pyCodeToPost"], nlohmann::json::parse(R"({"12": [4], "13": [5, 6]})"));
  EXPECT_EQ(plain["postToPyCode"], nlohmann::json::parse(R"({"4": [12], "5": [13], "6": [13]})"));
  EXPECT_EQ(plain["cppCodeToPost"], nlohmann::json::object());
  EXPECT_EQ(plain["postToCppCode"], nlohmann::json::object());

  // The highlighted HTML (one extra <pre> line on top) numbers the same lines.
  const std::string html = highlight_python_html(kPython);
  const nlohmann::json highlighted = compute_line_mappings({kPreGrad, kPostGrad, html, "", kMappings});
  EXPECT_EQ(highlighted, plain);
}

TEST(ProvenanceMapping, PythonDebugHandlesPickTheNextLaunch) {
  const char* code = R"(# AOT ID: ['1_forward']
def call(args):
    # [Provenance debug handles] triton_poi_fused_mul_0:1
    triton_poi_fused_mul_0.run(buf0, stream=stream0)
    # [Provenance debug handles] triton_poi_fused_mul_0:2
    triton_poi_fused_mul_0.run(buf1, stream=stream0)
    triton_poi_fused_add_1.run(buf1, stream=stream0)
)";
  const char* graph = "mul = torch.ops.aten.mul.Tensor(a, 2)\nmul_1 = torch.ops.aten.mul.Tensor(b, 2)\nadd = x + y\n";
  const char* mappings = R"({
    "cppCodeToPost": {"triton_poi_fused_mul_0:1": ["mul"], "triton_poi_fused_mul_0:2": ["mul_1"],
                      "triton_poi_fused_add_1:3": ["add"]},
    "postToCppCode": {"mul": ["triton_poi_fused_mul_0:1"], "mul_1": ["triton_poi_fused_mul_0:2"]}})";
  const nlohmann::json result = compute_line_mappings({"", graph, code, "", mappings});
  // Handle 3 is not in the code: every line naming the bare kernel counts.
  EXPECT_EQ(result["pyCodeToPost"], nlohmann::json::parse(R"({"4": [1], "6": [2], "7": [3]})"));
  EXPECT_EQ(result["postToPyCode"], nlohmann::json::parse(R"({"1": [4], "2": [6]})"));
}

TEST(ProvenanceMapping, CppKernelLinesFromRunImpl) {
  const char* code = R"(

#include <torch/csrc/inductor/aoti_runtime/interface.h>
static inline void cpp_fused_mul_0(float* out) {}
void AOTInductorModel::run_impl(AtenTensorHandle* input_handles) {
    // Topologically Sorted Source Nodes: [mul], debug handle: cpp_fused_mul_0:4
    int64_t cpp_fused_mul_0_xnumel_1 = 128;
    int64_t cpp_fused_mul_0_xnumel = 128;
    cpp_fused_mul_0((float*)(buf0.data_ptr()));
    aoti_torch_cpu_addmm_out(buf1, cpp_fused_mul_0_helper);
    at::native::my_op::compute(buf2);
}
)";
  const char* graph = "mul = torch.ops.aten.mul.Tensor(a, 2)\naddmm = torch.ops.aten.addmm.default(a, b, c)\n";
  const char* mappings = R"({
    "cppCodeToPost": {"cpp_fused_mul_0:4": ["mul"], "at::native::my_op": ["addmm"]},
    "postToCppCode": {"mul": ["cpp_fused_mul_0:4"], "addmm": ["at::native::my_op", "cpp_fused_mul_0:4"]}})";
  const nlohmann::json result = compute_line_mappings({"", graph, "", code, mappings});
  // Lines are counted without the two leading empty lines. The handle's launch skips both
  // xnumel declarations. "at::native::my_op" reads as a handle (its bare name is "at::native:",
  // before the last ':'); no later line names it, so every line from run_impl on naming the bare
  // name counts.
  EXPECT_EQ(result["cppCodeToPost"], nlohmann::json::parse(R"({"7": [1], "9": [2]})"));
  EXPECT_EQ(result["postToCppCode"], nlohmann::json::parse(R"({"1": [7], "2": [9, 7]})"));
  EXPECT_EQ(result["pyCodeToPost"], nlohmann::json::object());
}

TEST(ProvenanceMapping, BadNodeMappings) {
  EXPECT_EQ(compute_line_mappings({kPreGrad, kPostGrad, kPython, "", ""}), nlohmann::json::object());
  EXPECT_EQ(compute_line_mappings({kPreGrad, kPostGrad, kPython, "", "{not json"}), nlohmann::json::object());
  const nlohmann::json from_array = compute_line_mappings({kPreGrad, kPostGrad, kPython, "", "[1, 2]"});
  ASSERT_EQ(from_array.size(), 6u);
  for (const auto& [name, value] : from_array.items()) EXPECT_EQ(value, nlohmann::json::object()) << name;
  // Entries of the wrong type are skipped, not fatal.
  const nlohmann::json odd = compute_line_mappings(
      {kPreGrad, kPostGrad, "", "", R"({"preToPost": {"x": "mm", "y": [1, "relu"]}, "postToPre": []})"});
  EXPECT_EQ(odd["preToPost"], nlohmann::json::parse(R"({"7": [6]})"));
  EXPECT_EQ(odd["postToPre"], nlohmann::json::object());
}

CompileGroup group_with(const std::string& directory, std::vector<std::pair<std::string, uint64_t>> files) {
  CompileGroup group;
  group.directory = directory;
  for (auto& [url, number] : files) {
    OutputEntry entry;
    entry.url = url;
    entry.name = url.substr(url.rfind('/') + 1);
    entry.number = number;
    group.entries.push_back(entry);
  }
  return group;
}

TEST(ProvenancePage, PicksTheLastFileOfTheFirstMatchingPattern) {
  std::vector<CompileGroup> groups = {
      group_with("-_0_0_0", {{"-_0_0_0/inductor_pre_grad_graph_0.txt", 0},
                             {"-_0_0_0/before_pre_grad_graph_1.txt", 1},
                             {"-_0_0_0/before_pre_grad_graph_5.txt", 5},
                             {"-_0_0_0/inductor_post_grad_graph_2.txt", 2},
                             {"-_0_0_0/inductor_output_code_abc_3.html", 3}}),
      group_with("-_1_0_0", {{"-_1_0_0/after_post_grad_graph_4.txt", 4}}),
  };
  OutputEntry link;
  link.url = "https://example.com/-_0_0_0/inductor_aot_wrapper_code";
  link.is_link = true;
  link.number = 6;
  groups[0].entries.push_back(link);

  const ProvenanceInputFiles first = find_provenance_inputs(groups, groups[0]);
  EXPECT_EQ(first.pre_grad_graph, "-_0_0_0/before_pre_grad_graph_5.txt");
  EXPECT_EQ(first.post_grad_graph, "-_0_0_0/inductor_post_grad_graph_2.txt");
  EXPECT_EQ(first.python_code, "-_0_0_0/inductor_output_code_abc_3.html");
  EXPECT_EQ(first.cpp_code, std::nullopt);  // links are not files
  EXPECT_EQ(first.node_mappings, std::nullopt);
  const ProvenanceInputFiles second = find_provenance_inputs(groups, groups[1]);
  EXPECT_EQ(second.pre_grad_graph, std::nullopt);
  EXPECT_EQ(second.post_grad_graph, "-_1_0_0/after_post_grad_graph_4.txt");

  // tlparse matches "<directory>/<pattern>" anywhere in the path, so the files of compiled
  // autograd graph 11 are also found for graph 1 when that has none of its own.
  const std::vector<CompileGroup> autograd = {group_with("11_0_0_0", {{"11_0_0_0/inductor_output_code_y_7.html", 7}})};
  EXPECT_EQ(find_provenance_inputs(autograd, group_with("1_0_0_0", {})).python_code,
            "11_0_0_0/inductor_output_code_y_7.html");
  EXPECT_EQ(find_provenance_inputs(autograd, group_with("2_0_0_0", {})).python_code, std::nullopt);

  CompileGroup unknown = group_with("unknown_7", {});
  unknown.id.malformed = true;
  EXPECT_EQ(provenance_page_name(unknown), "provenance_tracking_(unknown).html");
  EXPECT_EQ(provenance_page_name(groups[1]), "provenance_tracking_-_1_0_0.html");
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The JSON a provenance page embeds in <script id="lineMappings">.
nlohmann::json embedded_mappings(const std::string& html) {
  const size_t tag = html.find("id=\"lineMappings\"");
  if (tag == std::string::npos) return nullptr;
  const size_t begin = html.find('>', tag) + 1;
  return nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
}

TEST(ProvenancePage, WritesAnOfflinePageWithTheMappings) {
  const std::filesystem::path out = test::scratchDir("provenance_page");
  std::filesystem::create_directories(out / "-_0_0_0");
  std::ofstream(out / "-_0_0_0/before_pre_grad_graph_0.txt") << kPreGrad;
  std::ofstream(out / "-_0_0_0/after_post_grad_graph_1.txt") << kPostGrad;
  std::ofstream(out / "-_0_0_0/inductor_output_code_x_2.html") << highlight_python_html(kPython);
  std::ofstream(out / "-_0_0_0/inductor_provenance_tracking_node_mappings_3.json") << kMappings;
  ReportResult result;
  result.groups = {group_with("-_0_0_0", {{"-_0_0_0/before_pre_grad_graph_0.txt", 0},
                                          {"-_0_0_0/after_post_grad_graph_1.txt", 1},
                                          {"-_0_0_0/inductor_output_code_x_2.html", 2},
                                          {"-_0_0_0/inductor_provenance_tracking_node_mappings_3.json", 3}}),
                   group_with("-_-_-_-", {})};
  result.groups[0].display = "[0/0]";
  result.groups[1].display = "[-/-]";
  write_provenance_pages(out, result, /*plain_text=*/false);

  const std::string page = read_text(out / "provenance_tracking_-_0_0_0.html");
  EXPECT_EQ(embedded_mappings(page),
            compute_line_mappings({kPreGrad, kPostGrad, highlight_python_html(kPython), "", kMappings}));
  EXPECT_NE(page.find("&quot;f32[8, 16][16, 1]cpu&quot;"), std::string::npos);  // graphs escaped
  EXPECT_NE(page.find("<pre style=\"background-color:#ffffff;"), std::string::npos);  // highlighted code kept
  EXPECT_EQ(page.find("http://"), std::string::npos);   // offline: nothing fetched
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_NE(page.find("addEventListener('mouseover'"), std::string::npos);  // the highlighting script is inline

  const std::string empty = read_text(out / "provenance_tracking_-_-_-_-.html");
  EXPECT_EQ(embedded_mappings(empty), nlohmann::json::object());
}

// The real tlparse 0.4.3 beside the checkout (scripts/setup --reference), or "" when absent.
std::filesystem::path reference_tlparse() {
  const std::filesystem::path tool = std::filesystem::path(KILN_SOURCE_DIR) / ".reference/bin/tlparse";
  return std::filesystem::exists(tool) ? tool : std::filesystem::path();
}

// A report folder's produced files as one group (compile_directory.json, all ids together).
std::vector<CompileGroup> all_files_of(const std::filesystem::path& report) {
  const nlohmann::json directory = nlohmann::json::parse(read_text(report / "compile_directory.json"));
  CompileGroup all;
  for (const auto& [id, group] : directory.items()) {
    for (const auto& artifact : group["artifacts"]) {
      OutputEntry entry;
      entry.url = artifact["url"].get<std::string>();
      entry.number = artifact["number"].get<uint64_t>();
      entry.is_link = entry.url.starts_with("http");
      all.entries.push_back(entry);
    }
  }
  return {all};
}

// Our line mappings, computed from the files tlparse itself wrote, equal the ones its pages
// embed: for every provenance log and every group, with highlighted (-i) and plain (-i -p) code.
// With -p we also render the plain code with our highlighter: the mappings must not change.
TEST(ProvenanceAgainstTlparse, SameLineMappingsAsTheRealTool) {
  KILN_REQUIRE_SHARED();
  const std::filesystem::path tool = reference_tlparse();
  if (tool.empty()) GTEST_SKIP() << ".reference/bin/tlparse is absent (scripts/setup --reference installs it)";
  const std::filesystem::path inputs = test::realPath("tlparse-0.4.3/inputs");
  int pages = 0;
  for (const auto& file : std::filesystem::directory_iterator(inputs)) {
    const std::string name = file.path().filename().string();
    if (!name.starts_with("inductor_provenance_") || std::filesystem::file_size(file.path()) == 0) continue;
    for (const bool plain_text : {false, true}) {
      const std::filesystem::path report = test::scratchDir("provenance_real_" + name + (plain_text ? "_p" : ""));
      std::filesystem::remove_all(report);
      const std::string command = "\"" + tool.string() + "\" --no-browser -i " + (plain_text ? "-p " : "") + "-o \"" +
                                  report.string() + "\" \"" + file.path().string() + "\" >/dev/null 2>&1";
      ASSERT_EQ(std::system(command.c_str()), 0) << command;
      const std::vector<CompileGroup> groups = all_files_of(report);
      for (const auto& page : std::filesystem::directory_iterator(report)) {
        const std::string page_name = page.path().filename().string();
        if (!page_name.starts_with("provenance_tracking_")) continue;
        CompileGroup group;
        group.directory = page_name.substr(20, page_name.size() - 20 - 5);
        group.id.malformed = group.directory == "(unknown)";
        const ProvenanceInputFiles files = find_provenance_inputs(groups, group);
        auto content = [&](const std::optional<std::string>& relative) {
          return relative ? read_text(report / *relative) : std::string();
        };
        const std::string pre = content(files.pre_grad_graph), post = content(files.post_grad_graph),
                          python = content(files.python_code), cpp = content(files.cpp_code),
                          mappings = content(files.node_mappings);
        const nlohmann::json expected = embedded_mappings(read_text(page.path()));
        EXPECT_EQ(compute_line_mappings({pre, post, python, cpp, mappings}), expected) << name << " " << page_name;
        if (plain_text) {
          const std::string highlighted = python.empty() ? python : highlight_python_html(python);
          EXPECT_EQ(compute_line_mappings({pre, post, highlighted, cpp, mappings}), expected)
              << name << " " << page_name << " (our highlighting)";
        }
        ++pages;
      }
    }
  }
  EXPECT_GE(pages, 2 * 8);  // eight non-empty provenance logs, at least one page each
}

// Our whole pipeline (run_report with -i, our highlighter, our pages) on every provenance log:
// the files tlparse 0.4.3 writes (expected_structure) plus one page per compile group, and, when
// the real tool is installed, the same line mappings in every page as its pages embed.
TEST(ProvenanceAgainstTlparse, OurPipelineOnTheProvenanceLogs) {
  KILN_REQUIRE_SHARED();
  const std::filesystem::path tool = reference_tlparse();
  int compared = 0;
  for (const auto& file : std::filesystem::directory_iterator(test::realPath("tlparse-0.4.3/inputs"))) {
    const std::string name = file.path().filename().string();
    if (!name.starts_with("inductor_provenance_") || std::filesystem::file_size(file.path()) == 0) continue;
    SCOPED_TRACE(name);
    const std::filesystem::path out = test::scratchDir("provenance_ours_" + name);
    ReportOptions options;
    options.inductor_provenance = true;
    options.diagnostic = [](const std::string&) {};
    const ReportResult result = run_report(file.path(), out, options);
    write_provenance_pages(out, result, /*plain_text=*/false);

    std::set<std::string> pages, top;
    for (const auto& entry : std::filesystem::directory_iterator(out)) {
      if (!entry.is_regular_file()) continue;
      const std::string file_name = entry.path().filename().string();
      if (file_name == kBreakDigestFile) continue;  // Kiln's addition to tlparse's files
      (file_name.starts_with("provenance_tracking_") ? pages : top).insert(file_name);
    }
    std::set<std::string> expected_pages;
    for (const CompileGroup& group : result.groups) expected_pages.insert(provenance_page_name(group));
    EXPECT_EQ(pages, expected_pages);
    const std::string stem = name.substr(0, name.rfind('.'));
    const nlohmann::json structure =
        nlohmann::json::parse(read_text(test::realPath("tlparse-0.4.3/expected_structure/" + stem + ".json")));
    EXPECT_EQ(top, structure["top"].get<std::set<std::string>>());

    if (tool.empty()) continue;
    const std::filesystem::path theirs = test::scratchDir("provenance_theirs_" + name);
    std::filesystem::remove_all(theirs);
    const std::string command = "\"" + tool.string() + "\" --no-browser -i -o \"" + theirs.string() + "\" \"" +
                                file.path().string() + "\" >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    for (const std::string& page : expected_pages) {
      EXPECT_EQ(embedded_mappings(read_text(out / page)), embedded_mappings(read_text(theirs / page))) << page;
      ++compared;
    }
  }
  if (tool.empty()) GTEST_SKIP() << "structure checked; .reference/bin/tlparse is absent, mappings not compared";
  EXPECT_GE(compared, 8);
}

}  // namespace
}  // namespace kiln::report
