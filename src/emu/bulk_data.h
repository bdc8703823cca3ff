// bulk_data.h: the data half of bulk copies, shared by the TMA and the byte-range forms:
// element-wise reductions into global memory, and the lookups with diagnostics.
// Internal.
#pragma once

#include <cstdint>

#include "emu/exec_async.h"
#include "emu/tensor_map_spec.h"

namespace warpscope::emu {

// dst[i] = op(dst[i], src[i]) over `count` elements of `type`. False if the operation
// does not apply to the type (a float xor, ...).
bool reduce_elements(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t count, tmap::DataType type,
                     ptx::SubOp op);

// PTX reduction types (cp.reduce.async.bulk's .type) as tensor-map element types.
bool data_type_of(ptx::Type t, tmap::DataType& out);

// The global bytes [address, address + size) of one buffer for a bulk copy, or nullptr
// after an out-of-bounds diagnostic naming `what`.
std::uint8_t* global_bytes(Warp& w, int lane, std::uint64_t address, std::uint64_t size, const char* what,
                           BlockContext& ctx);

}  // namespace warpscope::emu
