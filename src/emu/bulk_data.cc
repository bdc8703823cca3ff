// bulk_data.cc: reductions and global lookups for bulk copies (see bulk_data.h).
#include "emu/bulk_data.h"

#include <cstdio>
#include <cstring>

#include "emu/lanes.h"

namespace warpscope::emu {
namespace {

using ptx::SubOp;

template <class T>
bool reduce_typed(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t count, SubOp op) {
  for (std::uint64_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, dst + i * sizeof(T), sizeof(T));
    std::memcpy(&b, src + i * sizeof(T), sizeof(T));
    T r;
    switch (op) {
      case SubOp::Add: r = static_cast<T>(a + b); break;
      case SubOp::Min: r = b < a ? b : a; break;
      case SubOp::Max: r = b > a ? b : a; break;
      default:
        if constexpr (std::is_integral_v<T>) {
          switch (op) {
            case SubOp::Inc: r = a >= b ? T(0) : static_cast<T>(a + 1); break;
            case SubOp::Dec: r = (a == 0 || a > b) ? b : static_cast<T>(a - 1); break;
            case SubOp::And: r = static_cast<T>(a & b); break;
            case SubOp::Or: r = static_cast<T>(a | b); break;
            case SubOp::Xor: r = static_cast<T>(a ^ b); break;
            default: return false;
          }
        } else {
          return false;
        }
    }
    std::memcpy(dst + i * sizeof(T), &r, sizeof(T));
  }
  return true;
}

bool reduce_half(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t count, SubOp op, bool bf16) {
  if (op != SubOp::Add && op != SubOp::Min && op != SubOp::Max) return false;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint16_t a, b;
    std::memcpy(&a, dst + 2 * i, 2);
    std::memcpy(&b, src + 2 * i, 2);
    float x = bf16 ? bf16_to_float(a) : half_to_float(a), y = bf16 ? bf16_to_float(b) : half_to_float(b);
    float r = op == SubOp::Add ? x + y : op == SubOp::Min ? (y < x ? y : x) : (y > x ? y : x);
    std::uint16_t h = bf16 ? float_to_bf16(r) : float_to_half(r);
    std::memcpy(dst + 2 * i, &h, 2);
  }
  return true;
}

}  // namespace

bool reduce_elements(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t count, tmap::DataType type, SubOp op) {
  switch (type) {
    case tmap::DataType::U8: return reduce_typed<std::uint8_t>(dst, src, count, op);
    case tmap::DataType::U16: return reduce_typed<std::uint16_t>(dst, src, count, op);
    case tmap::DataType::U32: return reduce_typed<std::uint32_t>(dst, src, count, op);
    case tmap::DataType::S32: return reduce_typed<std::int32_t>(dst, src, count, op);
    case tmap::DataType::U64: return reduce_typed<std::uint64_t>(dst, src, count, op);
    case tmap::DataType::S64: return reduce_typed<std::int64_t>(dst, src, count, op);
    case tmap::DataType::F16: return reduce_half(dst, src, count, op, false);
    case tmap::DataType::BF16: return reduce_half(dst, src, count, op, true);
    case tmap::DataType::F32: case tmap::DataType::F32Ftz: return reduce_typed<float>(dst, src, count, op);
    case tmap::DataType::F64: return reduce_typed<double>(dst, src, count, op);
    default: return false;
  }
}

bool data_type_of(ptx::Type t, tmap::DataType& out) {
  switch (t) {
    case ptx::Type::U32: case ptx::Type::B32: out = tmap::DataType::U32; return true;
    case ptx::Type::S32: out = tmap::DataType::S32; return true;
    case ptx::Type::U64: case ptx::Type::B64: out = tmap::DataType::U64; return true;
    case ptx::Type::S64: out = tmap::DataType::S64; return true;
    case ptx::Type::F16: out = tmap::DataType::F16; return true;
    case ptx::Type::BF16: out = tmap::DataType::BF16; return true;
    case ptx::Type::F32: out = tmap::DataType::F32; return true;
    case ptx::Type::F64: out = tmap::DataType::F64; return true;
    default: return false;
  }
}

std::uint8_t* global_bytes(Warp& w, int lane, std::uint64_t address, std::uint64_t size, const char* what,
                           BlockContext& ctx) {
  const Buffer* b = ctx.last_buffer;
  if (b == nullptr || address < b->base || address - b->base + size > b->size) {
    b = ctx.memory->find(address, size);
    if (b != nullptr) ctx.last_buffer = b;
  }
  if (b != nullptr) return b->bytes.get() + (address - b->base);
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(address));
  std::string message = "out-of-bounds " + std::string(what) + " of " + std::to_string(size) + " bytes at " + buf;
  if (const Buffer* near = ctx.memory->nearest(address); near != nullptr && address >= near->base)
    message += " (" + std::to_string(address + size - near->base - near->size) + " bytes past the end of '" + near->name +
               "', " + std::to_string(near->size) + " bytes)";
  ctx.diagnose(Diagnostic::Kind::OutOfBounds, Diagnostic::Severity::Error, w.index, lane,
               message + " by block " + to_string(ctx.block) + " thread " + to_string(ctx.thread_of(w.index, lane)) +
                   " at " + ctx.where());
  return nullptr;
}

}  // namespace warpscope::emu
