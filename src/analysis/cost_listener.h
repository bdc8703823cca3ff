// cost_listener.h: prices every warp access the emulator publishes, per instruction.
//
// One CostListener per emulator worker (see emu/launch.h); merge them after the run.
//
//   pc 17  ld.shared.f32 (transpose.cu:27)  executions 8192  wavefronts 262144  ideal 8192
//          worst warp: block (0,0,0) warp 0, 32-way in bank 0
//
// With a SASS plan (sass_plan.h) it prices what runs instead of the PTX as written: merged
// vector accesses (merge_assembler.h), narrowed or split loads, dropped loads, and atomics as
// ptxas lowered them (atomic_lowering.h). Without one, atomics still follow what ptxas does
// on sm_90 (plan_from_ptx's rules).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/atomic_lowering.h"
#include "analysis/load_reuse.h"
#include "analysis/loop_regroup.h"
#include "analysis/sunk_loads.h"
#include "analysis/merge_assembler.h"
#include "analysis/sass_plan.h"
#include "emu/events.h"
#include "model/access_cost.h"
#include "model/price_cache.h"

namespace warpscope::analysis {

// What one static instruction cost over the whole run.
struct InstructionCost {
  const ptx::Instruction* instruction = nullptr;
  model::MemOp op = model::MemOp::SharedLoad;
  int width = 0;
  bool async_copy = false;   // a cp.async half (LDGSTS): counted apart from ld/st
  bool companion = false;    // the load of an atomic's CAS loop (InstructionSlot::Companion)
  bool timing_dependent = false;  // a CAS loop: its retries depend on timing between warps
  int region = -1;           // the memory region of its first event
  std::uint64_t executions = 0;       // warp-level executions with at least one active lane
  std::uint64_t thread_accesses = 0;  // active lanes summed
  std::uint64_t warp_instructions = 0;  // gmma: warp-level wgmma executions (set by the report)
  // shared memory
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  // The Source page's ideal (source_ideal_wavefronts in cost_listener.cc); the kernel's bank
  // conflict counter is wavefronts - ideal_wavefronts.
  std::uint64_t source_ideal_wavefronts = 0;
  // global memory
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t ideal_sectors = 0;
  std::uint64_t bytes_requested = 0;
  // What ncu's kernel counters count and the Source page does not: an atomic's L1 sectors
  // (model::atomic_passes; other accesses: `sectors`), and a generic ATOM's shared op_atom
  // wavefronts (LoweredAccess::generic).
  std::uint64_t l1_sectors = 0;
  std::uint64_t generic_wavefronts = 0;
  // LDGSTS .cg: the Source page's sectors minus `sectors` (it counts each sector once per
  // 32-byte shared chunk its data lands in; model/ldgsts_cost.h).
  std::int64_t source_sectors_extra = 0;
  // The warp execution with the most excess (wavefronts or sectors beyond ideal).
  std::int64_t worst_excess = -1;
  model::WarpAccess worst_access{};
  model::AccessCost worst_cost{};
  emu::Dim3 worst_block{};
  std::uint64_t worst_block_index = 0;
  int worst_warp = 0;

  // Ties go to the earliest block and warp, so reports do not depend on thread timing.
  bool worse_than_worst(std::int64_t excess, std::uint64_t block_index, int warp) const {
    if (excess != worst_excess) return excess > worst_excess;
    return block_index != worst_block_index ? block_index < worst_block_index : warp < worst_warp;
  }

