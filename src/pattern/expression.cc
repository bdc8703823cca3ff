// expression.cc: a tree-walking evaluator (expressions are at most kMaxExpressionNodes).
#include "pattern/expression.h"

#include <limits>

namespace warpscope::pattern {

namespace {

std::int64_t wrap(std::uint64_t v) { return static_cast<std::int64_t>(v); }
std::uint64_t bits(std::int64_t v) { return static_cast<std::uint64_t>(v); }

Expected<std::int64_t> apply(const Expr& e, std::int64_t a, std::int64_t b, const Source& source) {
  switch (e.op) {
    case Operator::Mul: return wrap(bits(a) * bits(b));
    case Operator::Add: return wrap(bits(a) + bits(b));
    case Operator::Sub: return wrap(bits(a) - bits(b));
    case Operator::Div:
    case Operator::Mod:
      if (b == 0) return source.error(e.op == Operator::Div ? "division by zero" : "remainder by zero", e.at);
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1)
        return source.error("integer overflow in division", e.at);
      return e.op == Operator::Div ? a / b : a % b;
    case Operator::Shl:
    case Operator::Shr:
      if (b < 0 || b >= 64) return source.error("shift count " + std::to_string(b) + " is outside 0..63", e.at);
      return e.op == Operator::Shl ? wrap(bits(a) << b) : a >> b;
    case Operator::Lt: return a < b;
    case Operator::Le: return a <= b;
    case Operator::Gt: return a > b;
    case Operator::Ge: return a >= b;
    case Operator::Eq: return a == b;
    case Operator::Ne: return a != b;
    case Operator::BitAnd: return a & b;
    case Operator::BitXor: return a ^ b;
    case Operator::BitOr: return a | b;
    default: return source.error("internal: not a binary operator", e.at);
  }
}

}  // namespace

Expected<std::int64_t> evaluate(const Expr& e, std::span<const std::int64_t> variables, const Source& source) {
  switch (e.kind) {
    case ExprKind::Literal: return e.value;
    case ExprKind::Variable:
      if (e.variable < 0 || static_cast<std::size_t>(e.variable) >= variables.size())
        return source.error("internal: variable out of range", e.at);
      return variables[static_cast<std::size_t>(e.variable)];
    case ExprKind::Unary: {
      auto v = evaluate(*e.lhs, variables, source);
      if (!v) return v;
      switch (e.op) {
        case Operator::Negate: return wrap(0 - bits(*v));
        case Operator::BitNot: return ~*v;
        case Operator::LogicalNot: return std::int64_t{*v == 0};
        default: return *v;
      }
    }
    case ExprKind::Binary: {
      auto a = evaluate(*e.lhs, variables, source);
      if (!a) return a;
      // && and || short-circuit, as in C: `lane < 16 && 64 / (16 - lane)` is safe.
      if (e.op == Operator::LogicalAnd && *a == 0) return std::int64_t{0};
      if (e.op == Operator::LogicalOr && *a != 0) return std::int64_t{1};
      auto b = evaluate(*e.rhs, variables, source);
      if (!b) return b;
      if (e.op == Operator::LogicalAnd || e.op == Operator::LogicalOr) return std::int64_t{*b != 0};
      return apply(e, *a, *b, source);
    }
  }
  return source.error("internal: bad expression", e.at);
}

}  // namespace warpscope::pattern
