#pragma once
// MD5 of trace payloads (reference §2.3): the writer puts its lowercase hex into "has_payload",
// the reader compares it the way tlparse does.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

struct evp_md_st;
struct evp_md_ctx_st;

namespace kiln::trace {

using Md5Digest = std::array<uint8_t, 16>;

// Reuses one OpenSSL digest context; not thread-safe (one per reader or writer).
class PayloadMd5 {
 public:
  PayloadMd5();
  ~PayloadMd5();
  PayloadMd5(const PayloadMd5&) = delete;
  PayloadMd5& operator=(const PayloadMd5&) = delete;

  Md5Digest digest(std::string_view payload);
  std::string hex(std::string_view payload);

 private:
  evp_md_st* md5_;
  evp_md_ctx_st* context_;
};

// tlparse's check: `expected` is decoded as lowercase hex into a zeroed 16-byte buffer (odd or
// over-long text, or any other character, fails) and the buffer must equal the digest.
bool md5_hex_matches(std::string_view expected, const Md5Digest& digest);

}  // namespace kiln::trace
