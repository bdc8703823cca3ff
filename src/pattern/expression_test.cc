// expression_test.cc: every operator, C precedence, and the undefined cases as errors.
#include "pattern/expression.h"

#include <gtest/gtest.h>

#include "pattern/parser.h"

namespace warpscope::pattern {
namespace {

// Evaluates EXPR as the index of `s[EXPR]` with tx=5 ty=3 lane=7 warp=2 (others 0).
Expected<std::int64_t> eval(const std::string& expr) {
  Source source("e.ws", "shared char s[1]\nload s[" + expr + "]");
  auto program = parse(source);
  if (!program) return program.error();
  std::vector<std::int64_t> vars(kFirstLoopVariable, 0);
  vars[static_cast<int>(Builtin::Tx)] = 5;
  vars[static_cast<int>(Builtin::Ty)] = 3;
  vars[static_cast<int>(Builtin::Lane)] = 7;
  vars[static_cast<int>(Builtin::Warp)] = 2;
  return evaluate(program->accesses.at(0).indices.at(0), vars, source);
}

std::int64_t value(const std::string& expr) {
  auto v = eval(expr);
  EXPECT_TRUE(v.ok()) << expr << ": " << (v.ok() ? "" : v.error().render());
  return v.ok() ? *v : -999999;
}

TEST(Expression, EveryOperator) {
  EXPECT_EQ(value("7 * 3"), 21);
  EXPECT_EQ(value("7 / 2"), 3);
  EXPECT_EQ(value("-7 / 2"), -3);  // C truncates toward zero
  EXPECT_EQ(value("7 % 3"), 1);
  EXPECT_EQ(value("-7 % 3"), -1);
  EXPECT_EQ(value("7 + 3"), 10);
  EXPECT_EQ(value("7 - 10"), -3);
  EXPECT_EQ(value("3 << 4"), 48);
  EXPECT_EQ(value("48 >> 4"), 3);
  EXPECT_EQ(value("-16 >> 2"), -4);
  EXPECT_EQ(value("6 & 3"), 2);
  EXPECT_EQ(value("6 | 3"), 7);
  EXPECT_EQ(value("6 ^ 3"), 5);
  EXPECT_EQ(value("~0"), -1);
  EXPECT_EQ(value("-(4)"), -4);
  EXPECT_EQ(value("+4"), 4);
  EXPECT_EQ(value("!0"), 1);
  EXPECT_EQ(value("!5"), 0);
  EXPECT_EQ(value("1 < 2"), 1);
  EXPECT_EQ(value("2 <= 2"), 1);
  EXPECT_EQ(value("1 > 2"), 0);
  EXPECT_EQ(value("2 >= 3"), 0);
  EXPECT_EQ(value("2 == 2"), 1);
  EXPECT_EQ(value("2 != 2"), 0);
  EXPECT_EQ(value("2 && 3"), 1);
  EXPECT_EQ(value("0 && 3"), 0);
  EXPECT_EQ(value("0 || 3"), 1);
  EXPECT_EQ(value("0 || 0"), 0);
  EXPECT_EQ(value("0x10"), 16);
}

TEST(Expression, Variables) {
  EXPECT_EQ(value("tx"), 5);
  EXPECT_EQ(value("ty"), 3);
  EXPECT_EQ(value("lane"), 7);
  EXPECT_EQ(value("warp"), 2);
  EXPECT_EQ(value("lane*32 + tx"), 229);
}

TEST(Expression, CPrecedence) {
  EXPECT_EQ(value("1 + 2 * 3"), 7);
  EXPECT_EQ(value("(1 + 2) * 3"), 9);
  EXPECT_EQ(value("10 - 4 - 3"), 3);      // left associative
  EXPECT_EQ(value("64 / 4 / 2"), 8);
  EXPECT_EQ(value("1 << 2 + 1"), 8);      // + binds tighter than <<
  EXPECT_EQ(value("1 + 2 << 1"), 6);
  EXPECT_EQ(value("2 | 1 ^ 3 & 2"), 3);   // & over ^ over |: 2 | (1 ^ (3 & 2))
  EXPECT_EQ(value("6 & 3 == 3"), 0);      // == binds tighter than &, as in C: 6 & (3 == 3)
  EXPECT_EQ(value("1 < 2 == 1"), 1);      // < over ==
  EXPECT_EQ(value("1 || 0 && 0"), 1);     // && over ||
  EXPECT_EQ(value("-2 * -3"), 6);
  EXPECT_EQ(value("~1 + 1"), -1);
  EXPECT_EQ(value("ty ^ tx % 4"), 2);     // % over ^
  EXPECT_EQ(value("lane >> 1 << 1"), 6);
}

TEST(Expression, ArithmeticWraps) {
  EXPECT_EQ(value("9223372036854775807 + 1"), INT64_MIN);
  EXPECT_EQ(value("1 << 63"), INT64_MIN);
}

TEST(Expression, ShortCircuitAvoidsDivisionByZero) {
  EXPECT_EQ(value("0 && 1 / 0"), 0);
  EXPECT_EQ(value("1 || 1 / 0"), 1);
}

TEST(Expression, UndefinedCasesAreErrorsAtTheOperator) {
  struct Case {
    std::string expr;
    int column;  // in "load s[EXPR]"
    std::string message;
  } cases[] = {
      {"lane / 0", 13, "division by zero"},
      {"lane % (tx - 5)", 13, "remainder by zero"},
      {"1 << 64", 10, "shift count 64 is outside 0..63"},
      {"1 >> -1", 10, "shift count -1 is outside 0..63"},
      {"(-9223372036854775807 - 1) / -1", 35, "integer overflow in division"},
  };
  for (const Case& c : cases) {
    auto v = eval(c.expr);
    ASSERT_FALSE(v.ok()) << c.expr;
    EXPECT_EQ(v.error().message, c.message) << c.expr;
    EXPECT_EQ(v.error().where.line, 2) << c.expr;
    EXPECT_EQ(v.error().where.column, c.column) << c.expr;
  }
}

}  // namespace
}  // namespace warpscope::pattern
