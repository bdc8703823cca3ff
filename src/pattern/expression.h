// expression.h: evaluating an index or predicate expression for one thread.
//
// Arithmetic is 64-bit two's complement and wraps like unsigned C arithmetic; the only
// errors are the ones C leaves undefined: division or remainder by zero, INT64_MIN / -1,
// and shifts by a negative count or by 64 or more.
#pragma once

#include <cstdint>
#include <span>

#include "pattern/ast.h"
#include "pattern/source.h"
#include "support/expected.h"

namespace warpscope::pattern {

// `variables` holds the built-ins (ast.h's Builtin order) then the loop variables.
// Errors are positioned at the operator in `source`.
Expected<std::int64_t> evaluate(const Expr& expr, std::span<const std::int64_t> variables, const Source& source);

}  // namespace warpscope::pattern
