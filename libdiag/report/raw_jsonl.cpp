#include "libdiag/report/raw_jsonl.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "libdiag/report/report.h"
#include "libdiag/report/sorted_json.h"

namespace kiln::report {
namespace {

// Sorted, as they are merged into the sorted envelope keys.
constexpr std::array<std::string_view, 5> kAddedKeys = {"lineno", "pathname", "payload_filename", "thread",
                                                        "timestamp"};
// Above this index the string-table line would be mostly nulls; a log cannot make it larger.
constexpr uint64_t kMaxStringTableLength = uint64_t{1} << 24;


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

void RawJsonlWriter::append_timestamp(std::string& out, const trace::GlogPrefix& prefix) const {
  char text[48];
  const int length = std::snprintf(text, sizeof text, "\"%04d-%02u-%02uT%02u:%02u:%02u.%06uZ\"", year_,
                                   unsigned(prefix.month), unsigned(prefix.day), unsigned(prefix.hour),
                                   unsigned(prefix.minute), unsigned(prefix.second), unsigned(prefix.microseconds));
  out.append(text, static_cast<size_t>(length));
}

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
  sorted_members(envelope, members_);
  for (const auto& [key, value] : members_) {
    if (std::find(kAddedKeys.begin(), kAddedKeys.end(), key) != kAddedKeys.end()) {
      diagnostic_("Key conflict: '" + std::string(key) +
                  "' already exists in JSON payload, skipping raw.jsonl JSONL conversion");
      return false;
    }
  }
  // The added keys in sorted order, merged into the (sorted) envelope keys as they are written.
  std::string& out = records_.buffer();
  auto write_added = [&](std::string_view key) {
    append_json_string(out, key);
    out += ':';
    if (key == "lineno") {
      out += std::to_string(prefix.lineno);
    } else if (key == "pathname") {
      append_json_string(out, prefix.pathname);
    } else if (key == "payload_filename") {
      append_json_string(out, *payload_filename);
    } else if (key == "thread") {
      out += std::to_string(prefix.thread);
    } else {
      append_timestamp(out, prefix);
    }
  };
  out += '{';
  bool first = true;
  size_t added = 0;
  for (const auto& [key, value] : members_) {
    for (; added < kAddedKeys.size() && kAddedKeys[added] < key; ++added) {
      if (kAddedKeys[added] == "payload_filename" && !payload_filename) continue;
      if (!first) out += ',';
      first = false;
      write_added(kAddedKeys[added]);
    }
    if (!first) out += ',';
    first = false;
    append_json_string(out, key);
    out += ':';
    append_sorted_json(out, value, /*pretty=*/false);
  }
  for (; added < kAddedKeys.size(); ++added) {
    if (kAddedKeys[added] == "payload_filename" && !payload_filename) continue;
    if (!first) out += ',';
    first = false;
    write_added(kAddedKeys[added]);
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
