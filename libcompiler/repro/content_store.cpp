#include "libcompiler/repro/content_store.h"

#include <openssl/evp.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "libcompiler/python/torch/serialization.h"

namespace kiln::repro {

namespace {

std::filesystem::path storage_path(const std::filesystem::path& dir, const std::string& hash) { return dir / "storages" / hash; }

// Where older Kiln builds kept a storage: its raw bytes, which PyTorch cannot read.
std::filesystem::path raw_storage_path(const std::filesystem::path& dir, const std::string& hash) {
  return dir / "storages" / (hash + ".bin");
}

}  // namespace

std::string sha1_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha1(), nullptr)) throw std::runtime_error("OpenSSL SHA-1 failed");
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) hex += {kHex[digest[i] >> 4], kHex[digest[i] & 15]};
  return hex;
}

std::string write_storage(const std::filesystem::path& dir, std::string_view bytes, const tensor::Device& device) {
  const std::string hash = sha1_hex(bytes);
  const std::filesystem::path path = storage_path(dir, hash);
  if (std::filesystem::exists(path)) return hash;
  std::filesystem::create_directories(path.parent_path());
  // Written aside and renamed, so that a reader never sees half a storage; the aside file is this
  // process's own, as two minifier runs in one folder may write the same storage at once (the
  // renames then replace one copy of the same bytes by another).
  const std::filesystem::path partial = path.string() + "." + std::to_string(getpid()) + ".partial";
  python::save_untyped_storage(partial.string(), bytes, device.str());
  std::filesystem::rename(partial, path);
  return hash;
}

std::optional<std::string> read_storage(const std::filesystem::path& dir, const std::string& hash) {
  if (std::optional<std::string> bytes = python::load_untyped_storage(storage_path(dir, hash).string())) return bytes;
  std::ifstream in(raw_storage_path(dir, hash), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace kiln::repro
