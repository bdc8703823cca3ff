// sass_plan.h: how each PTX memory instruction runs as SASS, found by matching the two.
//
// ptxas rewrites memory instructions: it merges scalar accesses off one base into vector
// ones (four ld.shared.f32 [%r7+0..12] -> LDS.128, also across loop iterations it unrolled
// and across lines), narrows loads whose upper bytes are unused (ld.global.u64 -> LDG.U16),
// removes loads whose value is never read, and lowers atomics (ATOMS.POPC.INC, one elected
// lane doing a warp's reduction, CAS retry loops, RED for an unused result). ncu counts
// what runs, so each PTX instruction gets a role saying what to price:
//
//   PTX (gemm, line 26)            SASS                     role
//   ld.shared.f32 [%r8]            LDS R26, [R5]            as is
//   ld.shared.f32 [%r7]            LDS.128 R12, [R16]       part 0 of group 3 (16 B), anchor
//   ld.shared.f32 [%r8+128]        LDS R29, [R5+0x80]       as is
//   ld.shared.f32 [%r7+4]          (in LDS.128 R12)         part 1 of group 3
//
// Matching (sass_match.cc): PTX accesses are grouped by base (register, symbol) and kind;
// each group is matched to the SASS instructions of the same kind on its source lines that
// share a base register, at the byte shift that makes the most SASS instructions exactly
// covered by PTX accesses (constants ptxas folded into the immediate shift every offset
// alike). A SASS instruction covered exactly by PTX accesses of one pass is a *static*
// group: its parts are known, and a load runs where its first part does (ptxas hoists the
// others to it). Parts that cover only some of the SASS instruction's bytes (ptxas unrolled
// a loop and merged across iterations) form a *dynamic* group: the parts a warp executes
// are collected into W-aligned blocks at run time.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/ldgsts_cost.h"
#include "model/warp_access.h"
#include "ptx/ir.h"
#include "sass/sass_listing.h"

