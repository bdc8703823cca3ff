// diagnostics_writer.cc: findings as "file:line:col: warning: ..." lines.
#include "report/diagnostics_writer.h"

#include <fmt/format.h>

#include "report/findings.h"

namespace warpscope::report {

namespace {

// The source line, then a caret under the column (tabs kept, so the caret lines up).
std::string caret_lines(const std::string& source, int column) {
  if (source.empty() || column < 1 || static_cast<std::size_t>(column) > source.size() + 1) return "";
  std::string pad;
  for (std::size_t i = 0; i + 1 < static_cast<std::size_t>(column); ++i) pad += source[i] == '\t' ? '\t' : ' ';
  return source + "\n" + pad + "^\n";
}

}  // namespace

std::string diagnostics_text(const analysis::KernelReport& report) {
  std::string s;
  for (const Finding& f : find_flagged_lines(report)) {
    const std::string where =
        f.column > 0 ? fmt::format("{}:{}:{}", f.file, f.line, f.column) : fmt::format("{}:{}", f.file, f.line);
    s += fmt::format("{}: warning: {}\n", where, finding_message(f));
    s += caret_lines(f.source, f.column);
  }
  return s;
}

}  // namespace warpscope::report
