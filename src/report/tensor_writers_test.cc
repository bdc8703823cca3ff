// tensor_writers_test.cc: wgmma's figures in the writers: the text report's wgmma column
// (only for kernels with wgmma reads) and the finding for a conflicted wgmma read.
#include <gtest/gtest.h>

#include "report/findings.h"
#include "report/kernel_text.h"
#include "report/test_report.h"

namespace warpscope::report {
namespace {

analysis::LineInstruction gmma(std::uint64_t wavefronts, std::uint64_t ideal, int degree) {
  analysis::LineInstruction i = testing::shared_load(wavefronts, ideal, degree, 0);
  i.text = "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16";
  i.cost.op = model::MemOp::Gmma;
  i.cost.worst_cost.op = model::MemOp::Gmma;
  i.cost.width = 4;
  i.cost.worst_access.op = model::MemOp::Gmma;
  i.cost.worst_access.width = 4;
  return i;
}

analysis::KernelReport with_gmma(std::uint64_t wavefronts, std::uint64_t ideal, int degree) {
  analysis::KernelReport r = testing::sample_report();
  analysis::LineReport l;
  l.file = "probe.cu";
  l.line = 135;
  l.instructions.push_back(gmma(wavefronts, ideal, degree));
  l.excess_wavefronts = wavefronts - ideal;
  l.conflict_degree = degree;
  l.worst = l.instructions.back();
  l.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma"] = static_cast<long long>(wavefronts);
  r.lines.push_back(l);
  r.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma"] = static_cast<long long>(wavefronts);
  r.metrics["smsp__sass_inst_executed_op_shared_gmma"] = 40;
  return r;
}

TEST(TensorWriters, TextHasAWgmmaColumnOnlyWithWgmmaReads) {
  const std::string plain = kernel_text(testing::sample_report());
  EXPECT_EQ(plain.find("wgmma"), std::string::npos);
  const std::string t = kernel_text(with_gmma(320, 320, 1));
  EXPECT_NE(t.find(" wgmma "), std::string::npos) << t;
  EXPECT_NE(t.find("320/320"), std::string::npos) << t;
  EXPECT_NE(t.find("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma"), std::string::npos);
  EXPECT_NE(t.find("smsp__sass_inst_executed_op_shared_gmma"), std::string::npos);
}

TEST(TensorWriters, AConflictedWgmmaReadIsAFinding) {
  const auto findings = find_flagged_lines(with_gmma(640, 320, 2));
  bool found = false;
  for (const Finding& f : findings)
    if (f.file == "probe.cu") {
      found = true;
      EXPECT_EQ(f.wavefronts, 640);
      EXPECT_NE(finding_message(f).find("wgmma's reads of"), std::string::npos) << finding_message(f);
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace warpscope::report