namespace warpscope::analysis {

// A load or store part of a wider SASS access.
struct MergeRole {
  int group = 0;        // plan-wide id
  int width = 0;        // bytes per lane of the SASS instruction
  bool dynamic = false; // parts collected into aligned blocks at run time
  bool anchor = false;  // static: the part the wide access is recorded at
  int part = 0;         // static: this part's index (program order)
  int parts = 0;        // static: PTX instructions in the group
};

// How ptxas lowered an atom/red (the emulator computes the values; this says what runs).
enum class AtomicLowering : std::uint8_t {
  Native,          // one ATOMS/ATOMG/REDG/ATOM per execution, for the active lanes
  PopcInc,         // ATOMS.POPC.INC: same-address lanes merge
  Leader,          // a warp-wide reduction, then one elected lane's atomic
  LeaderWhenFull,  // one lane's atomic after a warp-wide scan when all 32 lanes are active,
                   // else every active lane's (a value-returning add to a uniform address)
  CasLoop,         // a load, then compare-and-swap tries until each lane's succeeds
  LeaderCasLoop,   // the elected lane's CAS loop
};

struct AtomicRole {
  AtomicLowering lowering = AtomicLowering::Native;
  // What ncu counts a global access under: op_atom for ATOMG and ATOM, op_red for RED.
  model::MemOp global_op = model::MemOp::GlobalAtomic;
  int cas_bytes = 4;            // CAS loops: the word compared (4 or 8; 16-bit atomics use 4)
  bool shared_fallback = false; // a generic ATOM that, on a shared address, runs a CAS loop
  bool generic = false;         // the SASS atomic is an ATOM (generic address), not ATOMG/RED/ATOMS
  // A cas or exch inside a loop of the kernel's own (a spin lock's acquire): how many tries
  // run depends on timing between warps (H200, corpus/sass spin_lock: 92 and 127 tries in
  // two runs where one warp at a time needs 8), so its figures are timing-dependent.
  bool retried = false;
  bool from_sass = false;       // seen in the listing (else predicted from the PTX)
};

// Bytes [offset, offset + width) of a PTX access that one SASS instruction moves: alone, or
// as a part of a wider SASS access (`merged`).
struct Piece {
  int offset = 0;
  int width = 0;
  bool merged = false;
  MergeRole merge;
  friend bool operator==(const Piece& a, const Piece& b) { return a.offset == b.offset && a.width == b.width; }
};

// One load or store of a PTX instruction that is not a load or store in the PTX:
// tensormap.replace, which ptxas writes as read-modify-writes of the map's words (LDS and STS
// on a map in shared memory, LDG and STG in global memory), each run by the instruction's lanes.
struct WordAccess {
  bool store = false;
  int width = 4;   // bytes
  int offset = 0;  // from the instruction's address (the map)
  friend bool operator==(const WordAccess&, const WordAccess&) = default;
};

// A PTX loop ptxas unrolled further (sass_unroll.cc): its SASS runs the PTX's iterations in
// regions, in program order: a loop of `copies` iterations a trip while at least that many
// remain, blocks of fewer copies each run once when that many remain, and a last loop of one
// iteration a trip for the rest.
//   triangular.cu, a by-4 PTX loop:  16-load loop (4 copies), 8-load block (2), 4-load loop (1)
// A warp runs each region for the lanes that still need it, so lanes whose trip counts differ
// run a PTX iteration's accesses in different SASS instructions (loop_regroup.h).
// When ptxas also merged the loop's loads across iterations (llm.c softmax_forward_kernel4: 4
// loads a PTX iteration from one word past a 16-byte boundary, LDS.128 + LDS a copy), a trip
// of a region runs `shape`: its SASS accesses as (byte offset from the first, bytes a lane),
// placed at run time so that they cover the trip's PTX accesses (loop_regroup.cc).
struct UnrollRegion {
  int copies = 1;
  bool loop = true;
  std::vector<std::pair<std::int64_t, int>> shape;  // empty: the PTX accesses as they are
  friend bool operator==(const UnrollRegion&, const UnrollRegion&) = default;
};

struct UnrolledLoop {
  std::vector<UnrollRegion> regions;
};

struct InstructionPlan {
  enum class Action : std::uint8_t {
    AsIs,     // price the PTX access
    Merge,    // part of a wider access: `merge`
    Reshape,  // the SASS moves it as `pieces` (narrowed to the bytes used, split, or split and merged)
    Drop,     // no SASS instruction runs it (a load whose value is never read)
    Words,    // runs as the loads and stores `words` (tensormap.replace)
  };
  Action action = Action::AsIs;
  bool unmatched = false;  // no SASS instruction at its position explained it (priced as written)
  // As is, in a loop ptxas unrolled further than the PTX, keeping loaded values in registers
  // across iterations (its SASS loads sit at distinct offsets of one register, more than the
  // PTX's): a load runs only when the warp does not hold its value (load_reuse.h). -1: not.
  int reuse_group = -1;
  int reuse_slots = 0;  // the group's SASS loads
  // With reuse_group: a load ptxas hoisted out of a loop (sass_match.h: mark_hoisted_loads):
  // it runs only when the warp does not hold its addresses for a superset of its lanes.
  bool reuse_subset = false;
  // As is, in a loop ptxas unrolled into regions: SassPlan::unrolled_loops' index, -1: not.
  int unrolled = -1;
  // As is, for the lanes of this predicated store only: ptxas exits the others first
  // (sunk_loads.h). Null: not.
  const ptx::Instruction* sunk_into = nullptr;
  // With sunk_into, a region [sunk_into, sunk_until) instead: ptxas moved the load past the
  // branch that skips the region its value is used in (a loop's entry); it runs, for its own
  // lanes, when the warp's next access is in the region, and not at all otherwise.
  const ptx::Instruction* sunk_until = nullptr;
  MergeRole merge;
  std::vector<Piece> pieces;
  std::vector<WordAccess> words;
  bool has_atomic = false;
  AtomicRole atomic;
  // A volatile, relaxed or acquire load in a loop without stores (a spin-wait: cooperative
  // groups' barrier_wait), or any load or store in a loop that retries a cas or exch (a lock's
  // acquire: Triton's layer-norm backward broadcasts each try through shared memory): how
  // often it runs depends on timing between warps (H200, corpus/frontend cg_tile_reduce_64:
  // 1536 polls where warps one after another need fewer).
  bool polls = false;
};

// Where ncu's Source page shows (part of) a PTX access: the lines of the SASS instructions it
// became that show at these lines (sass::SassInstruction::source_lines), and the fraction of
// those instructions (a loop ptxas unrolled can put copies on different lines).
struct LineShare {
  std::vector<sass::SassLoc> lines;
  double weight = 1;
};

struct SassPlan {
  std::unordered_map<const ptx::Instruction*, InstructionPlan> roles;
  // Per PTX memory access the SASS explained: its Source-page lines (sass_lines.cc).
  std::unordered_map<const ptx::Instruction*, std::vector<LineShare>> source_lines;
  int groups = 0;            // SASS vector instructions that merge PTX accesses
  int next_group = 0;        // the next MergeRole::group id
  int narrowed = 0;          // PTX loads narrowed or split
  int dropped = 0;           // PTX loads ptxas removed
  int atomics_lowered = 0;   // atomics priced as something other than one native instruction
  int unmatched_ptx = 0;     // PTX accesses the SASS did not explain (priced as written)
  // TMA loads (cp.async.bulk.tensor into shared) whose UTMALDG ptxas predicated instead of
  // branching around: every warp that reaches the PTX branch executes it (measured: 16
  // executions for `if (threadIdx.x == 0)` in 4 blocks of 4 warps).
  std::unordered_set<const ptx::Instruction*> predicated_tma_loads;
  // cp.async whose every LDGSTS names its source-valid predicate as the register P0: ncu's
  // Source page sees `P0` as every lane zero-filling and `!P0` as every lane reading the source
  // it names, whatever the lanes hold (model/ldgsts_cost.h, SeenPredicate; measured on the H200:
  // corpus/hopper cp_async_predicate.cu beside cp_async_prologue.cu, the zero lanes of
  // corpus/frontend cp_async_zfill_sources, Triton's GEMMs). Copies not here are seen as held.
  std::unordered_map<const ptx::Instruction*, model::SeenPredicate> copy_predicates;
  int reuse_groups = 0;      // PTX loads of unrolled loops whose values ptxas keeps across iterations
  int map_words = 0;         // SASS loads and stores of device-built tensor maps' words
  std::vector<UnrolledLoop> unrolled_loops;  // InstructionPlan::unrolled indexes it
  int sunk_loads = 0;        // PTX loads ptxas moved past an early exit (InstructionPlan::sunk_into)

