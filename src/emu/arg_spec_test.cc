// arg_spec_test.cc: the --arg grammar: the table both tools share (tests/data/arg_specs.txt),
// and what only the emulator's side does (the buffer budget, checking without allocating).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

#include "emu/args.h"
#include "emu/lanes.h"
#include "ptx/parser.h"
#include "../../tests/arg_spec_table.h"

namespace warpscope::emu {
namespace {

TEST(ArgSpecTable, EveryRowGivesItsBytesOrIsRejected) {
  const auto rows = arg_spec_table::read(std::string(WARPSCOPE_TEST_DATA) + "/arg_specs.txt");
  ASSERT_GT(rows.size(), 60u);
  for (const auto& row : rows) {
    SCOPED_TRACE("arg_specs.txt:" + std::to_string(row.line) + ": " + row.spec);
    auto module = ptx::parse(row.ptx(), "k.ptx");
    ASSERT_TRUE(module) << module.error().render();
    GlobalMemory memory;
    auto args = make_arguments(*module, 0, {row.spec}, memory);
    if (row.reject) {
      ASSERT_FALSE(args);
      EXPECT_NE(args.error().message.find(row.message), std::string::npos) << args.error().message;
      EXPECT_TRUE(args.error().usage());
      continue;
    }
    ASSERT_TRUE(args) << args.error().message;
    const auto& bytes = args->values.at(0).bytes;
    EXPECT_TRUE(arg_spec_table::hex_matches(row.param_hex, arg_spec_table::hex(bytes.data(), bytes.size())))
        << arg_spec_table::hex(bytes.data(), bytes.size());
    ASSERT_EQ(memory.buffers().size(), row.buffers.size());
    for (std::size_t b = 0; b < row.buffers.size(); ++b) {
      const auto& want = row.buffers[b];
      const Buffer& got = *memory.buffers()[b];
      ASSERT_EQ(got.size, want.size);
      const std::string contents = arg_spec_table::hex(got.bytes.get(), got.size);
      if (want.kind == "hex") EXPECT_EQ(contents, want.hex);
      else EXPECT_EQ(contents, std::string(2 * want.size, '0')) << "warpscope zeroes buf:<size>";
      // The parameter holds the buffer's address (a struct: at its field's offset).
      std::uint64_t base = got.base;
      EXPECT_NE(std::search(bytes.begin(), bytes.end(), reinterpret_cast<const std::uint8_t*>(&base),
                            reinterpret_cast<const std::uint8_t*>(&base) + 8),
                bytes.end());
    }
  }
}

TEST(ArgSpec, SizesTakePowersOf1024) {
  std::uint64_t v = 0;
  ASSERT_TRUE(parse_size("256K", v));
  EXPECT_EQ(v, 262144u);
  ASSERT_TRUE(parse_size("4M", v));
  EXPECT_EQ(v, 4194304u);
  ASSERT_TRUE(parse_size("1G", v));
  EXPECT_EQ(v, 1073741824u);
  ASSERT_TRUE(parse_size("0x100", v));
  EXPECT_EQ(v, 256u);
  EXPECT_FALSE(parse_size("16777216T", v));  // 2^64: overflows
  EXPECT_FALSE(parse_size("-1", v));
  EXPECT_FALSE(parse_size("1.5M", v));
  EXPECT_FALSE(parse_size("K", v));
}

TEST(ArgSpec, StructFieldsTakeTheirNaturalAlignment) {
  ArgSpec s;
  std::string error;
  ASSERT_TRUE(parse_arg_spec("struct:u8:1,i16:2,f64:3,u8:4", s, error)) << error;
  EXPECT_EQ(s.offsets, (std::vector<std::uint64_t>{0, 2, 8, 16}));
  EXPECT_EQ(s.size, 24u);
  EXPECT_EQ(s.align, 8u);
}

// The grammar's own half and bfloat16 rounding (ptxlaunch cannot use the emulator's) agrees
// with the emulator's on random floats and on every tie and edge we can name.
TEST(ArgSpec, HalfAndBfloat16RoundAsTheEmulatorDoes) {
  std::mt19937 rng(7);
  std::vector<float> values{0.0f, -0.0f, 1.0f, 65504.0f, 65519.0f, 65520.0f, 1e-8f, 5.96e-8f, 2.98e-8f, 6.1e-5f,
                            3.0e38f, -1.5f, std::nanf(""), INFINITY, -INFINITY, 1.0009765625f, 1.00048828125f};
  for (int i = 0; i < 100000; ++i) {
    std::uint32_t bits = static_cast<std::uint32_t>(rng());
    float f;
    std::memcpy(&f, &bits, 4);
    values.push_back(f);
  }
  for (float f : values) {
    if (std::isnan(f)) {
      EXPECT_EQ(half_bits_of(f) & 0x7c00u, 0x7c00u);
      EXPECT_NE(half_bits_of(f) & 0x3ffu, 0u);
      continue;
    }
    EXPECT_EQ(half_bits_of(f), float_to_half(f)) << f;
    EXPECT_EQ(bfloat16_bits_of(f), float_to_bf16(f)) << f;
  }
}

std::unique_ptr<ptx::Module> module_of(const std::string& params) {
  auto m = ptx::parse(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(" + params + ")\n{\nret;\n}\n",
                      "k.ptx");
  EXPECT_TRUE(m) << m.error().render();
  return std::make_unique<ptx::Module>(std::move(*m));
}

TEST(Arguments, BuffersBeyondTheBudgetAreRefusedBeforeAnythingIsAllocated) {
  auto m = module_of(".param .u64 a, .param .u64 b");
  GlobalMemory memory;
  auto huge = make_arguments(*m, 0, {"buf:18446744073709551615", "buf:1"}, memory);
  ASSERT_FALSE(huge);
  EXPECT_TRUE(huge.error().usage());
  EXPECT_NE(huge.error().message.find("argument 1 'buf:18446744073709551615': a buffer of 18446744073709551615 bytes "
                                      "(16 EiB) is more than warpscope allows: the buffers of one launch hold at "
                                      "most 16 GiB in all"),
            std::string::npos)
      << huge.error().message;
  EXPECT_TRUE(memory.buffers().empty());
  // The budget is for all buffers together.
  auto two = make_arguments(*m, 0, {"buf:12G", "buf:5G"}, memory);
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().message.find("argument 2 'buf:5G': a buffer of 5368709120 bytes (5 GiB) after 12 GiB of other "
                                     "buffers"),
            std::string::npos)
      << two.error().message;
  EXPECT_TRUE(check_arguments(*m, 0, {"buf:8G", "buf:8G"}));
  EXPECT_FALSE(check_arguments(*m, 0, {"buf:8G", "buf:9G"}));
}

TEST(Arguments, CheckingAllocatesNothing) {
  auto m = module_of(".param .u64 a");
  // Filling 8 GiB takes seconds (and the memory): a check that allocated could not be this fast.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(check_arguments(*m, 0, {"fill:8G:f32:1.5"}));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.5);
  const auto read_nothing = [](const std::string& p) -> Expected<std::vector<std::uint8_t>> {
    return make_error("cannot read '" + p + "'");
  };
  auto file = check_arguments(*m, 0, {"file:/nonexistent"}, read_nothing);
  ASSERT_FALSE(file);
  EXPECT_FALSE(file.error().usage());  // an unreadable file is an input error
}

TEST(Arguments, StructPointerFieldsNameTheirBuffers) {
  auto m = module_of(".param .align 8 .b8 p[24]");
  GlobalMemory memory;
  auto args = make_arguments(*m, 0, {"struct:buf:64,iota:4:u32,i32:9"}, memory);
  ASSERT_TRUE(args) << args.error().message;
  ASSERT_EQ(memory.buffers().size(), 2u);
  EXPECT_EQ(memory.buffers()[0]->name, "arg0.0");
  EXPECT_EQ(memory.buffers()[1]->name, "arg0.1");
  std::uint64_t second = 0;
  std::memcpy(&second, args->values[0].bytes.data() + 8, 8);
  EXPECT_EQ(second, memory.buffers()[1]->base);
}

}  // namespace
}  // namespace warpscope::emu

