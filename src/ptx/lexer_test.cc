// lexer_test.cc: PTX tokens and their positions.
#include "ptx/lexer.h"

#include <gtest/gtest.h>

namespace warpscope::ptx {
namespace {

TEST(Lexer, GluesModifiersAndKeepsPositions) {
  auto t = lex("  @!%p1 ld.global.v4.f32 {%f1,_}, [%rd4+-8]; // c\n$L__BB0_2:");
  ASSERT_GE(t.size(), 20u);
  EXPECT_TRUE(t[0].is('@'));
  EXPECT_EQ(t[0].line, 1);
  EXPECT_EQ(t[0].column, 3);
  EXPECT_TRUE(t[1].is('!'));
  EXPECT_EQ(t[2].text, "%p1");
  EXPECT_EQ(t[3].text, "ld");
  EXPECT_FALSE(t[3].glued);
  EXPECT_EQ(t[4].text, ".global");
  EXPECT_TRUE(t[4].glued);
  EXPECT_EQ(t[6].text, ".f32");
  auto last = t[t.size() - 3];
  EXPECT_EQ(last.text, "$L__BB0_2");
  EXPECT_EQ(last.line, 2);
  EXPECT_TRUE(t[t.size() - 2].is(':'));
  EXPECT_EQ(t.back().kind, TokenKind::End);
}

TEST(Lexer, Numbers) {
  auto t = lex("0f3F800000 0d3FF0000000000000 0x1F 017 42 1.5 0b101 7U");
  EXPECT_EQ(t[0].kind, TokenKind::Float);
  EXPECT_TRUE(t[0].is_f32);
  EXPECT_EQ(t[0].bits, 0x3F800000u);
  EXPECT_EQ(t[1].kind, TokenKind::Float);
  EXPECT_FALSE(t[1].is_f32);
  EXPECT_EQ(t[1].bits, 0x3FF0000000000000ull);
  EXPECT_EQ(t[2].bits, 31u);
  EXPECT_EQ(t[3].bits, 15u);
  EXPECT_EQ(t[4].bits, 42u);
  EXPECT_EQ(t[5].kind, TokenKind::Float);
  EXPECT_EQ(t[6].bits, 5u);
  EXPECT_EQ(t[7].bits, 7u);
  EXPECT_EQ(t[8].kind, TokenKind::End);
}

TEST(Lexer, ScopedModifiersAndComments) {
  auto t = lex("cp.async.cg.shared.global.L2::128B /* x\n y */ \"a b\"");
  EXPECT_EQ(t[5].text, ".L2::128B");
  EXPECT_EQ(t[6].kind, TokenKind::String);
  EXPECT_EQ(t[6].text, "a b");
  EXPECT_EQ(t[6].line, 2);
}

TEST(Lexer, BadCharacterIsAToken) {
  auto t = lex("add # x");
  EXPECT_EQ(t[1].kind, TokenKind::Bad);
  EXPECT_EQ(t[1].column, 5);
}

}  // namespace
}  // namespace warpscope::ptx
