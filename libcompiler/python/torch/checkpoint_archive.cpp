#include "libcompiler/python/torch/checkpoint_archive.h"

#include <zip.h>

#include <ctime>
#include <fstream>
#include <stdexcept>

namespace kiln::python {

namespace {

const char kCorruptAdvice[] =
    ". This is an internal miniz error. If you are seeing this error, there is a high likelihood that your checkpoint "
    "file is corrupted. This can happen if the checkpoint was not saved properly, was transferred incorrectly, or the "
    "file was modified after saving.";

std::string libzip_message(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string message = zip_error_strerror(&error);
  zip_error_fini(&error);
  return message;
}

}  // namespace

struct CheckpointArchiveReader::Handle {
  zip_t* zip = nullptr;
};

void write_checkpoint_archive(const std::string& path, const std::vector<std::pair<std::string, std::string>>& records) {
  int code = 0;
  time_t now = std::time(nullptr);
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!zip) throw std::runtime_error("File " + path + " cannot be opened: " + libzip_message(code));
  for (const auto& [name, data] : records) {
    // The buffers stay alive in `records` until zip_close has written them.
    zip_source_t* source = zip_source_buffer(zip, data.data(), data.size(), 0);
    zip_int64_t index = source ? zip_file_add(zip, name.c_str(), source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE) : -1;
    if (index < 0 || zip_set_file_compression(zip, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0) < 0 ||
        zip_file_set_mtime(zip, static_cast<zip_uint64_t>(index), now, 0) < 0) {
      if (source && index < 0) zip_source_free(source);
      std::string message = zip_strerror(zip);
      zip_discard(zip);
      throw std::runtime_error("writing record " + name + " to " + path + ": " + message);
    }
  }
  if (zip_close(zip) < 0) {
    std::string message = zip_strerror(zip);
    zip_discard(zip);
    throw std::runtime_error("writing " + path + ": " + message);
  }
}

CheckpointArchiveReader::CheckpointArchiveReader(const std::string& path) : handle_(std::make_unique<Handle>()) {
  int code = 0;
  handle_->zip = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!handle_->zip)
    throw std::runtime_error("PytorchStreamReader failed reading zip archive: failed finding central directory" +
                             std::string(kCorruptAdvice));
  if (zip_get_num_entries(handle_->zip, 0) <= 0) throw std::runtime_error("PytorchStreamReader failed reading zip archive: archive is empty");
  std::string first = zip_get_name(handle_->zip, 0, 0);
  size_t slash = first.find('/');
  if (slash == std::string::npos)
    throw std::runtime_error("file in archive is not in a subdirectory: " + first);
  archive_name_ = first.substr(0, slash);
}

CheckpointArchiveReader::~CheckpointArchiveReader() {
  if (handle_->zip) zip_discard(handle_->zip);
}

std::optional<std::string> CheckpointArchiveReader::read(const std::string& name) const {
  std::string full = archive_name_ + "/" + name;
  zip_int64_t index = zip_name_locate(handle_->zip, full.c_str(), 0);
  if (index < 0) return std::nullopt;
  zip_stat_t stat;
  if (zip_stat_index(handle_->zip, static_cast<zip_uint64_t>(index), 0, &stat) < 0 || !(stat.valid & ZIP_STAT_SIZE))
    throw std::runtime_error("PytorchStreamReader failed reading record " + full + ": " + zip_strerror(handle_->zip));
  std::string data(stat.size, '\0');
  zip_file_t* file = zip_fopen_index(handle_->zip, static_cast<zip_uint64_t>(index), 0);
  zip_int64_t got = file ? zip_fread(file, data.data(), stat.size) : -1;
  if (file) zip_fclose(file);
  if (got < 0 || static_cast<zip_uint64_t>(got) != stat.size)
    throw std::runtime_error("PytorchStreamReader failed reading record " + full + std::string(kCorruptAdvice));
  return data;
}

bool is_zip_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == '\x03' && magic[3] == '\x04';
}

}  // namespace kiln::python
