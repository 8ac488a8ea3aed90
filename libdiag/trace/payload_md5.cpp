#include "libdiag/trace/payload_md5.h"

#include <stdexcept>

#include <openssl/evp.h>

namespace kiln::trace {

PayloadMd5::PayloadMd5() : md5_(EVP_MD_fetch(nullptr, "MD5", nullptr)), context_(EVP_MD_CTX_new()) {
  if (!md5_ || !context_) {
    EVP_MD_free(md5_);
    EVP_MD_CTX_free(context_);
    throw std::runtime_error("OpenSSL provides no MD5 digest");
  }
}

PayloadMd5::~PayloadMd5() {
  EVP_MD_CTX_free(context_);
  EVP_MD_free(md5_);
}

Md5Digest PayloadMd5::digest(std::string_view payload) {
  Md5Digest out{};
  unsigned int length = 0;
  if (!EVP_DigestInit_ex2(context_, md5_, nullptr) || !EVP_DigestUpdate(context_, payload.data(), payload.size()) ||
      !EVP_DigestFinal_ex(context_, out.data(), &length))
    throw std::runtime_error("OpenSSL MD5 failed");
  return out;
}

std::string PayloadMd5::hex(std::string_view payload) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const Md5Digest bytes = digest(payload);
  std::string text(2 * bytes.size(), '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    text[2 * i] = kDigits[bytes[i] >> 4];
    text[2 * i + 1] = kDigits[bytes[i] & 0xF];
  }
  return text;
}

bool md5_hex_matches(std::string_view expected, const Md5Digest& digest) {
  if (expected.size() % 2 != 0 || expected.size() > 2 * digest.size()) return false;
  Md5Digest decoded{};
  for (size_t i = 0; i < expected.size(); ++i) {
    const char c = expected[i];
    int nibble;
    if (c >= '0' && c <= '9') nibble = c - '0';
    else if (c >= 'a' && c <= 'f') nibble = c - 'a' + 10;
    else return false;
    decoded[i / 2] = static_cast<uint8_t>(decoded[i / 2] | (nibble << (i % 2 == 0 ? 4 : 0)));
  }
  return decoded == digest;
}

}  // namespace kiln::trace