  bool used() const { return executions > 0; }
  std::uint64_t excess_wavefronts() const { return wavefronts - ideal_wavefronts; }
  std::uint64_t excess_sectors() const { return sectors - ideal_sectors; }
  void merge(const InstructionCost& other);
};

// Each PTX instruction has two cost slots: its own, and its companion's (the load an atomic's
// CAS loop runs before each try), at 2 * pc and 2 * pc + 1.
enum class InstructionSlot : std::uint8_t { Own = 0, Companion = 1 };
inline std::size_t slot_of(std::uint32_t pc, InstructionSlot s) {
  return 2 * static_cast<std::size_t>(pc) + static_cast<std::size_t>(s);
}

// What one static bulk-copy instruction (a TMA box copy, a cp.async.bulk range) cost
// over the whole run: issues (one per issuing lane), bytes, the global sectors of the
// bytes inside the tensor, and the first issue's shared footprint (the bank diagram).
struct BulkCost {
  const ptx::Instruction* instruction = nullptr;
  emu::BulkCopyEvent::Kind kind = emu::BulkCopyEvent::Kind::Load;
  bool tensor = false;
  bool predicated = false;           // a TMA load ptxas predicated (SassPlan::predicated_tma_loads)
  std::uint64_t issues = 0;          // one per issuing lane
  std::uint64_t warp_issues = 0;     // warp executions with at least one issuing lane
  std::uint64_t bytes = 0;           // moved, out-of-bounds fill included, per destination
  std::uint64_t global_bytes = 0;
  std::uint64_t global_sectors = 0;
  std::uint64_t ideal_sectors = 0;
  emu::Dim3 first_block{};
  std::uint64_t first_block_index = 0;
  int first_warp = 0;
  std::uint32_t shared = 0, row_bytes = 0, swizzle_bytes = 0;
  std::vector<emu::SharedChunk> footprint;

  bool used() const { return issues > 0; }
  bool is_load() const { return kind == emu::BulkCopyEvent::Kind::Load; }
  bool is_store() const { return kind == emu::BulkCopyEvent::Kind::Store || kind == emu::BulkCopyEvent::Kind::Reduce; }
  void merge(const BulkCost& other);
};

class CostListener final : public emu::Listener, private MergeAssembler::Sink {
 public:
  explicit CostListener(const model::Arch& arch, const SassPlan* plan = nullptr)
      : arch_(arch), plan_(plan), merges_(*this), regroup_(*this), sunk_(*this) {}

  void on_access(const emu::AccessEvent& event) override;
  void on_barrier(const emu::BarrierEvent& event) override;
  void on_block_end(const emu::BlockEvent& event) override;
  void on_bulk_copy(const emu::BulkCopyEvent& event) override;

  // Per slot (slot_of); entries of instructions never executed are unused.
  const std::vector<InstructionCost>& instructions() const { return by_slot_; }
  const std::vector<BulkCost>& bulk_copies() const { return bulk_by_pc_; }  // per pc
  // cp.async's shared writes, per pc (instructions() holds their global reads).
  const std::vector<InstructionCost>& ldgsts_writes() const { return ldgsts_by_pc_; }
  std::uint64_t invalid_accesses() const { return invalid_; }
  void merge(const CostListener& other);
  std::uint64_t fused_accesses() const { return merges_.merged() + merged_from_others_; }

 private:
  void run(const emu::AccessEvent& at, const model::WarpAccess& access) override;
  // How to count an access beyond its price (atomics: LoweredAccess).
  struct Counting {
    bool timing = false;
    int operands = 1;
    bool generic = false;
  };
  void record(const emu::AccessEvent& e, const model::WarpAccess& access, InstructionSlot slot, Counting how);
  const InstructionPlan* role_of(const emu::AccessEvent& e);

  const model::Arch& arch_;
  const SassPlan* plan_ = nullptr;
  MergeAssembler merges_;
  LoadReuse reuse_;
  LoopRegroup regroup_;
  SunkLoads sunk_;
  std::vector<InstructionCost> by_slot_;
  std::vector<model::PriceCache> caches_;  // by slot: warps repeat their patterns
  // Per pc: the role (looked up once; predicted for atomics when there is no plan).
  std::vector<const InstructionPlan*> roles_;
  std::vector<bool> role_known_;
  std::vector<std::unique_ptr<InstructionPlan>> predicted_;
  std::vector<LoweredAccess> lowered_;  // scratch
  std::vector<BulkCost> bulk_by_pc_;
  std::vector<InstructionCost> ldgsts_by_pc_;
  std::vector<model::PriceCache> ldgsts_caches_;
  std::uint64_t invalid_ = 0;
  std::uint64_t merged_from_others_ = 0;
};

}  // namespace warpscope::analysis
