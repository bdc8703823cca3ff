// async_variant.h: the modifiers of the sm_90 asynchronous instructions, decoded into
// Instruction::variant (bit fields below) by async_modifiers.cc.
//
//   cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//   -> opcode CpAsyncBulkTensor, space Shared + flag::Cluster, space2 Global,
//      variant = dims 2 | Tile | CompleteTx
//   tensormap.replace.tile.box_dim.shared::cta.b1024.b32
//   -> opcode TensormapReplace, space Shared, variant field = BoxDim
//
//   variant bits: [2:0] dims (1..5)   [3] im2col   [4] complete_tx   [5] bulk_group
//                 [6] multicast::cluster  [7] L2::cache_hint  [8] expect_tx  [9] parity
//                 [10] read  [11] tensormap::generic  [12] mbarrier_init  [13] cp_mask
//                 [14] launch_dependents  [15] wait  [19:16] tensormap field
//                 [20] release/relaxed-only forms (barrier.cluster.arrive.relaxed)  [21] noinc
#pragma once

#include <cstdint>
#include <string_view>

#include "ptx/ir.h"

namespace warpscope::ptx::async {

inline constexpr std::uint32_t kDimsMask = 0x7u;
inline constexpr std::uint32_t Im2col = 1u << 3;
inline constexpr std::uint32_t CompleteTx = 1u << 4;   // .mbarrier::complete_tx::bytes
inline constexpr std::uint32_t BulkGroup = 1u << 5;    // .bulk_group
inline constexpr std::uint32_t Multicast = 1u << 6;    // .multicast::cluster
inline constexpr std::uint32_t CacheHint = 1u << 7;    // .L2::cache_hint: one more operand
inline constexpr std::uint32_t ExpectTx = 1u << 8;     // mbarrier.arrive.expect_tx
inline constexpr std::uint32_t Parity = 1u << 9;       // try_wait.parity, test_wait.parity
inline constexpr std::uint32_t Read = 1u << 10;        // cp.async.bulk.wait_group.read
inline constexpr std::uint32_t TensormapProxy = 1u << 11;  // fence.proxy.tensormap::generic
inline constexpr std::uint32_t MbarrierInitFence = 1u << 12;  // fence.mbarrier_init
inline constexpr std::uint32_t CpMask = 1u << 13;      // cp.async.bulk .cp_mask: one more operand
inline constexpr std::uint32_t LaunchDependents = 1u << 14;  // griddepcontrol.launch_dependents
inline constexpr std::uint32_t Wait = 1u << 15;        // griddepcontrol.wait
inline constexpr int kFieldShift = 16;
inline constexpr std::uint32_t kFieldMask = 0xfu << kFieldShift;
inline constexpr std::uint32_t Relaxed = 1u << 20;     // barrier.cluster.arrive.relaxed
inline constexpr std::uint32_t NoInc = 1u << 21;       // cp.async.mbarrier.arrive.noinc

inline int dims(std::uint32_t variant) { return static_cast<int>(variant & kDimsMask); }

// The tensor-map field a tensormap.replace writes.
enum class MapField : std::uint8_t {
  None, GlobalAddress, Rank, BoxDim, GlobalDim, GlobalStride, ElementStride, ElemType, InterleaveLayout,
  SwizzleMode, SwizzleAtomicity, FillMode
};
inline MapField map_field(std::uint32_t variant) {
  return static_cast<MapField>((variant & kFieldMask) >> kFieldShift);
}

// Applies one modifier of an async-family instruction (or .shared::cluster on ld/st/atom/
// red/fence); false if it is not one of theirs.
bool apply_async_modifier(Instruction& inst, std::string_view mod);

}  // namespace warpscope::ptx::async
