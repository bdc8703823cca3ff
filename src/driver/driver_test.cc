// driver_test.cc: the library entry points without a process: a launch request in, the
// report out (the same figures `warpscope kernel` prints; measured on an H200).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "driver/analyze.h"
#include "driver/launch.h"
#include "driver/process.h"
#include "driver/toolchain.h"

namespace warpscope::driver {
namespace {

const std::string kTranspose = std::string(WARPSCOPE_SOURCE_DIR) + "/examples/transpose_tiled.ptx";

LaunchRequest transpose_request() {
  LaunchRequest r;
  r.file = kTranspose;
  r.kernel = "transpose_tiled_f32";
  r.grid = "16,16";
  r.block = "32,8";
  r.args = {"buf:1048576", "buf:1048576", "i32:512"};
  r.no_sass = true;
  return r;
}

TEST(Driver, AnalyzesAFileAndReportsTheH200Figures) {
  auto p = prepare_launch(transpose_request());
  ASSERT_TRUE(p) << p.error().render();
  std::uint64_t last_done = 0, calls = 0;
  auto a = analyze_kernel(**p, [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_EQ(total, 256u);
    EXPECT_GT(done, last_done);
    last_done = done;
    ++calls;
  });
  ASSERT_TRUE(a) << a.error().render();
  EXPECT_FALSE(a->failed);
  EXPECT_EQ(a->report.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), 262144);
  EXPECT_EQ(a->report.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"), 8192);
  EXPECT_EQ(a->report.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st"), 32768);
  EXPECT_EQ(last_done, 256u);
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(a->report.priced_from, "ptx");
}

TEST(Driver, TakesThePtxAsText) {
  std::ifstream in(kTranspose);
  std::ostringstream text;
  text << in.rdbuf();
  LaunchRequest r = transpose_request();
  r.file = "<text>";
  r.text = text.str();
  auto p = prepare_launch(r);
  ASSERT_TRUE(p) << p.error().render();
  auto a = analyze_kernel(**p);
  ASSERT_TRUE(a) << a.error().render();
  EXPECT_EQ(a->report.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), 262144);
}

TEST(Driver, BadRequestsAreErrorsNotExits) {
  LaunchRequest r = transpose_request();
  r.grid = "16,0";
  auto p = prepare_launch(r);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("--grid"), std::string::npos) << p.error().message;
  r = transpose_request();
  r.args.pop_back();
  p = prepare_launch(r);
  ASSERT_FALSE(p);
  r = transpose_request();
  r.file = "/nonexistent/k.ptx";
  p = prepare_launch(r);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message, "cannot read '/nonexistent/k.ptx'");
}

TEST(Driver, FixProvesTheLayoutByRunningAgain) {
  auto p = prepare_launch(transpose_request());
  ASSERT_TRUE(p) << p.error().render();
  int runs = 0;
  std::uint64_t last = 0;
  auto f = fix_kernel(**p, FixRequest{3, 28}, [&](std::uint64_t done, std::uint64_t) {
    if (done < last || last == 0) ++runs;
    last = done;
  });
  ASSERT_TRUE(f) << f.error().render();
  EXPECT_FALSE(f->failed);
  EXPECT_GE(runs, 2);  // the recording run and the proof run
  EXPECT_EQ(f->report.after.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), 8192);
}


// The Python binding passes plain numbers as num:<v>; each takes its parameter's type.
TEST(Driver, PlainNumbersTakeTheParameterType) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 n, .param .f32 a, .param .u64 m, .param .f64 d)
{ ret; }
)";
  LaunchRequest r;
  r.file = "<text>";
  r.text = ptx;
  r.no_sass = true;
  r.args = {"buf:64", "num:512", "num:2.5", "num:18446744073709551615", "num:3"};
  auto p = prepare_launch(r);
  ASSERT_TRUE(p) << p.error().render();
  EXPECT_EQ((*p)->request.args,
            (std::vector<std::string>{"buf:64", "i32:512", "f32:2.5", "u64:18446744073709551615", "f64:3"}));
  r.args = {"buf:64", "num:4294967295", "num:1", "num:-1", "num:0"};
  p = prepare_launch(r);
  ASSERT_TRUE(p) << p.error().render();
  EXPECT_EQ((*p)->request.args[1], "u32:4294967295");
  EXPECT_EQ((*p)->request.args[3], "i64:-1");
  r.args = {"buf:64", "num:1.5", "num:1", "num:0", "num:0"};  // a float for an integer parameter
  p = prepare_launch(r);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("'1.5': parameter 'n' is u32"), std::string::npos) << p.error().message;
}


// Triton's PTX targets sm_90a, which ptxas refuses to compile for sm_90: the toolchain asks
// for sm_90a then (fix's register count, and the SASS of a Triton kernel given as PTX).
TEST(Driver, CompilesPtxThatTargetsSm90a) {
  if (find_on_path("ptxas").empty() && !is_executable("/usr/local/cuda/bin/ptxas")) GTEST_SKIP() << "no ptxas";
  const std::string ptx = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k90a(.param .u64 p)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ret;
}
)";
  auto n = ptxas_registers(ptx, "sm_90", "k90a");
  ASSERT_TRUE(n) << n.error().message;
  EXPECT_GT(*n, 0);
}

}  // namespace
}  // namespace warpscope::driver
