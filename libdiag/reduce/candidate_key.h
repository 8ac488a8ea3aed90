#pragma once
// The memo key of a candidate: SHA-256 of the original item count and the kept indices, so the
// same subset is recognised whatever round or run produced it.
#include <array>
#include <cstdint>
#include <span>

namespace kiln::reduce {

using CandidateKey = std::array<uint8_t, 32>;

CandidateKey candidate_key(size_t item_count, std::span<const size_t> kept);

}  // namespace kiln::reduce
