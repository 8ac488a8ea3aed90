#pragma once
// The compile timeline of index.html: one row per compile id with its Dynamo, AOTAutograd and
// Inductor phases over wall-clock time, drawn as inline SVG from the chromium events.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::report {

class CompileTimeline {
 public:
  // One chromium event. `compile_id` is PyTorch's text form ("0/0"); "None" and "" are ignored,
  // as are events of other names. `phase` is the event's "ph" (B, E or X with `duration_us`).
  void add_event(std::string_view compile_id, std::string_view name, std::string_view phase, double ts_us,
                 std::optional<double> duration_us);
  bool empty() const { return spans_.empty(); }
  // A standalone <svg> element (escaped labels, no external resources); "" when empty.
  std::string render_svg() const;

 private:
  enum Phase { kDynamo, kAot, kInductor, kPhaseCount };
  struct Span {
    size_t row;
    Phase phase;
    double start_us, end_us;
  };
  size_t row_of(std::string_view compile_id);

  std::vector<std::string> rows_;  // compile ids in first-appearance order
  std::map<std::string, size_t, std::less<>> row_index_;
  std::map<std::pair<size_t, int>, std::vector<double>> open_begins_;  // (row, phase) -> B timestamps
  std::vector<Span> spans_;
};

}  // namespace kiln::report
