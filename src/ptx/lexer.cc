// lexer.cc: PTX tokens.
#include "ptx/lexer.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace warpscope::ptx {
namespace {

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool hex_digit(char c) {
  return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    out.reserve(s_.size() / 4);
    bool glued = false;
    for (;;) {
      glued = !skip_space_and_comments() && !out.empty();
      Token t;
      t.line = line_;
      t.column = static_cast<int>(pos_ - line_start_) + 1;
      t.glued = glued;
      if (pos_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      std::size_t start = pos_;
      char c = s_[pos_];
      if (ident_start(c)) {
        take_name();
        t.kind = TokenKind::Ident;
      } else if (c == '.' && pos_ + 1 < s_.size() && ident_char(s_[pos_ + 1])) {
        ++pos_;
        take_name();
        t.kind = TokenKind::Dot;
      } else if (digit(c) || (c == '.' && pos_ + 1 < s_.size() && digit(s_[pos_ + 1]))) {
        number(t);
      } else if (c == '"') {
        ++pos_;
        while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\n') {
          if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
          ++pos_;
        }
        if (pos_ < s_.size() && s_[pos_] == '"') {
          t.kind = TokenKind::String;
          t.text = s_.substr(start + 1, pos_ - start - 1);
          ++pos_;
          out.push_back(t);
          continue;
        }
        t.kind = TokenKind::Bad;
      } else if (std::strchr(",;:[]{}()+-@!<>|=", c) != nullptr) {
        ++pos_;
        t.kind = TokenKind::Punct;
      } else {
        ++pos_;
        t.kind = TokenKind::Bad;
      }
      t.text = s_.substr(start, pos_ - start);
      out.push_back(t);
    }
  }

 private:
  // Returns true if it skipped anything.
  bool skip_space_and_comments() {
    std::size_t begin = pos_;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') {
        ++pos_;
        ++line_;
        line_start_ = pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        pos_ += 2;
        while (pos_ < s_.size() && !(s_[pos_] == '*' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/')) {
          if (s_[pos_] == '\n') {
            ++line_;
            line_start_ = pos_ + 1;
          }
          ++pos_;
        }
        pos_ = pos_ + 2 > s_.size() ? s_.size() : pos_ + 2;
      } else {
        break;
      }
    }
    return pos_ != begin;
  }

  void take_name() {
    while (pos_ < s_.size()) {
      if (ident_char(s_[pos_])) {
        ++pos_;
      } else if (s_[pos_] == ':' && pos_ + 2 < s_.size() && s_[pos_ + 1] == ':' &&
                 ident_char(s_[pos_ + 2])) {
        pos_ += 2;  // ".L2::128B", ".shared::cta"
      } else {
        break;
      }
    }
  }

  void number(Token& t) {
    std::size_t start = pos_;
    auto hex_run = [&](std::size_t from) {
      std::size_t p = from;
      while (p < s_.size() && hex_digit(s_[p])) ++p;
      return p;
    };
    char c1 = pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0';
    if (s_[pos_] == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D') &&
        pos_ + 2 < s_.size() && hex_digit(s_[pos_ + 2])) {
      std::size_t end = hex_run(pos_ + 2);
      t.kind = TokenKind::Float;
      t.is_f32 = (c1 == 'f' || c1 == 'F');
      t.bits = std::strtoull(std::string(s_.substr(pos_ + 2, end - pos_ - 2)).c_str(), nullptr, 16);
      pos_ = end;
    } else if (s_[pos_] == '0' && (c1 == 'x' || c1 == 'X')) {
      std::size_t end = hex_run(pos_ + 2);
      t.kind = TokenKind::Integer;
      t.bits = std::strtoull(std::string(s_.substr(pos_ + 2, end - pos_ - 2)).c_str(), nullptr, 16);
      pos_ = end;
    } else if (s_[pos_] == '0' && (c1 == 'b' || c1 == 'B')) {
      std::size_t p = pos_ + 2;
      std::uint64_t v = 0;
      while (p < s_.size() && (s_[p] == '0' || s_[p] == '1')) v = v * 2 + static_cast<std::uint64_t>(s_[p++] - '0');
      t.kind = TokenKind::Integer;
      t.bits = v;
      pos_ = p;
    } else {
      std::size_t p = pos_;
      bool is_float = false;
      while (p < s_.size() && digit(s_[p])) ++p;
      if (p < s_.size() && s_[p] == '.') {
        is_float = true;
        ++p;
        while (p < s_.size() && digit(s_[p])) ++p;
      }
      if (p < s_.size() && (s_[p] == 'e' || s_[p] == 'E')) {
        std::size_t q = p + 1;
        if (q < s_.size() && (s_[q] == '+' || s_[q] == '-')) ++q;
        if (q < s_.size() && digit(s_[q])) {
          is_float = true;
          p = q;
          while (p < s_.size() && digit(s_[p])) ++p;
        }
      }
      std::string text(s_.substr(pos_, p - pos_));
      if (is_float) {
        double d = std::strtod(text.c_str(), nullptr);
        std::memcpy(&t.bits, &d, sizeof d);
        t.kind = TokenKind::Float;
      } else {
        t.kind = TokenKind::Integer;
        // A leading 0 means octal in PTX.
        t.bits = std::strtoull(text.c_str(), nullptr, text.size() > 1 && text[0] == '0' ? 8 : 10);
      }
      pos_ = p;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'U' || s_[pos_] == 'u')) ++pos_;  // 0x1U
    (void)start;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
};

}  // namespace

std::vector<Token> lex(std::string_view source) { return Lexer(source).run(); }

}  // namespace warpscope::ptx
