// memory_access.h: resolving a warp's addresses to memory, and publishing the access.
// Internal to the memory executor.
//
//   resolve():  32 addresses -> per lane (space, offset or device address, host pointer),
//               with bounds, alignment and never-written-shared checks as diagnostics
//   publish():  the lanes in shared memory -> one AccessEvent, those in global -> another
#pragma once

#include <array>
#include <cstdint>

#include "emu/exec.h"

namespace warpscope::emu {

enum class Where : std::uint8_t { Shared, Global, Local, Param };
enum class Intent : std::uint8_t { Read, Write, Atomic };

// Only the lanes in `mask` are filled in (left uninitialized otherwise: this is per access).
struct LaneAccess {
  std::uint32_t mask = 0;
  std::array<std::uint8_t*, 32> ptr;
  std::array<std::uint64_t, 32> addr;  // shared/local offset, or global device address
  std::array<Where, 32> where;
  std::uint32_t shared_lanes = 0;
  std::uint32_t global_lanes = 0;
  const Buffer* buffer = nullptr;  // the first global lane's buffer
  std::uint32_t unchanged = 0;     // an atomic min/max on shared memory: lanes it left as it was
};

// Resolves [row + offset] for the lanes in `mask` as `space` (None: generic). False when
// an error diagnostic was raised (out of bounds, misaligned).
bool resolve(const Op& op, ptx::Space space, std::uint32_t row, std::int64_t offset, int width, Intent intent,
             Warp& w, std::uint32_t mask, BlockContext& ctx, LaneAccess& out);

// The same with the lanes' base addresses given (base[lane] + offset), not read from a row.
bool resolve_at(const Op& op, ptx::Space space, const std::uint64_t* base, std::int64_t offset, int width,
                Intent intent, Warp& w, std::uint32_t mask, BlockContext& ctx, LaneAccess& out);

// Sends the shared and global parts of `acc` to the listener as `shared_op`/`global_op`.
void publish(const Op& op, const Warp& w, const LaneAccess& acc, model::MemOp shared_op, model::MemOp global_op,
             int width, BlockContext& ctx, bool async_copy = false,
             const model::LdgstsAccess* ldgsts = nullptr);

}  // namespace warpscope::emu
