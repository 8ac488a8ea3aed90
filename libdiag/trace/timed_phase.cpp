#include "libdiag/trace/timed_phase.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace kiln::trace {

namespace {

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// (frame, compile) of a compilation, the attempt left out: the key its phases add up under.
using CompileKey = std::tuple<std::optional<uint32_t>, std::optional<uint32_t>, std::optional<uint32_t>>;

CompileKey key_of(const CompileId& id) { return {id.compiled_autograd_id, id.frame_id, id.frame_compile_id}; }

struct PhaseTable {
  std::mutex mutex;
  std::map<std::pair<CompileKey, std::string>, double, std::less<>> seconds;
  std::map<std::pair<CompileKey, std::string>, size_t, std::less<>> instants;
};

PhaseTable& phase_table() {
  static PhaseTable table;
  return table;
}

}  // namespace

TimedPhase::TimedPhase(std::string_view name, std::optional<CompileId> compile_id, std::string_view fn_name, CallSite caller)
    : name_(name), compile_id_(std::move(compile_id)), begin_args_(TraceJson::object()), caller_(caller), started_us_(now_us()) {
  if (!fn_name.empty()) {
    begin_args_["fn_name"] = std::string(fn_name);
    end_args_["fn_name"] = std::string(fn_name);
  }
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) writer.chromium_event(name_, ChromiumPhase::Begin, {compile_id_, {}}, begin_args_, caller_);
}

TimedPhase::~TimedPhase() {
  const double seconds = (now_us() - started_us_) / 1e6;
  if (compile_id_) {
    PhaseTable& table = phase_table();
    std::lock_guard lock(table.mutex);
    table.seconds[{key_of(*compile_id_), name_}] += seconds;
  }
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) writer.chromium_event(name_, ChromiumPhase::End, {compile_id_, {}}, end_args_, caller_);
}

void instant_event(std::string_view name, std::optional<CompileId> compile_id, const TraceJson& args, CallSite caller) {
  if (compile_id) {
    PhaseTable& table = phase_table();
    std::lock_guard lock(table.mutex);
    ++table.instants[{key_of(*compile_id), std::string(name)}];
  }
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) writer.chromium_event(name, ChromiumPhase::Instant, {compile_id, {}}, args, caller);
}

size_t instant_count(const CompileId& compile_id, std::string_view name) {
  PhaseTable& table = phase_table();
  std::lock_guard lock(table.mutex);
  const auto it = table.instants.find(std::make_pair(key_of(compile_id), std::string(name)));
  return it == table.instants.end() ? 0 : it->second;
}

double phase_seconds(const CompileId& compile_id, std::string_view name) {
  PhaseTable& table = phase_table();
  std::lock_guard lock(table.mutex);
  const auto it = table.seconds.find(std::make_pair(key_of(compile_id), std::string(name)));
  return it == table.seconds.end() ? 0 : it->second;
}

}  // namespace kiln::trace
