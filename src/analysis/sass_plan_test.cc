// sass_plan_test.cc: the SASS matcher on the examples' committed listings.
#include "analysis/sass_plan.h"

#include "analysis/atomic_lowering.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ptx/parser.h"

namespace warpscope::analysis {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ptx::Module example(const std::string& name) {
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/examples/" + name + ".ptx"), name + ".ptx");
  EXPECT_TRUE(m.ok());
  return m.ok() ? std::move(*m) : ptx::Module{};
}

SassPlan plan_for(const ptx::Module& m, const std::string& name) {
  auto sass = sass::parse_sass_listing(read(std::string(WARPSCOPE_TEST_DATA) + "/sass/" + name + ".sass"));
  EXPECT_TRUE(sass.ok());
  return sass.ok() ? plan_from_sass(m, *sass) : SassPlan{};
}

// Our own kernels (corpus/sass) and their committed listings (corpus/sass/regen.sh).
struct Corpus {
  ptx::Module module;
  SassPlan plan;
};

Corpus corpus(const std::string& name) {
  Corpus c;
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/sass/" + name + ".ptx"), name + ".ptx");
  EXPECT_TRUE(m.ok());
  if (!m.ok()) return c;
  c.module = std::move(*m);
  auto sass = sass::parse_sass_listing(read(std::string(WARPSCOPE_TEST_DATA) + "/sass/corpus/" + name + ".sass"));
  EXPECT_TRUE(sass.ok());
  if (sass.ok()) c.plan = plan_from_sass(c.module, *sass);
  return c;
}

// The roles of function `fn`'s memory instructions at `line` of the .cu (innermost position),
// with `opcode` (ld, st, atom).
std::vector<const InstructionPlan*> roles_at(const Corpus& c, const std::string& fn, int line, ptx::Opcode opcode,
                                             int* count = nullptr) {
  std::vector<const InstructionPlan*> out;
  int n = 0;
  const int fi = c.module.find_function(fn);
  EXPECT_GE(fi, 0) << fn;
  if (fi < 0) return out;
  for (const ptx::Instruction& inst : c.module.functions[static_cast<std::size_t>(fi)].body) {
    if (inst.opcode != opcode || inst.debug.loc.line != line) continue;
    if (inst.space == ptx::Space::Param || inst.space == ptx::Space::Local) continue;
    ++n;
    out.push_back(c.plan.role(&inst));
  }
  if (count) *count = n;
  return out;
}

int merged(const std::vector<const InstructionPlan*>& roles, bool dynamic) {
  int n = 0;
  for (const InstructionPlan* r : roles)
    if (r && r->action == InstructionPlan::Action::Merge && r->merge.dynamic == dynamic && r->merge.width == 16) ++n;
  return n;
}

TEST(SassPlanCorpus, InterleavedGemmGroupsAreBothMerged) {
  const Corpus c = corpus("gemm_merges");
  // gemm16_both128: As[ty][k..k+3] and BsT[tx][k..k+3], 16 loads each, interleaved: 8 LDS.128.
  const auto both = roles_at(c, "gemm16_both128", 28, ptx::Opcode::Ld);
  ASSERT_EQ(both.size(), 32u);
  EXPECT_EQ(merged(both, false), 32);
  int anchors = 0;
  for (const InstructionPlan* r : both) anchors += r->merge.anchor;
  EXPECT_EQ(anchors, 8);
  // sgemm_1d_blocktile: ptxas merges across the PTX's iterations: every part is dynamic.
  const auto oned = roles_at(c, "sgemm_1d_blocktile", 52, ptx::Opcode::Ld);
  EXPECT_GE(oned.size(), 16u);
  EXPECT_EQ(merged(oned, true), 16);
  // sgemm_2d_regtile: regM and regN, each one LDS.128 per k.
  EXPECT_EQ(merged(roles_at(c, "sgemm_2d_regtile", 79, ptx::Opcode::Ld), false), 8);
  EXPECT_EQ(merged(roles_at(c, "sgemm_2d_regtile", 80, ptx::Opcode::Ld), false), 8);
}

// attention_tile<1>: each of its four score loops reads q as ld.shared.v4 (LDS.128 on one
// register) and K as 16 scalars (LDS on another), both at line 73, and SASS registers repeat
// between the loops. Every access matches an instruction of its own width at its own offset:
// none is merged into another loop's LDS.128 (the denser merge only breaks ties between
// placements that are not exact) and no q load is cut into K's scalars.
TEST(SassPlan, ExactWidthMatchesBeatADenserMerge) {
  const ptx::Module m = example("attention_shared");
  const SassPlan plan = plan_for(m, "attention_shared");
  const int fi = m.find_function("_Z14attention_tileILi1EEvPfPKfS2_S2_f");
  ASSERT_GE(fi, 0);
  int vectors = 0, scalars = 0;
  for (const ptx::Instruction& inst : m.functions[static_cast<std::size_t>(fi)].body) {
    if (inst.opcode != ptx::Opcode::Ld || inst.space != ptx::Space::Shared || inst.debug.loc.line != 73) continue;
    const InstructionPlan* r = plan.role(&inst);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->action, InstructionPlan::Action::AsIs) << "PTX line " << inst.ptx_line;
    (inst.vec > 1 ? vectors : scalars) += 1;
  }
  EXPECT_EQ(vectors, 16);
  EXPECT_EQ(scalars, 64);
}

