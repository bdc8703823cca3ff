// kernel_names_test.cc: every writer names a template kernel demangled; the JSON and
// SARIF keep the PTX's mangled name beside it.
#include <gtest/gtest.h>

#include "analysis/cost_listener.h"
#include "analysis/kernel_report.h"
#include "emu/launch.h"
#include "ptx/parser.h"
#include "report/html_writer.h"
#include "report/kernel_json.h"
#include "report/kernel_text.h"
#include "report/sarif_writer.h"

namespace warpscope::report {
namespace {

constexpr const char* kMangled = "_Z16transpose_paddedIfEvPT_PKS0_i";
constexpr const char* kShown = "transpose_padded<float>(float*, float const*, int)";

analysis::KernelReport padded_transpose_report(const model::Arch& arch) {
  auto m = ptx::parse_file(std::string(WARPSCOPE_SOURCE_DIR) + "/examples/transpose_padded.ptx");
  EXPECT_TRUE(m) << m.error().render();
  emu::GlobalMemory memory;
  const auto out = memory.allocate(64 * 64 * 4, "out"), in = memory.allocate(64 * 64 * 4, "in");
  emu::LaunchConfig launch{{2, 2, 1}, {32, 8, 1}, 0};
  emu::RunOptions options;
  options.workers = 1;
  // Spelled as c++filt prints it; the run resolves it to the mangled entry.
  auto run = emu::run(*m, "void transpose_padded<float>(float*, float const*, int)", launch,
                      {emu::KernelArg::of(out), emu::KernelArg::of(in), emu::KernelArg::of(64)}, memory, options,
                      [&arch] { return std::make_unique<analysis::CostListener>(arch); });
  EXPECT_TRUE(run) << run.error().message;
  return analysis::build_kernel_report(*m, kMangled, launch, *run, 4, [](const std::string&) {
    return std::vector<std::string>{};
  });
}

TEST(KernelNames, WritersPrintTheDemangledName) {
  auto arch = model::find_arch("sm_90");
  ASSERT_TRUE(arch);
  const analysis::KernelReport r = padded_transpose_report(**arch);
  EXPECT_EQ(r.kernel, kShown);
  EXPECT_EQ(r.kernel_symbol, kMangled);
  const std::string text = kernel_text(r);
  EXPECT_NE(text.find(kShown), std::string::npos) << text;
  EXPECT_EQ(text.find(kMangled), std::string::npos) << text;
  const nlohmann::json json = kernel_json(r);
  EXPECT_EQ(json["kernel"], kShown);
  EXPECT_EQ(json["kernel_symbol"], kMangled);
  const nlohmann::json sarif = kernel_sarif(r);
  EXPECT_EQ(sarif["runs"][0]["properties"]["kernel"], kShown);
  EXPECT_EQ(sarif["runs"][0]["properties"]["kernel_symbol"], kMangled);
  const std::string html = kernel_html(r, **arch);
  EXPECT_NE(html.find("transpose_padded&lt;float&gt;"), std::string::npos);
  EXPECT_EQ(html.find(kMangled), std::string::npos);
}

}  // namespace
}  // namespace warpscope::report
