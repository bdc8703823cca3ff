// parser.h: pattern program text -> Program (ast.h).
//
// The language, one statement per line (or separated by ';'); '#' starts a comment:
//
//   block X [Y [Z]]                              block shape, default 32 1 1, at most 1024 threads
//   shared|global TYPE NAME[D0][D1]... [at N]    an array (row-major); see layout below
//   for NAME in BEGIN..END [step S]              a loop over [BEGIN, END) enclosing all later lines
//   mask M                                       lane mask of later accesses (0xffffffff resets)
//   OP NAME[E0][E1]... [if COND]                 an access; lanes where COND is 0 sit out
//
//   OP: load | store | atomic (value-returning) | atomic_agg (aggregated increment)
//       | ldmatrix.x1 | ldmatrix.x2 | ldmatrix.x4
//   E, COND: C expressions over integers, the variables tx ty tz lane warp tid bx by bz and
//       loop variables, with unary - ~ ! and binary * / % + - << >> < <= > >= == != & ^ | && ||
//       at C precedence.
//
// Layout: shared arrays are placed from offset 0, global arrays from address 0, in
// declaration order, each aligned to 16 bytes (shared) or 256 bytes (global, as cudaMalloc
// does); `at N` places one explicitly.
#pragma once

#include "pattern/ast.h"
#include "pattern/source.h"
#include "support/expected.h"

namespace warpscope::pattern {

// Bounds the parser enforces so that no input can make it (or the runner) run away.
inline constexpr int kMaxExpressionNodes = 1024;
inline constexpr int kMaxNesting = 64;
inline constexpr int kMaxDimensions = 8;
inline constexpr std::int64_t kMaxArrayBytes = std::int64_t{1} << 40;
inline constexpr std::int64_t kMaxLoopBound = std::int64_t{1} << 40;
inline constexpr int kMaxBlockThreads = 1024;

Expected<Program> parse(const Source& source);

}  // namespace warpscope::pattern