TEST(SassPlanCorpus, InlinedCompareAndSwapMergesAtTheHelpersLines) {
  const Corpus c = corpus("compare_swap");
  // The stride-1 steps: the pair's two loads one LDS.64, its two predicated stores one STS.64.
  int loads = 0, stores = 0;
  for (int line : {12, 13})
    for (const InstructionPlan* r : roles_at(c, "bitonic_cas", line, ptx::Opcode::Ld))
      loads += r && r->action == InstructionPlan::Action::Merge && r->merge.width == 8;
  for (int line : {15, 16})
    for (const InstructionPlan* r : roles_at(c, "bitonic_cas", line, ptx::Opcode::St))
      stores += r && r->action == InstructionPlan::Action::Merge && r->merge.width == 8;
  EXPECT_GT(loads, 0);
  EXPECT_EQ(loads, stores);
  EXPECT_EQ(c.plan.unmatched_ptx, 0);
}

TEST(SassPlanCorpus, HoistedNarrowedAndRedundantLoads) {
  const Corpus c = corpus("rewrites");
  // a = s[2t+1] and, under a branch, b = s[2t]: one static LDS.64 that runs where a does.
  const auto a = roles_at(c, "hoist_merge_lanes", 20, ptx::Opcode::Ld);
  const auto b = roles_at(c, "hoist_merge_lanes", 22, ptx::Opcode::Ld);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  ASSERT_TRUE(a[0] && b[0]);
  EXPECT_EQ(a[0]->action, InstructionPlan::Action::Merge);
  EXPECT_TRUE(a[0]->merge.anchor);
  EXPECT_EQ(b[0]->merge.group, a[0]->merge.group);
  EXPECT_FALSE(b[0]->merge.dynamic);
  // Two shared scalars, neighbours in the block's shared memory: one LDS.64 too.
  const auto u = roles_at(c, "hoist_merge_uniform", 34, ptx::Opcode::Ld);
  ASSERT_EQ(u.size(), 1u);
  ASSERT_TRUE(u[0]);
  EXPECT_EQ(u[0]->action, InstructionPlan::Action::Merge);
  EXPECT_EQ(u[0]->merge.width, 8);
  // ld.u64 whose low 16 bits are used: LDS.U16 / LDG.E.U16.
  for (const char* fn : {"narrow_shared_u64", "narrow_global_u64"}) {
    const auto n = roles_at(c, fn, std::string(fn) == "narrow_shared_u64" ? 47 : 54, ptx::Opcode::Ld);
    ASSERT_EQ(n.size(), 1u) << fn;
    ASSERT_TRUE(n[0]) << fn;
    EXPECT_EQ(n[0]->action, InstructionPlan::Action::Reshape) << fn;
    ASSERT_EQ(n[0]->pieces.size(), 1u);
    EXPECT_EQ(n[0]->pieces[0].offset, 0);
    EXPECT_EQ(n[0]->pieces[0].width, 2);
  }
  // Two identical loads in one straight stretch: one LDG; the second is dropped.
  const auto first = roles_at(c, "cse_global", 61, ptx::Opcode::Ld);
  const auto second = roles_at(c, "cse_global", 62, ptx::Opcode::Ld);
  ASSERT_EQ(second.size(), 1u);
  ASSERT_TRUE(second[0]);
  EXPECT_EQ(second[0]->action, InstructionPlan::Action::Drop);
  EXPECT_TRUE(first.size() == 1 && (first[0] == nullptr || first[0]->action == InstructionPlan::Action::AsIs));
  // p[2i], p[2i+1] from a parameter: two LDG, nothing merged.
  for (const InstructionPlan* r : roles_at(c, "global_pairs", 68, ptx::Opcode::Ld))
    EXPECT_TRUE(r == nullptr || r->action == InstructionPlan::Action::AsIs);
}

