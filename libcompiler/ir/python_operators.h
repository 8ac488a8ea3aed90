#pragma once
// Lookups in python_operators.def: which operator.* targets print as Python syntax.
#include <optional>
#include <string>
#include <string_view>

namespace kiln::ir {

enum class PythonOperatorId {
#define KILN_PYTHON_OPERATOR(Enum, Name, Form, Symbol) Enum,
#include "libcompiler/ir/python_operators.def"
};

enum class OperatorForm { Binary, Unary, Subscript, InPlace, SubscriptStore };

struct PythonOperator {
  PythonOperatorId id;
  std::string_view name;    // "add" (the target is "operator.add")
  OperatorForm form;
  std::string_view symbol;  // "+"
};

// The operator a call_function target names ("operator.add"), if it is one of the table.
std::optional<PythonOperator> operatorForTarget(std::string_view target);
// The operator written with symbol in the given form ("+" Binary -> add).
std::optional<PythonOperator> operatorForSymbol(std::string_view symbol, OperatorForm form);
// "operator.<name>".
std::string operatorTarget(const PythonOperator& op);

}  // namespace kiln::ir
