// sass_tensormap_test.cc: device-built tensor maps' words and copies found in the listing
// (sass_tensormap.cc), on our own kernels' listings (tests/data/sass/hopper, made from
// corpus/hopper's PTX by warpscope's cache: ptxas -arch=sm_90a -lineinfo, nvdisasm, rows).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/sass_plan.h"
#include "ptx/parser.h"

namespace warpscope::analysis {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Planned {
  ptx::Module module;
  SassPlan plan;
};

Planned planned(const std::string& ptx_path, const std::string& listing) {
  Planned p;
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/" + ptx_path), ptx_path);
  EXPECT_TRUE(m.ok());
  if (!m.ok()) return p;
  p.module = std::move(*m);
  auto sass = sass::parse_sass_listing(read(std::string(WARPSCOPE_TEST_DATA) + "/sass/hopper/" + listing));
  EXPECT_TRUE(sass.ok());
  if (sass.ok()) p.plan = plan_from_sass(p.module, *sass);
  return p;
}

struct Words {
  int replaces = 0, loads = 0, stores = 0, copies_with_lines = 0;
};

Words words_of(const Planned& p) {
  Words w;
  for (const ptx::Function& f : p.module.functions)
    for (const ptx::Instruction& inst : f.body) {
      if (inst.opcode == ptx::Opcode::TensormapCpFenceproxy && p.plan.lines_of(&inst)) ++w.copies_with_lines;
      if (inst.opcode != ptx::Opcode::TensormapReplace) continue;
      ++w.replaces;
      const InstructionPlan* r = p.plan.role(&inst);
      EXPECT_TRUE(r && r->action == InstructionPlan::Action::Words) << inst.text;
      if (!r) continue;
      for (const WordAccess& a : r->words) ++(a.store ? w.stores : w.loads);
    }
  return w;
}

// nvcc, two maps with constant fields (corpus/hopper/tma_device_map.cu): 6 LDS and 9 STS a
// map (the H200's Source page: 15 wavefronts a build at lines 24-36), the copy's LDS and
// ATOMG not among them.
TEST(SassTensormap, NvccMapsWordsAreTheListingsLoadsAndStores) {
  const Planned p = planned("corpus/hopper/tma_device_map.ptx", "tma_device_map.sass");
  const Words w = words_of(p);
  EXPECT_EQ(w.replaces, 26);
  EXPECT_EQ(w.loads, 12);
  EXPECT_EQ(w.stores, 18);
  EXPECT_EQ(p.plan.map_words, 30);
  EXPECT_EQ(w.copies_with_lines, 2);
  // Each replace's words at its own line (the line table's rows).
  for (const ptx::Function& f : p.module.functions)
    for (const ptx::Instruction& inst : f.body) {
      if (inst.opcode != ptx::Opcode::TensormapReplace) continue;
      const auto* lines = p.plan.lines_of(&inst);
      if (!lines) continue;
      for (const LineShare& s : *lines)
        for (const sass::SassLoc& l : s.lines) EXPECT_EQ(l.line, inst.debug.loc.line) << inst.text;
    }
}

// Triton's three descriptors (corpus/hopper/triton tma_add_device): 10 LDS and 14 STS a map
// (H200: 416 wavefronts at each line = 16 blocks x (24 + the zeroing store + the copy's LDS)).
// The zeroing st.shared stays a PTX access priced as written.
TEST(SassTensormap, TritonDescriptorsWordsAndCopies) {
  const Planned p = planned("corpus/hopper/triton/tma_add_device.ptx", "tma_add_device.sass");
  const Words w = words_of(p);
  EXPECT_EQ(w.replaces, 39);
  EXPECT_EQ(w.loads, 30);
  EXPECT_EQ(w.stores, 42);
  EXPECT_EQ(w.copies_with_lines, 3);
  for (const ptx::Function& f : p.module.functions)
    for (const ptx::Instruction& inst : f.body)
      if (inst.opcode == ptx::Opcode::St && inst.space == ptx::Space::Shared) {
        const InstructionPlan* r = p.plan.role(&inst);
        EXPECT_TRUE(r == nullptr || r->action == InstructionPlan::Action::AsIs) << inst.text;
      }
}

// Without a listing: a load and a store of the field's word per replace.
TEST(SassTensormap, PredictedWithoutListing) {
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/hopper/tma_device_map.ptx"), "m.ptx");
  ASSERT_TRUE(m.ok());
  for (const ptx::Function& f : m->functions)
    for (const ptx::Instruction& inst : f.body) {
      if (inst.opcode != ptx::Opcode::TensormapReplace) continue;
      const InstructionPlan r = predicted_map_words(inst);
      ASSERT_EQ(r.words.size(), 2u);
      EXPECT_FALSE(r.words[0].store);
      EXPECT_TRUE(r.words[1].store);
      EXPECT_EQ(r.words[1].width, ptx::type_bits(inst.type) == 64 ? 8 : 4) << inst.text;
    }
}

}  // namespace
}  // namespace warpscope::analysis
