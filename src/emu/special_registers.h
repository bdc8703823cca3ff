// special_registers.h: what each PTX special register (ptx/special_registers.def) reads
// in the emulator.
//
//   exact, from the launch       %tid %ntid %ctaid %nctaid %laneid %lanemask_*
//                                %dynamic_smem_size %total_smem_size %aggr_smem_size
//                                %cluster* %clusterid %nclusterid %is_explicit_cluster
//                                %current_graph_exec (0: no device graph) %reserved_smem_cap
//   defined here (the hardware's are not knowable without running it):
//     %warpid      the warp's index in the block (unique within the block, as the ISA says)
//     %nwarpid     64, the H200's warp slots per SM
//     %smid        block index mod 132; %nsmid 132 (the H200's SMs)
//     %gridid      1
//     %clock %clock_hi %clock64   4 cycles per warp instruction of the block, from 0 at
//                  the block's start: monotone within a warp (a spin-until loop ends)
//     %globaltimer(_lo/_hi)       1000 ns per warp instruction of the block, the same way
//     %pm0..7(_64) 0; %envreg0..31 0, but for a cooperative launch's envreg1/2: the high
//                  and low halves of the grid workspace's address (an 8-byte buffer of
//                  the emulator's, {u32 size; u32 barrier}, cooperative_groups/details/
//                  driver_abi.h), as the driver sets them
//
// Reserved shared memory. sm_80+ drivers reserve 1 KiB of shared memory per block for
// system software; cooperative groups keep the scratch of tiles of more than one warp
// there (%reserved_smem_offset_1, cooperative_groups/details/memory.h). On the H200 it is
// at [0, 0x400) of the block's shared window and the kernel's own shared memory follows
// (ptxas addresses `__shared__` arrays from 0x400). The emulator keeps the kernel's
// shared memory at offset 0 and gives the reserved region a window of its own,
// kReservedSharedOffset (memory.h), that no access of the kernel's own arrays can reach:
//
//   offset 0                                  kReservedSharedOffset
//   [ static | dynamic shared ] ... unmapped ... [ reserved: 1024 bytes ]
//
// kReservedSharedOffset is a multiple of 128, so an address in the region falls in the
// same bank as on the H200; %reserved_smem_offset_begin/end/0/1 read offsets in that
// window (begin + the H200's offset within the region).
#pragma once

#include <cstdint>

#include "emu/events.h"
#include "ptx/ir.h"

namespace warpscope::emu {

inline constexpr std::uint32_t kReservedSharedBytes = 1024;     // %reserved_smem_offset_cap
inline constexpr std::uint32_t kReservedSmemOffset0 = 0;        // within the region (SASS: 0)
// Within the region; the H200's value comes from a driver constant (c[0x0][0x6c]), to be
// measured by corpus/frontend/special_registers.cu. Until then: 128-byte aligned, room
// for cooperative groups' 288 bytes of scratch.
inline constexpr std::uint32_t kReservedSmemOffset1 = 0x100;
inline constexpr std::uint32_t kSharedAllocationUnit = 128;     // sm_90 (%total_smem_size)
inline constexpr std::uint32_t kSmCount = 132;
inline constexpr std::uint32_t kWarpSlotsPerSm = 64;

// What the registers of one launch depend on.
struct SregLaunch {
  Dim3 grid, block;
  Dim3 cluster;                   // 1x1x1 unless a cluster launch is configured
  bool explicit_cluster = false;  // a cluster launch, or the kernel's .reqnctapercluster
  std::uint32_t shared_bytes = 0;          // the kernel's own: static + dynamic
  std::uint32_t dynamic_shared_bytes = 0;
  std::uint64_t grid_workspace = 0;        // a cooperative launch's (%envreg1 high, %envreg2 low half)
};

// One thread's place in the launch.
struct SregThread {
  Dim3 ctaid;
  std::uint64_t block_index = 0;  // linear
  Dim3 tid;
  std::uint32_t warp = 0;         // in the block
  int lane = 0;
};

// The value of `s` (component: .x/.y/.z as 0..2, or the index of %envreg/%pm/
// %reserved_smem_offset_<i>), masked to the register's width. Clocks read 0 here; see
// clock_reading.
std::uint64_t special_register(ptx::Sreg s, std::uint8_t component, const SregLaunch& launch,
                               const SregThread& thread);

// Whether `s` changes while the block runs (%clock, %clock_hi, %clock64, %globaltimer*).
bool is_clock(ptx::Sreg s);
// A clock's value after `steps` warp instructions of the block.
std::uint64_t clock_reading(ptx::Sreg s, std::uint64_t steps);

}  // namespace warpscope::emu
