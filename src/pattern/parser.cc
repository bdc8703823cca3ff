// parser.cc: recursive descent over the token list; expressions by precedence climbing.
#include "pattern/parser.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "pattern/lexer.h"

namespace warpscope::pattern {

namespace {

struct BinaryLevel {
  TokenKind token;
  Operator op;
  int precedence;  // higher binds tighter, as in C
};

constexpr std::array<BinaryLevel, 18> kBinary{{
    {TokenKind::Star, Operator::Mul, 10},       {TokenKind::Slash, Operator::Div, 10},
    {TokenKind::Percent, Operator::Mod, 10},    {TokenKind::Plus, Operator::Add, 9},
    {TokenKind::Minus, Operator::Sub, 9},       {TokenKind::ShiftLeft, Operator::Shl, 8},
    {TokenKind::ShiftRight, Operator::Shr, 8},  {TokenKind::Less, Operator::Lt, 7},
    {TokenKind::LessEqual, Operator::Le, 7},    {TokenKind::Greater, Operator::Gt, 7},
    {TokenKind::GreaterEqual, Operator::Ge, 7}, {TokenKind::EqualEqual, Operator::Eq, 6},
    {TokenKind::NotEqual, Operator::Ne, 6},     {TokenKind::Amp, Operator::BitAnd, 5},
    {TokenKind::Caret, Operator::BitXor, 4},    {TokenKind::Pipe, Operator::BitOr, 3},
    {TokenKind::AndAnd, Operator::LogicalAnd, 2}, {TokenKind::OrOr, Operator::LogicalOr, 1},
}};

constexpr std::array<std::string_view, 11> kKeywords{
    "block", "shared", "global", "for", "in", "step", "mask", "at", "if", "load", "store"};

struct AccessOp {
  std::string_view name;
  model::MemOp shared_op;
  model::MemOp global_op;  // == shared_op when the op has no global form
};
constexpr std::array<AccessOp, 5> kOps{{
    {"load", model::MemOp::SharedLoad, model::MemOp::GlobalLoad},
    {"store", model::MemOp::SharedStore, model::MemOp::GlobalStore},
    {"atomic", model::MemOp::SharedAtomic, model::MemOp::GlobalAtomic},
    {"atomic_agg", model::MemOp::SharedAtomicAggregated, model::MemOp::GlobalReduction},
    {"ldmatrix", model::MemOp::LdMatrix, model::MemOp::LdMatrix},
}};

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

class Parser {
 public:
  Parser(const Source& source, std::vector<Token> tokens) : source_(source), tokens_(std::move(tokens)) {}

  Expected<Program> run() {
    while (peek().kind != TokenKind::End) {
      if (peek().kind == TokenKind::Newline) {
        ++pos_;
        continue;
      }
      if (Status s = statement(); !s) return s.error();
      if (peek().kind != TokenKind::Newline && peek().kind != TokenKind::End)
        return unexpected("end of statement");
    }
    return std::move(program_);
  }

