// lexer.h: splits a pattern program into tokens.
//
//   load tile[ty][tx ^ ty]   # comment
//   Ident("load") Ident("tile") [ Ident("ty") ] [ Ident("tx") ^ Ident("ty") ] Newline
//
// Comments run from '#' to the end of the line. Integers are decimal or 0x-hex and
// must fit in 63 bits. Newlines and ';' both end statements.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pattern/source.h"
#include "support/expected.h"

namespace warpscope::pattern {

enum class TokenKind {
  Identifier,
  Integer,
  Newline,    // also ';'
  LBracket, RBracket, LParen, RParen, Dot, DotDot,
  Plus, Minus, Star, Slash, Percent,
  Amp, Pipe, Caret, Tilde, Bang,
  ShiftLeft, ShiftRight,
  Less, LessEqual, Greater, GreaterEqual, EqualEqual, NotEqual,
  AndAnd, OrOr,
  End,
};

// The spelling of a token kind for messages: "']'", "identifier", "end of input".
std::string_view token_kind_name(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // a view into the Source's text
  std::int64_t value = 0;  // for Integer
  Position at;
};

// The tokens of `source`, ending with one End token. The first bad character is an error.
Expected<std::vector<Token>> lex(const Source& source);

}  // namespace warpscope::pattern
