// shared_access_recorder.cc: counting distinct shared accesses per array.
#include "analysis/shared_access_recorder.h"

namespace warpscope::analysis {

bool SharedAccessRecorder::Key::operator==(const Key& o) const {
  return region == o.region && pc == o.pc && access.op == o.access.op && access.width == o.access.width &&
         access.mask == o.access.mask && access.address == o.access.address;
}

std::size_t SharedAccessRecorder::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the fields
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  mix(static_cast<std::uint64_t>(k.region));
  mix(k.pc);
  mix(static_cast<std::uint64_t>(k.access.op) << 8 | static_cast<std::uint64_t>(k.access.width));
  mix(k.access.mask);
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    if (k.access.active(lane)) mix(k.access.address[static_cast<std::size_t>(lane)]);
  return static_cast<std::size_t>(h);
}

void SharedAccessRecorder::on_access(const emu::AccessEvent& e) {
  if (e.access.mask == 0 || e.region < 0 || model::space_of(e.access.op) != model::Space::Shared) return;
  Key key{e.region, e.pc, e.access};
  for (int lane = 0; lane < model::kWarpSize; ++lane)  // inactive lanes' addresses do not matter
    if (!key.access.active(lane)) key.access.address[static_cast<std::size_t>(lane)] = 0;
  auto [it, inserted] = counts_.try_emplace(key, 0);
  if (inserted) order_.push_back(key);
  ++it->second;
}

void SharedAccessRecorder::merge(const SharedAccessRecorder& other) {
  for (const Key& key : other.order_) {
    auto [it, inserted] = counts_.try_emplace(key, 0);
    if (inserted) order_.push_back(key);
    it->second += other.counts_.at(key);
  }
}

std::map<int, std::vector<RecordedAccess>> SharedAccessRecorder::by_region() const {
  std::map<int, std::vector<RecordedAccess>> out;
  for (const Key& key : order_) out[key.region].push_back(RecordedAccess{key.pc, key.access, counts_.at(key)});
  return out;
}

}  // namespace warpscope::analysis
