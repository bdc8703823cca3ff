// expected.cc: rendering an Error as a compiler-style message with a caret.
#include "support/expected.h"

namespace warpscope {

std::string Error::render() const {
  std::string out;
  if (!where.file.empty()) {
    out += where.file;
    if (where.line > 0) {
      out += ":" + std::to_string(where.line);
      if (where.column > 0) out += ":" + std::to_string(where.column);
    }
    out += ": ";
  }
  out += "error: " + message;
  if (!source_line.empty() && where.column > 0) {
    out += "\n  " + source_line + "\n  ";
    for (int i = 1; i < where.column && i <= static_cast<int>(source_line.size()); ++i)
      out += source_line[i - 1] == '\t' ? '\t' : ' ';
    out += "^";
  }
  return out;
}

}  // namespace warpscope
