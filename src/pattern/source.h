// source.h: a pattern program's text with its name, and errors positioned in it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "support/expected.h"

namespace warpscope::pattern {

// Where a token or node starts: 1-based line and column, and the byte offset.
struct Position {
  int line = 0;
  int column = 0;
  std::size_t offset = 0;
};

class Source {
 public:
  Source(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  // The text of a 1-based line, without its newline; empty when out of range.
  std::string_view line(int number) const;
  // "name:line:col: error: message" with the line and a caret under `at`.
  Error error(std::string message, Position at) const;

 private:
  std::string name_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
};

}  // namespace warpscope::pattern
