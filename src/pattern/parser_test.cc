// parser_test.cc: program structure, array layout, and parse errors with their columns.
#include "pattern/parser.h"

#include <gtest/gtest.h>

namespace warpscope::pattern {
namespace {

Program parsed(const std::string& text) {
  auto p = parse(Source("p.ws", text));
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().render());
  return p.ok() ? std::move(*p) : Program{};
}

TEST(Parser, SeedExampleStructure) {
  Program p = parsed(
      "# transpose tile read column-wise\n"
      "block 32 8\n"
      "shared float tile[32][33]\n"
      "load tile[tx][ty]            # padded: conflict-free\n");
  EXPECT_EQ(p.block.x, 32);
  EXPECT_EQ(p.block.y, 8);
  EXPECT_EQ(p.block.z, 1);
  ASSERT_EQ(p.arrays.size(), 1u);
  EXPECT_EQ(p.arrays[0].name, "tile");
  EXPECT_EQ(p.arrays[0].type.bytes, 4);
  EXPECT_EQ(p.arrays[0].dims, (std::vector<std::int64_t>{32, 33}));
  EXPECT_EQ(p.arrays[0].bytes, 32u * 33u * 4u);
  ASSERT_EQ(p.accesses.size(), 1u);
  const Access& a = p.accesses[0];
  EXPECT_EQ(a.op, model::MemOp::SharedLoad);
  EXPECT_EQ(a.indices.size(), 2u);
  EXPECT_EQ(a.text, "load tile[tx][ty]");
  EXPECT_EQ(a.at.line, 4);
  EXPECT_EQ(a.index_at[1].column, 15);
}

TEST(Parser, OneLinePerSeedWithSemicolons) {
  Program p = parsed("shared double d[64]; load d[lane]; shared float4 v[64]; load v[lane]; shared char c[128]; load c[lane]");
  ASSERT_EQ(p.accesses.size(), 3u);
  EXPECT_EQ(p.accesses[1].text, "load v[lane]");
  EXPECT_EQ(p.arrays[1].type.bytes, 16);
}

TEST(Parser, LayoutAlignsSharedTo16AndGlobalTo256) {
  Program p = parsed(
      "shared char a[3]\nshared float b[5]\nshared double c[1] at 4096\nshared int d[1]\n"
      "global float g[3]\nglobal float h[3]\nglobal float m[4] at 4\n");
  EXPECT_EQ(p.arrays[0].base, 0u);
  EXPECT_EQ(p.arrays[1].base, 16u);
  EXPECT_EQ(p.arrays[2].base, 4096u);
  EXPECT_EQ(p.arrays[3].base, 4112u);  // after the furthest end so far
  EXPECT_EQ(p.arrays[4].base, 0u);
  EXPECT_EQ(p.arrays[5].base, 256u);
  EXPECT_EQ(p.arrays[6].base, 4u);
}

TEST(Parser, LoopsMaskPredicateAndOps) {
  Program p = parsed(
      "shared half t[64][64]\nfor k in 0..8 step 2\nmask 0x0000ffff\nstore t[k][lane] if tx < 16\n"
      "for j in -2..2\natomic t[0][j + 2]\natomic_agg t[0][0]\nldmatrix.x4 t[lane][0]\n");
  ASSERT_EQ(p.loops.size(), 2u);
  EXPECT_EQ(p.loops[0].trip_count(), 4);
  EXPECT_EQ(p.loops[1].begin, -2);
  EXPECT_EQ(p.loops[1].trip_count(), 4);
  ASSERT_EQ(p.accesses.size(), 4u);
  EXPECT_EQ(p.accesses[0].op, model::MemOp::SharedStore);
  EXPECT_EQ(p.accesses[0].mask, 0x0000ffffu);
  EXPECT_TRUE(p.accesses[0].predicate.has_value());
  EXPECT_EQ(p.accesses[0].loops, 1);
  EXPECT_EQ(p.accesses[1].op, model::MemOp::SharedAtomic);
  EXPECT_EQ(p.accesses[1].loops, 2);
  EXPECT_EQ(p.accesses[2].op, model::MemOp::SharedAtomicAggregated);
  EXPECT_EQ(p.accesses[3].op, model::MemOp::LdMatrix);
  EXPECT_EQ(p.accesses[3].matrices, 4);
}

TEST(Parser, GlobalOps) {
  Program p = parsed("global float a[64]\nload a[lane]\nstore a[lane]\natomic a[0]\natomic_agg a[1]");
  EXPECT_EQ(p.accesses[0].op, model::MemOp::GlobalLoad);
  EXPECT_EQ(p.accesses[1].op, model::MemOp::GlobalStore);
  EXPECT_EQ(p.accesses[2].op, model::MemOp::GlobalAtomic);
  EXPECT_EQ(p.accesses[3].op, model::MemOp::GlobalReduction);
}

TEST(Parser, DefaultBlockIsOneWarp) {
  Program p = parsed("shared float s[32]\nload s[lane]");
  EXPECT_EQ(p.block.threads(), 32);
}

struct ParseError {
  std::string text;
  int line, column;
  std::string message;
};

TEST(Parser, ErrorsPointAtTheColumn) {
  const ParseError cases[] = {
      {"shared float s[32]\nload q[lane]", 2, 6, "unknown array 'q'"},
      {"shared float s[32]\nload s[lane", 2, 12, "expected ']', got end of input"},
      {"shared float s[32]\nload s[lane]]", 2, 13, "expected end of statement, got ']'"},
      {"shared float s[32]\nload s[lane + ]", 2, 15, "expected an expression, got ']'"},
      {"shared float s[32]\nload s[lanes]", 2, 8,
       "unknown variable 'lanes' (known: tx, ty, tz, lane, warp, tid, bx, by, bz and loop variables)"},
      {"shared float t[32][32]\nload t[lane]", 2, 13, "'t' needs 2 index(es), got 1"},
      {"shared float t[32]\nload t[lane][0]", 2, 13, "'t' has 1 dimension(s)"},
      {"shared flaot s[32]", 1, 8,
       "unknown element type 'flaot' (known: char, uchar, int8, uint8, short, ushort, half, bfloat16, int, uint, "
       "float, double, long, ulong, int2, uint2, float2, int4, uint4, float4, double2)"},
      {"shared float load[32]", 1, 14, "'load' is a keyword, not a name"},
      {"shared float lane[32]", 1, 14, "'lane' is a built-in variable"},
      {"shared float s[32]\nshared int s[4]", 2, 12, "'s' is already an array"},
      {"shared float s[0]", 1, 16, "an array dimension must be between 1 and 1099511627776"},
      {"shared float s[32]\nload s[lane]\nblock 64", 3, 1, "the block shape must come before the first access"},
      {"block 33 32", 1, 1, "a block has at most 1024 threads, not 1056"},
      {"block 0", 1, 7, "a block dimension must be between 1 and 1024"},
      {"for k in 4..4", 1, 1, "the loop 'k' runs no iterations"},
      {"for k in 0..8 step 0", 1, 20, "a loop step must be between 1 and 1099511627776"},
      {"for k 0..8", 1, 7, "expected 'in', got '0'"},
      {"mask 0x100000000", 1, 6, "a lane mask must be between 0 and 4294967295"},
      {"shared float s[32]\nldmatrix.x3 s[lane]", 2, 10, "expected x1, x2 or x4, got 'x3'"},
      {"global half g[64]\nldmatrix.x1 g[lane]", 2, 13, "ldmatrix reads shared memory; 'g' is global"},
      {"shared float s[32]\nlod s[lane]", 2, 1,
       "unknown statement 'lod' (expected block, shared, global, for, mask, load, store, atomic, atomic_agg or ldmatrix)"},
      {"shared float s[32] at 2", 1, 23, "address 2 is not a multiple of the element size (4 bytes)"},
      {"shared char s[1099511627776][2]", 1, 30, "array too large (at most 1099511627776 bytes)"},
      {"[", 1, 1, "expected a statement (block, shared, global, for, mask, load, ...), got '['"},
  };
  for (const ParseError& c : cases) {
    auto p = parse(Source("p.ws", c.text));
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_EQ(p.error().message, c.message) << c.text;
    EXPECT_EQ(p.error().where.line, c.line) << c.text;
    EXPECT_EQ(p.error().where.column, c.column) << c.text;
    EXPECT_EQ(p.error().where.file, "p.ws");
  }
}

TEST(Parser, ErrorRendersTheLineWithACaret) {
  auto p = parse(Source("p.ws", "shared float tile[32][32]\nload tile[tx][ty +* 2]   # oops\n"));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().render(),
            "p.ws:2:19: error: expected an expression, got '*'\n"
            "  load tile[tx][ty +* 2]   # oops\n"
            "                    ^");
}

TEST(Parser, BoundsOnExpressions) {
  std::string long_sum = "shared float s[32]\nload s[lane";
  for (int i = 0; i < 2000; ++i) long_sum += "+1";
  long_sum += "]";
  auto p = parse(Source("p.ws", long_sum));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "expression too long (at most 1024 terms)");

  std::string nested = "shared float s[32]\nload s[" + std::string(100, '(') + "lane" + std::string(100, ')') + "]";
  auto q = parse(Source("p.ws", nested));
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error().message, "parentheses nested too deeply (at most 64)");

  std::string negations = "shared float s[32]\nload s[" + std::string(5000, '-') + "lane]";
  auto r = parse(Source("p.ws", negations));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "expression too long (at most 1024 terms)");
}

}  // namespace
}  // namespace warpscope::pattern
