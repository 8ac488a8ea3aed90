#pragma once
// FunctionSchema: an aten operator signature, parsed from the exact text PyTorch's
// native_functions.yaml writes (`add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`).
// The parsed arguments (names, types, defaults, keyword-only) drive argument binding, the
// Python-style signatures of error messages, and alias information (in-place and view ops).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcompiler/ops/ivalue.h"

namespace kiln::ops {

struct SchemaType {
  enum class Base { Tensor, Int, SymInt, Float, Bool, Str, Scalar, ScalarType, Layout, Device, MemoryFormat, Generator };
  Base base = Base::Tensor;
  bool is_list = false;
  std::optional<int64_t> list_size;  // int[2]: a single int is repeated to this length
  bool is_optional = false;
  // Alias annotation of a Tensor: "a" in Tensor(a), Tensor(a!) (is_write), Tensor(a -> *).
  std::string alias_set;
  bool is_write = false;

  std::string str() const;  // as written in the schema: "Tensor(a!)", "int[1]?"
};

struct SchemaArgument {
  std::string name;
  SchemaType type;
  std::optional<IValue> default_value;  // absent: required; holds None for "=None"
  std::string default_text;             // the default as written ("1", "Mean", "[]")
  bool kwarg_only = false;
};

struct SchemaReturn {
  std::string name;  // often empty: (Tensor values, Tensor indices) names them
  SchemaType type;
};

struct FunctionSchema {
  std::string ns = "aten";  // the operator namespace: "prims" for prims::xor_sum
  std::string name;      // "add"
  std::string overload;  // "Tensor"; empty for the default overload
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaReturn> returns;

  // "add.Tensor", or "add" for the default overload; other namespaces than aten are spelled out
  // ("prims::xor_sum"), so that no aten lookup finds them.
  std::string qualified_name() const;
  // "add", or "prims::xor_sum": the name its overloads share.
  std::string namespaced_name() const;
  // PyTorch's canonical text; parsing then printing gives the table's string back.
  std::string str() const;
  // An in-place op: its first argument is written and returned (add_, copy_). A written list
  // (_foreach_add_) is not: its kernel writes each tensor through an in-place table op.
  bool is_inplace() const;
  std::optional<size_t> argument_index(std::string_view name) const;
};

// Parses one schema; throws std::invalid_argument naming the position on malformed text.
FunctionSchema parse_schema(std::string_view text);

// The reduction enum behind `int reduction=Mean` (at::Reduction).
enum class Reduction : int64_t { None = 0, Mean = 1, Sum = 2 };

}  // namespace kiln::ops
