// spec_table_test.cc: ptxlaunch reads every --arg of tests/data/arg_specs.txt as warpscope
// does (src/emu/arg_spec_test.cc checks the emulator's side of the same table): the same
// parameter bytes, the same buffer contents, the same specs rejected. No GPU: the bytes are
// made as FillArguments makes them, with made-up device addresses.
#include <gtest/gtest.h>

#include "launch_spec.h"
#include "ptx_entries.h"
#include "../../tests/arg_spec_table.h"

namespace ptxlaunch {
namespace {

TEST(PtxlaunchSpecTable, EveryRowGivesItsBytesOrIsRejected) {
  const auto rows = arg_spec_table::read(std::string(WARPSCOPE_TEST_DATA) + "/arg_specs.txt");
  ASSERT_GT(rows.size(), 60u);
  for (const auto& row : rows) {
    SCOPED_TRACE("arg_specs.txt:" + std::to_string(row.line) + ": " + row.spec);
    const std::vector<PtxEntry> entries = FindEntries(row.ptx());
    ASSERT_EQ(entries.size(), 1u);
    std::vector<unsigned char> param;
    std::vector<std::vector<unsigned char>> buffers;
    std::string error;
    try {
      const ArgSpec arg = ParseArgSpec(row.spec);
      CheckArguments(entries[0], {arg});
      std::vector<uint64_t> addresses;
      for (const BufferNeed& need : BuffersOf(arg)) {
        buffers.push_back(BufferBytes(*need.recipe, 1, 0, need.field, [](const std::string&) { return std::string(); }));
        addresses.push_back(0x7f0000000000ull + 0x100000ull * addresses.size());
      }
      param = ParamBytes(arg, addresses);
    } catch (const Error& e) {
      error = e.what();
    }
    if (row.reject) {
      EXPECT_FALSE(error.empty()) << "accepted";
      EXPECT_NE(error.find(row.message), std::string::npos) << error;
      continue;
    }
    ASSERT_TRUE(error.empty()) << error;
    EXPECT_TRUE(arg_spec_table::hex_matches(row.param_hex, arg_spec_table::hex(param.data(), param.size())))
        << arg_spec_table::hex(param.data(), param.size());
    ASSERT_EQ(buffers.size(), row.buffers.size());
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      const auto& want = row.buffers[b];
      ASSERT_EQ(buffers[b].size(), want.size);
      const std::string contents = arg_spec_table::hex(buffers[b].data(), buffers[b].size());
      if (want.kind == "hex") EXPECT_EQ(contents, want.hex);
      if (want.kind == "zero") EXPECT_EQ(contents, std::string(2 * want.size, '0'));
      if (want.kind == "default") EXPECT_NE(contents, std::string(2 * want.size, '0')) << "ptxlaunch fills buf:<size>";
    }
  }
}

}  // namespace
}  // namespace ptxlaunch