 private:
  const Token& peek(int ahead = 0) const {
    return tokens_[std::min(pos_ + static_cast<std::size_t>(ahead), tokens_.size() - 1)];
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    last_end_ = t.at.offset + t.text.size();
    return t;
  }
  bool accept(TokenKind kind) {
    if (peek().kind != kind) return false;
    next();
    return true;
  }
  bool is_word(std::string_view word) const { return peek().kind == TokenKind::Identifier && peek().text == word; }
  Error error(std::string message, Position at) const { return source_.error(std::move(message), at); }
  Error unexpected(std::string_view wanted) const {
    const Token& t = peek();
    std::string got = t.kind == TokenKind::Identifier || t.kind == TokenKind::Integer
                          ? "'" + std::string(t.text) + "'"
                          : std::string(token_kind_name(t.kind));
    if (t.kind != TokenKind::Identifier && t.kind != TokenKind::Integer && t.kind != TokenKind::Newline &&
        t.kind != TokenKind::End)
      got = "'" + got + "'";
    return error("expected " + std::string(wanted) + ", got " + got, t.at);
  }
  Status expect(TokenKind kind) {
    if (accept(kind)) return Ok{};
    return unexpected("'" + std::string(token_kind_name(kind)) + "'");
  }
  Expected<std::int64_t> integer(std::string_view what, std::int64_t lo, std::int64_t hi) {
    const Token& t = peek();
    bool negative = false;
    if (t.kind == TokenKind::Minus && lo < 0) {
      next();
      negative = true;
    }
    if (peek().kind != TokenKind::Integer) return unexpected(what);
    const std::int64_t v = negative ? -next().value : next().value;
    if (v < lo || v > hi)
      return error(std::string(what) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi), t.at);
    return v;
  }
  Expected<std::string> new_name(std::string_view what) {
    const Token& t = peek();
    if (t.kind != TokenKind::Identifier) return unexpected(what);
    const std::string name(t.text);
    const bool keyword = std::find(kKeywords.begin(), kKeywords.end(), t.text) != kKeywords.end() ||
                         std::any_of(kOps.begin(), kOps.end(), [&](const AccessOp& o) { return o.name == t.text; });
    if (keyword) return error("'" + name + "' is a keyword, not a name", t.at);
    if (std::find(kBuiltinNames.begin(), kBuiltinNames.end(), name) != kBuiltinNames.end())
      return error("'" + name + "' is a built-in variable", t.at);
    for (const Loop& l : program_.loops)
      if (l.name == name) return error("'" + name + "' is already a loop variable", t.at);
    for (const ArrayDecl& a : program_.arrays)
      if (a.name == name) return error("'" + name + "' is already an array", t.at);
    next();
    return name;
  }

  Status statement() {
    const Token& t = peek();
    if (t.kind != TokenKind::Identifier) return unexpected("a statement (block, shared, global, for, mask, load, ...)");
    if (t.text == "block") return block();
    if (t.text == "shared" || t.text == "global") return array();
    if (t.text == "for") return loop();
    if (t.text == "mask") return mask();
    for (const AccessOp& op : kOps)
      if (t.text == op.name) return access(op);
    return error("unknown statement '" + std::string(t.text) +
                     "' (expected block, shared, global, for, mask, load, store, atomic, atomic_agg or ldmatrix)",
                 t.at);
  }

  Status block() {
    const Token& keyword = next();
    if (seen_block_) return error("the block shape is already set", keyword.at);
    if (!program_.accesses.empty()) return error("the block shape must come before the first access", keyword.at);
    seen_block_ = true;
    std::array<int, 3> dims{1, 1, 1};
    for (int i = 0; i < 3; ++i) {
      if (i > 0 && peek().kind != TokenKind::Integer) break;
      auto d = integer("a block dimension", 1, kMaxBlockThreads);
      if (!d) return d.error();
      dims[static_cast<std::size_t>(i)] = static_cast<int>(*d);
    }
    program_.block = {dims[0], dims[1], dims[2]};
    if (program_.block.threads() > kMaxBlockThreads)
      return error("a block has at most " + std::to_string(kMaxBlockThreads) + " threads, not " +
                       std::to_string(program_.block.threads()),
                   keyword.at);
    return Ok{};
  }

  Status array() {
    ArrayDecl decl;
    decl.at = peek().at;
    decl.space = next().text == "shared" ? model::Space::Shared : model::Space::Global;
    const Token& type = peek();
    if (type.kind != TokenKind::Identifier) return unexpected("an element type");
    auto et = find_element_type(type.text);
    if (!et)
      return error("unknown element type '" + std::string(type.text) + "' (known: " +
                       std::string(element_type_names()) + ")",
                   type.at);
    next();
    decl.type = *et;
    auto name = new_name("an array name");
    if (!name) return name.error();
    decl.name = *name;
    std::int64_t elements = 1;
    while (peek().kind == TokenKind::LBracket) {
      next();
      const Position at = peek().at;
      auto d = integer("an array dimension", 1, kMaxArrayBytes);
      if (!d) return d.error();
      if (decl.dims.size() == kMaxDimensions)
        return error("an array has at most " + std::to_string(kMaxDimensions) + " dimensions", at);
      if (elements > kMaxArrayBytes / *d / decl.type.bytes)
        return error("array too large (at most " + std::to_string(kMaxArrayBytes) + " bytes)", at);
      elements *= *d;
      decl.dims.push_back(*d);
      if (Status s = expect(TokenKind::RBracket); !s) return s;
    }
    if (decl.dims.empty()) return unexpected("'[' and a dimension");
    decl.bytes = static_cast<std::uint64_t>(elements * decl.type.bytes);
    std::uint64_t& cursor = decl.space == model::Space::Shared ? shared_end_ : global_end_;
    const std::uint64_t alignment = decl.space == model::Space::Shared ? 16 : 256;
    if (is_word("at")) {
      next();
      const Position at = peek().at;
      auto base = integer("an address", 0, kMaxArrayBytes);
      if (!base) return base.error();
      if (*base % decl.type.bytes != 0)
        return error("address " + std::to_string(*base) + " is not a multiple of the element size (" +
                         std::to_string(decl.type.bytes) + " bytes)",
                     at);
      decl.base = static_cast<std::uint64_t>(*base);
    } else {
      decl.base = align_up(cursor, alignment);
    }
    cursor = std::max(cursor, decl.base + decl.bytes);
    program_.arrays.push_back(std::move(decl));
    return Ok{};
  }

