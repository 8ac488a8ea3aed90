#pragma once
// The zip container of PyTorch's checkpoints (torch.save since 1.6), on libzip: every record is
// stored uncompressed under "<archive name>/", as PyTorch's PyTorchStreamWriter lays it out.
// Errors are thrown as std::runtime_error with PyTorch's reader messages where it has one.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::python {

// Writes the records, in order, to a new file at `path` (replacing one that is there).
void write_checkpoint_archive(const std::string& path, const std::vector<std::pair<std::string, std::string>>& records);

class CheckpointArchiveReader {
 public:
  // Opens the archive; throws when the file is no readable zip archive.
  explicit CheckpointArchiveReader(const std::string& path);
  ~CheckpointArchiveReader();
  CheckpointArchiveReader(const CheckpointArchiveReader&) = delete;
  CheckpointArchiveReader& operator=(const CheckpointArchiveReader&) = delete;

  // The folder every record sits in ("ck" for ck.pt), from the first record's name.
  const std::string& archive_name() const { return archive_name_; }
  // The record "<archive name>/<name>", or nullopt when the archive has none.
  std::optional<std::string> read(const std::string& name) const;

 private:
  struct Handle;
  std::unique_ptr<Handle> handle_;
  std::string archive_name_;
};

// Whether the file starts with a zip local-file header (what torch.load checks first).
bool is_zip_file(const std::string& path);

}  // namespace kiln::python
