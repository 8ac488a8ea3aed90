#include "libdiag/report/byte_accounting.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "libdiag/report/html_escape.h"

namespace kiln::report {

RecordBytes record_bytes(uint64_t envelope_line_length, bool has_payload, std::string_view payload) {
  RecordBytes bytes{envelope_line_length + 1, 0};
  if (has_payload && !payload.empty()) {
    // n lines joined by n-1 newlines were written as n lines of "\t<line>\n".
    const uint64_t lines = 1 + static_cast<uint64_t>(std::count(payload.begin(), payload.end(), '\n'));
    bytes.payload = payload.size() + lines + 1;
  }
  return bytes;
}

void ByteAccounting::add(std::string_view kind, std::string_view compile_id, const RecordBytes& bytes) {
  for (auto* table : {&by_kind_, &by_compile_id_}) {
    std::string_view key = table == &by_kind_ ? kind : compile_id;
    auto found = table->find(key);
    if (found == table->end()) found = table->emplace(std::string(key), Tally{}).first;
    found->second.records += 1;
    found->second.envelope += bytes.envelope;
    found->second.payload += bytes.payload;
  }
}

namespace {

std::string with_unit(uint64_t bytes) {
  char text[32];
  if (bytes >= (uint64_t{1} << 30))
    std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(uint64_t{1} << 30));
  else if (bytes >= (uint64_t{1} << 20))
    std::snprintf(text, sizeof text, "%.2f MiB", double(bytes) / double(uint64_t{1} << 20));
  else if (bytes >= 1024)
    std::snprintf(text, sizeof text, "%.1f KiB", double(bytes) / 1024.0);
  else
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  return text;
}

std::string percent(uint64_t part, uint64_t total) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", total ? 100.0 * double(part) / double(total) : 0.0);
  return text;
}

}  // namespace

std::string ByteAccounting::render_html(uint64_t total_bytes, size_t max_rows) const {
  std::string html;
  auto table = [&](const char* heading, const std::map<std::string, Tally, std::less<>>& tallies, bool link_ids) {
    std::vector<std::pair<std::string_view, Tally>> rows(tallies.begin(), tallies.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.second.envelope + a.second.payload > b.second.envelope + b.second.payload;
    });
    html += "<table class='byte-table'><tr><th>";
    html += heading;
    html += "</th><th>records</th><th>envelopes</th><th>payloads</th><th>total</th><th>share</th></tr>\n";
    uint64_t rest_bytes = 0, rest_records = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Tally& tally = rows[i].second;
      const uint64_t bytes = tally.envelope + tally.payload;
      if (i >= max_rows) {
        rest_bytes += bytes;
        rest_records += tally.records;
        continue;
      }
      html += "<tr><td>";
      if (link_ids) {
        html += "<a href='#";
        append_html_escaped(html, rows[i].first);
        html += "'>";
      }
      append_html_escaped(html, rows[i].first);
      if (link_ids) html += "</a>";
      html += "</td><td class='bytes'>" + std::to_string(tally.records) + "</td><td class='bytes'>" +
              with_unit(tally.envelope) + "</td><td class='bytes'>" + with_unit(tally.payload) +
              "</td><td class='bytes'>" + with_unit(bytes) + "</td><td>" + percent(bytes, total_bytes) +
              " <span class='byte-bar' style='width:" +
              std::to_string(total_bytes ? 100 * bytes / total_bytes : 0) + "px'></span></td></tr>\n";
    }
    if (rest_records)
      html += "<tr><td>(" + std::to_string(rows.size() - max_rows) + " more)</td><td class='bytes'>" +
              std::to_string(rest_records) + "</td><td></td><td></td><td class='bytes'>" + with_unit(rest_bytes) +
              "</td><td>" + percent(rest_bytes, total_bytes) + "</td></tr>\n";
    html += "</table>\n";
  };
  table("event kind", by_kind_, false);
  table("compile id", by_compile_id_, true);
  return html;
}

}  // namespace kiln::report
