// shared_access_recorder.h: every warp access of every shared array (reads and writes, all
// warps, all blocks), kept for re-pricing under other layouts (see layout_search.h).
//
//   region "_ZZ19transpose_tiled_f32E4tile"   (4096 B at offset 0)
//     pc 12  sts 4  mask 0xffffffff  offsets 0 4 8 ... 124        x 2048
//     pc 31  lds 4  mask 0xffffffff  offsets 0 128 256 ... 3968   x 2048
//
// Blocks usually repeat each other's shared offsets, so identical accesses (same pc, op,
// width, mask and addresses) are stored once with a count: a 256-block transpose keeps 64
// distinct accesses, not 16384. Accesses are the emulator's, before any SASS fusion.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "emu/events.h"
#include "model/warp_access.h"

namespace warpscope::analysis {

struct RecordedAccess {
  std::uint32_t pc = 0;
  model::WarpAccess access;
  std::uint64_t count = 0;  // warp executions with exactly these addresses
};

class SharedAccessRecorder final : public emu::Listener {
 public:
  void on_access(const emu::AccessEvent& event) override;
  void merge(const SharedAccessRecorder& other);

  // By region index (emu::RunReport::regions), in first-recorded order within each region.
  std::map<int, std::vector<RecordedAccess>> by_region() const;

 private:
  struct Key {
    int region = -1;
    std::uint32_t pc = 0;
    model::WarpAccess access;
    bool operator==(const Key& o) const;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  std::unordered_map<Key, std::uint64_t, KeyHash> counts_;
  std::vector<Key> order_;  // first occurrence order, so results do not depend on hashing
};

// Sends every event to two listeners: the recorder beside a cost listener, in one run.
class TeeListener final : public emu::Listener {
 public:
  TeeListener(std::unique_ptr<emu::Listener> first, std::unique_ptr<emu::Listener> second)
      : first_(std::move(first)), second_(std::move(second)) {}
  void on_block_begin(const emu::BlockEvent& e) override { first_->on_block_begin(e), second_->on_block_begin(e); }
  void on_access(const emu::AccessEvent& e) override { first_->on_access(e), second_->on_access(e); }
  void on_barrier(const emu::BarrierEvent& e) override { first_->on_barrier(e), second_->on_barrier(e); }
  void on_divergence(const emu::DivergenceEvent& e) override { first_->on_divergence(e), second_->on_divergence(e); }
  void on_bulk_copy(const emu::BulkCopyEvent& e) override { first_->on_bulk_copy(e), second_->on_bulk_copy(e); }
  void on_block_end(const emu::BlockEvent& e) override { first_->on_block_end(e), second_->on_block_end(e); }
  emu::Listener* first() { return first_.get(); }
  emu::Listener* second() { return second_.get(); }
  std::unique_ptr<emu::Listener> take_first() { return std::move(first_); }

 private:
  std::unique_ptr<emu::Listener> first_, second_;
};

}  // namespace warpscope::analysis
