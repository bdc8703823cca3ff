// special_registers_test.cc: every special register of the PTX ISA parses, by name.
#include <gtest/gtest.h>

#include <string>

#include "ptx/parser.h"

namespace warpscope::ptx {
namespace {

struct Spelling {
  const char* text;  // as written in an operand
  Sreg sreg;
  int component;
};

// PTX ISA 9.0 chapter 10, every register (indexed ones at both ends of their range).
const Spelling kSpellings[] = {
    {"%tid.x", Sreg::Tid, 0}, {"%tid.y", Sreg::Tid, 1}, {"%tid.z", Sreg::Tid, 2}, {"%tid", Sreg::Tid, 0},
    {"%ntid.z", Sreg::Ntid, 2}, {"%laneid", Sreg::Laneid, 0}, {"%warpid", Sreg::Warpid, 0},
    {"%nwarpid", Sreg::Nwarpid, 0}, {"%ctaid.y", Sreg::Ctaid, 1}, {"%nctaid.x", Sreg::Nctaid, 0},
    {"%smid", Sreg::Smid, 0}, {"%nsmid", Sreg::Nsmid, 0}, {"%gridid", Sreg::Gridid, 0},
    {"%is_explicit_cluster", Sreg::IsExplicitCluster, 0}, {"%clusterid.x", Sreg::Clusterid, 0},
    {"%nclusterid.z", Sreg::Nclusterid, 2}, {"%cluster_ctaid.y", Sreg::ClusterCtaid, 1},
    {"%cluster_nctaid.x", Sreg::ClusterNctaid, 0}, {"%cluster_ctarank", Sreg::ClusterCtarank, 0},
    {"%cluster_nctarank", Sreg::ClusterNctarank, 0}, {"%lanemask_eq", Sreg::LanemaskEq, 0},
    {"%lanemask_le", Sreg::LanemaskLe, 0}, {"%lanemask_lt", Sreg::LanemaskLt, 0},
    {"%lanemask_ge", Sreg::LanemaskGe, 0}, {"%lanemask_gt", Sreg::LanemaskGt, 0}, {"%clock", Sreg::Clock, 0},
    {"%clock_hi", Sreg::ClockHi, 0}, {"%clock64", Sreg::Clock64, 0}, {"%pm0", Sreg::Pm, 0}, {"%pm7", Sreg::Pm, 7},
    {"%pm0_64", Sreg::Pm64, 0}, {"%pm7_64", Sreg::Pm64, 7}, {"%envreg0", Sreg::Envreg, 0},
    {"%envreg31", Sreg::Envreg, 31}, {"%globaltimer", Sreg::Globaltimer, 0},
    {"%globaltimer_lo", Sreg::GlobaltimerLo, 0}, {"%globaltimer_hi", Sreg::GlobaltimerHi, 0},
    {"%reserved_smem_offset_begin", Sreg::ReservedSmemOffsetBegin, 0},
    {"%reserved_smem_offset_end", Sreg::ReservedSmemOffsetEnd, 0},
    {"%reserved_smem_offset_cap", Sreg::ReservedSmemOffsetCap, 0},
    {"%reserved_smem_offset_0", Sreg::ReservedSmemOffset, 0}, {"%reserved_smem_offset_1", Sreg::ReservedSmemOffset, 1},
    {"%total_smem_size", Sreg::TotalSmemSize, 0}, {"%aggr_smem_size", Sreg::AggrSmemSize, 0},
    {"%dynamic_smem_size", Sreg::DynamicSmemSize, 0}, {"%current_graph_exec", Sreg::CurrentGraphExec, 0},
};

Module parse_moves(const std::string& operands) {
  std::string src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b64 %rd<2>;\n" +
                    operands + "ret;\n}\n";
  auto m = parse(src, "s.ptx");
  EXPECT_TRUE(m) << m.error().render();
  return m ? std::move(*m) : Module{};
}

TEST(SpecialRegisters, EveryRegisterOfTheIsaParsesInMovAndCvt) {
  std::string body;
  for (const Spelling& s : kSpellings) body += std::string("mov.b64 %rd0, ") + s.text + ";\ncvt.u64.u32 %rd1, " + s.text + ";\n";
  Module m = parse_moves(body);
  ASSERT_EQ(m.functions.size(), 1u);
  const auto& code = m.functions[0].body;
  ASSERT_EQ(code.size(), 2 * std::size(kSpellings) + 1);
  for (std::size_t i = 0; i < std::size(kSpellings); ++i) {
    for (int k = 0; k < 2; ++k) {
      const Instruction& inst = code[2 * i + static_cast<std::size_t>(k)];
      EXPECT_NE(inst.opcode, Opcode::Unsupported) << kSpellings[i].text << " " << inst.unsupported_reason;
      const Operand& o = inst.op(1);
      EXPECT_EQ(o.kind, OperandKind::Sreg) << kSpellings[i].text;
      EXPECT_EQ(o.sreg, kSpellings[i].sreg) << kSpellings[i].text;
      EXPECT_EQ(o.component, kSpellings[i].component) << kSpellings[i].text;
    }
  }
}

TEST(SpecialRegisters, NamesRoundTrip) {
  for (const Spelling& s : kSpellings) {
    std::string text = s.text;
    if (sreg_shape(s.sreg) == SregShape::Vector && text.find('.') == std::string::npos) continue;
    EXPECT_EQ(sreg_name(s.sreg, static_cast<std::uint8_t>(s.component)), text);
  }
  EXPECT_EQ(sreg_bits(Sreg::IsExplicitCluster), 1);
  EXPECT_EQ(sreg_bits(Sreg::Clock64), 64);
  EXPECT_EQ(sreg_bits(Sreg::Gridid), 64);
  EXPECT_EQ(sreg_bits(Sreg::Clock), 32);
}

// Names outside the ISA's ranges are not special registers: the instruction is kept as
// Unsupported with the name in its reason.
TEST(SpecialRegisters, OutOfRangeNamesAreUnknown) {
  for (const char* bad : {"%envreg32", "%pm8", "%pm8_64", "%pm01", "%reserved_smem_offset_2", "%clock32", "%tid.q",
                          "%laneid_x", "%envreg"}) {
    Module m = parse_moves(std::string("mov.b64 %rd0, ") + bad + ";\n");
    ASSERT_EQ(m.functions.size(), 1u) << bad;
    const Instruction& inst = m.functions[0].body[0];
    EXPECT_EQ(inst.opcode, Opcode::Unsupported) << bad;
    EXPECT_NE(inst.unsupported_reason.find("unknown"), std::string::npos) << bad << ": " << inst.unsupported_reason;
  }
}

// What nvcc 13 makes of cooperative groups' reserved_shared_ptr() (memory.h): an inline
// asm block with its own registers.
TEST(SpecialRegisters, CooperativeGroupsReservedSharedPointer) {
  Module m = parse_moves("{\n .reg .u32 start;\n .reg .u64 extended;\n mov.u32 start, %reserved_smem_offset_1;\n"
                         " cvt.u64.u32 extended, start;\n cvta.shared.u64 %rd1, extended;\n}\n");
  ASSERT_EQ(m.functions.size(), 1u);
  const auto& code = m.functions[0].body;
  ASSERT_EQ(code.size(), 4u);
  EXPECT_EQ(code[0].op(1).sreg, Sreg::ReservedSmemOffset);
  EXPECT_EQ(code[0].op(1).component, 1);
  EXPECT_EQ(code[2].opcode, Opcode::Cvta);
}

}  // namespace
}  // namespace warpscope::ptx
