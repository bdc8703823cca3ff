// source.cc: line lookup for positioned errors.
#include "pattern/source.h"

namespace warpscope::pattern {

Source::Source(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::string_view Source::line(int number) const {
  if (number < 1 || number > static_cast<int>(line_starts_.size())) return {};
  const std::size_t begin = line_starts_[static_cast<std::size_t>(number - 1)];
  std::size_t end = text_.find('\n', begin);
  if (end == std::string::npos) end = text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

Error Source::error(std::string message, Position at) const {
  Error e = make_error(std::move(message));
  e.where = SourcePosition{name_, at.line, at.column};
  e.source_line = std::string(line(at.line));
  return e;
}

}  // namespace warpscope::pattern
