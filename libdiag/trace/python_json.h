#pragma once
// JSON text exactly as Python's json.dumps writes it (reference §2.2, §2.3), so Kiln's traces
// read like PyTorch's: ", " and ": " separators, non-ASCII as \uXXXX, keys in insertion order,
// floats in repr() form. nlohmann::json builds the values; this only lays them out.
#include <string>

#include <nlohmann/json.hpp>

namespace kiln::trace {

// Metadata keeps its insertion order, as a Python dict does.
using TraceJson = nlohmann::ordered_json;

enum class PythonJsonLayout {
  OneLine,     // json.dumps(value)
  IndentZero,  // json.dumps(value, indent=0): every member on its own line, separators "," and ": "
};

// Non-finite floats become null (Python would write NaN, which tlparse cannot read); text that
// is not UTF-8 has its bad bytes replaced by U+FFFD.
std::string python_json_dumps(const TraceJson& value, PythonJsonLayout layout = PythonJsonLayout::OneLine);

}  // namespace kiln::trace
