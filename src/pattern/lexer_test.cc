// lexer_test.cc: token kinds, literals, comments, and error columns.
#include "pattern/lexer.h"

#include <gtest/gtest.h>

namespace warpscope::pattern {
namespace {

std::vector<TokenKind> kinds(const std::string& text) {
  Source source("t.ws", text);
  auto tokens = lex(source);
  EXPECT_TRUE(tokens.ok()) << (tokens.ok() ? "" : tokens.error().render());
  std::vector<TokenKind> out;
  if (tokens)
    for (const Token& t : *tokens) out.push_back(t.kind);
  return out;
}

TEST(Lexer, AccessStatement) {
  using K = TokenKind;
  EXPECT_EQ(kinds("load tile[ty][tx ^ ty]  # swizzle"),
            (std::vector<K>{K::Identifier, K::Identifier, K::LBracket, K::Identifier, K::RBracket, K::LBracket,
                            K::Identifier, K::Caret, K::Identifier, K::RBracket, K::End}));
}

TEST(Lexer, LongestPunctuationWins) {
  using K = TokenKind;
  EXPECT_EQ(kinds("<< >> <= >= == != && || < > .. . ! ~"),
            (std::vector<K>{K::ShiftLeft, K::ShiftRight, K::LessEqual, K::GreaterEqual, K::EqualEqual, K::NotEqual,
                            K::AndAnd, K::OrOr, K::Less, K::Greater, K::DotDot, K::Dot, K::Bang, K::Tilde, K::End}));
}

TEST(Lexer, RangeIsNotAFraction) {
  using K = TokenKind;
  EXPECT_EQ(kinds("0..8"), (std::vector<K>{K::Integer, K::DotDot, K::Integer, K::End}));
}

TEST(Lexer, SemicolonAndNewlineEndStatements) {
  using K = TokenKind;
  EXPECT_EQ(kinds("a;b\nc"), (std::vector<K>{K::Identifier, K::Newline, K::Identifier, K::Newline, K::Identifier, K::End}));
}

TEST(Lexer, IntegersAndPositions) {
  Source source("t.ws", "mask 0x0000ffff\n  load 42");
  auto tokens = lex(source);
  ASSERT_TRUE(tokens.ok());
  const auto& t = *tokens;
  EXPECT_EQ(t[1].value, 0xffff);
  EXPECT_EQ(t[4].value, 42);
  EXPECT_EQ(t[3].at.line, 2);
  EXPECT_EQ(t[3].at.column, 3);
  EXPECT_EQ(t[4].at.column, 8);
  EXPECT_EQ(t[3].text, "load");
}

TEST(Lexer, LargestInteger) {
  Source source("t.ws", "9223372036854775807");
  auto tokens = lex(source);
  ASSERT_TRUE(tokens.ok());
  EXPECT_EQ((*tokens)[0].value, INT64_MAX);
}

struct LexError {
  std::string text;
  int line, column;
  std::string message;
};

TEST(Lexer, ErrorsPointAtTheColumn) {
  const LexError cases[] = {
      {"load s[lane @ 2]", 1, 13, "unexpected character '@'"},
      {"block 32x8", 1, 9, "bad digit 'x' in integer"},
      {"mask 0x", 1, 6, "expected hex digits after '0x'"},
      {"\nload s[9223372036854775808]", 2, 8, "integer too large"},
      {"load s[0x1g]", 1, 11, "bad digit 'g' in integer"},
      {"load s[lane]\n\x01", 2, 1, "unexpected character byte 1"},
  };
  for (const LexError& c : cases) {
    auto tokens = lex(Source("t.ws", c.text));
    ASSERT_FALSE(tokens.ok()) << c.text;
    EXPECT_EQ(tokens.error().where.line, c.line) << c.text;
    EXPECT_EQ(tokens.error().where.column, c.column) << c.text;
    EXPECT_EQ(tokens.error().message, c.message) << c.text;
  }
}

TEST(Lexer, ErrorRendersWithCaret) {
  auto tokens = lex(Source("t.ws", "load s[lane @ 2]"));
  ASSERT_FALSE(tokens.ok());
  EXPECT_EQ(tokens.error().render(),
            "t.ws:1:13: error: unexpected character '@'\n"
            "  load s[lane @ 2]\n"
            "              ^");
}

}  // namespace
}  // namespace warpscope::pattern
