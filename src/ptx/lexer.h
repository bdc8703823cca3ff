// lexer.h: splits PTX text into tokens with their line and column.
//
//   "@!%p1 bra $L__BB0_2;"  ->  '@' '!' Ident(%p1) Ident(bra) Ident($L__BB0_2) ';'
//   "ld.global.v4.f32"      ->  Ident(ld) Dot(.global) Dot(.v4) Dot(.f32)   (adjacent)
//
// The lexer never fails: a character it does not know becomes a Bad token, which the
// parser reports only if it reaches it (debug sections are skipped unread).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace warpscope::ptx {

enum class TokenKind : std::uint8_t {
  End,
  Ident,    // name, %register, $label (may contain "::")
  Dot,      // .directive or .modifier, text includes the dot
  Integer,  // value in `bits`
  Float,    // 0fXXXXXXXX (F32 bits) or 0dXXXX.. / decimal (F64 bits), see `is_f32`
  String,   // "..." text without the quotes (escapes kept as written)
  Punct,    // one of , ; : [ ] { } ( ) + - @ ! < > | =
  Bad,      // an unknown character or an unterminated string or comment
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  int line = 1;
  int column = 1;
  bool glued = false;  // no whitespace between this token and the previous one
  bool is_f32 = false;
  std::uint64_t bits = 0;

  bool is(char c) const { return kind == TokenKind::Punct && text.size() == 1 && text[0] == c; }
  bool is_dot(std::string_view d) const { return kind == TokenKind::Dot && text == d; }
};

// Tokens of `source`, ending with one End token. Views point into `source`.
std::vector<Token> lex(std::string_view source);

}  // namespace warpscope::ptx