  const std::vector<LineShare>* lines_of(const ptx::Instruction* inst) const {
    auto it = source_lines.find(inst);
    return it == source_lines.end() || it->second.empty() ? nullptr : &it->second;
  }
  const InstructionPlan* role(const ptx::Instruction* inst) const {
    auto it = roles.find(inst);
    return it == roles.end() ? nullptr : &it->second;
  }
};

// Marks what another warp's timing decides how often it runs: a cas or exch in a loop of `f`
// (AtomicRole::retried: a lock's acquire) and a polling load in a loop without stores
// (InstructionPlan::polls). Both plans call it.
void mark_retries(const ptx::Function& f, SassPlan& plan);

// Matches each SASS function to the PTX function of the same name (see the header comment).
SassPlan plan_from_sass(const ptx::Module& module, const std::vector<sass::SassFunction>& sass);

// How a tensormap.replace runs when no listing says: a load and a store of its field's word
// (ptxas's read-modify-write; a listing shows what it folded: H200, corpus/hopper
// tma_device_map, 15 loads and stores for 13 fields with constants, 24 for Triton's).
InstructionPlan predicted_map_words(const ptx::Instruction& inst);

// What ptxas does to the PTX's atomics, known without its listing (sm_90, nvcc 12/13): float
// and 64-bit arithmetic on shared memory becomes a CAS loop, 16-bit atomics a 32-bit CAS loop,
// exch and cas stay value-returning (no RED form), an unused result of any other global atomic
// becomes RED. Used when no listing is at hand (--no-sass, no ptxas).
SassPlan plan_from_ptx(const ptx::Module& module);

// True when the SASS could change a figure: some function has two accesses ptxas could
// merge (same kind, width and base, adjacent offsets), or an atomic. When false,
// disassembling (slow: nvdisasm takes most of a second) can be skipped.
bool needs_sass(const ptx::Module& module);

}  // namespace warpscope::analysis
