#include "libcompiler/ir/runnable_printer.h"

#include "libcompiler/ir/readable_printer.h"

namespace kiln::ir {

namespace {

// Python's repr of list(tensor.shape).
std::string shapeList(const TensorMeta& meta) {
  std::string s = "[";
  for (size_t i = 0; i < meta.sizes.size(); ++i) {
    if (i) s.append(", ");
    s.append(meta.sizes[i].str());
  }
  s.append("]");
  return s;
}

// What NNModuleToString writes for a buffer: its repr when small, else random data of its shape.
std::string bufferExpression(const ModuleAttribute& buffer) {
  std::string expression;
  if (buffer.inlineRepr) {
    expression = *buffer.inlineRepr;
  } else if (isFloatingPoint(buffer.meta.dtype)) {
    expression.append("torch.randn(").append(shapeList(buffer.meta)).append(", dtype=torch.");
    expression.append(dtypeTorchName(buffer.meta.dtype)).append(")");
  } else {
    expression.append("torch.randint(1, size=").append(shapeList(buffer.meta)).append(", dtype=torch.");
    expression.append(dtypeTorchName(buffer.meta.dtype)).append(")");
  }
  if (buffer.meta.device.type == tensor::DeviceType::CUDA) expression.append(".cuda()");
  return expression;
}

std::string parameterExpression(const ModuleAttribute& parameter) {
  std::string expression = "torch.nn.Parameter(torch.randn(";
  expression.append(shapeList(parameter.meta)).append(", dtype=torch.").append(dtypeTorchName(parameter.meta.dtype));
  if (parameter.meta.device.type == tensor::DeviceType::CUDA) expression.append(", device=\"cuda\"");
  expression.append("))");
  return expression;
}

}  // namespace

std::vector<std::string> printRunnableLines(const GraphModule& module) {
  std::vector<std::string> lines;
  lines.push_back(std::string("class ").append(kReproClassName).append("(torch.nn.Module):"));
  lines.push_back("    def __init__(self) -> None:");
  lines.push_back("        super().__init__()");
  for (const auto& [name, attribute] : module.attributes)
    if (!attribute.isParameter)
      lines.push_back(std::string("        self.register_buffer('").append(name).append("', ").append(bufferExpression(attribute)).append(")"));
  for (const auto& [name, attribute] : module.attributes)
    if (attribute.isParameter)
      lines.push_back(std::string("        self.").append(name).append(" = ").append(parameterExpression(attribute)));
  // gm.code opens with three newlines (FX's empty wrap statements and prologue).
  lines.insert(lines.end(), 3, "");
  auto forward = printForwardCode(module, "    ");
  lines.insert(lines.end(), forward.begin(), forward.end());
  return lines;
}

std::string printRunnable(const GraphModule& module) {
  std::string text;
  for (const auto& line : printRunnableLines(module)) text.append(line).append("\n");
  return text;
}

}  // namespace kiln::ir
