#pragma once
// amax/amin of contiguous rows on whole vectors: NaN wins (as PyTorch's max/min), otherwise the
// largest (smallest) value, the same whichever order the elements are compared in (but for the
// sign of a zero among equal zeros).
#include <cstdint>

namespace kiln::ops {

// out[i] = max (or min) of rows[i * n .. i * n + n) for rows [begin, end); n >= 1.
void extremum_rows(const float* rows, int64_t n, int64_t begin, int64_t end, float* out, bool is_max);
void extremum_rows(const double* rows, int64_t n, int64_t begin, int64_t end, double* out, bool is_max);

// Down columns, read in place: `data` holds `blocks` blocks of [n][columns]; out[b * columns + c]
// = max (or min) of column c of block b; n >= 1.
void extremum_columns(const float* data, int64_t n, int64_t columns, int64_t blocks, float* out, bool is_max);
void extremum_columns(const double* data, int64_t n, int64_t columns, int64_t blocks, double* out, bool is_max);

}  // namespace kiln::ops