namespace warpscope::emu {
namespace {

// Every kind of value reaches the kernel: tests/data/args/params.cu writes each parameter
// to out[] as a double.
TEST(Arguments, EveryKindReachesTheKernel) {
  auto text = read_file(std::string(WARPSCOPE_TEST_DATA) + "/args/params.ptx");
  ASSERT_TRUE(text);
  auto module = ptx::parse(std::string(text->begin(), text->end()), "params.ptx");
  ASSERT_TRUE(module) << module.error().render();
  GlobalMemory memory;
  auto args = make_arguments(*module, 0,
                             {"bool:true", "i8:-3", "u8:200", "i16:-300", "u16:60000", "f16:1.5", "bf16:-2.5",
                              "struct:i32:4,f32:0.25,iota:4:f64:10:0.5,i16:-7", "fill:88:f64:0"},
                             memory);
  ASSERT_TRUE(args) << args.error().message;
  auto run_report = run(*module, "params", {{1, 1, 1}, {32, 1, 1}, 0}, args->values, memory);
  ASSERT_TRUE(run_report) << run_report.error().render();
  ASSERT_FALSE(run_report->failed()) << run_report->diagnostics.front().message;
  const auto out = memory.bytes(args->buffers[8]);
  ASSERT_EQ(out.size(), 88u);
  std::vector<double> got(11);
  std::memcpy(got.data(), out.data(), 88);
  // data = {10, 10.5, 11, 11.5}: data[0] + data[count - 1] = 21.5
  EXPECT_EQ(got, (std::vector<double>{1, -3, 200, -300, 60000, 1.5, -2.5, 4, 0.25, 21.5, -7}));
}

}  // namespace
}  // namespace warpscope::emu
