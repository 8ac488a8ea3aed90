#include "libcompiler/ir/python_operators.h"

namespace kiln::ir {

namespace {
constexpr PythonOperator kOperators[] = {
#define KILN_PYTHON_OPERATOR(Enum, Name, Form, Symbol) {PythonOperatorId::Enum, Name, OperatorForm::Form, Symbol},
#include "libcompiler/ir/python_operators.def"
};
constexpr std::string_view kModulePrefix = "operator.";
}  // namespace

std::optional<PythonOperator> operatorForTarget(std::string_view target) {
  if (target.substr(0, kModulePrefix.size()) != kModulePrefix) return std::nullopt;
  std::string_view name = target.substr(kModulePrefix.size());
  for (const auto& op : kOperators)
    if (op.name == name) return op;
  return std::nullopt;
}

std::optional<PythonOperator> operatorForSymbol(std::string_view symbol, OperatorForm form) {
  for (const auto& op : kOperators)
    if (op.symbol == symbol && op.form == form) return op;
  return std::nullopt;
}

std::string operatorTarget(const PythonOperator& op) { return std::string(kModulePrefix) + std::string(op.name); }

}  // namespace kiln::ir
