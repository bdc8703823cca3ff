// async_kernels_test.cc: the corpus's Hopper kernels (corpus/hopper/) run in the
// emulator: values against a CPU reference under every warp order we can force,
// TMA box layouts that check themselves, deadlocks reported with their waiters.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "emu/args.h"
#include "emu/emu_test_util.h"
#include "emu/program.h"
#include "ptx/parser.h"

namespace warpscope::emu {
namespace {

using testing::merged;
using testing::read_buffer;
using testing::recorder_factory;

const std::string kCorpus = std::string(WARPSCOPE_TEST_DATA) + "/../../corpus/hopper/";

const ptx::Module& corpus(const std::string& name) {
  static std::map<std::string, std::unique_ptr<ptx::Module>> cache;
  auto& slot = cache[name];
  if (!slot) {
    auto m = ptx::parse_file(kCorpus + name + ".ptx");
    EXPECT_TRUE(m) << m.error().render();
    slot = std::make_unique<ptx::Module>(m ? std::move(*m) : ptx::Module{});
  }
  return *slot;
}

// Runs `kernel` with --arg-style specs (file: paths relative to corpus/hopper/).
struct Launch {
  GlobalMemory memory;
  Arguments args;
  Expected<RunReport> report = make_error("not run");
};

void launch(Launch& l, const std::string& module, const std::string& kernel, const LaunchConfig& config,
            std::vector<std::string> specs, RunOptions options = {}) {
  const ptx::Module& m = corpus(module);
  auto k = find_kernel(m, kernel);
  ASSERT_TRUE(k) << k.error().render();
  for (std::string& s : specs)
    if (auto at = s.find("file:"); at != std::string::npos) s.insert(at + 5, kCorpus);
  auto a = make_arguments(m, *k, specs, l.memory);
  ASSERT_TRUE(a) << a.error().render();
  l.args = std::move(*a);
  l.report = run(m, kernel, config, l.args.values, l.memory, options, recorder_factory());
  ASSERT_TRUE(l.report) << l.report.error().render();
}

float ws_reference(int block, int consumer_thread) {
  const int wg = 1 + consumer_thread / 128, t = consumer_thread % 128;
  float acc = 0;
  for (int k = 0; k < 8; ++k)
    for (int pass = 0; pass < 2; ++pass) {
      const int row = block * 512 + k * 64 + 32 * (wg - 1) + 16 * pass + t / 8;
      for (int c = (t % 8) * 8; c < (t % 8) * 8 + 8; ++c) acc += static_cast<float>((row * 64 + c) % 7);
    }
  return acc;
}

const char* const kWsMap = "tmap:file:data/f16_ramp.bin,dtype=f16,dims=64x2048,strides=128,box=64x64,swizzle=128B";

// The warp-specialized pipeline finishes with the right sums in every warp order: forward,
// reverse and shuffled rounds, with turns of 1 to 7 instructions or until a warp waits.
TEST(AsyncKernels, ProducerConsumerPipelineInEveryWarpOrder) {
  struct Order {
    WarpOrder order;
    std::uint64_t seed;
    std::uint32_t quantum;
  };
  std::vector<Order> orders = {{WarpOrder::Forward, 1, 0}, {WarpOrder::Reverse, 1, 0}, {WarpOrder::Forward, 1, 1},
                               {WarpOrder::Reverse, 1, 1}, {WarpOrder::Reverse, 1, 3}};
  for (std::uint64_t seed = 1; seed <= 12; ++seed) orders.push_back({WarpOrder::Random, seed, static_cast<std::uint32_t>(seed % 7)});
  for (const Order& o : orders) {
    RunOptions options;
    options.order = o.order;
    options.order_seed = o.seed;
    options.quantum = o.quantum;
    options.workers = 2;
    Launch l;
    launch(l, "ws_pipeline", "ws_pipeline", {{4, 1, 1}, {384, 1, 1}, 4 * 8192 + 1024 + 64}, {kWsMap, "buf:4096"}, options);
    ASSERT_FALSE(l.report->failed()) << (l.report->diagnostics.empty() ? "" : l.report->diagnostics[0].message);
    auto out = read_buffer<float>(l.memory, l.args.buffers[1]);
    for (int b = 0; b < 4; ++b)
      for (int t = 0; t < 256; ++t)
        ASSERT_EQ(out[static_cast<std::size_t>(b * 256 + t)], ws_reference(b, t))
            << "order " << static_cast<int>(o.order) << " seed " << o.seed << " quantum " << o.quantum << " block " << b
            << " thread " << t;
  }
}

// tma_layout stores to `bad` only where a box element is not where (or what) the
// hardware layout says: no global store at all, for every swizzle, with boxes partly
// outside the tensor, and with the NaN fill. The TMA store writes the box back.
TEST(AsyncKernels, TmaBoxLayoutsCheckThemselves) {
  struct Case {
    const char* name;
    int w, h, x0, y0, bw, bh, gx, gy;
    const char* swizzle;
    int swizzle_bytes;
    bool nan;
  };
  const Case cases[] = {
      {"128B", 64, 64, 0, 0, 32, 32, 2, 2, "128B", 128, false}, {"64B", 64, 64, 0, 0, 16, 32, 4, 2, "64B", 64, false},
      {"32B", 64, 64, 0, 0, 8, 32, 8, 2, "32B", 32, false},     {"none", 64, 64, 0, 0, 32, 32, 2, 2, "none", 0, false},
      {"past_end", 60, 50, 16, 10, 32, 32, 2, 2, "128B", 128, false}, {"nan", 60, 50, 16, 10, 32, 32, 2, 2, "128B", 128, true},
  };
  for (const Case& c : cases) {
    const std::string dims = std::to_string(c.w) + "x" + std::to_string(c.h) + ",strides=" + std::to_string(c.w * 4) +
                             ",box=" + std::to_string(c.bw) + "x" + std::to_string(c.bh) + ",swizzle=" + c.swizzle;
    const std::string type = c.nan ? "dtype=f32," : "dtype=u32,";
    const std::string data = "data/iota_" + std::to_string(c.w) + "x" + std::to_string(c.h) + ".bin";
    const std::uint32_t box_bytes = static_cast<std::uint32_t>(c.bw * c.bh * 4);
    Launch l;
    launch(l, "tma_layout", "tma_layout",
           {{static_cast<std::uint32_t>(c.gx), static_cast<std::uint32_t>(c.gy), 1}, {128, 1, 1}, box_bytes + 1024 + 16},
           {"tmap:file:" + data + "," + type + "dims=" + dims + (c.nan ? ",fill=nan" : ""),
            "tmap:buf:" + std::to_string(c.w * c.h * 4) + "," + type + "dims=" + dims, "buf:65536", "i32:" + std::to_string(c.w),
            "i32:" + std::to_string(c.h), "i32:" + std::to_string(c.x0), "i32:" + std::to_string(c.y0),
            "i32:" + std::to_string(c.bw), "i32:" + std::to_string(c.bh), "i32:" + std::to_string(c.swizzle_bytes),
            c.nan ? "u32:0x7fffffff" : "u32:0"});
    ASSERT_FALSE(l.report->failed()) << c.name << ": " << l.report->diagnostics[0].message;
    testing::Recorder rec = merged(*l.report);
    for (const AccessEvent& e : rec.accesses)
      EXPECT_FALSE(e.access.op == model::MemOp::GlobalStore) << c.name << ": a box element out of place";
    // The TMA store put every element of the tensor the boxes cover back where it was.
    auto out = read_buffer<std::uint32_t>(l.memory, l.args.buffers[1]);
    for (int y = 0; y < c.h; ++y)
      for (int x = 0; x < c.w; ++x) {
        const bool covered = x >= c.x0 && x < c.x0 + c.gx * c.bw && y >= c.y0 && y < c.y0 + c.gy * c.bh;
        ASSERT_EQ(out[static_cast<std::size_t>(y * c.w + x)], covered ? static_cast<std::uint32_t>(y * c.w + x + 1) : 0u)
            << c.name << " (" << x << "," << y << ")";
      }
  }
}

// What faults on the H200 is an error here too (compute-sanitizer, bench/results/h200/corpus/
// hopper): a TMA store whose box starts before the tensor (the load before it fills its
// out-of-bounds elements, and the kernel's check of them passes), and rows narrower than the
// swizzle's span.
TEST(AsyncKernels, TmaBoxesTheH200FaultsOnAreErrors) {
  struct Case {
    const char* name;
    int x0, y0, bw, gx, gy;
    const char* message;
  };
  const Case cases[] = {{"oob", -8, -5, 32, 3, 3, "a TMA store whose box starts at coordinate -8 of dimension 0: the H200 stops"},
                        {"narrow128", 0, 0, 16, 4, 2, "a TMA box of 64-byte rows with the 128B swizzle: the H200 faults on it"}};
  for (const Case& c : cases) {
    const int w = c.x0 < 0 ? 60 : 64, h = c.x0 < 0 ? 50 : 64;
    const std::string dims = std::to_string(w) + "x" + std::to_string(h) + ",strides=" + std::to_string(w * 4) +
                             ",box=" + std::to_string(c.bw) + "x32,swizzle=128B";
    Launch l;
    launch(l, "tma_layout", "tma_layout",
           {{static_cast<std::uint32_t>(c.gx), static_cast<std::uint32_t>(c.gy), 1}, {128, 1, 1},
            static_cast<std::uint32_t>(c.bw * 32 * 4 + 1024 + 16)},
           {"tmap:file:data/iota_" + std::to_string(w) + "x" + std::to_string(h) + ".bin,dtype=u32,dims=" + dims,
            "tmap:buf:" + std::to_string(w * h * 4) + ",dtype=u32,dims=" + dims, "buf:65536", "i32:" + std::to_string(w),
            "i32:" + std::to_string(h), "i32:" + std::to_string(c.x0), "i32:" + std::to_string(c.y0),
            "i32:" + std::to_string(c.bw), "i32:32", "i32:128", "u32:0"});
    ASSERT_TRUE(l.report->failed()) << c.name;
    bool named = false;
    for (const Diagnostic& d : l.report->diagnostics) named = named || d.message.find(c.message) != std::string::npos;
    EXPECT_TRUE(named) << c.name << ": " << l.report->diagnostics[0].message;
    for (const AccessEvent& e : merged(*l.report).accesses)
      EXPECT_FALSE(e.access.op == model::MemOp::GlobalStore) << c.name << ": a box element out of place";
  }
}

// A swizzle the kernel does not expect (the map says 128B, the kernel 64B): the
// mismatch store runs, so the check can fail.
TEST(AsyncKernels, TmaLayoutCheckCanFail) {
  Launch l;
  const std::string dims = "dims=64x64,strides=256,box=32x32,swizzle=128B";
  launch(l, "tma_layout", "tma_layout", {{2, 2, 1}, {128, 1, 1}, 4096 + 1024 + 16},
         {"tmap:file:data/iota_64x64.bin,dtype=u32," + dims, "tmap:buf:16384,dtype=u32," + dims, "buf:65536", "i32:64",
          "i32:64", "i32:0", "i32:0", "i32:32", "i32:32", "i32:64", "u32:0"});
  int stores = 0;
  for (const AccessEvent& e : merged(*l.report).accesses) stores += e.access.op == model::MemOp::GlobalStore;
  EXPECT_GT(stores, 0);
}

// Two-block clusters: distributed shared memory both ways, a remote mbarrier arrival, a
// multicast TMA load, cluster barriers; in both warp orders.
TEST(AsyncKernels, ClusterOfTwoSharesMemory) {
  for (WarpOrder order : {WarpOrder::Forward, WarpOrder::Reverse}) {
    RunOptions options;
    options.order = order;
    options.quantum = order == WarpOrder::Reverse ? 3 : 0;
    Launch l;
    launch(l, "cluster_dsmem", "cluster_dsmem", {{4, 1, 1}, {256, 1, 1}, 0},
           {"tmap:file:data/iota_64x64.bin,dtype=u32,dims=64x64,strides=256,box=32x8,swizzle=none", "buf:4096", "buf:4096",
            "buf:4096"},
           options);
    ASSERT_FALSE(l.report->failed()) << l.report->diagnostics[0].message;
    EXPECT_EQ(l.report->blocks_run, 4u);
    auto out = read_buffer<float>(l.memory, l.args.buffers[1]);
    auto back = read_buffer<std::uint32_t>(l.memory, l.args.buffers[2]);
    for (int b = 0; b < 4; ++b)
      for (int t = 0; t < 256; ++t) {
        ASSERT_EQ(out[static_cast<std::size_t>(b * 256 + t)], static_cast<float>(((b % 2) ^ 1) * 1000 + t)) << b << " " << t;
        ASSERT_EQ(back[static_cast<std::size_t>(b * 256 + t)], static_cast<std::uint32_t>(t)) << b << " " << t;
      }
    for (const AccessEvent& e : merged(*l.report).accesses)
      EXPECT_FALSE(e.access.op == model::MemOp::GlobalStore && e.region == static_cast<int>(l.report->regions.size()) - 1)
          << "a multicast box element out of place";
  }
}

TEST(AsyncKernels, ClustersRunWholeAndMustTileTheGrid) {
  RunOptions options;
  options.blocks = {3};  // block 3's cluster is blocks 2 and 3
  Launch l;
  launch(l, "cluster_dsmem", "cluster_dsmem", {{4, 1, 1}, {256, 1, 1}, 0},
         {"tmap:file:data/iota_64x64.bin,dtype=u32,dims=64x64,strides=256,box=32x8,swizzle=none", "buf:4096", "buf:4096",
          "buf:4096"},
         options);
  EXPECT_EQ(l.report->blocks_run, 2u);
  GlobalMemory memory;
  const ptx::Module& m = corpus("cluster_dsmem");
  auto bad = run(m, "cluster_dsmem", {{3, 1, 1}, {256, 1, 1}, 0}, std::vector<KernelArg>(4), memory);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not a whole number of clusters of (2,1,1)"), std::string::npos) << bad.error().message;
  auto mismatch = run(m, "cluster_dsmem", {{4, 1, 1}, {256, 1, 1}, 0, {4, 1, 1}}, std::vector<KernelArg>(4), memory);
  ASSERT_FALSE(mismatch);
  EXPECT_NE(mismatch.error().message.find("requires clusters of (2,1,1) blocks (.reqnctapercluster); --cluster gives (4,1,1)"),
            std::string::npos)
      << mismatch.error().message;
}

// Triton 3.6's TMA kernels (corpus/hopper/triton): host TensorDescriptors (tmap:), device
// descriptors built in the global scratch buffer, a row softmax through TMA boxes.
void fill_f16(GlobalMemory& memory, std::uint64_t base, int count, int salt) {
  auto bytes = memory.bytes(base);
  for (int i = 0; i < count; ++i) {
    std::uint16_t h = float_to_half(static_cast<float>((i * 7 + salt) % 61) - 30.f);
    std::memcpy(bytes.data() + 2 * i, &h, 2);
  }
}

float f16_at(GlobalMemory& memory, std::uint64_t base, int i) {
  std::uint16_t h;
  std::memcpy(&h, memory.bytes(base).data() + 2 * i, 2);
  return half_to_float(h);
}

TEST(AsyncKernels, TritonTmaKernels) {
  const std::string map = "dtype=f16,dims=256x256,strides=512,box=64x64,swizzle=128B";
  for (bool host : {true, false}) {
    GlobalMemory memory;
    const std::string name = host ? "tma_add_host" : "tma_add_device";
    const ptx::Module& m = corpus("triton/" + name);
    std::vector<std::string> specs;
    if (host) {
      // Each TensorDescriptor: its map, then its shape and strides (Triton passes both).
      for (int k = 0; k < 3; ++k) specs.insert(specs.end(), {"tmap:buf:131072," + map, "i32:256", "i32:256", "i64:256", "i64:1"});
      specs.insert(specs.end(), {"buf:16", "buf:16"});  // global and profile scratch
    } else {
      specs = {"buf:131072", "buf:131072", "buf:131072", "i32:256", "i32:256", "buf:6144", "buf:16"};
    }
    auto args = make_arguments(m, 0, specs, memory);
    ASSERT_TRUE(args) << args.error().render();
    const std::uint64_t x = args->buffers[0], y = args->buffers[host ? 5 : 1], out = args->buffers[host ? 10 : 2];
    fill_f16(memory, x, 65536, 1);
    fill_f16(memory, y, 65536, 5);
    auto r = run(m, name, {{4, 4, 1}, {128, 1, 1}, 8200}, args->values, memory);
    ASSERT_TRUE(r) << r.error().render();
    ASSERT_FALSE(r->failed()) << r->diagnostics[0].message;
    for (int i = 0; i < 65536; ++i)
      ASSERT_EQ(f16_at(memory, out, i), f16_at(memory, x, i) + f16_at(memory, y, i)) << name << " " << i;
  }
  GlobalMemory memory;
  const ptx::Module& m = corpus("triton/tma_softmax");
  auto args = make_arguments(m, 0, {"buf:131072", "buf:131072", "i32:256", "i32:256", "buf:16384", "buf:16"}, memory);
  ASSERT_TRUE(args) << args.error().render();
  fill_f16(memory, args->buffers[0], 65536, 3);
  auto r = run(m, "tma_softmax", {{64, 1, 1}, {128, 1, 1}, 2056}, args->values, memory);
  ASSERT_TRUE(r) << r.error().render();
  ASSERT_FALSE(r->failed()) << r->diagnostics[0].message;
  for (int row = 0; row < 256; row += 37) {
    double max = -1e9, sum = 0;
    for (int c = 0; c < 256; ++c) max = std::max<double>(max, f16_at(memory, args->buffers[0], row * 256 + c));
    for (int c = 0; c < 256; ++c) sum += std::exp(f16_at(memory, args->buffers[0], row * 256 + c) - max);
    for (int c = 0; c < 256; ++c)
      ASSERT_NEAR(f16_at(memory, args->buffers[1], row * 256 + c),
                  std::exp(f16_at(memory, args->buffers[0], row * 256 + c) - max) / sum, 2e-3)
          << row << " " << c;
  }
}

}  // namespace
}  // namespace warpscope::emu
