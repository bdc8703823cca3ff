// global_advice.h: for each global instruction that moves more sectors than its bytes need,
// the changes that would help, each priced by re-running the exact model (model/global_cost.h)
// on every recorded warp access moved or regrouped as the change would:
//
//   AoS to SoA      lanes a constant stride S > width apart (an S-byte struct, field at +f):
//                   element i's field goes to its own array: base + f * n' + i * width
//                   (n' = elements rounded up to 256, so every field array is 256-byte aligned)
//   widening        this instruction and others (or its own next loop iterations) touch
//                   adjacent elements in every lane: one 8- or 16-byte access per lane, only
//                   when every lane's first element is aligned to the wider access
//   align the base  a warp's bytes are contiguous but start past a 32-byte sector boundary:
//                   the same bytes from the boundary below
//   stage through   the union of a block's accesses of the line, issued a warp per row or 32
//   shared memory   elements to a warp in address order (the fewer sectors); says the tile and
//                   what its column side costs in bank conflicts, declared and padded by one
//
//   transpose_naive.cu:19  st.global.f32 x4: 262144 sectors (ideal 32768), 8192 requests
//     stage through shared memory: 262144 -> 32768 sectors, 8192 -> 8192 requests, saves 229376
//       a block's accesses cover 32 rows of up to 32 x 4 B: stage them in __shared__ float
//       tile[32][32] ...; the tile's column side costs 32 wavefronts per warp (ideal 1) as
//       declared, 1 padded to tile[32][33]
//
// The accesses are the emulator's (PTX, before ptxas merges neighbours into vectors).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/global_access_recorder.h"
#include "analysis/global_rewrite.h"
#include "emu/events.h"
#include "model/arch.h"
#include "ptx/ir.h"

namespace warpscope::analysis {

struct GlobalPrice {
  std::uint64_t sectors = 0;
  std::uint64_t requests = 0;
  std::uint64_t ideal = 0;  // ncu's ideal sectors
};

// The recorded accesses' total requests, sectors and ideal sectors.
GlobalPrice price_accesses(const model::Arch& arch, const std::vector<model::WarpAccess>& accesses);
GlobalPrice price_instruction(const model::Arch& arch, const GlobalInstruction& inst);

struct GlobalChange {
  std::string change;  // "AoS to SoA", "widen to 8-byte accesses", "align the base", "stage through shared memory"
  GlobalPrice before;  // what the change replaces: the instruction, and for widening its partners too
  GlobalPrice after;
  std::string detail;
  GlobalRewrite rewrite;  // how the proof run applies it (global_rewrite.h); pcs filled by advise_global
  std::uint64_t saved() const { return before.sectors > after.sectors ? before.sectors - after.sectors : 0; }
};

// Each is empty when the change does not apply or would not save anything.
std::optional<GlobalChange> soa_change(const model::Arch& arch, const GlobalInstruction& inst,
                                       const std::vector<emu::Region>& regions);
std::optional<GlobalChange> align_change(const model::Arch& arch, const GlobalInstruction& inst);
std::optional<GlobalChange> staging_change(const model::Arch& arch, const GlobalInstruction& inst);
// `all`: every recorded global instruction of the kernel (the partners are looked up there);
// `module` names them in the detail (by source line and SASS instruction).
std::optional<GlobalChange> widening_change(const model::Arch& arch, const GlobalInstruction& inst,
                                            const std::vector<GlobalInstruction>& all,
                                            const ptx::Module* module = nullptr);

// True when the values this global load brings are stored to shared memory (directly, or
// through one mov/cvt): the line is already staged through shared memory.
bool staged_through_shared(const ptx::Module& module, const ptx::Instruction& load);

// An instruction as the advice names it: "ld.global.f32 at aos_soa.cu:17:12 (SASS LDG.E)".
std::string instruction_name(const ptx::Module& module, const ptx::Instruction& inst);
// The SASS instruction ptxas emits for a global or shared access: LDG.E, STG.E.128, LDS.64, ATOMS, ...
std::string sass_mnemonic(const ptx::Instruction& inst);

// One source line's instructions of one kind (an unrolled loop gives several).
struct GlobalAdvice {
  std::uint32_t pc = 0;            // the first
  std::vector<std::uint32_t> pcs;  // all of them
  std::string instruction;  // "st.global.f32"
  std::string file;         // as in the .file directive ("" when the PTX has no .loc)
  int line = 0;             // source line, or the PTX line when there is no .loc
  int column = 0;
  std::string sass;         // the SASS instruction ptxas makes of it (sass_mnemonic)
  GlobalPrice before;
  std::vector<GlobalChange> suggestions;  // most sectors saved first
  std::string note;         // why a change is not offered ("already staged through shared memory")
  // After the proof run (layout_fix.h): the line's figures with the first suggestion applied.
  std::optional<GlobalPrice> after;
};

struct GlobalAdviceOptions {
  double min_gain = 0.01;  // a change must save this fraction of the line's sectors (at least 1)
};

// Every source line (and kind of access) with sectors beyond the ideal, worst first; the
// line's instructions are priced together (staging unions a block's accesses of the whole
// line), widening per instruction with its partners. Figures multiplied by `scale` (blocks
// in the grid / blocks run) like the kernel report's. Without .loc, each instruction alone.
// A line in code inlined from a toolkit header is the user's call site (ptx/source_position.h).
std::vector<GlobalAdvice> advise_global(const model::Arch& arch, const ptx::Module& module,
                                        const std::vector<GlobalInstruction>& instructions,
                                        const std::vector<emu::Region>& regions, double scale,
                                        const GlobalAdviceOptions& options = {});

}  // namespace warpscope::analysis
