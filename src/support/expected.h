// expected.h: errors as values. Library code returns Expected<T>; only the CLI prints.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace warpscope {

// Where in an input a problem is: file (may be "<stdin>"), 1-based line and column.
// line == 0 means "no position".
struct SourcePosition {
  std::string file;
  int line = 0;
  int column = 0;
};

struct Error {
  // What the caller should blame: the input (a file that cannot be read or analysed; exit
  // status 1) or the way the tool was asked (a bad option value, a missing option; status 2).
  enum class Kind : unsigned char { Input, Usage };

  std::string message;
  SourcePosition where{};
  std::string source_line{};  // the offending line's text, for a caret under `where.column`
  Kind kind = Kind::Input;

  bool usage() const { return kind == Kind::Usage; }

  // "file:line:col: error: message" plus the source line and a caret, when known.
  std::string render() const;
};

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Expected(Error error) : state_(std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

struct Ok {};
using Status = Expected<Ok>;

inline Error make_error(std::string message) { return Error{std::move(message)}; }

// An error in how the tool was asked: a bad --grid, --block or --arg, a missing --kernel.
inline Error make_usage_error(std::string message) {
  Error e{std::move(message)};
  e.kind = Error::Kind::Usage;
  return e;
}

// The same error, blamed on the request.
inline Error as_usage(Error e) {
  e.kind = Error::Kind::Usage;
  return e;
}

}  // namespace warpscope
