#include "libdiag/reduce/candidate_key.h"

#include <stdexcept>
#include <vector>

#include <openssl/evp.h>

namespace kiln::reduce {

CandidateKey candidate_key(size_t item_count, std::span<const size_t> kept) {
  // Fixed-width words, so that the key does not depend on the host's size_t.
  std::vector<uint64_t> words;
  words.reserve(kept.size() + 1);
  words.push_back(item_count);
  words.insert(words.end(), kept.begin(), kept.end());
  CandidateKey key{};
  unsigned int length = 0;
  if (!EVP_Digest(words.data(), words.size() * sizeof(uint64_t), key.data(), &length, EVP_sha256(), nullptr))
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return key;
}

}  // namespace kiln::reduce