AtomicLowering lowering_at(const Corpus& c, const std::string& fn, int line, model::MemOp* op = nullptr) {
  const auto roles = roles_at(c, fn, line, ptx::Opcode::Atom);
  EXPECT_EQ(roles.size(), 1u) << fn << ":" << line;
  if (roles.size() != 1 || !roles[0] || !roles[0]->has_atomic) return AtomicLowering::Native;
  if (op) *op = roles[0]->atomic.global_op;
  return roles[0]->atomic.lowering;
}

TEST(SassPlanCorpus, GlobalAtomicsAsTheSassRunsThem) {
  const Corpus c = corpus("atomics_global");
  const std::string fn = "atom_global_forms";
  // Atomics are inlined from the CUDA headers: their innermost line is the header's, so each
  // is found by its call site's line in atomics_global.cu.
  auto at = [&](int cu_line, model::MemOp* op) -> AtomicLowering {
    const int fi = c.module.find_function(fn);
    for (const ptx::Instruction& inst : c.module.functions[static_cast<std::size_t>(fi)].body) {
      if (inst.opcode != ptx::Opcode::Atom || inst.debug.outer.line != cu_line) continue;
      const InstructionPlan* r = c.plan.role(&inst);
      EXPECT_TRUE(r && r->has_atomic && r->atomic.from_sass) << cu_line;
      if (!r) return AtomicLowering::Native;
      *op = r->atomic.global_op;
      return r->atomic.lowering;
    }
    ADD_FAILURE() << "no atomic at atomics_global.cu:" << cu_line;
    return AtomicLowering::Native;
  };
  model::MemOp op{};
  EXPECT_EQ(at(21, &op), AtomicLowering::Native);
  EXPECT_EQ(op, model::MemOp::GlobalReduction);  // unused add: RED
  EXPECT_EQ(at(22, &op), AtomicLowering::Native);
  EXPECT_EQ(op, model::MemOp::GlobalAtomic);     // used: ATOMG
  at(34, &op);
  EXPECT_EQ(op, model::MemOp::GlobalAtomic);     // unused cas: ATOMG (no RED form)
  at(35, &op);
  EXPECT_EQ(op, model::MemOp::GlobalAtomic);     // unused exch: ATOMG
  at(28, &op);
  EXPECT_EQ(op, model::MemOp::GlobalAtomic);     // generic f16x2 add: ATOM
  at(32, &op);
  EXPECT_EQ(op, model::MemOp::GlobalReduction);  // v4.f32, unused: REDG.F32x4
  EXPECT_EQ(at(30, &op), AtomicLowering::CasLoop);         // f16 add: 32-bit CAS loop
  EXPECT_EQ(at(42, &op), AtomicLowering::Leader);          // uniform add of 1: one lane
  EXPECT_EQ(op, model::MemOp::GlobalReduction);
  EXPECT_EQ(at(43, &op), AtomicLowering::Leader);          // uniform min: REDUX, one lane
  EXPECT_EQ(at(44, &op), AtomicLowering::LeaderWhenFull);  // uniform, used: scan, lane 31
  EXPECT_EQ(op, model::MemOp::GlobalAtomic);
  // Which are ATOM (generic): the f16x2/bf16x2 adds, atomic_ref's, the f16 add's CAS loop.
  auto generic = [&](int cu_line) {
    const int fi = c.module.find_function(fn);
    for (const ptx::Instruction& inst : c.module.functions[static_cast<std::size_t>(fi)].body)
      if (inst.opcode == ptx::Opcode::Atom && inst.debug.outer.line == cu_line)
        if (const InstructionPlan* r = c.plan.role(&inst)) return r->atomic.generic;
    return false;
  };
  for (int line : {28, 29, 30, 48, 49}) EXPECT_TRUE(generic(line)) << line;
  for (int line : {21, 22, 33, 50}) EXPECT_FALSE(generic(line)) << line;
}

