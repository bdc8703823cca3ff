// smem_descriptor_test.cc: descriptor fields, the swizzles as bijections on their atoms,
// and chunk addresses against the canonical layouts written the way CuTe builds them (an
// atom of 8 rows tiled over the operand, MN first), for every swizzle and major-ness.
#include "emu/smem_descriptor.h"

#include <gtest/gtest.h>

#include <set>

namespace warpscope::emu {
namespace {

const Swizzle kSwizzles[] = {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128};

int width_chunks(Swizzle s) { return s == Swizzle::B128 ? 8 : s == Swizzle::B64 ? 4 : s == Swizzle::B32 ? 2 : 1; }

// CuTe's Swizzle<B, 4, 3> on a byte offset from a 1024-aligned base.
std::uint32_t cute_swizzle(std::uint32_t offset, int b) {
  const std::uint32_t mask = (1u << b) - 1;
  return offset ^ (((offset >> 7) & mask) << 4);
}
int log2_chunks(Swizzle s) { return s == Swizzle::B128 ? 3 : s == Swizzle::B64 ? 2 : s == Swizzle::B32 ? 1 : 0; }

TEST(SmemDescriptor, FieldsRoundTrip) {
  SmemDescriptor d;
  d.start = 0x3f9f0;
  d.leading = 16;
  d.stride = 1024;
  d.base_offset = 5;
  d.swizzle = Swizzle::B64;
  const std::uint64_t bits = d.encode();
  EXPECT_EQ(bits & 0x3fff, 0x3f9f0u >> 4);
  EXPECT_EQ((bits >> 16) & 0x3fff, 1u);
  EXPECT_EQ((bits >> 32) & 0x3fff, 64u);
  EXPECT_EQ((bits >> 49) & 7, 5u);
  EXPECT_EQ(bits >> 62, 2u);  // 64B
  const SmemDescriptor e = SmemDescriptor::decode(bits);
  EXPECT_EQ(e.start, d.start);
  EXPECT_EQ(e.leading, d.leading);
  EXPECT_EQ(e.stride, d.stride);
  EXPECT_EQ(e.base_offset, d.base_offset);
  EXPECT_EQ(e.swizzle, d.swizzle);
  EXPECT_EQ(SmemDescriptor::decode(std::uint64_t{1} << 62).swizzle, Swizzle::B128);
  EXPECT_EQ(SmemDescriptor::decode(std::uint64_t{3} << 62).swizzle, Swizzle::B32);
}

TEST(SmemDescriptor, EachSwizzleIsABijectionOnItsAtom) {
  for (Swizzle s : kSwizzles) {
    const int w = width_chunks(s);
    for (std::uint32_t base : {0u, 2048u, 8192u + 1024u}) {
      std::set<std::uint32_t> chunks;
      for (int row = 0; row < 8; ++row)
        for (int c = 0; c < w; ++c) {
          const std::uint32_t a = swizzle_address(base + static_cast<std::uint32_t>(row * 16 * w + c * 16), s, 0);
          EXPECT_EQ(a % 16, 0u);
          EXPECT_GE(a, base);
          EXPECT_LT(a, base + static_cast<std::uint32_t>(128 * w));
          chunks.insert(a);
        }
      EXPECT_EQ(chunks.size(), static_cast<std::size_t>(8 * w)) << "swizzle " << w;
    }
  }
}

// A base offset names a pattern that starts `b` rows of 128 bytes into a 1024-byte block:
// addresses there swizzle as they would at a 1024-aligned pattern start.
TEST(SmemDescriptor, BaseOffsetShiftsThePatternStart) {
  for (std::uint32_t b = 0; b < 8; ++b)
    for (std::uint32_t row = 0; row < 8; ++row)
      for (std::uint32_t c = 0; c < 8; ++c) {
        const std::uint32_t aligned = swizzle_address(4096 + row * 128 + c * 16, Swizzle::B128, 0) - 4096;
        const std::uint32_t shifted = swizzle_address(4096 + b * 128 + row * 128 + c * 16, Swizzle::B128, b) - 4096 - b * 128;
        EXPECT_EQ(shifted, aligned) << "b " << b << " row " << row << " chunk " << c;
      }
}

// K-major operands of MN x K elements in CuTe's atoms: 8 rows of 16W bytes (W = 1: a core
// matrix), tiled over MN first, then K; the descriptor of the k-slice at k0 (32 bytes)
// starts inside its atom, as Triton and CUTLASS advance it.
TEST(SmemDescriptor, KMajorChunksFollowTheCanonicalLayouts) {
  const int MN = 64, K_BYTES = 128;  // e.g. 64 x 64 f16
  for (Swizzle s : kSwizzles)
    for (int eb : {1, 2, 4}) {
      const int w = width_chunks(s), row_bytes = 16 * w, atom = 8 * row_bytes;
      const int k_atoms = K_BYTES / row_bytes;  // atoms along K
      const int t = 16 / eb;                    // elements per chunk
      // Dense interleave: core matrices MN first (SBO = 128), then K (LBO = MN/8 * 128).
      auto offset = [&](int mn, int kb) -> std::uint32_t {
        if (s == Swizzle::None) return static_cast<std::uint32_t>((mn / 8) * 128 + (kb / 16) * (MN / 8) * 128 + (mn % 8) * 16 + kb % 16);
        const int ka = kb / row_bytes;
        const std::uint32_t plain = static_cast<std::uint32_t>((mn / 8 + ka * (MN / 8)) * atom + (mn % 8) * row_bytes + kb % row_bytes);
        return cute_swizzle(plain, log2_chunks(s));
      };
      (void)k_atoms;
      for (int k0 = 0; k0 < K_BYTES; k0 += 32) {
        SmemDescriptor d;
        d.swizzle = s;
        const std::uint32_t base = 1024 * 4;
        if (s == Swizzle::None) {
          d.start = base + static_cast<std::uint32_t>((k0 / 16) * (MN / 8) * 128);
          d.leading = static_cast<std::uint32_t>((MN / 8) * 128);
          d.stride = 128;
        } else {
          d.start = base + static_cast<std::uint32_t>((k0 / row_bytes) * (MN / 8) * atom + k0 % row_bytes);
          d.stride = static_cast<std::uint32_t>(atom);
          d.leading = 16;  // unused
        }
        for (int mn = 0; mn < MN; ++mn)
          for (int kc = 0; kc < 2; ++kc) {
            const std::uint32_t got = chunk_address(d, false, eb, mn, kc * t);
            EXPECT_EQ(got, base + offset(mn, k0 + 16 * kc)) << "swizzle " << w << " eb " << eb << " mn " << mn << " k0 " << k0;
          }
      }
    }
}

// MN-major: atoms of (16W bytes of MN) x 8 k rows, MN first; LBO steps atoms along MN,
// SBO steps groups of 8 k (CuTe: ((T,W,m),(8,k)):((1,T,LBO),(WT,SBO))); interleave: a core
// matrix is 8 k rows of 16 bytes of MN, SBO steps along MN, LBO along K.
TEST(SmemDescriptor, MnMajorChunksFollowTheCanonicalLayouts) {
  const int MN_BYTES = 256, K = 32;
  for (Swizzle s : kSwizzles)
    for (int eb : {2}) {
      const int w = width_chunks(s), row_bytes = 16 * w, atom = 8 * row_bytes, mn_atoms = MN_BYTES / row_bytes;
      auto offset = [&](int mnb, int k) -> std::uint32_t {
        if (s == Swizzle::None) return static_cast<std::uint32_t>((mnb / 16) * 128 + (k / 8) * (MN_BYTES / 16) * 128 + (k % 8) * 16 + mnb % 16);
        const std::uint32_t plain =
            static_cast<std::uint32_t>((mnb / row_bytes + (k / 8) * mn_atoms) * atom + (k % 8) * row_bytes + mnb % row_bytes);
        return cute_swizzle(plain, log2_chunks(s));
      };
      for (int k0 = 0; k0 < K; k0 += 16) {
        SmemDescriptor d;
        d.swizzle = s;
        const std::uint32_t base = 8192;
        if (s == Swizzle::None) {
          d.stride = 128;
          d.leading = static_cast<std::uint32_t>((MN_BYTES / 16) * 128);
          d.start = base + static_cast<std::uint32_t>((k0 / 8) * d.leading);
        } else {
          d.leading = static_cast<std::uint32_t>(atom);
          d.stride = static_cast<std::uint32_t>(mn_atoms * atom);
          d.start = base + static_cast<std::uint32_t>((k0 / 8) * d.stride);
        }
        for (int mnb = 0; mnb < MN_BYTES; mnb += 16)
          for (int k = 0; k < 16; ++k) {
            const std::uint32_t got = chunk_address(d, true, eb, mnb / eb, k);
            EXPECT_EQ(got, base + offset(mnb, k0 + k)) << "swizzle " << w << " mn byte " << mnb << " k " << k0 + k;
          }
      }
    }
}

// In every canonical layout the 8 rows of a core matrix lie in 8 different 16-byte bank
// groups: one wavefront each (what the swizzles are for).
TEST(SmemDescriptor, CanonicalCoreMatricesSpanAllBanks) {
  for (Swizzle s : kSwizzles)
    for (bool mn_major : {false, true}) {
      SmemDescriptor d;
      d.swizzle = s;
      d.start = 2048 + (mn_major ? 0 : 32);  // K-major: a k-slice inside the atom
      d.leading = mn_major ? 1024 : 4096;
      d.stride = 1024;
      if (s == Swizzle::None) {
        d.start = 2048;
        d.leading = 1024;
        d.stride = 128;
      }
      const int t = 8;  // f16
      for (int mn = 0; mn < 64; mn += mn_major ? t : 8)
        for (int k = 0; k < 16; k += mn_major ? 8 : t) {
          std::set<std::uint32_t> groups;
          for (int r = 0; r < 8; ++r) {
            const std::uint32_t a = mn_major ? chunk_address(d, true, 2, mn, k + r) : chunk_address(d, false, 2, mn + r, k);
            groups.insert((a / 16) % 8);
          }
          EXPECT_EQ(groups.size(), 8u) << "swizzle " << width_chunks(s) << (mn_major ? " MN" : " K") << " mn " << mn << " k " << k;
        }
    }
}

}  // namespace
}  // namespace warpscope::emu