  Status loop() {
    Loop l;
    l.at = next().at;
    auto name = new_name("a loop variable name");
    if (!name) return name.error();
    l.name = *name;
    if (!is_word("in")) return unexpected("'in'");
    next();
    auto begin = integer("a loop bound", -kMaxLoopBound, kMaxLoopBound);
    if (!begin) return begin.error();
    if (Status s = expect(TokenKind::DotDot); !s) return s;
    auto end = integer("a loop bound", -kMaxLoopBound, kMaxLoopBound);
    if (!end) return end.error();
    l.begin = *begin;
    l.end = *end;
    if (is_word("step")) {
      next();
      auto step = integer("a loop step", 1, kMaxLoopBound);
      if (!step) return step.error();
      l.step = *step;
    }
    if (l.trip_count() == 0) return error("the loop '" + l.name + "' runs no iterations", l.at);
    program_.loops.push_back(std::move(l));
    return Ok{};
  }

  Status mask() {
    next();
    auto m = integer("a lane mask", 0, 0xffffffffLL);
    if (!m) return m.error();
    mask_ = static_cast<std::uint32_t>(*m);
    return Ok{};
  }

  Status access(const AccessOp& op) {
    Access a;
    a.at = peek().at;
    const std::size_t start = peek().at.offset;
    next();
    if (op.name == "ldmatrix") {
      if (!accept(TokenKind::Dot)) return unexpected("'.x1', '.x2' or '.x4' after ldmatrix");
      const Token& t = peek();
      if (t.kind != TokenKind::Identifier || (t.text != "x1" && t.text != "x2" && t.text != "x4"))
        return unexpected("x1, x2 or x4");
      a.matrices = t.text[1] - '0';
      next();
    }
    const Token& name = peek();
    if (name.kind != TokenKind::Identifier) return unexpected("an array name");
    const auto found = std::find_if(program_.arrays.begin(), program_.arrays.end(),
                                    [&](const ArrayDecl& d) { return d.name == name.text; });
    if (found == program_.arrays.end()) return error("unknown array '" + std::string(name.text) + "'", name.at);
    next();
    a.array = static_cast<int>(found - program_.arrays.begin());
    const ArrayDecl& decl = *found;
    a.op = decl.space == model::Space::Shared ? op.shared_op : op.global_op;
    if (a.op == model::MemOp::LdMatrix && decl.space == model::Space::Global)
      return error("ldmatrix reads shared memory; '" + decl.name + "' is global", name.at);
    while (peek().kind == TokenKind::LBracket) {
      const Token& bracket = next();
      if (a.indices.size() == decl.dims.size())
        return error("'" + decl.name + "' has " + std::to_string(decl.dims.size()) + " dimension(s)", bracket.at);
      a.index_at.push_back(peek().at);
      auto e = expression();
      if (!e) return e.error();
      a.indices.push_back(std::move(*e));
      if (Status s = expect(TokenKind::RBracket); !s) return s;
    }
    if (a.indices.size() != decl.dims.size())
      return error("'" + decl.name + "' needs " + std::to_string(decl.dims.size()) + " index(es), got " +
                       std::to_string(a.indices.size()),
                   peek().at);
    if (is_word("if")) {
      next();
      auto e = expression();
      if (!e) return e.error();
      a.predicate = std::move(*e);
    }
    a.mask = mask_;
    a.loops = static_cast<int>(program_.loops.size());
    a.text = source_.text().substr(start, last_end_ - start);
    program_.accesses.push_back(std::move(a));
    return Ok{};
  }