// A spin lock's acquire (atomicCAS in a while loop) retries as long as another warp holds the
// lock: timing-dependent; its release (one atomicExch, no loop) is not.
TEST(SassPlanCorpus, SpinLockAcquireIsRetried) {
  const Corpus c = corpus("spin_lock");
  const int fi = c.module.find_function("spin_lock_counter");
  ASSERT_GE(fi, 0);
  int cas = 0, exch = 0;
  for (const ptx::Instruction& inst : c.module.functions[static_cast<std::size_t>(fi)].body) {
    if (inst.opcode != ptx::Opcode::Atom) continue;
    const InstructionPlan* r = c.plan.role(&inst);
    ASSERT_TRUE(r && r->has_atomic);
    if (inst.subop == ptx::SubOp::Cas) {
      ++cas;
      EXPECT_TRUE(r->atomic.retried);
      EXPECT_TRUE(timing_dependent(r->atomic, model::Space::Global));
    } else {
      ++exch;
      EXPECT_FALSE(r->atomic.retried);
    }
  }
  EXPECT_EQ(cas, 1);
  EXPECT_EQ(exch, 1);
}

TEST(SassPlanCorpus, SharedAtomicsAsTheSassRunsThem) {
  const Corpus c = corpus("atomics_shared");
  const std::string fn = "atom_shared_forms";
  auto at = [&](int cu_line) -> AtomicLowering {
    const int fi = c.module.find_function(fn);
    for (const ptx::Instruction& inst : c.module.functions[static_cast<std::size_t>(fi)].body) {
      if (inst.opcode != ptx::Opcode::Atom || inst.debug.outer.line != cu_line) continue;
      const InstructionPlan* r = c.plan.role(&inst);
      EXPECT_TRUE(r && r->has_atomic && r->atomic.from_sass) << cu_line;
      return r ? r->atomic.lowering : AtomicLowering::Native;
    }
    ADD_FAILURE() << "no atomic at atomics_shared.cu:" << cu_line;
    return AtomicLowering::Native;
  };
  EXPECT_EQ(at(28), AtomicLowering::PopcInc);
  EXPECT_EQ(at(29), AtomicLowering::Native);
  EXPECT_EQ(at(37), AtomicLowering::Native);   // cas.b64
  EXPECT_EQ(at(39), AtomicLowering::CasLoop);  // f32 add
  EXPECT_EQ(at(42), AtomicLowering::CasLoop);  // f64 add
  EXPECT_EQ(at(43), AtomicLowering::CasLoop);  // u64 add
  EXPECT_EQ(at(44), AtomicLowering::CasLoop);  // u64 min
  EXPECT_EQ(at(46), AtomicLowering::Leader);
  EXPECT_EQ(at(47), AtomicLowering::LeaderWhenFull);
  EXPECT_EQ(at(48), AtomicLowering::LeaderCasLoop);
  const int fi = c.module.find_function(fn);
  for (const ptx::Instruction& inst : c.module.functions[static_cast<std::size_t>(fi)].body)
    if (inst.opcode == ptx::Opcode::Atom && inst.debug.outer.line == 45) {
      const InstructionPlan* r = c.plan.role(&inst);
      ASSERT_TRUE(r);
      EXPECT_TRUE(r->atomic.shared_fallback);  // generic f16x2: ATOM, on a shared address a CAS loop
    }
}

