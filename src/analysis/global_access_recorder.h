// global_access_recorder.h: every warp access to global memory (loads, stores, reductions,
// atomics; all warps, all blocks), kept per instruction for re-pricing under changes of the
// data layout or of the access pattern (see global_advice.h).
//
//   pc 14  st.global.f32  (transpose_naive.cu:20)
//     block 0 warp 0 #0  stg 4  mask 0xffffffff  0 2048 4096 ... 63488
//     block 0 warp 0 #1  stg 4  mask 0xffffffff  32 2080 ...            (next loop iteration)
//
// `seq` numbers a warp's executions of one instruction (loop iterations), so the k-th
// execution of two instructions by one warp can be matched. Unlike shared offsets, global
// addresses differ from block to block, so nothing is deduplicated.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "emu/events.h"
#include "model/warp_access.h"

namespace warpscope::analysis {

struct GlobalExecution {
  std::uint64_t block = 0;  // linear block index
  int warp = 0;
  std::uint32_t seq = 0;  // this warp's k-th execution of the instruction
  int region = -1;        // the buffer (emu::RunReport::regions) of the first active lane
  model::WarpAccess access;
};

struct GlobalInstruction {
  std::uint32_t pc = 0;
  const ptx::Instruction* instruction = nullptr;
  std::vector<GlobalExecution> executions;  // in block order within each worker, workers appended
};

class GlobalAccessRecorder final : public emu::Listener {
 public:
  static constexpr std::size_t kDefaultMaxExecutions = std::size_t{1} << 18;  // about 75 MB

  // The executions recorded so far by every recorder sharing it: the emulator's workers each
  // have a recorder, and the budget is for all of them together.
  using Shared = std::shared_ptr<std::atomic<std::size_t>>;
  static Shared shared_count() { return std::make_shared<std::atomic<std::size_t>>(0); }

  // Whole blocks are recorded while the shared count is below max_executions (so it may go
  // over by the blocks the workers have under way).
  explicit GlobalAccessRecorder(std::size_t max_executions = kDefaultMaxExecutions, Shared count = shared_count())
      : max_(max_executions), shared_(std::move(count)) {}
  void on_block_begin(const emu::BlockEvent& event) override;
  void on_access(const emu::AccessEvent& event) override;
  void merge(GlobalAccessRecorder&& other);

  // By pc, ascending.
  std::vector<GlobalInstruction> instructions() const;
  std::uint64_t blocks_recorded() const { return blocks_; }

 private:
  std::size_t max_ = kDefaultMaxExecutions;
  Shared shared_;
  std::size_t executions_ = 0;
  std::size_t unshared_ = 0;  // recorded since the last block began, not yet added to shared_
  std::uint64_t blocks_ = 0;
  bool recording_ = false;
  std::unordered_map<std::uint32_t, GlobalInstruction> by_pc_;
  std::unordered_map<std::uint64_t, std::uint32_t> seq_;  // (warp, pc) -> executions so far, this block
};

}  // namespace warpscope::analysis
