// examples_test.cc: every launch in examples/launches.txt runs without a diagnostic, and
// `--arg` specs are checked against the kernel's parameters.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "emu/args.h"
#include "emu/program.h"
#include "ptx/parser.h"

namespace warpscope::emu {
namespace {

const std::string kRoot = std::string(WARPSCOPE_TEST_DATA) + "/../..";

Dim3 parse_dim(const std::string& s) {
  Dim3 d;
  std::uint32_t v[3] = {1, 1, 1};
  std::stringstream in(s);
  std::string part;
  for (int i = 0; i < 3 && std::getline(in, part, ','); ++i) v[i] = static_cast<std::uint32_t>(std::stoul(part));
  d.x = v[0];
  d.y = v[1];
  d.z = v[2];
  return d;
}

TEST(Examples, EveryLaunchRunsClean) {
  std::ifstream launches(kRoot + "/examples/launches.txt");
  if (!launches) GTEST_SKIP() << "no examples/launches.txt";
  std::string line;
  int count = 0;
  while (std::getline(launches, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream words(line);
    std::string name, ptx_path, w, kernel;
    words >> name >> ptx_path;
    LaunchConfig config;
    std::vector<std::string> specs;
    while (words >> w) {
      std::string v;
      words >> v;
      if (w == "--kernel") kernel = v;
      if (w == "--grid") config.grid = parse_dim(v);
      if (w == "--block") config.block = parse_dim(v);
      if (w == "--dyn-smem") config.dynamic_shared_bytes = static_cast<std::uint32_t>(std::stoul(v));
      if (w == "--arg") {
        if (v.rfind("file:", 0) == 0) v = "file:" + kRoot + "/" + v.substr(5);
        specs.push_back(v);
      }
    }
    SCOPED_TRACE(name);
    auto module = ptx::parse_file(kRoot + "/" + ptx_path);
    ASSERT_TRUE(module) << module.error().render();
    auto k = find_kernel(*module, kernel);
    ASSERT_TRUE(k) << k.error().message;
    GlobalMemory memory;
    auto args = make_arguments(*module, *k, specs, memory);
    ASSERT_TRUE(args) << args.error().message;
    auto report = run(*module, kernel, config, args->values, memory);
    ASSERT_TRUE(report) << report.error().render();
    for (const auto& d : report->diagnostics) ADD_FAILURE() << name << ": " << d.message;
    EXPECT_EQ(report->blocks_run, config.grid.count());
    ++count;
  }
  EXPECT_GT(count, 10);
}

TEST(Arguments, SpecsAreCheckedAgainstParameters) {
  auto m = ptx::parse(".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1, .param .f32 k_param_2)\n{\nret;\n}\n",
                      "k.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto ok = make_arguments(*m, 0, {"buf:64", "i32:-3", "f32:1.5"}, memory);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(memory.buffers().size(), 1u);
  EXPECT_EQ(memory.buffers()[0]->name, "arg0");
  EXPECT_EQ(ok->values[1].bytes, (std::vector<std::uint8_t>{0xfd, 0xff, 0xff, 0xff}));
  auto count = make_arguments(*m, 0, {"buf:64"}, memory);
  ASSERT_FALSE(count);
  EXPECT_EQ(count.error().message, "1 arguments given; kernel 'k' takes u64 k_param_0, u32 k_param_1, f32 k_param_2");
  auto kind = make_arguments(*m, 0, {"i32:1", "i32:1", "f32:1"}, memory);
  ASSERT_FALSE(kind);
  EXPECT_EQ(kind.error().message,
            "argument 1 'i32:1': parameter 'k_param_0' is u64; kernel 'k' takes u64 k_param_0, u32 k_param_1, f32 k_param_2");
  auto buf = make_arguments(*m, 0, {"buf:8", "buf:8", "f32:1"}, memory);
  ASSERT_FALSE(buf);
  auto file = make_arguments(*m, 0, {"file:/nonexistent", "u32:1", "f32:1"}, memory);
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().message.find("cannot read '/nonexistent'"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::emu