// An ldmatrix whose fragments nothing reads (a pipelined GEMM's drain, unrolled, loads them for
// a k step after the last one): ptxas removes it, as it does a dead ld (LeetCUDA hgemm stages
// kernels: 32768 LDSM on the H200 where the PTX runs 33792). One that is read stays.
TEST(SassPlan, LdmatrixWhoseFragmentsNothingReadsIsDropped) {
  const char* text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<3>;
  .shared .align 16 .b8 tile[1024];
  ld.param.u64 %rd1, [out];
  mov.u32 %r9, tile;
  ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%r1, %r2, %r3, %r4}, [%r9];
  ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%r5, %r6}, [%r9+512];
  add.u32 %r10, %r1, %r4;
  st.global.u32 [%rd1], %r10;
  ret;
}
)";
  auto m = ptx::parse(text, "k.ptx");
  ASSERT_TRUE(m.ok()) << m.error().render();
  const SassPlan plan = plan_from_ptx(*m);
  std::vector<InstructionPlan::Action> actions;
  for (const ptx::Instruction& inst : m->functions[0].body)
    if (inst.opcode == ptx::Opcode::LdMatrix) {
      const InstructionPlan* r = plan.role(&inst);
      actions.push_back(r ? r->action : InstructionPlan::Action::AsIs);
    }
  EXPECT_EQ(actions, (std::vector<InstructionPlan::Action>{InstructionPlan::Action::AsIs, InstructionPlan::Action::Drop}));
}

// Cooperative groups' barrier for tiles wider than a warp: warps spin on ld.acquire of the
// barrier word (loops without stores) until the last arrives: those loads poll (how often
// depends on timing, H200: 1536 polls); the kernel's other loads do not.
TEST(SassPlan, SpinWaitLoadsPoll) {
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/frontend/special_registers.ptx"), "s.ptx");
  ASSERT_TRUE(m.ok());
  const SassPlan plan = plan_from_ptx(*m);
  const int fi = m->find_function("cg_tile_reduce_64");
  ASSERT_GE(fi, 0);
  int polling = 0, others = 0;
  for (const ptx::Instruction& inst : m->functions[static_cast<std::size_t>(fi)].body) {
    if (inst.opcode != ptx::Opcode::Ld || inst.space == ptx::Space::Param) continue;
    const InstructionPlan* r = plan.role(&inst);
    if (r && r->polls) ++polling;
    else ++others;
  }
  EXPECT_EQ(polling, 2);
  EXPECT_GE(others, 3);
}

// A lock loop as Triton writes it (layer-norm backward): one thread tries the cas and
// broadcasts the result through shared memory each try; the store and load run once a try, as
// timing-dependent as the cas itself. The load after the loop is not.
TEST(SassPlan, AccessesOfALockLoopAreTimingDependent) {
  const char* text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry lock_loop(.param .u64 lock)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  .shared .align 4 .b8 flag[4];
  ld.param.u64 %rd1, [lock];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  mov.u32 %r5, flag;
$L__BB0_1:
  bar.sync 0;
  mov.u32 %r2, 0;
  @%p1 atom.global.acq_rel.gpu.cas.b32 %r2, [%rd1], 0, 1;
  @%p1 st.shared.b32 [%r5], %r2;
  bar.sync 0;
  ld.shared.b32 %r3, [flag];
  setp.eq.u32 %p2, %r3, 1;
  @%p2 bra $L__BB0_1;
  ld.shared.b32 %r4, [flag];
  ret;
}
)";
  auto m = ptx::parse(text, "lock.ptx");
  ASSERT_TRUE(m.ok()) << m.error().render();
  const SassPlan plan = plan_from_ptx(*m);
  std::vector<bool> polls;
  for (const ptx::Instruction& inst : m->functions[0].body)
    if ((inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::St) && inst.space == ptx::Space::Shared) {
      const InstructionPlan* r = plan.role(&inst);
      polls.push_back(r != nullptr && r->polls);
    }
  EXPECT_EQ(polls, (std::vector<bool>{true, true, false}));
}

