#pragma once
// torch._dynamo.utils.compile_times(): the seconds each phase of each compile took, printed as
// PyTorch's table ("TorchDynamo compilation metrics:").
#include <string>
#include <utility>
#include <vector>

namespace kiln::capture {

class CompileTimes {
 public:
  void add(const std::string& phase, double seconds);
  void clear() { phases_.clear(); }
  std::string table() const;

 private:
  std::vector<std::pair<std::string, std::vector<double>>> phases_;  // in order of first use
};

CompileTimes& compile_times();

}  // namespace kiln::capture
