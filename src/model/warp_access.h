// warp_access.h: one warp-wide memory instruction, as the cost model sees it.
//
//   op    width  mask        address[0..31]
//   lds   4      0xffffffff  0 4 8 ... 124        (byte addresses, lane 0 first)
//
// Inactive lanes' addresses are ignored. For ldmatrix, `width` is the number of 8x8
// matrices (1, 2, 4) and each active lane among the first 8*width supplies one 16-byte
// row address; gmma (a wgmma's core matrices) is laid out the same way.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/arch.h"
#include "support/expected.h"

namespace warpscope::model {

enum class MemOp : std::uint8_t {
  SharedLoad,              // lds
  SharedStore,             // sts
  LdMatrix,                // ldsm
  SharedAtomic,            // atoms: value-returning ATOMS, same-address lanes serialize
  SharedAtomicAggregated,  // atoms_agg: ATOMS.POPC.INC, same-address lanes merge
  GlobalLoad,              // ldg
  GlobalStore,             // stg
  GlobalReduction,         // red, or an atom whose result is unused (ptxas: RED)
  GlobalAtomic,            // a value-returning atom on global memory (ATOMG)
  Gmma,                    // gmma: a wgmma's shared-memory operand reads (HGMMA/QGMMA), priced
                           // like ldmatrix rows: `width` core matrices of 8 16-byte rows
};

enum class Space : std::uint8_t { Shared, Global };

struct WarpAccess {
  MemOp op = MemOp::SharedLoad;
  int width = 4;  // bytes per lane (ldmatrix: matrices)
  std::uint32_t mask = 0xffffffffu;
  std::array<std::uint64_t, kWarpSize> address{};

  bool active(int lane) const { return (mask >> lane) & 1u; }
};

// ldmatrix and gmma: lanes give 16-byte rows of 8-row matrices, `width` counts matrices.
constexpr bool is_matrix_rows(MemOp op) { return op == MemOp::LdMatrix || op == MemOp::Gmma; }

constexpr Space space_of(MemOp op) {
  switch (op) {
    case MemOp::GlobalLoad:
    case MemOp::GlobalStore:
    case MemOp::GlobalReduction:
    case MemOp::GlobalAtomic: return Space::Global;
    default: return Space::Shared;
  }
}
std::string_view op_name(MemOp op);                 // "lds", "sts", ...
std::optional<MemOp> op_from_name(std::string_view name);

// Checks width and alignment: every active lane's address must be a multiple of its
// access width (16 for ldmatrix rows). The error names the first offending lane.
Status validate(const WarpAccess& access);

}  // namespace warpscope::model