TEST(SassPlan, TiledGemmMergesFourLoadsEightTimes) {
  const ptx::Module m = example("gemm_tiled");
  const SassPlan plan = plan_for(m, "gemm_tiled");
  EXPECT_EQ(plan.groups, 8);  // the SASS has 8 LDS.128 on line 26
  int parts = 0, anchors = 0;
  for (const auto& [inst, role] : plan.roles) {
    if (role.action != InstructionPlan::Action::Merge) continue;
    ++parts;
    anchors += role.merge.anchor;
    EXPECT_EQ(role.merge.width, 16);
    EXPECT_EQ(role.merge.parts, 4);
    EXPECT_FALSE(role.merge.dynamic);
  }
  EXPECT_EQ(parts, 32);
  EXPECT_EQ(anchors, 8);
  EXPECT_EQ(plan.unmatched_ptx, 0);
  EXPECT_TRUE(needs_sass(m));
}

TEST(SassPlan, ScanMergesAcrossLines) {
  const ptx::Module m = example("scan_blelloch");
  const SassPlan plan = plan_for(m, "scan_blelloch");
  ASSERT_GE(plan.groups, 2);
  for (const auto& [inst, role] : plan.roles)
    if (role.action == InstructionPlan::Action::Merge) EXPECT_EQ(role.merge.width, 8);
}

TEST(SassPlan, NothingToMergeInANaiveTranspose) {
  const ptx::Module m = example("transpose_naive");
  EXPECT_FALSE(needs_sass(m));
  const SassPlan plan = plan_for(m, "transpose_naive");
  EXPECT_EQ(plan.groups, 0);
  EXPECT_EQ(plan.unmatched_ptx, 0);
}

}  // namespace
}  // namespace warpscope::analysis

