// line_table_fuzz.cc: libFuzzer target for the cubin line-table reader (sass/line_table.h).
// Any input must give rows or an Error value; the rows then annotate a small listing, which
// parses back. Crashes, hangs and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sass/line_table.h"
#include "sass/sass_listing.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view elf(reinterpret_cast<const char*>(data), size);
  auto rows = warpscope::sass::read_line_rows(elf);
  if (!rows) return 0;
  std::string listing;
  for (const auto& [name, rs] : *rows) {
    listing += ".text." + name + ":\n";
    for (const auto& r : rs) listing += "        /*" + std::to_string(r.offset % 10000) + "*/   NOP ;\n";
  }
  auto annotated = warpscope::sass::annotate_listing(listing, *rows);
  (void)warpscope::sass::parse_sass_listing(annotated);
  return 0;
}
