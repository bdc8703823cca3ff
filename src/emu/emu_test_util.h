// emu_test_util.h: loading test PTX and running kernels in tests.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "emu/lanes.h"
#include "emu/launch.h"
#include "ptx/parser.h"

namespace warpscope::emu::testing {

// Parses tests/data/ptx/<name>.ptx (fails the test on error).
const ptx::Module& test_module(const std::string& name);

template <class T>
std::vector<T> read_buffer(GlobalMemory& memory, std::uint64_t base) {
  auto bytes = memory.bytes(base);
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

template <class T>
std::uint64_t make_buffer(GlobalMemory& memory, const std::vector<T>& values, std::string name) {
  std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return memory.allocate(bytes, std::move(name));
}

// Records every event (single worker use, or merge by concatenation).
struct Recorder : Listener {
  std::vector<AccessEvent> accesses;
  std::vector<BarrierEvent> barriers;
  std::vector<DivergenceEvent> divergences;
  int blocks = 0;
  void on_access(const AccessEvent& e) override { accesses.push_back(e); }
  void on_divergence(const DivergenceEvent& e) override { divergences.push_back(e); }
  void on_barrier(const BarrierEvent& e) override { barriers.push_back(e); }
  void on_block_end(const BlockEvent&) override { ++blocks; }
};

ListenerFactory recorder_factory();
// All the recorders of a report, concatenated.
Recorder merged(const RunReport& report);

}  // namespace warpscope::emu::testing
