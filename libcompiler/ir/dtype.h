#pragma once
// Element types as the graph IR names them: short names in annotations ("f32"), torch names in
// arguments ("torch.float32"). The table is the tensor runtime's (tensor/dtype.def) with the types
// tensors cannot hold (complex) added, so that the two vocabularies cannot drift apart.
#include <optional>
#include <string_view>

namespace kiln::ir {

enum class Dtype {
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) Enum,
#define KILN_DTYPE_WITHOUT_STORAGE(Enum, Name, ShortName) Enum,
#include "libcompiler/tensor/dtype.def"
};

std::string_view dtypeShortName(Dtype dtype);
std::string_view dtypeTorchName(Dtype dtype);
std::optional<Dtype> dtypeFromShortName(std::string_view shortName);
std::optional<Dtype> dtypeFromTorchName(std::string_view torchName);
// torch.is_floating_point: the real floating types (not complex, integer or bool).
bool isFloatingPoint(Dtype dtype);

}  // namespace kiln::ir
