#include "libdiag/report/break_digest.h"

#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/report_state.h"

namespace kiln::report {
namespace {

// Two occurrences are the same graph break when they have the same kind: the GB code and the
// explanation (which names the offending call) or, for messages without a code, the title.
std::string break_key(const GraphBreakMessage& message, bool aborted_compile) {
  return (aborted_compile ? "!" : "") + message.gb_code + "\n" + message.title + "\n" + message.explanation;
}


}  // namespace

std::string CodeObject::display() const {
  if (file.empty()) return name;
  return name + " (" + file + ":" + std::to_string(first_line) + ")";
}

std::string recompile_reasons_text(std::string_view payload) {
  simdjson::dom::parser parser;
  simdjson::dom::array items;
  if (parser.parse(payload.data(), payload.size()).get_array().get(items)) return std::string(payload);
  std::string text;
  for (simdjson::dom::element item : items) {
    std::string_view reason;
    if (item.get_string().get(reason)) continue;
    if (!text.empty()) text += '\n';
    text += reason;
  }
  return text;
}

void BreakDigest::add_break(GraphBreakMessage message, bool aborted_compile, const std::string& compile_id) {
  auto [slot, inserted] = break_index_.try_emplace(break_key(message, aborted_compile), breaks_.size());
  if (inserted) breaks_.push_back({message, aborted_compile, 0, {}});
  DistinctGraphBreak& entry = breaks_[slot->second];
  ++entry.count;
  GraphBreakSite* site = nullptr;
  for (GraphBreakSite& known : entry.sites)
    if (known.file == message.user_file && known.line == message.user_line) site = &known;
  if (!site) site = &entry.sites.emplace_back(GraphBreakSite{message.user_file, message.user_line, 0, {}});
  ++site->count;
  if (site->compile_ids.empty() || site->compile_ids.back() != compile_id) site->compile_ids.push_back(compile_id);
}

void BreakDigest::add_graph_break(const trace::CompileId& id, std::string_view payload) {
  saw_break_record_ = true;
  add_break(parse_graph_break_message(payload), false, id.display());
}

void BreakDigest::finish() {
  if (saw_break_record_ || restart_reasons_.empty() || from_restart_reasons_) return;
  from_restart_reasons_ = true;
  for (auto& [message, compile_id] : restart_reasons_) add_break(std::move(message), false, compile_id);
  restart_reasons_.clear();
}

void BreakDigest::add_recompile_reasons(const trace::CompileId& id, std::string_view payload) {
  pending_recompile_reasons_[attempt_zero(id)] = recompile_reasons_text(payload);
}

std::optional<CodeObject> code_object_of_metrics(simdjson::dom::element metrics) {
  auto name = string_field(metrics, "co_name");
  if (!name) return std::nullopt;
  return CodeObject{std::string(*name), std::string(string_field(metrics, "co_filename").value_or("")),
                    int_field(metrics, "co_firstlineno").value_or(0)};
}

std::optional<GraphBreakMessage> aborting_graph_break(simdjson::dom::element metrics) {
  auto fail_reason = string_field(metrics, "fail_reason");
  if (!fail_reason) return std::nullopt;
  GraphBreakMessage message = parse_graph_break_message(*fail_reason);
  if (message.gb_code.empty()) return std::nullopt;
  if (auto file = string_field(metrics, "fail_user_frame_filename")) {
    message.user_file = std::string(*file);
    message.user_line = static_cast<uint32_t>(uint_field(metrics, "fail_user_frame_lineno").value_or(0));
  }
  return message;
}

CodeObject BreakDigest::code_of(const trace::CompileId& id, simdjson::dom::element metrics) {
  if (auto code = code_object_of_metrics(metrics)) {
    if (id.frame_id) code_by_frame_id_[*id.frame_id] = *code;
    return *code;
  }
  if (id.frame_id) {
    if (auto known = code_by_frame_id_.find(*id.frame_id); known != code_by_frame_id_.end()) return known->second;
    return CodeObject{"frame " + std::to_string(*id.frame_id), "", 0};
  }
  return CodeObject{"(unknown frame)", "", 0};
}

void BreakDigest::add_compilation_metrics(const trace::CompileId& id, simdjson::dom::element metrics,
                                          std::string metrics_url) {
  const std::string display = id.display();
  if (auto message = aborting_graph_break(metrics)) add_break(std::move(*message), true, display);
  if (!saw_break_record_)
    for (const std::string& reason : string_list_field(metrics, "restart_reasons").value_or(std::vector<std::string>{}))
      restart_reasons_.emplace_back(parse_graph_break_message(reason), display);

  const CodeObject code = code_of(id, metrics);
  auto [slot, inserted] = frame_index_.try_emplace(code, frames_.size());
  if (inserted) frames_.push_back({code, 0, 0, {}});
  FrameRecompiles& frame = frames_[slot->second];
  ++frame.compiles;
  const std::optional<double> seconds = double_field(metrics, "entire_frame_compile_time_s");
  frame.compile_time_s += seconds.value_or(0);

  std::optional<std::string> reason;
  const auto pending = pending_recompile_reasons_.find(attempt_zero(id));
  if (has_field(metrics, "recompile_reason")) {
    if (auto text = string_field(metrics, "recompile_reason")) reason = std::string(*text);
  } else if (pending != pending_recompile_reasons_.end()) {
    reason = pending->second;
  }
  if (pending != pending_recompile_reasons_.end()) pending_recompile_reasons_.erase(pending);
  if (!reason) return;
  frame.recompiles.push_back({display, std::move(*reason), seconds,
                              std::string(string_field(metrics, "fail_type").value_or("")), std::move(metrics_url)});
}

uint64_t BreakDigest::graph_break_count() const {
  uint64_t count = 0;
  for (const DistinctGraphBreak& entry : breaks_) count += entry.count;
  return count;
}

std::vector<const FrameRecompiles*> BreakDigest::frames_with_recompiles() const {
  std::vector<const FrameRecompiles*> frames;
  for (const FrameRecompiles& frame : frames_)
    if (!frame.recompiles.empty()) frames.push_back(&frame);
  return frames;
}

uint64_t BreakDigest::recompile_count() const {
  uint64_t count = 0;
  for (const FrameRecompiles& frame : frames_) count += frame.recompiles.size();
  return count;
}

nlohmann::json BreakDigest::to_json() const {
  nlohmann::json breaks = nlohmann::json::array();
  for (const DistinctGraphBreak& entry : breaks_) {
    nlohmann::json sites = nlohmann::json::array();
    for (const GraphBreakSite& site : entry.sites)
      sites.push_back({{"file", site.file}, {"line", site.line}, {"count", site.count}, {"compile_ids", site.compile_ids}});
    const GraphBreakMessage& m = entry.message;
    breaks.push_back({{"gb_code", m.gb_code}, {"title", m.title}, {"explanation", m.explanation}, {"hints", m.hints},
                      {"link", m.link}, {"aborted_compile", entry.aborted_compile}, {"count", entry.count},
                      {"sites", std::move(sites)}});
  }
  nlohmann::json frames = nlohmann::json::array();
  for (const FrameRecompiles* frame : frames_with_recompiles()) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Recompile& r : frame->recompiles)
      rows.push_back({{"compile_id", r.compile_id}, {"reason", r.reason},
                      {"compile_time_s", r.compile_time_s ? nlohmann::json(*r.compile_time_s) : nlohmann::json()},
                      {"fail_type", r.fail_type}});
    frames.push_back({{"co_name", frame->code.name}, {"co_filename", frame->code.file},
                      {"co_firstlineno", frame->code.first_line}, {"compiles", frame->compiles},
                      {"compile_time_s", frame->compile_time_s}, {"recompiles", std::move(rows)}});
  }
  return {{"graph_breaks", std::move(breaks)}, {"graph_break_count", graph_break_count()},
          {"graph_breaks_from_restart_reasons", from_restart_reasons_},
          {"recompile_frames", std::move(frames)}, {"recompile_count", recompile_count()}};
}

}  // namespace kiln::report
