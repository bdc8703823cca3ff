// global_access_recorder.cc: keeping every global warp access, per instruction.
#include "analysis/global_access_recorder.h"

#include <algorithm>
#include <iterator>

namespace warpscope::analysis {

void GlobalAccessRecorder::on_block_begin(const emu::BlockEvent&) {
  seq_.clear();
  const std::size_t total = shared_->fetch_add(unshared_, std::memory_order_relaxed) + unshared_;
  unshared_ = 0;
  recording_ = total < max_;
  blocks_ += recording_;
}

void GlobalAccessRecorder::on_access(const emu::AccessEvent& e) {
  if (!recording_ || e.access.mask == 0 || model::space_of(e.access.op) != model::Space::Global) return;
  ++executions_;
  ++unshared_;
  GlobalInstruction& inst = by_pc_[e.pc];
  inst.pc = e.pc;
  inst.instruction = e.instruction;
  std::uint32_t& seq = seq_[static_cast<std::uint64_t>(e.warp) << 32 | e.pc];
  GlobalExecution x{e.block_index, e.warp, seq++, e.region, e.access};
  for (int lane = 0; lane < model::kWarpSize; ++lane)  // inactive lanes' addresses do not matter
    if (!x.access.active(lane)) x.access.address[static_cast<std::size_t>(lane)] = 0;
  inst.executions.push_back(x);
}

void GlobalAccessRecorder::merge(GlobalAccessRecorder&& other) {
  for (auto& [pc, inst] : other.by_pc_) {
    GlobalInstruction& mine = by_pc_[pc];
    mine.pc = pc;
    mine.instruction = inst.instruction;
    mine.executions.insert(mine.executions.end(), std::make_move_iterator(inst.executions.begin()),
                           std::make_move_iterator(inst.executions.end()));
  }
  other.by_pc_.clear();
  executions_ += other.executions_;
  blocks_ += other.blocks_;
}

std::vector<GlobalInstruction> GlobalAccessRecorder::instructions() const {
  std::vector<GlobalInstruction> out;
  out.reserve(by_pc_.size());
  for (const auto& [pc, inst] : by_pc_) out.push_back(inst);
  std::sort(out.begin(), out.end(), [](const GlobalInstruction& a, const GlobalInstruction& b) { return a.pc < b.pc; });
  return out;
}

}  // namespace warpscope::analysis
