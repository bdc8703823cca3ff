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
//   them takes max(chunks one sector feeds, sectors one chunk takes, slots one 16-byte source
//   fills) wavefronts, and every edge counts as one sector on the Source page. Lines never
//   share a wavefront.
//     16-byte lanes, row-aligned copies:                 1 wavefront per line and row
//     a row copied 16 bytes off its 32-byte alignment:    sectors straddle chunks (2-4 per line)
//     16 lanes reading one 16-byte source into 4 rows:    4 a row (corpus/frontend zfill_src_*_far)
//   A zero fill (src-size below 16, an ignore-src predicate) adds a pass over every quarter-warp
//   that has an active lane, once any lane of the warp needs it: one wavefront per run of
//   adjacent zero-filled 16-byte chunks in the quarter, at least one.
//
//   .ca (LDGSTS.E, .E.64, .E.128): the data goes through L1, read from its banks (a word of
//   global line L sits in bank (address / 4) % 32, lines in one bank conflict) and written
//   to shared as the read brings it; per phase (4 bytes: the warp; 8: half-warps; 16:
//   quarter-warps) the last write ends it (price_cached), zero-filled lanes written at once.
//
// How the Source page sees the source-valid predicate. ncu's per-instruction figures for
// LDGSTS come from its own instrumentation of the SASS, and a .cg LDGSTS whose predicate
// operand is the register P0 is not seen as its lanes hold it: with `P0` every lane is priced
// as zero-filling (its zero pass: 4 a warp for 16-byte lanes filling rows, whatever lines the
// data comes from, where the lines-and-rows rule gives 6 for rows straddling two lines), with
// `!P0` every lane as reading the source it names (lanes that read nothing cost as reads of
// their addresses: nothing more where those are their own, a wavefront per slot where many
// name one). Any other predicate (P1, !P1, P4, PT, none), and any .ca copy, is seen as the
// lanes hold it (Triton's fp32 GEMM B tile, `LDGSTS.E ... P0`, pays its L1 reads' 32-way
// conflict). Measured on the H200: corpus/hopper cp_async_predicate.cu (`P0`, 4) beside
// cp_async_prologue.cu (`!P0`, 6) for the same addresses; corpus/frontend
// cp_async_zfill_sources (`!P0`: zero lanes cost as reads of their sources) beside
// cp_async_zfill upper_zero (`P1`: the zero pass); Triton's GEMMs with 64-byte rows, whose
// loads past the last k step read nothing: 8 an execution with `!P0` (triton_v_matmul_fp8_k512:
// as reads from 8 lines), 4 with `!P1` (triton_v_matmul_bf16_*: the zero pass). Which register
// ptxas picks is in the SASS (analysis/sass_plan.h, copy_predicates). The Source page's sectors
// stay those of the bytes the lanes read.
//
// Ideal wavefronts: .ca: the shared store's; .cg: per quarter with an active lane, 1 for its
// data (if a lane of it reads) and 1 for the zero pass (if the warp takes one).
#pragma once

#include <array>
#include <cstdint>

#include "model/arch.h"

namespace warpscope::model {

// How the Source page sees an LDGSTS's source-valid predicate (above): as the lanes hold it,
// every lane zero-filling (`P0`), every lane reading its named source (`!P0`).
enum class SeenPredicate : std::uint8_t { Lanes, AllZero, AllRead };

struct LdgstsAccess {
  bool bypass = false;  // .cg (LDGSTS.BYPASS); .ca otherwise
  int size = 16;        // cp-size: 4, 8 or 16 bytes per lane
  std::uint32_t mask = 0;  // active lanes: each writes `size` bytes at shared[lane]
  std::array<std::uint64_t, kWarpSize> shared{};  // destination byte addresses
  std::array<std::uint64_t, kWarpSize> global{};  // source byte addresses (lanes that read)
  std::array<std::uint8_t, kWarpSize> src_bytes{};  // bytes read; the rest of `size` is zeroed
  // The source each active lane names, read or not (Triton's masked loads keep each lane's own
  // address): what a lane that reads nothing is priced as reading under SeenPredicate::AllRead.
  std::array<std::uint64_t, kWarpSize> named{};
  SeenPredicate seen = SeenPredicate::Lanes;

  bool active(int lane) const { return (mask >> lane) & 1u; }
  bool reads(int lane) const { return active(lane) && src_bytes[static_cast<std::size_t>(lane)] > 0; }
  bool zero_fills(int lane) const { return active(lane) && src_bytes[static_cast<std::size_t>(lane)] < size; }
};

struct LdgstsCost {
  int wavefronts = 0;        // smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
  int ideal_wavefronts = 0;  // the Source page's "L1 Wavefronts Shared Ideal"
  int sectors = 0;           // the Source page's "L2 Theoretical Sectors Global"
};

// Prices a valid access (aligned to `size`; src_bytes <= size).
LdgstsCost price_ldgsts(const LdgstsAccess& access);

}  // namespace warpscope::model
