// sass_forwarding_test.cc: loads ptxas hoists out of loops, forwards from stores or sinks past
// another tile's store, and stores it keeps once (corpus/sass/forwarding.cu, sunk_tiles.cu and
// scan_merges.cu with their committed listings tests/data/sass/corpus/<name>.sass; measured on
// the H200: sass.jsonl).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/sass_plan.h"
#include "ptx/parser.h"

namespace warpscope::analysis {
namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Forwarding {
  ptx::Module module;
  SassPlan plan;
  // The roles of function `fn`'s shared accesses with `opcode`, in program order.
  std::vector<const InstructionPlan*> shared(const std::string& fn, ptx::Opcode opcode) const {
    std::vector<const InstructionPlan*> out;
    const int fi = module.find_function(fn);
    EXPECT_GE(fi, 0) << fn;
    if (fi < 0) return out;
    for (const ptx::Instruction& inst : module.functions[static_cast<std::size_t>(fi)].body)
      if (inst.opcode == opcode && inst.space == ptx::Space::Shared) out.push_back(plan.role(&inst));
    return out;
  }
};

Forwarding planned(const std::string& name) {
  Forwarding c;
  auto m = ptx::parse(contents(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/sass/" + name + ".ptx"), name + ".ptx");
  EXPECT_TRUE(m.ok());
  if (!m.ok()) return c;
  c.module = std::move(*m);
  auto sass = sass::parse_sass_listing(contents(std::string(WARPSCOPE_TEST_DATA) + "/sass/corpus/" + name + ".sass"));
  EXPECT_TRUE(sass.ok());
  if (sass.ok()) c.plan = plan_from_sass(c.module, *sass);
  return c;
}

const Forwarding& forwarding() {
  static const Forwarding f = planned("forwarding");
  return f;
}

bool dropped(const InstructionPlan* r) { return r != nullptr && r->action == InstructionPlan::Action::Drop; }

// Two stores and two loads of one slot, no barrier: one STS and no LDS in the SASS. The loads
// read the stored registers; the first store is overwritten before anything reads memory.
TEST(SassForwarding, LoadsOfAStoredSlotAndTheOverwrittenStoreAreDropped) {
  const auto loads = forwarding().shared("forward_own_slot", ptx::Opcode::Ld);
  const auto stores = forwarding().shared("forward_own_slot", ptx::Opcode::St);
  ASSERT_EQ(loads.size(), 2u);
  ASSERT_EQ(stores.size(), 2u);
  EXPECT_TRUE(dropped(loads[0]));
  EXPECT_TRUE(dropped(loads[1]));
  EXPECT_TRUE(dropped(stores[0]));
  ASSERT_NE(stores[1], nullptr);
  EXPECT_EQ(stores[1]->action, InstructionPlan::Action::AsIs);
}

// A shared scalar read in a loop, loaded once before the SASS loop: held for the loop's lanes.
TEST(SassForwarding, ALoadPtxasHoistedIsHeldAcrossIterations) {
  for (const char* fn : {"hoist_scalar", "hoist_scalar_2d"}) {
    SCOPED_TRACE(fn);
    const auto loads = forwarding().shared(fn, ptx::Opcode::Ld);
    ASSERT_EQ(loads.size(), 1u);
    ASSERT_NE(loads[0], nullptr);
    EXPECT_EQ(loads[0]->action, InstructionPlan::Action::AsIs);
    EXPECT_GE(loads[0]->reuse_group, 0);
    EXPECT_TRUE(loads[0]->reuse_subset);
    // The barrier's store before the loop runs as written.
    for (const InstructionPlan* r : forwarding().shared(fn, ptx::Opcode::St)) EXPECT_FALSE(dropped(r));
  }
}

// Two tiles' loads, then each tile's predicated store: the second load runs after the first
// store and an exit, for the lanes of its own store (LDS.128, STG, @!P1 EXIT, LDS.128, STG).
TEST(SassForwarding, TheSecondTilesLoadSinksPastTheFirstTilesStore) {
  const Forwarding c = planned("sunk_tiles");
  const auto loads = c.shared("two_tile_epilogue", ptx::Opcode::Ld);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_TRUE(loads[0] == nullptr || loads[0]->sunk_into == nullptr);
  ASSERT_NE(loads[1], nullptr);
  ASSERT_NE(loads[1]->sunk_into, nullptr);
  EXPECT_EQ(loads[1]->sunk_into->opcode, ptx::Opcode::St);
  EXPECT_EQ(loads[1]->sunk_into->space, ptx::Space::Global);
}

// Triton's scan carry: ld.v4 [dsm], ld.v2 [dsm+16], ld [dsm+24] as two LDS.128, the second
// holding the v2 and the word; the later ld [dsm] (after a store) is its own LDS.
TEST(SassForwarding, AScanCarrysLoadsAreTwoWideLoads) {
  const Forwarding c = planned("scan_merges");
  const auto loads = c.shared("partial_sums", ptx::Opcode::Ld);
  ASSERT_EQ(loads.size(), 4u);
  ASSERT_TRUE(loads[0] && loads[1] && loads[2]);
  EXPECT_EQ(loads[0]->action, InstructionPlan::Action::AsIs);
  EXPECT_EQ(loads[1]->action, InstructionPlan::Action::Merge);
  EXPECT_EQ(loads[2]->action, InstructionPlan::Action::Merge);
  EXPECT_EQ(loads[1]->merge.group, loads[2]->merge.group);
  EXPECT_EQ(loads[1]->merge.width, 16);
  EXPECT_FALSE(loads[1]->merge.dynamic);
  EXPECT_TRUE(loads[3] == nullptr || loads[3]->action == InstructionPlan::Action::AsIs);
}

}  // namespace
}  // namespace warpscope::analysis
