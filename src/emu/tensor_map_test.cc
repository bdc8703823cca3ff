// tensor_map_test.cc: `tmap:` specs, the driver's checks, the 128-byte encoding, and the
// TMA box geometry (swizzles, out-of-bounds rows and columns, sectors).
#include <gtest/gtest.h>

#include <set>

#include "emu/args.h"
#include "emu/tensor_box.h"
#include "emu/tensor_map.h"
#include "emu/tensor_map_spec.h"
#include "ptx/parser.h"

namespace warpscope::emu {
namespace {

tmap::TensorMapSpec parse_ok(const std::string& text) {
  tmap::TensorMapSpec s;
  std::string why;
  EXPECT_TRUE(tmap::parse_tensor_map_spec(text, s, why)) << why;
  return s;
}

std::string parse_error(const std::string& text) {
  tmap::TensorMapSpec s;
  std::string why;
  if (!tmap::parse_tensor_map_spec(text, s, why)) return why;
  s.fields.address = 0x700000000ull;
  if (!tmap::check_tensor_map(s.fields, why)) return why;
  return "";
}

TEST(TensorMapSpec, TheIssuesExample) {
  auto s = parse_ok("tmap:buf:1048576,dtype=f16,dims=64x8192,strides=128,box=64x128,swizzle=128B");
  EXPECT_EQ(s.buffer, "buf:1048576");
  EXPECT_EQ(s.fields.dtype, tmap::DataType::F16);
  EXPECT_EQ(s.fields.rank, 2);
  EXPECT_EQ(s.fields.dims[0], 64u);
  EXPECT_EQ(s.fields.dims[1], 8192u);
  EXPECT_EQ(s.fields.strides[0], 128u);
  EXPECT_EQ(s.fields.box[1], 128u);
  EXPECT_EQ(s.fields.swizzle, tmap::Swizzle::B128);
  EXPECT_EQ(parse_error("tmap:buf:1048576,dtype=f16,dims=64x8192,strides=128,box=64x128,swizzle=128B"), "");
  auto f = parse_ok("tmap:file:a.bin,dtype=f32,dims=8x4x2,strides=32x128,box=8x4x2,swizzle=none,elemstrides=1x2x1,fill=nan");
  EXPECT_EQ(f.buffer, "file:a.bin");
  EXPECT_EQ(f.fields.elem_strides[1], 2u);
  EXPECT_EQ(f.fields.fill, tmap::Fill::NaN);
}

TEST(TensorMapSpec, ErrorsSayWhatIsWrong) {
  const std::string base = "tmap:buf:4096,dtype=f16,dims=64x64,strides=128,";
  EXPECT_NE(parse_error("tmap:dtype=f16").find("the tensor's memory comes first, as a buffer spec"), std::string::npos);
  EXPECT_NE(parse_error(base + "box=64x64,swizzle=16B").find("swizzle '16B' is not one of none, 32B, 64B, 128B"),
            std::string::npos);
  EXPECT_NE(parse_error(base + "box=64x64").find("missing swizzle="), std::string::npos);
  EXPECT_NE(parse_error("tmap:buf:4096,dtype=f8,dims=64,box=64,swizzle=none").find("dtype 'f8'"), std::string::npos);
  EXPECT_NE(parse_error("tmap:buf:4096,dtype=f16,dims=64x64,box=64x64,swizzle=none").find("strides gives the byte strides"),
            std::string::npos);
  EXPECT_NE(parse_error(base + "box=64x64,swizzle=64B").find("128 bytes, more than the 64B swizzle's span of 64 bytes"),
            std::string::npos);
  EXPECT_NE(parse_error(base + "box=4x64,swizzle=none").find("8 bytes, not a multiple of 16"), std::string::npos);
  EXPECT_NE(parse_error(base + "box=64x512,swizzle=128B").find("box sizes are 1 to 256"), std::string::npos);
  EXPECT_NE(parse_error("tmap:buf:4096,dtype=f16,dims=64x64,strides=120,box=64x64,swizzle=128B").find("multiples of 16"),
            std::string::npos);
  EXPECT_NE(parse_error(base + "box=64x64,swizzle=128B,elemstrides=1x9").find("element strides are 1 to 8"),
            std::string::npos);
  EXPECT_NE(parse_error("tmap:buf:4096,dtype=u32,dims=64x64,strides=256,box=32x64,swizzle=128B,fill=nan").find("fill=nan needs"),
            std::string::npos);
  EXPECT_NE(parse_error(base + "box=64x64,swizzle=128B,interleave=16B").find("needs rank 3"), std::string::npos);
  EXPECT_NE(parse_error(base + "box=64x64,swizzle=128B,colour=red").find("unknown key 'colour'"), std::string::npos);
  tmap::TensorMapFields misaligned;
  misaligned.address = 0x700000008ull;
  misaligned.box[0] = 16;
  std::string why;
  EXPECT_FALSE(tmap::check_tensor_map(misaligned, why));
  EXPECT_NE(why.find("is not 16-byte aligned"), std::string::npos) << why;
}

TEST(TensorMap, ArgumentsAreCheckedAgainstTheirBuffer) {
  const char* src = ".version 8.7\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 k_param_1)\n{\n\tret;\n}\n";
  auto m = ptx::parse(src, "k.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto ok = make_arguments(*m, 0, {"tmap:buf:16384,dtype=f16,dims=64x128,strides=128,box=64x64,swizzle=128B", "buf:8"}, memory);
  ASSERT_TRUE(ok) << ok.error().render();
  EXPECT_EQ(ok->values[0].bytes.size(), 128u);
  EXPECT_EQ(decode_tensor_map(ok->values[0].bytes.data()).address, ok->buffers[0]);
  auto small = make_arguments(*m, 0, {"tmap:buf:16000,dtype=f16,dims=64x128,strides=128,box=64x64,swizzle=128B", "buf:8"}, memory);
  ASSERT_FALSE(small);
  EXPECT_NE(small.error().message.find("ends at byte 16384, past the end of its buffer (16000 bytes)"), std::string::npos)
      << small.error().message;
  auto scalar = make_arguments(*m, 0, {"buf:8", "tmap:buf:16384,dtype=f16,dims=64,box=64,swizzle=none"}, memory);
  ASSERT_FALSE(scalar);
  auto pointer = make_arguments(*m, 0, {"buf:8", "buf:8"}, memory);
  ASSERT_FALSE(pointer);
  auto wrong = make_arguments(*m, 0, {"tmap:buf:16384,dtype=f16,dims=64,box=64,swizzle=none", "tmap:buf:8,dtype=u8,dims=8,box=16,swizzle=none"}, memory);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("a tensor map goes to a 128-byte parameter"), std::string::npos) << wrong.error().message;
}

TEST(TensorMap, EncodingRoundTripsAndMatchesFieldReplacement) {
  auto s = parse_ok("tmap:buf:1,dtype=bf16,dims=100x50x3,strides=208x10400,box=64x8x2,swizzle=128B,elemstrides=1x1x2");
  s.fields.address = 0x700001000ull;
  TensorMapBytes bytes = encode_tensor_map(s.fields);
  tmap::TensorMapFields d = decode_tensor_map(bytes.data());
  EXPECT_EQ(d.rank, 3);
  EXPECT_EQ(d.dims[0], 100u);
  EXPECT_EQ(d.strides[1], 10400u);
  EXPECT_EQ(d.box[2], 2u);
  EXPECT_EQ(d.elem_strides[2], 2u);
  EXPECT_EQ(d.dtype, tmap::DataType::BF16);
  // The same map built field by field on zeroed bytes, as Triton's device-side code does
  // (rank as rank - 1, enum values as the driver's but the element type's, which is PTX's:
  // bf16 is 10, f64 9, f32.ftz 8).
  TensorMapBytes built{};
  std::string why;
  using F = ptx::async::MapField;
  ASSERT_TRUE(replace_tensor_map_field(built.data(), F::GlobalAddress, 0, 0x700001000ull, why));
  ASSERT_TRUE(replace_tensor_map_field(built.data(), F::Rank, 0, 2, why));
  ASSERT_TRUE(replace_tensor_map_field(built.data(), F::ElemType, 0, 10, why));
  ASSERT_TRUE(replace_tensor_map_field(built.data(), F::SwizzleMode, 0, 3, why));
  const std::uint32_t dims[] = {100, 50, 3}, box[] = {64, 8, 2}, es[] = {1, 1, 2};
  for (std::uint32_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(replace_tensor_map_field(built.data(), F::GlobalDim, i, dims[i], why));
    ASSERT_TRUE(replace_tensor_map_field(built.data(), F::BoxDim, i, box[i], why));
    ASSERT_TRUE(replace_tensor_map_field(built.data(), F::ElementStride, i, es[i], why));
  }
  ASSERT_TRUE(replace_tensor_map_field(built.data(), F::GlobalStride, 0, 208, why));
  ASSERT_TRUE(replace_tensor_map_field(built.data(), F::GlobalStride, 1, 10400, why));
  EXPECT_EQ(built, bytes);
  EXPECT_FALSE(replace_tensor_map_field(built.data(), F::GlobalStride, 4, 1, why));
}

// tensormap.replace.tile.elemtype takes PTX's numbers (Triton writes 0xa for bf16), which the
// 128 bytes hold as the driver's: every one that differs.
TEST(TensorMap, ElementTypesAreReplacedByTheirPtxNumbers) {
  using F = ptx::async::MapField;
  const std::pair<std::uint32_t, tmap::DataType> cases[] = {{6, tmap::DataType::F16},    {7, tmap::DataType::F32},
                                                            {8, tmap::DataType::F32Ftz}, {9, tmap::DataType::F64},
                                                            {10, tmap::DataType::BF16},  {11, tmap::DataType::TF32}};
  for (const auto& [ptx_value, type] : cases) {
    TensorMapBytes b{};
    std::string why;
    ASSERT_TRUE(replace_tensor_map_field(b.data(), F::ElemType, 0, ptx_value, why));
    EXPECT_EQ(decode_tensor_map(b.data()).dtype, type) << ptx_value;
  }
}

// The swizzles as the CUDA programming guide tabulates them: rows of 16-byte chunks
// (a row is the swizzle's span), chunk c of row r stored at chunk c ^ f(r).
TEST(TensorBox, SwizzlesAreTheHardwarePatterns) {
  struct Mode {
    tmap::Swizzle s;
    int span;
    int (*f)(int row);
  };
  const Mode modes[] = {
      {tmap::Swizzle::B128, 128, [](int r) { return r % 8; }},
      {tmap::Swizzle::B64, 64, [](int r) { return (r / 2) % 4; }},
      {tmap::Swizzle::B32, 32, [](int r) { return (r / 4) % 2; }},
      {tmap::Swizzle::None, 128, [](int) { return 0; }},
  };
  for (const Mode& m : modes) {
    const int chunks = m.span / 16;
    std::set<std::uint32_t> seen;
    for (int row = 0; row < 64; ++row)
      for (int c = 0; c < chunks; ++c) {
        const auto linear = static_cast<std::uint32_t>(row * m.span + c * 16);
        const auto expected = static_cast<std::uint32_t>(row * m.span + (c ^ m.f(row)) * 16);
        ASSERT_EQ(swizzle_address(linear, m.s), expected) << tmap::swizzle_name(m.s) << " row " << row << " chunk " << c;
        ASSERT_EQ(swizzle_address(expected, m.s), linear);  // an involution
        for (std::uint32_t b = 1; b < 16; ++b) ASSERT_EQ(swizzle_address(linear + b, m.s), expected + b);
        seen.insert(expected);
      }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(64 * chunks));  // a bijection
  }
}

TEST(TensorBox, OutOfBoundsRowsAndColumns) {
  auto s = parse_ok("tmap:buf:1,dtype=u32,dims=60x50,strides=240,box=32x8,swizzle=128B");
  s.fields.address = 0x700000000ull;
  const BoxShape shape = box_shape(s.fields);
  EXPECT_EQ(shape.row_bytes, 128u);
  EXPECT_EQ(shape.rows, 8u);
  const std::int32_t at[] = {-8, 46};
  std::vector<BoxRow> rows = box_rows(s.fields, shape, at);
  ASSERT_EQ(rows.size(), 8u);
  for (int r = 0; r < 8; ++r) {
    const bool inside = 46 + r < 50;
    EXPECT_EQ(rows[static_cast<std::size_t>(r)].lo, inside ? 8u : 0u) << r;
    EXPECT_EQ(rows[static_cast<std::size_t>(r)].hi, inside ? 32u : 0u) << r;
    if (inside) EXPECT_EQ(rows[static_cast<std::size_t>(r)].global, 0x700000000ull + (46u + r) * 240u);
  }
  // Each of the 4 in-bounds rows: 24 u32 = 96 bytes from a row start (240 r: 16 mod 32 for odd rows).
  EXPECT_EQ(box_sectors(rows, 4), 3u + 4u + 3u + 4u);
  EXPECT_EQ(box_ideal_sectors(rows, 4), 4u * 3u);
  // A load reads the out-of-bounds bytes too, as dense sectors: 8 columns (32 bytes) of each
  // in-bounds row, the whole 128 bytes of each row below the tensor.
  EXPECT_EQ(box_load_sectors(rows, shape), (3u + 4u + 3u + 4u) + 4u * 1u + 4u * 4u);
  const std::int32_t right[] = {48, 0};  // columns 48..79: 12 inside
  rows = box_rows(s.fields, shape, right);
  EXPECT_EQ(rows[0].lo, 0u);
  EXPECT_EQ(rows[0].hi, 12u);
}

TEST(TensorBox, ElementStridesSkipRows) {
  auto s = parse_ok("tmap:buf:1,dtype=f16,dims=64x64,strides=128,box=64x8,swizzle=none,elemstrides=1x2");
  s.fields.address = 0x700000000ull;
  const BoxShape shape = box_shape(s.fields);
  EXPECT_EQ(shape.rows, 4u);
  const std::int32_t at[] = {0, 10};
  std::vector<BoxRow> rows = box_rows(s.fields, shape, at);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(rows[static_cast<std::size_t>(r)].global, 0x700000000ull + (10u + 2u * r) * 128u);
}

TEST(TensorBox, RowsThatShareASectorCountApart) {
  // 48-byte rows packed back to back: 8 rows touch 12 distinct sectors, each row 2.
  auto s = parse_ok("tmap:buf:1,dtype=u32,dims=12x64,strides=48,box=12x8,swizzle=none");
  s.fields.address = 0x700000000ull;
  const std::int32_t at[] = {0, 0};
  EXPECT_EQ(box_sectors(box_rows(s.fields, box_shape(s.fields), at), 4), 16u);
}

}  // namespace
}  // namespace warpscope::emu
