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
  std::uint64_t saved() const { return before.sectors > after.sectors ? before.sectors - after.sectors : 0; }
};

// Each is empty when the change does not apply or would not save anything.
std::optional<GlobalChange> soa_change(const model::Arch& arch, const GlobalInstruction& inst,
                                       const std::vector<emu::Region>& regions);
std::optional<GlobalChange> align_change(const model::Arch& arch, const GlobalInstruction& inst);
std::optional<GlobalChange> staging_change(const model::Arch& arch, const GlobalInstruction& inst);
// `all`: every recorded global instruction of the kernel (the partners are looked up there).
std::optional<GlobalChange> widening_change(const model::Arch& arch, const GlobalInstruction& inst,
                                            const std::vector<GlobalInstruction>& all);

// One source line's instructions of one kind (an unrolled loop gives several).
struct GlobalAdvice {
  std::uint32_t pc = 0;            // the first
  std::vector<std::uint32_t> pcs;  // all of them
  std::string instruction;  // "st.global.f32"
  std::string file;         // as in the .file directive ("" when the PTX has no .loc)
  int line = 0;             // source line, or the PTX line when there is no .loc
  GlobalPrice before;
  std::vector<GlobalChange> suggestions;  // most sectors saved first
};

// Every source line (and kind of access) with sectors beyond the ideal, worst first; the
// line's instructions are priced together (staging unions a block's accesses of the whole
// line), widening per instruction with its partners. Figures multiplied by `scale` (blocks
// in the grid / blocks run) like the kernel report's. Without .loc, each instruction alone.
std::vector<GlobalAdvice> advise_global(const model::Arch& arch, const ptx::Module& module,
                                        const std::vector<GlobalInstruction>& instructions,
                                        const std::vector<emu::Region>& regions, double scale);

}  // namespace warpscope::analysis
