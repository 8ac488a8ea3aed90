#include "libdiag/report/raw_jsonl.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <variant>
#include <vector>

#include "libdiag/report/report.h"
#include "libdiag/report/sorted_json.h"

namespace kiln::report {
namespace {

constexpr std::array<std::string_view, 5> kAddedKeys = {"timestamp", "thread", "pathname", "lineno",
                                                        "payload_filename"};
// Above this index the string-table line would be mostly nulls; a log cannot make it larger.
constexpr uint64_t kMaxStringTableLength = uint64_t{1} << 24;

std::string timestamp(const trace::GlogPrefix& prefix, int year) {
  char text[48];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02u:%02u:%02u.%06uZ", year, unsigned(prefix.month),
                unsigned(prefix.day), unsigned(prefix.hour), unsigned(prefix.minute), unsigned(prefix.second),
                unsigned(prefix.microseconds));
  return text;
}

// Copies the file at `from` to `to` from byte `offset` on, inside the kernel.
void copy_to_offset(int to, off_t offset, const std::filesystem::path& from, const std::filesystem::path& to_path) {
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) throw ReportError("cannot read " + from.string() + ": " + std::strerror(errno));
  for (;;) {
    ssize_t copied = ::copy_file_range(in, nullptr, to, &offset, size_t{1} << 30, 0);
    if (copied == 0) break;
    if (copied < 0) {
      if (errno == EINTR) continue;
      ::close(in);
      throw ReportError("cannot write " + to_path.string() + ": " + std::strerror(errno));
    }
  }
  ::close(in);
}

}  // namespace

int current_year() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  return local.tm_year + 1900;
}

RawJsonlWriter::RawJsonlWriter(const std::filesystem::path& out_dir, int year, Diagnostic diagnostic)
    : final_path_(out_dir / "raw.jsonl"),
      records_path_(out_dir / ".raw.jsonl.records"),
      year_(year),
      diagnostic_(std::move(diagnostic)),
      records_(records_path_) {}

bool RawJsonlWriter::append(simdjson::dom::object envelope, const trace::GlogPrefix& prefix,
                            std::optional<std::string_view> payload_filename) {
  auto members = sorted_members(envelope);
  for (const auto& [key, value] : members) {
    if (std::find(kAddedKeys.begin(), kAddedKeys.end(), key) != kAddedKeys.end()) {
      diagnostic_("Key conflict: '" + std::string(key) +
                  "' already exists in JSON payload, skipping raw.jsonl JSONL conversion");
      return false;
    }
  }
  // The added keys, rendered, merged into the sorted envelope keys.
  std::vector<std::pair<std::string_view, std::string>> added;
  std::string text;
  append_json_string(text, timestamp(prefix, year_));
  added.emplace_back("timestamp", std::move(text));
  added.emplace_back("thread", std::to_string(prefix.thread));
  text.clear();
  append_json_string(text, prefix.pathname);
  added.emplace_back("pathname", std::move(text));
  added.emplace_back("lineno", std::to_string(prefix.lineno));
  if (payload_filename) {
    text.clear();
    append_json_string(text, *payload_filename);
    added.emplace_back("payload_filename", std::move(text));
  }
  std::sort(added.begin(), added.end());

  std::string& out = records_.buffer();
  out += '{';
  size_t envelope_at = 0, added_at = 0;
  bool first = true;
  while (envelope_at < members.size() || added_at < added.size()) {
    if (!first) out += ',';
    first = false;
    const bool take_added =
        envelope_at == members.size() || (added_at < added.size() && added[added_at].first < members[envelope_at].first);
    if (take_added) {
      append_json_string(out, added[added_at].first);
      out += ':';
      out += added[added_at].second;
      ++added_at;
    } else {
      append_json_string(out, members[envelope_at].first);
      out += ':';
      append_sorted_json(out, members[envelope_at].second, /*pretty=*/false);
      ++envelope_at;
    }
  }
  out += "}\n";
  records_.maybe_flush();
  return true;
}

void RawJsonlWriter::finish(const StringTable& strings) {
  records_.close();
  std::string header = "{\"string_table\":[";
  const auto& entries = strings.entries();
  const uint64_t length =
      entries.empty() ? 1 : std::min(entries.rbegin()->first + 1, kMaxStringTableLength);
  auto next = entries.begin();
  for (uint64_t index = 0; index < length; ++index) {
    if (index) header += ',';
    if (next != entries.end() && next->first == index) {
      append_json_string(header, next->second);
      ++next;
    } else {
      header += "null";
    }
  }
  header += "]}\n";
  {
    BufferedWriter out(final_path_);
    out.write(header);
    out.close();
  }
  int fd = ::open(final_path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw ReportError("cannot write " + final_path_.string() + ": " + std::strerror(errno));
  copy_to_offset(fd, static_cast<off_t>(header.size()), records_path_, final_path_);
  ::close(fd);
  std::filesystem::remove(records_path_);
}

}  // namespace kiln::report
