// atomic_lowering.h: the SASS accesses one execution of a PTX atomic becomes, by its lowering
// (sass_plan.h's AtomicRole).
//
// A CAS loop (ptxas's, for a float add on shared memory; or for a 16-bit atomic) runs in
// rounds: every lane still trying loads the word, then tries its compare-and-swap; of the
// lanes on one word exactly one succeeds per round. So a warp whose lanes hit k words with
// at most m lanes each takes m rounds, round r with the lanes ranked >= r on their word:
//
//   lanes 0..31 on words A A A B ... (A: 3 lanes)  ->  round 0: 32 lanes, round 1: lanes of
//   words with 2+ lanes, round 2: A's last lane.      (LDS + ATOMS.CAST each round)
//
// That is the fewest rounds any run can take: lanes of other warps on the same word make
// some tries fail too, and how many depends on timing (two ncu runs differ), so the figures
// of such a line are marked timing-dependent.
#pragma once

#include <vector>

#include "analysis/sass_plan.h"
#include "emu/events.h"

namespace warpscope::analysis {

struct LoweredAccess {
  model::WarpAccess access;
  bool companion = false;  // the loop's load, counted apart from the atomic itself
  // A compare-and-swap on shared memory (ATOMS.CAS, a loop's ATOMS.CAST) carries two operands:
  // ncu counts twice the wavefronts (and ideal) of an exchange on the same addresses (H200,
  // corpus/sass atom_shared_forms: ATOMS.CAS 8 a warp where ATOMS.EXCH is 4, CAST 2 a round).
  int operands = 1;
  // An ATOM (generic address): ncu's shared op_atom counter also counts it, on a global address
  // once per pass of its lanes (model::atomic_passes), on a shared one where it fails (the try
  // before a CAS loop) once; the Source page shows neither (H200: rw_atomic_half2 1 an
  // instruction, the 1-warp atom_shared_forms 416 for the Source page's 412).
  bool generic = false;
};

// Appends to `out` the accesses that run. A role predicted from the PTX (not read from the
// SASS) keeps the emulator's choice between ATOMS and ATOMS.POPC.INC (it sees the constant 1).
void lower_atomic(const emu::AccessEvent& e, const AtomicRole& role, std::vector<LoweredAccess>& out);

// True when the lowering's figures depend on timing between warps (a CAS loop).
bool timing_dependent(const AtomicRole& role, model::Space space);

}  // namespace warpscope::analysis
