// special_registers_test.cc: what special registers read when a kernel runs, and the
// driver's reserved shared memory (cooperative groups' scratch).
#include "emu/special_registers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emu/emu_test_util.h"

namespace warpscope::emu {
namespace {

using testing::read_buffer;

// A kernel that stores each register in `regs` for every thread: out[thread][k] as u64,
// thread = linear block * threads + linear thread.
std::string probe_kernel(const std::vector<std::string>& regs, const std::string& extra = "") {
  std::string s = ".version 8.7\n.target sm_90\n.address_size 64\n" + extra +
                  ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
                  "ld.param.u64 %rd1, [out];\n"
                  "mov.u32 %r1, %ntid.x;\nmov.u32 %r2, %ntid.y;\nmul.lo.s32 %r3, %r1, %r2;\n"     // threads
                  "mov.u32 %r4, %tid.y;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r6, %r4, %r1, %r5;\n"  // thread
                  "mov.u32 %r7, %nctaid.x;\nmov.u32 %r8, %ctaid.y;\nmov.u32 %r9, %ctaid.x;\n"
                  "mad.lo.s32 %r10, %r8, %r7, %r9;\nmad.lo.s32 %r11, %r10, %r3, %r6;\n"             // global
                  "mul.wide.u32 %rd2, %r11, " + std::to_string(8 * regs.size()) + ";\nadd.s64 %rd3, %rd1, %rd2;\n";
  for (std::size_t k = 0; k < regs.size(); ++k) {
    if (regs[k] == "%is_explicit_cluster") {
      s += "mov.pred %p1, %is_explicit_cluster;\nselp.u64 %rd4, 1, 0, %p1;\n";
    } else {
      s += "mov.u64 %rd4, " + regs[k] + ";\n";
    }
    s += "st.global.u64 [%rd3+" + std::to_string(8 * k) + "], %rd4;\n";
  }
  return s + "ret;\n}\n";
}

struct Probe {
  std::vector<std::uint64_t> values;
  std::size_t per_thread;
  std::uint64_t at(std::size_t thread, std::size_t k) const { return values[thread * per_thread + k]; }
};

Probe run_probe(const std::vector<std::string>& regs, const LaunchConfig& config, const std::string& extra = "") {
  auto m = ptx::parse(probe_kernel(regs, extra), "probe.ptx");
  EXPECT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  const std::uint64_t threads = config.grid.count() * config.block.count();
  auto out = memory.allocate(threads * regs.size() * 8, "out");
  auto r = run(*m, "k", config, {KernelArg::of(out)}, memory);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  if (r) {
    EXPECT_TRUE(r->diagnostics.empty()) << r->diagnostics.front().message;
  }
  return Probe{read_buffer<std::uint64_t>(memory, out), regs.size()};
}

TEST(SpecialRegisters, ThreadBlockAndGridValues) {
  const std::vector<std::string> regs = {"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ctaid.x", "%ctaid.y",
                                         "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%nwarpid",
                                         "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_ge",
                                         "%lanemask_gt", "%smid", "%nsmid", "%gridid", "%current_graph_exec",
                                         "%envreg0", "%pm3_64", "%tid.w"};
  LaunchConfig config{{3, 2, 1}, {48, 2, 1}, 0};
  Probe p = run_probe(regs, config);
  for (std::uint32_t by = 0; by < 2; ++by)
    for (std::uint32_t bx = 0; bx < 3; ++bx)
      for (std::uint32_t ty = 0; ty < 2; ++ty)
        for (std::uint32_t tx = 0; tx < 48; ++tx) {
          const std::uint32_t block = by * 3 + bx, thread = ty * 48 + tx, lane = thread % 32, warp = thread / 32;
          const std::size_t t = block * 96 + thread;
          const std::vector<std::uint64_t> want = {
              tx, ty, 0, 48, 2, bx, by, 3, 2, 1, lane, warp, 64, 1u << lane, (1u << lane) - 1,
              lane == 31 ? 0xffffffffu : (2u << lane) - 1, 0xffffffffu & ~((1u << lane) - 1),
              lane == 31 ? 0u : 0xffffffffu & ~((2u << lane) - 1), block % 132, 132, 1, 0, 0, 0, 0};
          for (std::size_t k = 0; k < regs.size(); ++k)
            ASSERT_EQ(p.at(t, k), want[k]) << regs[k] << " block " << bx << "," << by << " thread " << tx << "," << ty;
        }
}

// Shared-memory sizes: %total_smem_size is the kernel's static and dynamic shared memory
// in 128-byte allocation units; %aggr_smem_size adds the 1 KiB reserved for the driver.
TEST(SpecialRegisters, SharedMemorySizes) {
  const std::vector<std::string> regs = {"%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size",
                                         "%reserved_smem_offset_cap"};
  Probe p = run_probe(regs, LaunchConfig{{1, 1, 1}, {32, 1, 1}, 1000});
  EXPECT_EQ(p.at(0, 0), 1000u);
  EXPECT_EQ(p.at(0, 1), 1024u);  // 1000 bytes: 8 units
  EXPECT_EQ(p.at(0, 2), 2048u);
  EXPECT_EQ(p.at(0, 3), 1024u);
  Probe none = run_probe(regs, LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0});
  EXPECT_EQ(none.at(0, 0), 0u);
  EXPECT_EQ(none.at(0, 1), 0u);
  EXPECT_EQ(none.at(0, 2), 1024u);
  // Static shared memory counts too, rounded up with the dynamic part.
  SregLaunch launch;
  launch.shared_bytes = 4100;
  launch.dynamic_shared_bytes = 4;
  EXPECT_EQ(special_register(ptx::Sreg::TotalSmemSize, 0, launch, {}), 4224u);
  EXPECT_EQ(special_register(ptx::Sreg::AggrSmemSize, 0, launch, {}), 5248u);
  EXPECT_EQ(special_register(ptx::Sreg::DynamicSmemSize, 0, launch, {}), 4u);
}

TEST(SpecialRegisters, ClustersDefaultToOneBlock) {
  const std::vector<std::string> regs = {"%is_explicit_cluster", "%clusterid.x", "%nclusterid.x", "%cluster_ctaid.x",
                                         "%cluster_nctaid.x", "%cluster_ctarank", "%cluster_nctarank"};
  Probe p = run_probe(regs, LaunchConfig{{4, 1, 1}, {32, 1, 1}, 0});
  for (std::uint64_t b = 0; b < 4; ++b) {
    const std::vector<std::uint64_t> want = {0, b, 4, 0, 1, 0, 1};
    for (std::size_t k = 0; k < regs.size(); ++k) EXPECT_EQ(p.at(b * 32, k), want[k]) << regs[k] << " block " << b;
  }
}

TEST(SpecialRegisters, ClusterLaunch) {
  const std::vector<std::string> regs = {"%is_explicit_cluster", "%clusterid.x", "%clusterid.y", "%nclusterid.x",
                                         "%nclusterid.y", "%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_nctaid.x",
                                         "%cluster_nctaid.y", "%cluster_ctarank", "%cluster_nctarank"};
  LaunchConfig config{{4, 2, 1}, {32, 1, 1}, 0};
  config.cluster = Dim3{2, 2, 1};
  Probe p = run_probe(regs, config);
  for (std::uint64_t by = 0; by < 2; ++by)
    for (std::uint64_t bx = 0; bx < 4; ++bx) {
      const std::vector<std::uint64_t> want = {1, bx / 2, 0, 2, 1, bx % 2, by, 2, 2, bx % 2 + 2 * by, 4};
      for (std::size_t k = 0; k < regs.size(); ++k)
        EXPECT_EQ(p.at((by * 4 + bx) * 32, k), want[k]) << regs[k] << " block " << bx << "," << by;
    }
  // A grid that is not a whole number of clusters is refused.
  auto m = ptx::parse(probe_kernel({"%cluster_ctarank"}), "probe.ptx");
  ASSERT_TRUE(m);
  GlobalMemory memory;
  auto out = memory.allocate(1024, "out");
  LaunchConfig bad{{3, 1, 1}, {32, 1, 1}, 0};
  bad.cluster = Dim3{2, 1, 1};
  auto r = run(*m, "k", bad, {KernelArg::of(out)}, memory);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the grid (3,1,1) is not a whole number of clusters of (2,1,1) blocks");
}

TEST(SpecialRegisters, KernelClusterDirectiveMakesAnExplicitCluster) {
  auto src = probe_kernel({"%is_explicit_cluster", "%cluster_nctarank", "%cluster_ctarank"});
  src.replace(src.find("(.param .u64 out)"), 17, "(.param .u64 out) .reqnctapercluster 2, 1, 1");
  auto m = ptx::parse(src, "probe.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto out = memory.allocate(4 * 32 * 3 * 8, "out");
  auto r = run(*m, "k", LaunchConfig{{4, 1, 1}, {32, 1, 1}, 0}, {KernelArg::of(out)}, memory);
  ASSERT_TRUE(r) << r.error().message;
  auto v = read_buffer<std::uint64_t>(memory, out);
  EXPECT_EQ(v[0], 1u);
  EXPECT_EQ(v[1], 2u);
  EXPECT_EQ(v[32 * 3 + 2], 1u);  // block 1: rank 1 of its cluster
}

TEST(SpecialRegisters, ClocksAreMonotoneWithinAWarp) {
  for (ptx::Sreg s : {ptx::Sreg::Clock, ptx::Sreg::Clock64, ptx::Sreg::Globaltimer}) {
    EXPECT_TRUE(is_clock(s));
    EXPECT_LT(clock_reading(s, 10), clock_reading(s, 11));
  }
  // The halves of the 64-bit readings.
  const std::uint64_t steps = (1ull << 31) + 12345;  // 4 cycles each: past 2^32 cycles
  EXPECT_EQ(clock_reading(ptx::Sreg::ClockHi, steps) << 32 | clock_reading(ptx::Sreg::Clock, steps),
            clock_reading(ptx::Sreg::Clock64, steps));
  EXPECT_EQ(clock_reading(ptx::Sreg::GlobaltimerHi, steps) << 32 | clock_reading(ptx::Sreg::GlobaltimerLo, steps),
            clock_reading(ptx::Sreg::Globaltimer, steps));
  EXPECT_FALSE(is_clock(ptx::Sreg::Laneid));
}

// Cooperative groups' multi-warp scratch: reserved_shared_ptr() (cvta of
// %reserved_smem_offset_1) addresses a region of its own. The kernel fills its whole
// shared array, writes the scratch, and reads both back: nothing aliases, and accesses
// to the region are shared-memory accesses in the reserved region's own Region.
TEST(SpecialRegisters, ReservedSharedMemoryIsARegionOfItsOwn) {
  const char* src = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.shared .align 8 .b8 mine[1024];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, mine;
	shl.b32 %r3, %r1, 3;
	add.s32 %r4, %r2, %r3;
	cvt.u64.u32 %rd3, %r1;
	add.s64 %rd4, %rd3, 1000;
	st.shared.u64 [%r4], %rd4;
	{
	 .reg .u32 start;
	 .reg .u64 extended;
	 mov.u32 start, %reserved_smem_offset_1;
	 cvt.u64.u32 extended, start;
	 cvta.shared.u64 %rd5, extended;
	}
	add.s64 %rd6, %rd5, 32;
	cvt.u64.u32 %rd7, %r3;
	add.s64 %rd8, %rd6, %rd7;
	st.u64 [%rd8], %rd3;
	bar.sync 0;
	ld.shared.u64 %rd9, [%r4];
	ld.u64 %rd10, [%rd8];
	mul.wide.u32 %rd11, %r1, 16;
	add.s64 %rd12, %rd2, %rd11;
	st.global.v2.u64 [%rd12], {%rd9, %rd10};
	mov.u32 %r5, %reserved_smem_offset_begin;
	mov.u32 %r6, %reserved_smem_offset_end;
	mov.u32 %r7, %reserved_smem_offset_1;
	cvt.u64.u32 %rd13, %r5;
	st.global.u64 [%rd2+4096], %rd13;
	cvt.u64.u32 %rd13, %r6;
	st.global.u64 [%rd2+4104], %rd13;
	cvt.u64.u32 %rd13, %r7;
	st.global.u64 [%rd2+4112], %rd13;
	ret;
}
)";
  auto m = ptx::parse(src, "cg.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto out = memory.allocate(4096 + 24, "out");
  auto r = run(*m, "k", LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0}, {KernelArg::of(out)}, memory, {},
               testing::recorder_factory());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->diagnostics.empty()) << r->diagnostics.front().message;
  auto v = read_buffer<std::uint64_t>(memory, out);
  for (std::uint64_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[2 * t], 1000 + t);
    EXPECT_EQ(v[2 * t + 1], t);
  }
  const std::uint64_t begin = v[512], end = v[513], off1 = v[514];
  EXPECT_EQ(begin, kReservedSharedOffset);
  EXPECT_EQ(end, begin + kReservedSharedBytes);
  EXPECT_EQ(off1, begin + kReservedSmemOffset1);
  EXPECT_EQ(begin % 128, 0u);  // banks as on the H200
  // The scratch accesses are shared accesses of the reserved region.
  auto rec = testing::merged(*r);
  int reserved_accesses = 0;
  for (const AccessEvent& e : rec.accesses) {
    if (e.region < 0 || !r->regions[static_cast<std::size_t>(e.region)].reserved) continue;
    ++reserved_accesses;
    EXPECT_EQ(e.access.address[0], off1 + 32);
  }
  EXPECT_EQ(reserved_accesses, 2);
}

// Past the reserved region's end is out of bounds, like past the kernel's own.
TEST(SpecialRegisters, PastTheReservedRegionIsOutOfBounds) {
  const char* src = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<4>;
	mov.u32 %r1, %reserved_smem_offset_end;
	st.shared.u32 [%r1], 0;
	ret;
}
)";
  auto m = ptx::parse(src, "oob.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto r = run(*m, "k", LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0}, {}, memory);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_FALSE(r->diagnostics.empty());
  EXPECT_NE(r->diagnostics[0].message.find("out-of-bounds shared store of 4 bytes at offset 0xfff400"),
            std::string::npos)
      << r->diagnostics[0].message;
}

}  // namespace
}  // namespace warpscope::emu
