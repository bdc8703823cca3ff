// atomic_advice.h: shared arrays updated with atomics (histograms): what the hot bins cost,
// and three rewrites, each priced on the array's recorded accesses as that code would make
// them, the best proved by re-running the kernel with it (AtomicRewriteListener):
//
//   warp-aggregated  __match_any_sync groups the lanes of one bin; the group's leader does one
//   atomics          atomicAdd of __popc(peers) (a value-returning one hands each lane its
//                    rank with __shfl_sync): each warp access keeps one lane per distinct address
//   per-warp         __shared__ T h[warps][bins]: warp w updates copy w (copies 128-byte aligned,
//   sub-histograms   so its banks are the same); every other access of the array (zeroing,
//                    the final sum) is repeated for each copy
//   privatization    __shared__ T h[bins][32]: lane l updates h[bin][l], its own bank, so no two
//   per lane         lanes of a warp meet; zeroing and summing touch each bin's 32 copies, copy
//                    (k + lane) % 32 at step k, so those stay conflict-free
//
//   s_hist: 18911 wavefronts (ideal 2560), 16351 of them lanes serialized on the same bin
//     warp-aggregated atomics    18911 -> 2816    +0 B
//     privatization per lane     18911 -> 10752   +31744 B
//     per-warp sub-histograms    18911 -> 20703   +7168 B   (no fewer: it spreads warps, not lanes)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/shared_access_recorder.h"
#include "emu/events.h"
#include "model/arch.h"

namespace warpscope::analysis {

struct AtomicRewrite {
  enum class Kind { Aggregate, PerWarp, PerLane };
  Kind kind = Kind::Aggregate;
  std::uint64_t base = 0, size = 0;  // the array
  std::uint64_t elem = 4;            // element bytes
  int copies = 1;                    // PerWarp: warps per block; PerLane: 32
  std::uint64_t pitch = 0;           // PerWarp: bytes between copies
};

// The accesses the rewritten code makes in place of `access` (made by `warp` of its block;
// -1 when unknown: a per-warp copy then prices as copy 0, which has the same banks).
std::vector<model::WarpAccess> rewrite_atomic_access(const AtomicRewrite& rewrite, const model::WarpAccess& access,
                                                     int warp = -1);

struct AtomicAlternative {
  std::string change;  // "warp-aggregated atomics", "per-warp sub-histograms", "privatization per lane"
  std::uint64_t wavefronts = 0;  // the array's recorded accesses, rewritten and re-priced
  std::uint64_t extra_bytes = 0;
  std::string code;
  std::string note;     // why it is not offered ("no fewer wavefronts ...", "past the block's limit")
  bool offered = false; // saves at least the minimum gain and fits the block
  AtomicRewrite rewrite;
};

struct AtomicAdvice {
  std::uint64_t before = 0;        // the array's recorded accesses, wavefronts as written
  std::uint64_t ideal = 0;
  std::uint64_t same_address = 0;  // of `before`: lanes serialized on one address (hot bins)
  std::vector<AtomicAlternative> alternatives;  // offered ones first, cheapest first
};

struct AtomicAdviceInputs {
  const emu::Region& region;
  const std::vector<RecordedAccess>& accesses;
  std::uint64_t elem_bytes = 4;
  int warps_per_block = 1;
  std::string name = "a";     // for code: the array as the source spells it
  std::string type = "unsigned";
  double min_gain = 0.01;
  std::uint64_t max_extra_bytes = ~std::uint64_t{0};
};

// Nothing when the array has no shared atomics.
std::optional<AtomicAdvice> advise_atomics(const model::Arch& arch, const AtomicAdviceInputs& in);

// Prices a run as if the chosen rewrites were made: each access inside a rewritten array
// becomes the accesses the rewritten code makes, before the listener after it sees them.
class AtomicRewriteListener final : public emu::Listener {
 public:
  AtomicRewriteListener(std::unique_ptr<emu::Listener> next, std::vector<AtomicRewrite> rewrites)
      : next_(std::move(next)), rewrites_(std::move(rewrites)) {}
  void on_block_begin(const emu::BlockEvent& e) override { next_->on_block_begin(e); }
  void on_access(const emu::AccessEvent& e) override;
  void on_barrier(const emu::BarrierEvent& e) override { next_->on_barrier(e); }
  void on_divergence(const emu::DivergenceEvent& e) override { next_->on_divergence(e); }
  void on_bulk_copy(const emu::BulkCopyEvent& e) override { next_->on_bulk_copy(e); }
  void on_block_end(const emu::BlockEvent& e) override { next_->on_block_end(e); }
  std::unique_ptr<emu::Listener> take_next() { return std::move(next_); }

 private:
  std::unique_ptr<emu::Listener> next_;
  std::vector<AtomicRewrite> rewrites_;
};

}  // namespace warpscope::analysis
