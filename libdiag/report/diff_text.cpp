#include "libdiag/report/diff_text.h"

#include "libdiag/report/duration_text.h"

namespace kiln::report {
namespace {

std::string side_line(const char* label, const TraceSummary& trace, uint64_t breaks, uint64_t recompiles, double seconds) {
  return std::string("  ") + label + ": " + trace.path.string() + "\n     " + std::to_string(trace.compiles.size()) +
         " compiles, " + std::to_string(breaks) + " graph breaks, " + std::to_string(recompiles) + " recompiles, " +
         seconds_text(seconds) + " compiling\n";
}

std::string code_text(const CodeObject& code) { return code.display(); }

void padded(std::string& out, const std::string& text, size_t width) {
  out += text;
  if (text.size() < width) out.append(width - text.size(), ' ');
}

}  // namespace

std::string render_diff_text(const TraceDiff& diff, const std::vector<std::string>& failed) {
  const size_t total = static_cast<size_t>(CompilePhase::entire_frame);
  std::string out = "tlparse diff\n";
  out += side_line("A", diff.before, diff.breaks_before, diff.recompiles_before, diff.seconds_before[total]);
  out += side_line("B", diff.after, diff.breaks_after, diff.recompiles_after, diff.seconds_after[total]);

  out += "\nFrames (code objects): compiles in A -> B\n";
  std::vector<std::string> changed_compiles;
  for (const FrameDiff& frame : diff.frames) {
    size_t in_a = 0, in_b = 0;
    for (const CompilePair& pair : frame.compiles) {
      in_a += pair.before != nullptr;
      in_b += pair.after != nullptr;
      if (pair.before && pair.after) {
        const std::string change = compile_change_summary(*pair.before, *pair.after);
        if (!change.empty())
          changed_compiles.push_back("  " + frame.code.name + " " + pair.before->display + " -> " + pair.after->display + ": " + change);
      }
    }
    const char* mark = in_a == 0 ? "+ " : in_b == 0 ? "- " : in_a == in_b ? "  " : "~ ";
    out += std::string("  ") + mark;
    padded(out, code_text(frame.code), 60);
    out += " " + std::to_string(in_a) + " -> " + std::to_string(in_b) + "\n";
  }

  auto breaks = [&](const char* title, const std::vector<GraphBreakChange>& changes, const char* mark) {
    out += "\n" + std::string(title) + " (" + std::to_string(changes.size()) + ")\n";
    for (const GraphBreakChange& change : changes)
      out += std::string("  ") + mark + (change.message.gb_code.empty() ? "" : change.message.gb_code + " ") +
             change.message.title + " at " + break_location(change.message) + " (" + change.code.name + " " +
             change.compile_id + (change.aborted_compile ? ", the compile failed on it" : "") + ")\n";
  };
  breaks("Graph breaks only in B", diff.breaks_added, "+ ");
  breaks("Graph breaks only in A", diff.breaks_removed, "- ");

  auto recompiles = [&](const char* title, const std::vector<RecompileChange>& changes, const char* mark) {
    out += "\n" + std::string(title) + " (" + std::to_string(changes.size()) + ")\n";
    for (const RecompileChange& change : changes)
      out += std::string("  ") + mark + change.code.name + " " + change.compile_id + ": " + change.reason + "\n";
  };
  recompiles("Recompiles only in B", diff.recompiles_added, "+ ");
  recompiles("Recompiles only in A", diff.recompiles_removed, "- ");

  out += "\nCompiles that differ (" + std::to_string(changed_compiles.size()) + ")\n";
  for (const std::string& line : changed_compiles) out += line + "\n";

  out += "\nCompile time               A            B        change\n";
  for (size_t phase = 0; phase < kCompilePhaseCount; ++phase) {
    out += "  ";
    padded(out, std::string(compile_phase_title(static_cast<CompilePhase>(phase))), 17);
    padded(out, seconds_text(diff.seconds_before[phase]), 13);
    padded(out, seconds_text(diff.seconds_after[phase]), 13);
    out += change_percent_text(diff.seconds_before[phase], diff.seconds_after[phase]) + "\n";
  }

  out += "\nCache lookups (A -> B)\n";
  for (CacheLayer layer : {CacheLayer::FxGraph, CacheLayer::AotAutograd}) {
    out += "  ";
    padded(out, std::string(cache_layer_name(layer)), 13);
    for (CacheOutcome outcome : {CacheOutcome::Hit, CacheOutcome::Miss, CacheOutcome::Bypass}) {
      const size_t l = static_cast<size_t>(layer), o = static_cast<size_t>(outcome);
      out += std::string(cache_outcome_name(outcome)) + " " + std::to_string(diff.cache_before.lookups[l][o]) + " -> " +
             std::to_string(diff.cache_after.lookups[l][o]) + "   ";
    }
    out += "\n";
  }

  for (const TraceSummary* side : {&diff.before, &diff.after})
    if (side->input_error) out += "\nWarning: " + side->path.string() + ": " + *side->input_error + "\n";
  if (!failed.empty()) {
    out += "\nFailed (--fail-on):\n";
    for (const std::string& line : failed) out += "  " + line + "\n";
  }
  return out;
}

}  // namespace kiln::report
