// ast.h: a parsed pattern program.
//
//   block 32 8                         -> Program::block = {32, 8, 1}
//   shared float tile[32][33]          -> ArrayDecl{tile, shared, float, [32, 33], base 0}
//   for k in 0..4                      -> Loop{k, 0, 4, 1}; encloses every later statement
//   mask 0x0000ffff                    -> the lane mask of every later access
//   load tile[tx][ty + k] if tx < 16   -> Access{lds, tile, [tx, ty + k], predicate, loops 1}
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/warp_access.h"
#include "pattern/element_type.h"
#include "pattern/source.h"

namespace warpscope::pattern {

// Variables an expression may read. The built-ins come first, loop variables after,
// so an expression's variable is an index into one flat environment.
enum class Builtin : int { Tx, Ty, Tz, Lane, Warp, Tid, Bx, By, Bz, Count };
inline constexpr std::array<const char*, static_cast<int>(Builtin::Count)> kBuiltinNames{
    "tx", "ty", "tz", "lane", "warp", "tid", "bx", "by", "bz"};
inline constexpr int kFirstLoopVariable = static_cast<int>(Builtin::Count);

enum class ExprKind { Literal, Variable, Unary, Binary };

// C operators, with C precedence (see parser.cc).
enum class Operator {
  Negate, BitNot, LogicalNot, Plus,                      // unary
  Mul, Div, Mod, Add, Sub, Shl, Shr, Lt, Le, Gt, Ge, Eq, Ne,
  BitAnd, BitXor, BitOr, LogicalAnd, LogicalOr,          // binary
};

struct Expr {
  ExprKind kind = ExprKind::Literal;
  Operator op = Operator::Add;
  std::int64_t value = 0;  // Literal
  int variable = 0;        // Variable: index into the environment
  std::unique_ptr<Expr> lhs, rhs;  // Unary uses lhs
  Position at;             // the operator's (or the leaf's) position
};

struct BlockShape {
  int x = 32, y = 1, z = 1;
  int threads() const { return x * y * z; }
  int warps() const { return (threads() + model::kWarpSize - 1) / model::kWarpSize; }
};

struct ArrayDecl {
  std::string name;
  model::Space space = model::Space::Shared;
  ElementType type;
  std::vector<std::int64_t> dims;
  std::uint64_t base = 0;   // byte address of element 0
  std::uint64_t bytes = 0;  // total size
  Position at;
};

struct Loop {
  std::string name;
  std::int64_t begin = 0, end = 0, step = 1;  // begin, begin+step, ... while < end
  Position at;
  std::int64_t trip_count() const { return end <= begin ? 0 : (end - begin + step - 1) / step; }
};

struct Access {
  model::MemOp op = model::MemOp::SharedLoad;
  int matrices = 0;  // ldmatrix .x1/.x2/.x4
  int array = 0;     // index into Program::arrays
  std::vector<Expr> indices;
  std::vector<Position> index_at;  // where each index expression starts, for bounds errors
  std::optional<Expr> predicate;  // `if EXPR`: lanes where it is 0 are inactive
  std::uint32_t mask = 0xffffffffu;
  int loops = 0;  // Program::loops[0..loops) enclose this access
  Position at;
  std::string text;  // the statement as written, without comment
};

struct Program {
  BlockShape block;
  std::vector<ArrayDecl> arrays;
  std::vector<Loop> loops;
  std::vector<Access> accesses;
};

}  // namespace warpscope::pattern
