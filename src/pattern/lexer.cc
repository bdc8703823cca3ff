// lexer.cc: a hand-written scanner; one pass, no backtracking.
#include "pattern/lexer.h"

#include <array>
#include <cctype>
#include <limits>
#include <utility>

namespace warpscope::pattern {

namespace {

struct Punct {
  std::string_view spelling;
  TokenKind kind;
};

// Longest spellings first so "<<" wins over "<".
constexpr std::array<Punct, 28> kPunct{{
    {"..", TokenKind::DotDot},      {"<<", TokenKind::ShiftLeft},  {">>", TokenKind::ShiftRight},
    {"<=", TokenKind::LessEqual},   {">=", TokenKind::GreaterEqual}, {"==", TokenKind::EqualEqual},
    {"!=", TokenKind::NotEqual},    {"&&", TokenKind::AndAnd},     {"||", TokenKind::OrOr},
    {"[", TokenKind::LBracket},     {"]", TokenKind::RBracket},    {"(", TokenKind::LParen},
    {")", TokenKind::RParen},       {".", TokenKind::Dot},         {"+", TokenKind::Plus},
    {"-", TokenKind::Minus},        {"*", TokenKind::Star},        {"/", TokenKind::Slash},
    {"%", TokenKind::Percent},      {"&", TokenKind::Amp},         {"|", TokenKind::Pipe},
    {"^", TokenKind::Caret},        {"~", TokenKind::Tilde},       {"!", TokenKind::Bang},
    {"<", TokenKind::Less},         {">", TokenKind::Greater},     {";", TokenKind::Newline},
    {"\n", TokenKind::Newline},
}};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

}  // namespace

std::string_view token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::Identifier: return "a name";
    case TokenKind::Integer: return "an integer";
    case TokenKind::Newline: return "end of statement";
    case TokenKind::End: return "end of input";
    default: break;
  }
  for (const Punct& p : kPunct)
    if (p.kind == kind && p.spelling != ";" && p.spelling != "\n") return p.spelling;
  return "?";
}

Expected<std::vector<Token>> lex(const Source& source) {
  const std::string_view text = source.text();
  std::vector<Token> tokens;
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  auto here = [&](std::size_t at) { return Position{line, static_cast<int>(at - line_start) + 1, at}; };

  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (is_ident_start(c)) {
      const std::size_t start = i;
      while (i < text.size() && is_ident_char(text[i])) ++i;
      tokens.push_back({TokenKind::Identifier, text.substr(start, i - start), 0, here(start)});
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      const std::size_t start = i;
      int base = 10;
      if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
        base = 16;
        i += 2;
      }
      const std::size_t digits = i;
      std::uint64_t value = 0;
      bool overflow = false;
      while (i < text.size() && (is_ident_char(text[i]))) {
        const int d = digit_value(text[i]);
        if (d >= base) return source.error("bad digit '" + std::string(1, text[i]) + "' in integer", here(i));
        if (value > (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - d) / base) overflow = true;
        value = value * base + static_cast<std::uint64_t>(d);
        ++i;
      }
      if (i == digits) return source.error("expected hex digits after '0x'", here(start));
      if (overflow) return source.error("integer too large", here(start));
      tokens.push_back({TokenKind::Integer, text.substr(start, i - start), static_cast<std::int64_t>(value), here(start)});
      continue;
    }
    bool matched = false;
    for (const Punct& p : kPunct) {
      if (text.substr(i, p.spelling.size()) == p.spelling) {
        tokens.push_back({p.kind, text.substr(i, p.spelling.size()), 0, here(i)});
        i += p.spelling.size();
        if (p.spelling == "\n") {
          ++line;
          line_start = i;
        }
        matched = true;
        break;
      }
    }
    if (!matched) {
      const auto byte = static_cast<unsigned char>(c);
      std::string shown = std::isprint(byte) ? "'" + std::string(1, c) + "'" : "byte " + std::to_string(byte);
      return source.error("unexpected character " + shown, here(i));
    }
  }
  tokens.push_back({TokenKind::End, text.substr(text.size()), 0, here(text.size())});
  return tokens;
}

}  // namespace warpscope::pattern
