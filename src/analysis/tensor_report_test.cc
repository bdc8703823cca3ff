// tensor_report_test.cc: our wgmma GEMM (corpus/tensor/wgmma_gemm.cu: cp.async into
// 128B-swizzled tiles, wgmma m64n128k16 with A K-major and B N-major) end to end: its
// result against a CPU product, its report's gmma figures against the core-matrix count,
// and a 1024^3 problem within a time budget (optimized builds).
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <random>

#include "analysis/cost_listener.h"
#include "analysis/kernel_report.h"
#include "emu/launch.h"
#include "emu/lanes.h"
#include "model/access_cost.h"
#include "ptx/parser.h"

#if defined(__SANITIZE_ADDRESS__)
#define WARPSCOPE_SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARPSCOPE_SLOW_BUILD 1
#endif
#endif

namespace warpscope::analysis {
namespace {

const ptx::Module& corpus_module(const std::string& name) {
  static std::map<std::string, std::unique_ptr<ptx::Module>> modules;
  auto& m = modules[name];
  if (!m) {
    auto parsed = ptx::parse_file(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/tensor/" + name + ".ptx");
    EXPECT_TRUE(parsed) << parsed.error().render();
    m = std::make_unique<ptx::Module>(parsed ? std::move(*parsed) : ptx::Module{});
  }
  return *m;
}
const ptx::Module& gemm_module() { return corpus_module("wgmma_gemm"); }

struct Gemm {
  emu::GlobalMemory memory;
  std::uint64_t a = 0, b = 0, c = 0;
  int m, n, k;
  Gemm(int m_, int n_, int k_, const std::vector<std::uint16_t>& av, const std::vector<std::uint16_t>& bv)
      : m(m_), n(n_), k(k_) {
    auto bytes = [](const std::vector<std::uint16_t>& v) {
      std::vector<std::uint8_t> out(v.size() * 2);
      std::memcpy(out.data(), v.data(), out.size());
      return out;
    };
    a = av.empty() ? memory.allocate(std::uint64_t(m) * k * 2, "A") : memory.allocate(bytes(av), "A");
    b = bv.empty() ? memory.allocate(std::uint64_t(k) * n * 2, "B") : memory.allocate(bytes(bv), "B");
    c = memory.allocate(std::uint64_t(m) * n * 2, "C");
  }
  // wgmma_gemm_f16, or mma_gemm_f16 (pad >= 0: its padding flag).
  Expected<emu::RunReport> run(int workers = 1, int pad = -1) {
    emu::RunOptions opt;
    opt.workers = workers;
    std::vector<emu::KernelArg> args = {emu::KernelArg::of(a), emu::KernelArg::of(b), emu::KernelArg::of(c),
                                        emu::KernelArg::of(m), emu::KernelArg::of(n), emu::KernelArg::of(k)};
    if (pad >= 0) args.push_back(emu::KernelArg::of(pad));
    const emu::Dim3 grid{static_cast<std::uint32_t>(n / 128), static_cast<std::uint32_t>(m / 128), 1};
    return emu::run(pad >= 0 ? corpus_module("mma_gemm") : gemm_module(), pad >= 0 ? "mma_gemm_f16" : "wgmma_gemm_f16",
                    {grid, {256, 1, 1}, pad >= 0 ? 0u : 65536u + 1024u}, args, memory, opt,
                    [] { return std::make_unique<CostListener>(**model::find_arch("sm_90")); });
  }
};

void check_product(int pad) {
  const int M = 128, N = 256, K = 128;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> small(-2, 2);
  std::vector<float> af(M * K), bf(K * N);
  std::vector<std::uint16_t> a(M * K), b(K * N);
  for (int i = 0; i < M * K; ++i) a[i] = emu::float_to_half(af[i] = static_cast<float>(small(rng)));
  for (int i = 0; i < K * N; ++i) b[i] = emu::float_to_half(bf[i] = static_cast<float>(small(rng)));
  Gemm g(M, N, K, a, b);
  auto r = g.run(1, pad);
  ASSERT_TRUE(r) << r.error().render();
  for (const auto& d : r->diagnostics) ADD_FAILURE() << d.message;
  auto out = g.memory.bytes(g.c);
  int failures = 0;
  for (int i = 0; i < M && failures < 5; ++i)
    for (int j = 0; j < N && failures < 5; ++j) {
      float expect = 0;
      for (int kk = 0; kk < K; ++kk) expect += af[i * K + kk] * bf[kk * N + j];
      std::uint16_t got;
      std::memcpy(&got, out.data() + (static_cast<std::size_t>(i) * N + j) * 2, 2);
      if (emu::half_to_float(got) != expect) {
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << emu::half_to_float(got) << ", expected " << expect;
        ++failures;
      }
    }
}

TEST(WgmmaGemm, ComputesTheProduct) { check_product(-1); }
TEST(MmaGemm, ComputesTheProductPaddedOrNot) {
  check_product(1);
  check_product(0);
}

// corpus/tensor/wmma_gemm.cu (f16 and tf32, every skew) against the CPU.
TEST(WmmaGemm, ComputesTheProduct) {
  const int M = 64, N = 128, K = 64;
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> small(-3, 3);
  std::vector<float> af(M * K), bf(K * N);
  for (float& x : af) x = static_cast<float>(small(rng)) * 0.5f;
  for (float& x : bf) x = static_cast<float>(small(rng));
  for (bool tf32 : {false, true})
    for (int skew : {0, 8, 16}) {
      emu::GlobalMemory memory;
      std::vector<std::uint8_t> ab, bb;
      for (float x : af) {
        std::uint32_t v = tf32 ? std::bit_cast<std::uint32_t>(x) : emu::float_to_half(x);
        ab.insert(ab.end(), reinterpret_cast<std::uint8_t*>(&v), reinterpret_cast<std::uint8_t*>(&v) + (tf32 ? 4 : 2));
      }
      for (float x : bf) {
        std::uint32_t v = tf32 ? std::bit_cast<std::uint32_t>(x) : emu::float_to_half(x);
        bb.insert(bb.end(), reinterpret_cast<std::uint8_t*>(&v), reinterpret_cast<std::uint8_t*>(&v) + (tf32 ? 4 : 2));
      }
      const std::uint64_t a = memory.allocate(ab, "A"), b = memory.allocate(bb, "B"), c = memory.allocate(M * N * 4, "C");
      emu::RunOptions opt;
      opt.workers = 1;
      auto r = emu::run(corpus_module("wmma_gemm"), tf32 ? "wmma_gemm_tf32" : "wmma_gemm_f16", {{N / 64, M / 64, 1}, {128, 1, 1}},
                        {emu::KernelArg::of(a), emu::KernelArg::of(b), emu::KernelArg::of(c), emu::KernelArg::of(M),
                         emu::KernelArg::of(N), emu::KernelArg::of(K), emu::KernelArg::of(skew)},
                        memory, opt);
      ASSERT_TRUE(r) << r.error().render();
      for (const auto& d : r->diagnostics)
        if (d.severity == emu::Diagnostic::Severity::Error) ADD_FAILURE() << d.message;
      auto out = memory.bytes(c);
      int failures = 0;
      for (int i = 0; i < M && failures < 3; ++i)
        for (int j = 0; j < N && failures < 3; ++j) {
          float expect = 0;
          for (int kk = 0; kk < K; ++kk) expect += af[i * K + kk] * bf[kk * N + j];
          float got;
          std::memcpy(&got, out.data() + (static_cast<std::size_t>(i) * N + j) * 4, 4);
          if (got != expect) {
            ADD_FAILURE() << (tf32 ? "tf32" : "f16") << " skew " << skew << " C(" << i << ", " << j << ") = " << got
                          << ", expected " << expect;
            ++failures;
          }
        }
    }
}

// corpus/tensor/flash_attention.cu against softmax(Q K^T / 8) V computed here in double
// (P is rounded to f16 before P V, as on the GPU: a tolerance of 1/256 of the values).
TEST(FlashAttention, ComputesSoftmaxAttention) {
  const int N = 128, D = 64;
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> q(N * D), k(N * D), v(N * D);
  std::vector<std::uint16_t> qh(N * D), kh(N * D), vh(N * D);
  for (int i = 0; i < N * D; ++i) {
    qh[i] = emu::float_to_half(u(rng));
    kh[i] = emu::float_to_half(u(rng));
    vh[i] = emu::float_to_half(u(rng));
    q[i] = emu::half_to_float(qh[i]);
    k[i] = emu::half_to_float(kh[i]);
    v[i] = emu::half_to_float(vh[i]);
  }
  for (int pad : {1, 0}) {
    emu::GlobalMemory memory;
    auto buf = [&](const std::vector<std::uint16_t>& h) {
      std::vector<std::uint8_t> b(h.size() * 2);
      std::memcpy(b.data(), h.data(), b.size());
      return memory.allocate(b, "x");
    };
    const std::uint64_t dq = buf(qh), dk = buf(kh), dv = buf(vh), dout = memory.allocate(N * D * 2, "O");
    emu::RunOptions opt;
    opt.workers = 1;
    auto r = emu::run(corpus_module("flash_attention"), "flash_attention_fwd", {{N / 64, 1, 1}, {128, 1, 1}},
                      {emu::KernelArg::of(dq), emu::KernelArg::of(dk), emu::KernelArg::of(dv), emu::KernelArg::of(dout),
                       emu::KernelArg::of(N), emu::KernelArg::of(0.125f), emu::KernelArg::of(pad)},
                      memory, opt);
    ASSERT_TRUE(r) << r.error().render();
    for (const auto& d : r->diagnostics) ADD_FAILURE() << d.message;
    auto out = memory.bytes(dout);
    int failures = 0;
    for (int i = 0; i < N && failures < 5; ++i) {
      std::vector<double> p(N);
      double m = -1e30, sum = 0;
      for (int j = 0; j < N; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d) dot += double(q[i * D + d]) * k[j * D + d];
        p[j] = dot * 0.125;
        m = std::max(m, p[j]);
      }
      for (int j = 0; j < N; ++j) sum += p[j] = std::exp(p[j] - m);
      for (int d = 0; d < D && failures < 5; ++d) {
        double expect = 0;
        for (int j = 0; j < N; ++j) expect += p[j] / sum * v[j * D + d];
        std::uint16_t got;
        std::memcpy(&got, out.data() + (static_cast<std::size_t>(i) * D + d) * 2, 2);
        if (std::abs(emu::half_to_float(got) - expect) > 1.0 / 256) {
          ADD_FAILURE() << "pad " << pad << " O(" << i << ", " << d << ") = " << emu::half_to_float(got) << ", expected "
                        << expect;
          ++failures;
        }
      }
    }
  }
}

// Each warpgroup's wgmma reads A's 64 x 16 (16 core matrices) and B's 16 x 128 (32): 48
// wavefronts when no core matrix conflicts; four warp-level instructions.
TEST(WgmmaGemm, ReportCountsCoreMatricesAndWarpInstructions) {
  const int M = 256, N = 128, K = 256;
  Gemm g(M, N, K, {}, {});
  auto r = g.run(2);
  ASSERT_TRUE(r) << r.error().render();
  const KernelReport rep = build_kernel_report(gemm_module(), "wgmma_gemm_f16", {}, *r, r->blocks_run, {});
  const long long wgmmas = (M / 128) * (N / 128) * 2 * (K / 64) * 4;  // per warpgroup
  EXPECT_EQ(rep.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma"), wgmmas * 48);
  EXPECT_EQ(rep.metrics.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma"), 0);
  EXPECT_EQ(rep.metrics.at("smsp__sass_inst_executed_op_shared_gmma"), wgmmas * 4);
  // The Source page's column adds cp.async's shared writes (LDGSTS) to the wgmma reads.
  EXPECT_EQ(rep.metrics.at("L1 Wavefronts Shared"), wgmmas * 48 + rep.metrics.at(kLdgstsWavefronts));
  bool line = false;
  for (const LineReport& l : rep.lines)
    if (l.metrics.count("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma")) {
      line = true;
      EXPECT_EQ(l.metrics.at("smsp__sass_inst_executed_op_shared_gmma"), wgmmas * 4);
    }
  EXPECT_TRUE(line);
}

// The standard GEMM problem in seconds: 2^30 multiply-adds, 4096 wgmmas of m64n128k16 each
// warpgroup-instruction computed in f32 (bench/tensor_bench.cc measures it; README Speed).
TEST(WgmmaGemm, A1024CubedGemmEmulatesWithinItsBudget) {
#if !defined(NDEBUG) || defined(WARPSCOPE_SLOW_BUILD)
  GTEST_SKIP() << "timed in optimized builds only";
#else
  Gemm g(1024, 1024, 1024, {}, {});
  const auto start = std::chrono::steady_clock::now();
  auto r = g.run(2);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_FALSE(r->failed());
  EXPECT_LT(seconds, 20.0) << "a 1024^3 wgmma GEMM took " << seconds << " s (about 1 s on an idle 2-core machine)";
#endif
}

}  // namespace
}  // namespace warpscope::analysis
