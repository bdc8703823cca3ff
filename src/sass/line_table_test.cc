// line_table_test.cc: the rows of a cubin's .debug_line (tests/data/sass/rows: rows.cu, its
// PTX and the cubin ptxas -arch=sm_90 -lineinfo made of it), and the listing annotated.
#include "sass/line_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sass/sass_listing.h"

namespace warpscope::sass {
namespace {

std::string read(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_TEST_DATA) + "/sass/rows/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::pair<std::uint32_t, int>> offsets_and_lines(const std::vector<LineRow>& rows) {
  std::vector<std::pair<std::uint32_t, int>> out;
  for (const LineRow& r : rows) out.emplace_back(r.offset, r.line);
  return out;
}

TEST(LineTable, ReadsTheRowsOfEachFunction) {
  auto rows = read_line_rows(read("rows.cubin"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  const std::vector<LineRow>& r = rows->at("rows_kernel");
  // put() inlined at lines 9 and 10: the call site has a row where each instance begins
  // (0x20, 0x40), and the stores at 0xe0 and 0xf0 lie in a row of line 4 alone (0xb0).
  const std::vector<std::pair<std::uint32_t, int>> expected = {
      {0x00, 7}, {0x10, 8}, {0x20, 9}, {0x20, 4}, {0x30, 8}, {0x40, 10},
      {0x40, 4}, {0x50, 8}, {0x70, 9}, {0x90, 10}, {0xb0, 4}, {0x100, 11}};
  EXPECT_EQ(offsets_and_lines(r), expected);
  for (const LineRow& row : r) EXPECT_EQ(row.file, "rows.cu");
}

TEST(LineTable, RejectsWhatIsNotACubin) {
  EXPECT_FALSE(read_line_rows("").ok());
  EXPECT_FALSE(read_line_rows("not an elf file at all, but long enough to have a header......").ok());
  // Cut anywhere: an error or fewer rows, never a crash.
  const std::string cubin = read("rows.cubin");
  for (std::size_t n = 0; n < cubin.size(); n += 97) (void)read_line_rows(std::string_view(cubin).substr(0, n));
  std::string flipped = cubin;
  for (std::size_t k = 64; k < flipped.size(); k += 131) flipped[k] = static_cast<char>(~flipped[k]);
  (void)read_line_rows(flipped);
}

TEST(LineTable, AnnotatedListingGivesEachInstructionItsSourcePageLines) {
  auto rows = read_line_rows(read("rows.cubin"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  const std::string listing = annotate_listing(read("rows.sass.raw"), *rows);
  EXPECT_NE(listing.find("\t//## Row \"rows.cu\", line 9\n\t//## Row \"rows.cu\", line 4\n"), std::string::npos);
  auto fs = parse_sass_listing(listing);
  ASSERT_TRUE(fs.ok()) << fs.error().message;
  ASSERT_EQ(fs->size(), 1u);
  const SassFunction& f = fs->front();
  EXPECT_TRUE(f.has_rows);
  auto lines_at = [&](std::uint32_t offset) {
    std::vector<int> out;
    for (const SassInstruction& i : f.instructions)
      if (i.offset == offset)
        for (const SassLoc& l : i.source_lines) out.push_back(l.line);
    return out;
  };
  EXPECT_EQ(lines_at(0x20), (std::vector<int>{9, 4}));  // where put() at line 9 begins
  EXPECT_EQ(lines_at(0xe0), (std::vector<int>{4}));     // its store: the helper's line only
  EXPECT_EQ(lines_at(0xf0), (std::vector<int>{4}));     // the store of put() at line 10 too
  EXPECT_EQ(lines_at(0x60), (std::vector<int>{8}));     // a row's range: up to the next row
  // nvdisasm's own text, without rows: the innermost line and the outermost call site.
  auto plain = parse_sass_listing(read("rows.sass.raw"));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->front().has_rows);
  for (const SassInstruction& i : plain->front().instructions)
    if (i.offset == 0xe0) {
      ASSERT_EQ(i.source_lines.size(), 2u);
      EXPECT_EQ(i.source_lines[0].line, 4);
      EXPECT_EQ(i.source_lines[1].line, 9);
    }
}

}  // namespace
}  // namespace warpscope::sass
