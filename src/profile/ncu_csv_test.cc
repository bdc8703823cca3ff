// ncu_csv_test.cc: cells, quotes and ncu's numbers.
#include "profile/ncu_csv.h"

#include <gtest/gtest.h>

namespace warpscope::profile {
namespace {

TEST(NcuCsv, QuotedAndBareCellsWithEmbeddedCommasQuotesAndNewlines) {
  auto rows = parse_csv("\"a\",b,\"1,024\"\n\n\"say \"\"hi\"\"\",\"two\nlines\",\r\nlast", "t.csv");
  ASSERT_TRUE(rows) << rows.error().render();
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[0].cells, (std::vector<std::string>{"a", "b", "1,024"}));
  EXPECT_EQ((*rows)[0].line, 1);
  EXPECT_EQ((*rows)[1].cells, (std::vector<std::string>{"say \"hi\"", "two\nlines", ""}));
  EXPECT_EQ((*rows)[1].line, 3);
  EXPECT_EQ((*rows)[2].cells, (std::vector<std::string>{"last"}));
  EXPECT_EQ((*rows)[2].line, 5);
}

TEST(NcuCsv, UnterminatedQuoteIsAnErrorAtItsPosition) {
  auto rows = parse_csv("\"ok\"\n\"x\",\"never closed\n", "t.csv");
  ASSERT_FALSE(rows);
  EXPECT_EQ(rows.error().where.line, 2);
  EXPECT_EQ(rows.error().where.column, 5);
  EXPECT_NE(rows.error().render().find("t.csv:2:5"), std::string::npos);
}

TEST(NcuCsv, NumbersWithThousandsSeparatorsAndNone) {
  EXPECT_EQ(parse_ncu_number("65,536"), 65536.0);
  EXPECT_EQ(parse_ncu_number("7,145.62"), 7145.62);
  EXPECT_EQ(parse_ncu_number("0"), 0.0);
  EXPECT_EQ(parse_ncu_number("-3"), -3.0);
  EXPECT_FALSE(parse_ncu_number("-"));
  EXPECT_FALSE(parse_ncu_number(""));
  EXPECT_FALSE(parse_ncu_number("n/a"));
  EXPECT_FALSE(parse_ncu_number("(32, 8, 1)"));
  EXPECT_FALSE(parse_ncu_number("12abc"));
  EXPECT_FALSE(parse_ncu_number("inf"));
}

}  // namespace
}  // namespace warpscope::profile
