// emu_test_util.cc: helpers for the emulator tests.
#include "emu/emu_test_util.h"

#include <gtest/gtest.h>

#include <map>

namespace warpscope::emu::testing {

const ptx::Module& test_module(const std::string& name) {
  static std::map<std::string, std::unique_ptr<ptx::Module>> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return *it->second;
  auto m = ptx::parse_file(std::string(WARPSCOPE_TEST_DATA) + "/ptx/" + name + ".ptx");
  EXPECT_TRUE(m) << m.error().render();
  auto owned = std::make_unique<ptx::Module>(m ? std::move(*m) : ptx::Module{});
  const ptx::Module& ref = *owned;
  cache[name] = std::move(owned);
  return ref;
}

ListenerFactory recorder_factory() {
  return [] { return std::make_unique<Recorder>(); };
}

Recorder merged(const RunReport& report) {
  Recorder all;
  for (const auto& l : report.listeners) {
    auto* r = dynamic_cast<const Recorder*>(l.get());
    if (r == nullptr) continue;
    all.accesses.insert(all.accesses.end(), r->accesses.begin(), r->accesses.end());
    all.barriers.insert(all.barriers.end(), r->barriers.begin(), r->barriers.end());
    all.divergences.insert(all.divergences.end(), r->divergences.begin(), r->divergences.end());
    all.blocks += r->blocks;
  }
  return all;
}

}  // namespace warpscope::emu::testing
