// memory_test.cc: GlobalMemory's buffers and what a GPU would back past their ends.
#include "emu/memory.h"

#include <gtest/gtest.h>

namespace warpscope::emu {
namespace {

TEST(GlobalMemory, FindsTheBufferHoldingARange) {
  GlobalMemory m;
  const std::uint64_t a = m.allocate(1000, "a"), b = m.allocate(64, "b");
  EXPECT_EQ(m.find(a, 1000)->name, "a");
  EXPECT_EQ(m.find(b + 60, 4)->name, "b");
  EXPECT_EQ(m.find(a + 999, 2), nullptr);  // straddles a's end
  EXPECT_EQ(m.find(a - 1, 1), nullptr);
}

// Past a buffer's end lies the next one on a GPU (buffers back to back at 512-byte
// boundaries): a's 1000 bytes then 24 of padding, b at 1024, c at 1536; past c nothing.
TEST(GlobalMemory, BacksWhatTheNextBuffersHoldOnAGpu) {
  GlobalMemory m;
  const std::uint64_t a = m.allocate(1000, "a");
  m.allocate(64, "b");
  const std::uint64_t c = m.allocate(512, "c");
  EXPECT_TRUE(m.backed(a, 16));
  EXPECT_TRUE(m.backed(a + 1000, 16));        // a's padding
  EXPECT_TRUE(m.backed(a + 1024 + 48, 16));   // b's last 16 bytes
  EXPECT_TRUE(m.backed(a + 1536 + 496, 16));  // c's last 16 bytes
  EXPECT_FALSE(m.backed(a + 1536 + 500, 16)); // past c
  EXPECT_TRUE(m.backed(c + 496, 16));
  EXPECT_FALSE(m.backed(c + 512, 16));        // past the last buffer
  EXPECT_FALSE(m.backed(a - 16, 16));         // before the first
  EXPECT_FALSE(m.backed(c + (1ull << 40), 16));
}

}  // namespace
}  // namespace warpscope::emu
