#include "libcompiler/ir/runnable_parser.h"

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "libcompiler/ir/readable_parser.h"

namespace kiln::ir {

namespace {

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::vector<SymExpr> parseShape(const std::string& list, int line) {
  std::vector<SymExpr> sizes;
  size_t start = 0;
  while (start < list.size()) {
    size_t comma = list.find(", ", start);
    if (comma == std::string::npos) comma = list.size();
    try {
      sizes.push_back(SymExpr::parse(std::string_view(list).substr(start, comma - start)));
    } catch (const std::invalid_argument& e) {
      throw SyntaxError(std::string("bad size in a shape: ").append(e.what()), line, 0);
    }
    start = comma + 2;
  }
  return sizes;
}

Dtype parseDtype(const std::string& name, int line) {
  auto dtype = dtypeFromTorchName(name);
  if (!dtype) throw SyntaxError(std::string("unknown dtype torch.").append(name), line, 0);
  return *dtype;
}

ModuleAttribute randomAttribute(const std::string& shape, const std::string& dtype, bool cuda, bool isParameter, int line) {
  ModuleAttribute attribute;
  attribute.isParameter = isParameter;
  attribute.meta.dtype = parseDtype(dtype, line);
  attribute.meta.sizes = parseShape(shape, line);
  attribute.meta.strides = TensorMeta::contiguousStrides(attribute.meta.sizes);
  if (cuda) attribute.meta.device = Device{tensor::DeviceType::CUDA, -1};
  return attribute;
}

// One line of __init__ after super().__init__(): a buffer or a parameter (runnable_printer.cpp's forms).
std::pair<std::string, ModuleAttribute> parseAttributeLine(const std::string& text, int line) {
  static const std::regex buffer(R"(        self\.register_buffer\('([A-Za-z_]\w*)', (.*)\))");
  static const std::regex randomBuffer(R"(torch\.(randn\(|randint\(1, size=)\[([^\]]*)\], dtype=torch\.(\w+)\))");
  static const std::regex parameter(
      R"(        self\.([A-Za-z_]\w*) = torch\.nn\.Parameter\(torch\.randn\(\[([^\]]*)\], dtype=torch\.(\w+)(, device="cuda")?\)\))");
  std::smatch m;
  if (std::regex_match(text, m, parameter)) return {m[1], randomAttribute(m[2], m[3], m[4].matched, true, line)};
  if (!std::regex_match(text, m, buffer))
    throw SyntaxError("expected self.register_buffer(...) or a torch.nn.Parameter in __init__", line, 0);
  std::string name = m[1], expression = m[2];
  constexpr std::string_view kCuda = ".cuda()";
  bool cuda = expression.ends_with(kCuda);
  if (cuda) expression.resize(expression.size() - kCuda.size());
  std::smatch r;
  if (std::regex_match(expression, r, randomBuffer)) return {name, randomAttribute(r[2], r[3], cuda, false, line)};
  ModuleAttribute attribute;
  attribute.inlineRepr = expression;
  if (cuda) attribute.meta.device = Device{tensor::DeviceType::CUDA, -1};
  return {name, attribute};
}

bool isClassLine(const std::string& line) {
  return line.starts_with("class ") && line.ends_with("(torch.nn.Module):");
}

}  // namespace

std::unique_ptr<GraphModule> parseRunnable(std::string_view text) {
  std::vector<std::string> lines = splitLines(text);
  size_t classLine = 0;
  while (classLine < lines.size() && !isClassLine(lines[classLine])) ++classLine;
  if (classLine == lines.size()) throw SyntaxError("no 'class ...(torch.nn.Module):' line", 1, 0);
  auto lineNumber = [&](size_t index) { return static_cast<int>(index) + 1; };
  size_t i = classLine + 1;
  auto expectLine = [&](std::string_view expected) {
    if (i >= lines.size() || lines[i] != expected)
      throw SyntaxError(std::string("expected '").append(expected).append("'"), lineNumber(i), 0);
    ++i;
  };
  // Repro files of the PyTorch 2.0 era wrote __init__ without its annotation.
  if (i < lines.size() && lines[i] == "    def __init__(self):") ++i;
  else expectLine("    def __init__(self) -> None:");
  expectLine("        super().__init__()");
  std::map<std::string, ModuleAttribute> attributes;
  for (; i < lines.size() && lines[i].starts_with("        "); ++i)
    attributes.insert(parseAttributeLine(lines[i], lineNumber(i)));
  // The readable parser reads the class line and forward; the other lines are blanked so that
  // its errors point at the right line of text.
  size_t end = i;
  while (end < lines.size() && (lines[end].empty() || lines[end].starts_with(" "))) ++end;
  std::string forwardText;
  for (size_t k = 0; k < end; ++k) {
    if (k == classLine || k >= i) forwardText.append(lines[k]);
    forwardText.append("\n");
  }
  auto module = parseReadable(forwardText);
  for (auto& [name, attribute] : attributes) module->attributes[name] = std::move(attribute);
  return module;
}

}  // namespace kiln::ir
