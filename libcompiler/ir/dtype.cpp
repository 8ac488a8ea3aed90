#include "libcompiler/ir/dtype.h"

namespace kiln::ir {

namespace {
struct DtypeNames {
  Dtype dtype;
  std::string_view shortName;
  std::string_view torchName;
};
constexpr DtypeNames kDtypes[] = {
#define KILN_DTYPE(Enumerator, Short, Torch) {Dtype::Enumerator, Short, Torch},
#include "libcompiler/ir/dtypes.def"
};
}  // namespace

std::string_view dtypeShortName(Dtype dtype) { return kDtypes[static_cast<int>(dtype)].shortName; }
std::string_view dtypeTorchName(Dtype dtype) { return kDtypes[static_cast<int>(dtype)].torchName; }

std::optional<Dtype> dtypeFromShortName(std::string_view shortName) {
  for (const auto& d : kDtypes)
    if (d.shortName == shortName) return d.dtype;
  return std::nullopt;
}

std::optional<Dtype> dtypeFromTorchName(std::string_view torchName) {
  for (const auto& d : kDtypes)
    if (d.torchName == torchName) return d.dtype;
  return std::nullopt;
}

bool isFloatingPoint(Dtype dtype) {
  return dtype == Dtype::Float32 || dtype == Dtype::Float64 || dtype == Dtype::Float16 || dtype == Dtype::BFloat16;
}

}  // namespace kiln::ir
