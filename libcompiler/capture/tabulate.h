#pragma once
// Python's tabulate(rows, headers) in its default "simple" format, which PyTorch's reports print:
// a header row, a row of dashes per column, then the rows; columns two spaces apart, numbers
// right-aligned, text left-aligned; a cell with newlines spans several lines.
#include <string>
#include <vector>

namespace kiln::capture {

struct TableColumn {
  std::string header;
  bool numeric = false;
};

std::string tabulate(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows);

}  // namespace kiln::capture