  // expression := binary(0); nodes are counted so that no input builds a deep tree.
  Expected<Expr> expression() {
    nodes_ = 0;
    depth_ = 0;
    return binary(0);
  }

  Expected<Expr> binary(int min_precedence) {
    auto lhs = unary();
    if (!lhs) return lhs;
    for (;;) {
      const auto level = std::find_if(kBinary.begin(), kBinary.end(),
                                      [&](const BinaryLevel& l) { return l.token == peek().kind; });
      if (level == kBinary.end() || level->precedence < min_precedence)
        return lhs;
      const Token& op = next();
      auto rhs = binary(level->precedence + 1);
      if (!rhs) return rhs;
      Expr e;
      e.kind = ExprKind::Binary;
      e.op = level->op;
      e.at = op.at;
      e.lhs = std::make_unique<Expr>(std::move(*lhs));
      e.rhs = std::make_unique<Expr>(std::move(*rhs));
      if (Status s = count_node(op.at); !s) return s.error();
      lhs = std::move(e);
    }
  }

  Status count_node(Position at) {
    if (++nodes_ > kMaxExpressionNodes)
      return error("expression too long (at most " + std::to_string(kMaxExpressionNodes) + " terms)", at);
    return Ok{};
  }

  Expected<Expr> unary() {
    const Token& t = peek();
    if (Status s = count_node(t.at); !s) return s.error();
    Expr e;
    e.at = t.at;
    switch (t.kind) {
      case TokenKind::Minus:
      case TokenKind::Tilde:
      case TokenKind::Bang:
      case TokenKind::Plus: {
        next();
        e.kind = ExprKind::Unary;
        e.op = t.kind == TokenKind::Minus   ? Operator::Negate
               : t.kind == TokenKind::Tilde ? Operator::BitNot
               : t.kind == TokenKind::Bang  ? Operator::LogicalNot
                                            : Operator::Plus;
        auto operand = unary();
        if (!operand) return operand;
        e.lhs = std::make_unique<Expr>(std::move(*operand));
        return e;
      }
      case TokenKind::Integer:
        next();
        e.kind = ExprKind::Literal;
        e.value = t.value;
        return e;
      case TokenKind::Identifier: {
        const auto b = std::find(kBuiltinNames.begin(), kBuiltinNames.end(), t.text);
        e.kind = ExprKind::Variable;
        if (b != kBuiltinNames.end()) {
          e.variable = static_cast<int>(b - kBuiltinNames.begin());
        } else {
          const auto l = std::find_if(program_.loops.begin(), program_.loops.end(),
                                      [&](const Loop& loop) { return loop.name == t.text; });
          if (l == program_.loops.end())
            return error("unknown variable '" + std::string(t.text) +
                             "' (known: tx, ty, tz, lane, warp, tid, bx, by, bz and loop variables)",
                         t.at);
          e.variable = kFirstLoopVariable + static_cast<int>(l - program_.loops.begin());
        }
        next();
        return e;
      }
      case TokenKind::LParen: {
        next();
        if (++depth_ > kMaxNesting)
          return error("parentheses nested too deeply (at most " + std::to_string(kMaxNesting) + ")", t.at);
        auto inner = binary(0);
        if (!inner) return inner;
        --depth_;
        if (Status s = expect(TokenKind::RParen); !s) return s.error();
        return inner;
      }
      default: return unexpected("an expression");
    }
  }

  const Source& source_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::size_t last_end_ = 0;
  Program program_;
  bool seen_block_ = false;
  std::uint32_t mask_ = 0xffffffffu;
  std::uint64_t shared_end_ = 0, global_end_ = 0;
  int nodes_ = 0, depth_ = 0;
};

}  // namespace

Expected<Program> parse(const Source& source) {
  auto tokens = lex(source);
  if (!tokens) return tokens.error();
  return Parser(source, std::move(*tokens)).run();
}

}  // namespace warpscope::pattern
