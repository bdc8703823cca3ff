// memory_test.cc: GlobalMemory's buffers.
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

}  // namespace
}  // namespace warpscope::emu
