// warp_access.cc: op names and the validity rules of one warp access.
#include "model/warp_access.h"

#include <array>
#include <utility>

namespace warpscope::model {

namespace {
constexpr std::array<std::pair<MemOp, std::string_view>, 10> kNames{{
    {MemOp::SharedLoad, "lds"},
    {MemOp::SharedStore, "sts"},
    {MemOp::LdMatrix, "ldsm"},
    {MemOp::SharedAtomic, "atoms"},
    {MemOp::SharedAtomicAggregated, "atoms_agg"},
    {MemOp::GlobalLoad, "ldg"},
    {MemOp::GlobalStore, "stg"},
    {MemOp::GlobalReduction, "redg"},
    {MemOp::GlobalAtomic, "atomg"},
    {MemOp::Gmma, "gmma"},
}};
}  // namespace

std::string_view op_name(MemOp op) {
  for (const auto& [o, n] : kNames)
    if (o == op) return n;
  return "?";
}

std::optional<MemOp> op_from_name(std::string_view name) {
  for (const auto& [o, n] : kNames)
    if (n == name) return o;
  return std::nullopt;
}

Status validate(const WarpAccess& a) {
  if (a.op == MemOp::LdMatrix) {
    if (a.width != 1 && a.width != 2 && a.width != 4)
      return make_error("ldmatrix takes 1, 2 or 4 matrices, not " + std::to_string(a.width));
  } else if (a.op == MemOp::Gmma) {
    if (a.width < 1 || a.width > 4) return make_error("gmma takes 1 to 4 core matrices, not " + std::to_string(a.width));
  } else if (width_index(a.width) < 0) {
    return make_error("unknown access width " + std::to_string(a.width) + " (expected 1, 2, 4, 8 or 16 bytes)");
  }
  if (a.op == MemOp::SharedAtomic && a.width != 4 && a.width != 8)
    return make_error("shared atomics are modelled for 4- and 8-byte operands only, not " + std::to_string(a.width));
  // atoms_agg: ATOMS.POPC.INC (4 bytes), and a CAS loop's ATOMS.CAST(.64), whose lanes on one
  // word do not serialize either (analysis/atomic_lowering.cc).
  if (a.op == MemOp::SharedAtomicAggregated && a.width != 4 && a.width != 8)
    return make_error("the aggregated shared atomic (ATOMS.POPC.INC, ATOMS.CAST) has 4- or 8-byte operands, not " +
                      std::to_string(a.width));
  const int align = is_matrix_rows(a.op) ? 16 : a.width;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!a.active(lane)) continue;
    if (a.address[lane] % static_cast<std::uint64_t>(align) != 0)
      return make_error("lane " + std::to_string(lane) + ": address " + std::to_string(a.address[lane]) +
                        " is not aligned to " + std::to_string(align) + " bytes");
  }
  return Ok{};
}

}  // namespace warpscope::model
