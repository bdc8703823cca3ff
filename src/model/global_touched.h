// global_touched.h: what one global access touches, counted, and whether its lanes advance
// by a constant stride (private to src/model): the portable versions are global_cost.cc's,
// the AVX2 ones global_cost_avx2.cc's.
#pragma once

#include <cstdint>

namespace warpscope::model::global_detail {

// Distinct units the active lanes touch.
struct Touched {
  int sectors;   // 32 bytes
  int lines;     // 128 bytes
  int elements;  // the access width (aligned: two lanes' elements are the same or disjoint)
};

// Counts 32-byte sectors, 128-byte lines and elements of `width` bytes (1 to 16, a power of
// two) among the lanes of `mask` (not 0); false when it cannot (the caller counts another
// way).
using CountTouchedFn = bool (*)(const std::uint64_t* address, std::uint32_t mask, int width, Touched& out);

// True when every one of the 32 lanes' addresses is the previous lane's plus `stride`.
using StridedFn = bool (*)(const std::uint64_t* address, std::uint64_t stride);

// The AVX2 versions, or nullptr where this build or CPU has none.
struct Avx2Counters {
  CountTouchedFn touched;
  StridedFn strided;
};
Avx2Counters avx2_counters();

}  // namespace warpscope::model::global_detail
