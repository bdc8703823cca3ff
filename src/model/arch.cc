// arch.cc: the architecture tables. Every figure here was measured (see calib/ and
// tests/data/h200/); architectures whose rules were not measured are not listed.
#include "model/arch.h"

namespace warpscope::model {

namespace {

std::vector<Arch> make_archs() {
  Arch sm90;
  sm90.name = "sm_90";
  sm90.description = "Hopper (H100, H200)";
  // Measured on an H200 (tests/data/h200/*.jsonl, 2326 patterns): textbook half-warp
  // (8-byte) and quarter-warp (16-byte) phases, doubled for loads whose lanes pair up.
  sm90.load_group_lanes = {32, 32, 32, 16, 8};
  sm90.store_group_lanes = {32, 32, 32, 16, 8};
  sm90.paired_load_group_lanes = {32, 32, 32, 32, 16};
  sm90.load_pair_partners = {1, 2};
  sm90.max_shared_per_sm = 228 * 1024;
  sm90.max_shared_per_block = 227 * 1024;
  sm90.shared_reserved_per_block = 1024;
  sm90.shared_alloc_granularity = 128;
  sm90.max_warps_per_sm = 64;
  sm90.max_blocks_per_sm = 32;
  sm90.registers_per_sm = 65536;
  sm90.registers_per_block = 65536;
  sm90.max_registers_per_thread = 255;
  sm90.register_alloc_unit = 256;
  sm90.register_sub_partitions = 4;
  sm90.shared_carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  return {sm90};
}

}  // namespace

const std::vector<Arch>& known_archs() {
  static const std::vector<Arch> archs = make_archs();
  return archs;
}

Expected<const Arch*> find_arch(std::string_view name) {
  std::string known;
  for (const Arch& a : known_archs()) {
    if (a.name == name) return &a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  return make_error("unknown architecture '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace warpscope::model
