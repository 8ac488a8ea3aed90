#include "libcompiler/capture/shape_env.h"

#include <openssl/evp.h>

#include <memory>

namespace kiln::capture {
namespace {

// int(hashlib.sha256(text).hexdigest(), 16) % 100: the digest as a big-endian number mod 100.
int sha256_mod_100(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  int remainder = 0;
  for (unsigned int i = 0; i < length; ++i) remainder = (remainder * 256 + digest[i]) % 100;
  return remainder;
}

}  // namespace

int ShapeEnv::unique_id(const std::string& source_name) {
  int id = sha256_mod_100(source_name);
  while (ids_.count(id)) ++id;
  ids_.insert(id);
  return id;
}

const SizeSymbol& ShapeEnv::size_symbol(const SourceRef& source, int64_t dim, int64_t hint, bool& created) {
  if (duck_sizing_)
    for (const auto& symbol : symbols_)
      if (symbol->hint == hint) {
        equalities_.push_back({source, dim, symbol.get()});
        created = false;
        return *symbol;
      }
  std::string source_name = source->text() + ".size()[" + std::to_string(dim) + "]";
  std::string name = std::string("s").append(std::to_string(unique_id(source_name)));
  symbols_.push_back(std::make_unique<SizeSymbol>(SizeSymbol{name, hint, source, dim}));
  created = true;
  return *symbols_.back();
}

std::string ShapeEnv::float_symbol(const SourceRef& source) { return std::string("zf").append(std::to_string(unique_id(source->text()))); }

std::string ShapeEnv::unbacked_symbol(bool integral) {
  return integral ? std::string("u").append(std::to_string(unbacked_ints_++))
                  : std::string("zuf").append(std::to_string(unbacked_floats_++));
}

}  // namespace kiln::capture
