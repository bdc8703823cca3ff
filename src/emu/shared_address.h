// shared_address.h: shared-memory addresses of a cluster's blocks. Internal.
//
//   .shared::cta address      offset                      (below 2^24: the executing block)
//   .shared::cluster address  ((rank + 1) << 24) | offset (mapa's result: block `rank`)
//   generic                   kSharedWindow + either of the two
//
// A .shared::cta address is also a valid .shared::cluster address naming the executing
// block, as in PTX; only mapa makes the other form (SASS keeps the CTA id in the same
// bits, 24 and up). The rank is %cluster_ctarank.
#pragma once

#include <cstdint>

#include "emu/exec.h"

namespace warpscope::emu {

inline constexpr int kClusterRankShift = 24;
inline constexpr std::uint64_t kClusterOffsetMask = (1ull << kClusterRankShift) - 1;

// The rank a shared::cluster address names.
inline int cluster_rank_of(std::uint64_t address, int own_rank) {
  std::uint64_t r = address >> kClusterRankShift;
  return r == 0 ? own_rank : static_cast<int>(r - 1);
}

inline std::uint64_t cluster_address(std::uint64_t offset, int rank) {
  return ((static_cast<std::uint64_t>(rank) + 1) << kClusterRankShift) | (offset & kClusterOffsetMask);
}

// Bytes [address, address + width) of the shared memory a cluster address names, or
// nullptr when out of bounds (or a rank outside the cluster). `written` gets that
// block's written-byte flags (nullptr when not checked).
inline std::uint8_t* cluster_shared(const BlockContext& ctx, std::uint64_t address, std::uint64_t width,
                                    std::uint8_t** written = nullptr, int* rank_out = nullptr) {
  int rank = cluster_rank_of(address, ctx.cluster_rank);
  std::uint64_t offset = address & kClusterOffsetMask;
  if (address >> 32 != 0 || rank < 0 || static_cast<std::uint32_t>(rank) >= ctx.cluster->size ||
      offset + width > ctx.shared_size)
    return nullptr;
  if (rank_out != nullptr) *rank_out = rank;
  std::uint8_t* w = ctx.cluster->shared_written[static_cast<std::size_t>(rank)];
  if (written != nullptr) *written = w == nullptr ? nullptr : w + offset;
  return ctx.cluster->shared[static_cast<std::size_t>(rank)] + offset;
}

}  // namespace warpscope::emu
