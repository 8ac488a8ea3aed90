#include "libdiag/report/break_digest_html.h"

#include "libdiag/report/duration_text.h"
#include "libdiag/report/html_escape.h"

namespace kiln::report {
namespace {

// "[0/0]" linking to that compile id's build products on the index page.
std::string compile_id_link(const std::string& compile_id) {
  const std::string id = html_escape(compile_id);
  return "<a href=\"#" + id + "\">" + id + "</a>";
}

std::string site_text(const GraphBreakSite& site) {
  if (site.file.empty()) return "(location not recorded)";
  return html_escape(site.file + ":" + std::to_string(site.line));
}

}  // namespace

std::string render_graph_break_digest(const BreakDigest& digest) {
  if (digest.graph_breaks().empty()) return "<p>No graph breaks in this trace.</p>\n";
  std::string html = "<p>" + std::to_string(digest.graph_break_count()) + " graph break(s) of " +
                     std::to_string(digest.graph_breaks().size()) + " distinct kind(s), " +
                     (digest.from_restart_reasons()
                          ? "from the restart reasons of the compilation metrics (this trace has no "
                            "dynamo_graph_break_reason records, which PyTorch before 2.6 did not write: "
                            "user frames are not known)."
                          : "from the dynamo_graph_break_reason records and the compiles a graph break aborted.") +
                     "</p>\n<table class=\"digest-table\">\n<tr><th>Code</th><th>Graph break</th>"
                     "<th>Count</th><th>User frames</th></tr>\n";
  for (const DistinctGraphBreak& entry : digest.graph_breaks()) {
    const GraphBreakMessage& m = entry.message;
    html += "<tr><td>";
    if (m.gb_code.empty())
      html += "-";
    else if (is_web_url(m.link))
      html += "<a href=\"" + html_escape(m.link) + "\">" + html_escape(m.gb_code) + "</a>";
    else
      html += html_escape(m.gb_code);
    html += "</td><td><strong>" + html_escape(m.title) + "</strong>";
    if (entry.aborted_compile) html += " <em>(the compile failed on it)</em>";
    if (!m.explanation.empty()) html += "<br>" + html_escape(m.explanation);
    if (!m.hints.empty()) {
      html += "<ul class=\"digest-hints\">";
      for (const std::string& hint : m.hints) html += "<li>Hint: " + html_escape(hint) + "</li>";
      html += "</ul>";
    }
    html += "</td><td class=\"count\">" + std::to_string(entry.count) + "</td><td><ul class=\"digest-sites\">";
    for (const GraphBreakSite& site : entry.sites) {
      html += "<li><code>" + site_text(site) + "</code> &times;" + std::to_string(site.count) + " in";
      for (const std::string& id : site.compile_ids) html += " " + compile_id_link(id);
      html += "</li>";
    }
    html += "</ul></td></tr>\n";
  }
  return html + "</table>\n";
}

std::string render_recompile_table(const BreakDigest& digest) {
  const std::vector<const FrameRecompiles*> frames = digest.frames_with_recompiles();
  if (frames.empty()) return "<p>No recompiles in this trace.</p>\n";
  std::string html = "<p>" + std::to_string(digest.recompile_count()) + " recompile(s) in " +
                     std::to_string(frames.size()) + " frame(s).</p>\n";
  for (const FrameRecompiles* frame : frames) {
    html += "<h3><code>" + html_escape(frame->code.display()) + "</code></h3>\n<p>" +
            std::to_string(frame->compiles) + " compile(s), " + seconds_text(frame->compile_time_s) +
            " in all.</p>\n<table class=\"digest-table\">\n<tr><th>Compile id</th><th>Guard that failed</th>"
            "<th>Compile time</th></tr>\n";
    for (const Recompile& r : frame->recompiles) {
      const std::string id = html_escape(r.compile_id);
      html += "<tr><td>";
      html += r.metrics_url.empty() ? compile_id_link(r.compile_id)
                                    : "<a href=\"" + html_escape(r.metrics_url) + "\">" + id + "</a>";
      html += "</td><td><pre>" + html_escape(r.reason) + "</pre>";
      if (!r.fail_type.empty()) html += "<em>then failed: " + html_escape(r.fail_type) + "</em>";
      html += "</td><td class=\"count\">" + (r.compile_time_s ? seconds_text(*r.compile_time_s) : std::string("-")) +
              "</td></tr>\n";
    }
    html += "</table>\n";
  }
  return html;
}

}  // namespace kiln::report