namespace warpscope::analysis {
namespace {

// corpus/hopper/tma_layout.cu: `if (threadIdx.x == 0)` around the TMA load; ptxas predicated
// the UTMALDG (@!UP0) and every warp executes it (the H200 counted 16 for 4 blocks of 4
// warps), while the store stays behind its branch (@P1 EXIT before the UTMASTG).
TEST(SassPlan, PredicatedTmaLoadIsMarked) {
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/hopper/tma_layout.ptx"), "tma_layout.ptx");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(needs_sass(*m));
  const std::string listing = std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/hopper/sass/tma_layout.sass";
  auto sass = sass::parse_sass_listing(read(listing));
  ASSERT_TRUE(sass.ok());
  const SassPlan plan = plan_from_sass(*m, *sass);
  ASSERT_EQ(plan.predicated_tma_loads.size(), 1u);
  const ptx::Instruction* load = *plan.predicated_tma_loads.begin();
  EXPECT_EQ(load->opcode, ptx::Opcode::CpAsyncBulkTensor);
  EXPECT_EQ(load->space, ptx::Space::Shared);
  // Without the listing nothing is marked.
  EXPECT_TRUE(plan_from_ptx(*m).predicated_tma_loads.empty());
}

// corpus/sass/triangular.cu: nvcc's by-4 loop of line 20 runs in SASS as a loop of 16 loads,
// a block of 8 and a loop of 4 (tests/data/sass/corpus/triangular.sass): 4, 2 and 1 PTX
// iterations. The by-1 remainder after it keeps the PTX's grouping.
TEST(SassPlanCorpus, ReUnrolledLoopGetsItsRegions) {
  const Corpus c = corpus("triangular");
  for (const auto& [fn, line] : {std::pair<const char*, int>{"triangular_rows", 20}, {"uniform_rows", 29}}) {
    int n = 0;
    const auto roles = roles_at(c, fn, line, ptx::Opcode::Ld, &n);
    ASSERT_EQ(n, 5) << fn;
    int unrolled = 0;
    for (const InstructionPlan* r : roles)
      if (r && r->unrolled >= 0) {
        ++unrolled;
        const UnrolledLoop& loop = c.plan.unrolled_loops[static_cast<std::size_t>(r->unrolled)];
        EXPECT_EQ(loop.regions, (std::vector<UnrollRegion>{{4, true}, {2, false}, {1, true}})) << fn;
      }
    EXPECT_EQ(unrolled, 4) << fn;
  }
  // The GEMMs' loops ptxas merged across iterations are not regrouped.
  const Corpus g = corpus("gemm_merges");
  EXPECT_TRUE(g.plan.unrolled_loops.empty());
}

// corpus/sass/warp_strided_tail.cu: the PTX's loop of one iteration (two loads, lines 25 and
// 26) runs in SASS as a loop of 4, a block of 2 and a block of 1: blocks down to one that
// cover what the loop of 4 leaves, with no loop of one after them (llm.c's
// softmax_autoregressive_backward_kernel3).
TEST(SassPlanCorpus, UnrolledLoopEndingInBlocksGetsItsRegions) {
  const Corpus c = corpus("warp_strided_tail");
  for (const auto& [fn, base] : {std::pair<const char*, int>{"strided_tail_rows", 25}, {"strided_tail_fixed", 45}}) {
    for (int line : {base, base + 1}) {
      int n = 0;
      const auto roles = roles_at(c, fn, line, ptx::Opcode::Ld, &n);
      ASSERT_EQ(n, 1) << fn << ":" << line;
      ASSERT_TRUE(roles[0] && roles[0]->unrolled >= 0) << fn << ":" << line;
      const UnrolledLoop& loop = c.plan.unrolled_loops[static_cast<std::size_t>(roles[0]->unrolled)];
      EXPECT_EQ(loop.regions, (std::vector<UnrollRegion>{{4, true}, {2, false}, {1, false}})) << fn;
    }
  }
}

// corpus/sass/unused_fields.cu: of the ld.global.v2 at +24 {spare, counter} and +32 {extra,
// pad} the kernel reads one word each; ptxas loads only it (LDG.E +0x1c, LDG.E +0x20), and
// the word nothing reads costs nothing.
TEST(SassPlanCorpus, VectorLoadElementsNothingReadsAreNotLoaded) {
  const Corpus c = corpus("unused_fields");
  int n = 0;
  const auto roles = roles_at(c, "unused_fields_state", 23, ptx::Opcode::Ld, &n);
  ASSERT_EQ(n, 5);
  int narrowed = 0;
  for (const InstructionPlan* r : roles) {
    if (!r || r->action != InstructionPlan::Action::Reshape) continue;
    ++narrowed;
    ASSERT_EQ(r->pieces.size(), 1u);
    EXPECT_EQ(r->pieces[0].width, 4);
  }
  EXPECT_EQ(narrowed, 2);
}

// corpus/sass/unrolled_merge.cu: thread 0 reads s[1..n-1]; nvcc's by-4 loop (4 loads of line 14)
// runs in SASS as a 16-load loop, an 8-load block and a 4-load loop, whose loads ptxas also
// merged: LDS.128 x4 + LDS, LDS.128 x2 + LDS, LDS.128 + LDS (one word past 16-byte alignment).
TEST(SassPlanCorpus, ReUnrolledMergedLoopGetsShapedRegions) {
  const Corpus c = corpus("unrolled_merge");
  int n = 0;
  const auto roles = roles_at(c, "max_from_one", 14, ptx::Opcode::Ld, &n);
  ASSERT_EQ(n, 5);
  int unrolled = 0;
  for (const InstructionPlan* r : roles)
    if (r && r->unrolled >= 0) {
      ++unrolled;
      const UnrolledLoop& loop = c.plan.unrolled_loops[static_cast<std::size_t>(r->unrolled)];
      using Shape = std::vector<std::pair<std::int64_t, int>>;
      ASSERT_EQ(loop.regions.size(), 3u);
      EXPECT_EQ(loop.regions[0], (UnrollRegion{4, true, Shape{{0, 16}, {16, 16}, {32, 16}, {48, 16}, {64, 4}}}));
      EXPECT_EQ(loop.regions[1], (UnrollRegion{2, false, Shape{{0, 16}, {16, 16}, {32, 4}}}));
      EXPECT_EQ(loop.regions[2], (UnrollRegion{1, true, Shape{{0, 16}, {16, 4}}}));
    }
  EXPECT_EQ(unrolled, 4);  // the by-4 loop's; the remainder's load stays as it is
}

}  // namespace
}  // namespace warpscope::analysis
