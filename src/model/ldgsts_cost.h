// ldgsts_cost.h: what one warp's cp.async (SASS LDGSTS) costs on the shared side, and the
// global sectors the Source page gives it, as the H200 counts them (docs/hopper.md has the
// measurements behind each rule).
//
// The shared write of an LDGSTS is not priced like a store of its bytes: its cost depends on
// where each lane's data comes from. Two paths, told apart by the cache operator:
//
//   .cg, 16 bytes (LDGSTS.E.BYPASS.128): the data arrives from L2 in 32-byte sectors. For
//   each global 128-byte line (in lane order), and each shared 128-byte row its data goes
//   to, the lanes' pieces form edges (source sector -> destination 32-byte chunk); moving
//   them takes max(chunks one sector feeds, sectors one chunk takes) wavefronts, and every
//   edge counts as one sector on the Source page. Lines never share a wavefront.
//     16-byte lanes, row-aligned copies:                 1 wavefront per line and row
//     a row copied 16 bytes off its 32-byte alignment:    sectors straddle chunks (2-4 per line)
//   A lane that reads nothing but names a source inside a buffer moves its zeros as a read of
//   that source: it joins the edges of its line (no cost where its neighbours read the line, as
//   Triton's masked loads; lanes naming one 16-byte source for several chunks take a wavefront
//   each: 20 an LDGSTS for 16 such lanes over four rows). Only for the degree: the Source
//   page's sectors stay those read. Any other zero fill (src-size < 16 but > 0, or a source
//   outside every buffer) adds a pass over every quarter-warp that has an active lane, once any
//   lane of the warp needs it: one wavefront per run of adjacent zero-filled 16-byte chunks in
//   the quarter, at least one.
//
//   .ca (LDGSTS.E, .E.64, .E.128): the data goes through L1, read from its banks (a word of
//   global line L sits in bank (address / 4) % 32, lines in one bank conflict) and written
//   to shared; per phase (4 bytes: the warp; 8: half-warps; 16: quarter-warps)
//     wavefronts = read wavefronts + write wavefronts - 1   (write alone when nothing is read)
//   where the write counts every active lane, zero-filled ones too.
//
//   .cg again: its lines-and-rows edges price an LDGSTS as ptxas writes most; with its source-valid
//   predicate as P0 (`LDGSTS.E.BYPASS.128 [R47], desc[UR28][R20.64], P0`) each shared row is
//   written as a 16-byte store of the lanes would be (its bank conflicts, lines aside: 4 a warp
//   for rows straddling two lines, where !P0, P1 or no predicate take 6); the caller decides
//   (analysis/sass_plan.h, store_priced_copies) and keeps this model's ideal and sectors.
//
// Ideal wavefronts: .ca: the shared store's; .cg: per quarter with an active lane, 1 for its
// data and 1 for the zero pass, but 1 in all for a quarter mixing lanes that read nothing
// with lanes that read.
#pragma once

#include <array>
#include <cstdint>

#include "model/arch.h"

namespace warpscope::model {

struct LdgstsAccess {
  bool bypass = false;  // .cg (LDGSTS.BYPASS); .ca otherwise
  int size = 16;        // cp-size: 4, 8 or 16 bytes per lane
  std::uint32_t mask = 0;  // active lanes: each writes `size` bytes at shared[lane]
  std::array<std::uint64_t, kWarpSize> shared{};  // destination byte addresses
  std::array<std::uint64_t, kWarpSize> global{};  // source byte addresses (lanes that read)
  std::array<std::uint8_t, kWarpSize> src_bytes{};  // bytes read; the rest of `size` is zeroed
  // Lanes that read nothing (src-size 0, ignore-src) whose source still names bytes of a buffer
  // (Triton's masked loads keep each lane's own address): their zeros move as if read from
  // there (`unread`), not in a zero pass (H200, corpus/frontend cp_async_zfill_sources).
  std::uint32_t unread_mapped = 0;
  std::array<std::uint64_t, kWarpSize> unread{};

  bool active(int lane) const { return (mask >> lane) & 1u; }
  bool reads(int lane) const { return active(lane) && src_bytes[static_cast<std::size_t>(lane)] > 0; }
  bool zero_fills(int lane) const { return active(lane) && src_bytes[static_cast<std::size_t>(lane)] < size; }
  // A zero-filling lane the zero pass serves (not one moved as a read of `unread`).
  bool zero_pass(int lane) const { return zero_fills(lane) && !(((unread_mapped >> lane) & 1u) && src_bytes[static_cast<std::size_t>(lane)] == 0); }
};

struct LdgstsCost {
  int wavefronts = 0;        // smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
  int ideal_wavefronts = 0;  // the Source page's "L1 Wavefronts Shared Ideal"
  int sectors = 0;           // the Source page's "L2 Theoretical Sectors Global"
};

// Prices a valid access (aligned to `size`; src_bytes <= size).
LdgstsCost price_ldgsts(const LdgstsAccess& access);

}  // namespace warpscope::model
