// exec_bits.cc: logic, shifts and bit fields: and/or/xor/not/cnot, shl/shr/shf,
// bfe/bfi/prmt, popc/clz/brev/bfind, lop3.
#include <bit>

#include "emu/exec.h"
#include "emu/lanes.h"

namespace warpscope::emu {
namespace {

using ptx::Opcode;
using ptx::Type;

// The byte each mode picks for d.b0..d.b3, by the selector's low two bits (PTX ISA).
constexpr std::uint8_t kPrmtModes[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
};

template <class U>
U prmt(U a, U b, U sel, ptx::SubOp mode) {
  std::uint64_t bytes = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(b)) << 32) | static_cast<std::uint32_t>(a);
  if (mode >= ptx::SubOp::F4e && mode <= ptx::SubOp::Rc16) {
    const auto& pick = kPrmtModes[static_cast<int>(mode) - static_cast<int>(ptx::SubOp::F4e)][static_cast<std::uint32_t>(sel) & 3u];
    std::uint32_t out = 0;
    for (int i = 0; i < 4; ++i) out |= static_cast<std::uint32_t>((bytes >> (8 * pick[i])) & 0xffu) << (8 * i);
    return static_cast<U>(out);
  }
  std::uint32_t out = 0;
  for (int i = 0; i < 4; ++i) {
    std::uint32_t s = (static_cast<std::uint32_t>(sel) >> (4 * i)) & 0xfu;
    std::uint32_t byte = static_cast<std::uint32_t>(bytes >> (8 * (s & 7u))) & 0xffu;
    if (s & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;  // replicate the sign bit
    out |= byte << (8 * i);
  }
  return static_cast<U>(out);
}

template <class U>
bool bits_op(const Op& op, Warp& w, std::uint32_t mask) {
  using S = std::make_signed_t<U>;
  constexpr unsigned kBits = sizeof(U) * 8;
  std::uint64_t* d = w.row(op.dst[0]);
  const std::uint64_t* a = op.nsrc > 0 ? w.row(op.src[0]) : nullptr;
  const std::uint64_t* b = op.nsrc > 1 ? w.row(op.src[1]) : nullptr;
  const std::uint64_t* c = op.nsrc > 2 ? w.row(op.src[2]) : nullptr;
  const std::uint64_t* e = op.nsrc > 3 ? w.row(op.src[3]) : nullptr;
  auto A = [&](int l) { return static_cast<U>(a[l]); };
  auto B = [&](int l) { return static_cast<U>(b[l]); };
  const bool is_signed = ptx::is_signed(op.type);
  switch (op.opcode) {
    case Opcode::And: for_lanes(mask, [&](int l) { d[l] = A(l) & B(l); }); return true;
    case Opcode::Or: for_lanes(mask, [&](int l) { d[l] = A(l) | B(l); }); return true;
    case Opcode::Xor: for_lanes(mask, [&](int l) { d[l] = A(l) ^ B(l); }); return true;
    case Opcode::Not: for_lanes(mask, [&](int l) { d[l] = static_cast<U>(~A(l)); }); return true;
    case Opcode::Cnot: for_lanes(mask, [&](int l) { d[l] = A(l) == 0 ? 1u : 0u; }); return true;
    case Opcode::Shl:
      for_lanes(mask, [&](int l) {
        auto n = static_cast<std::uint32_t>(b[l]);
        d[l] = n >= kBits ? 0 : static_cast<U>(A(l) << n);
      });
      return true;
    case Opcode::Shr:
      for_lanes(mask, [&](int l) {
        auto n = static_cast<std::uint32_t>(b[l]);
        if (is_signed) {
          S v = static_cast<S>(A(l));
          d[l] = to_bits<S>(static_cast<S>(v >> (n >= kBits ? kBits - 1 : n)));
        } else {
          d[l] = n >= kBits ? 0 : static_cast<U>(A(l) >> n);
        }
      });
      return true;
    case Opcode::Shf: {
      bool left = op.has(ptx::flag::Left), wrap = op.has(ptx::flag::Wrap);
      for_lanes(mask, [&](int l) {
        std::uint64_t pair = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(b[l])) << 32) |
                             static_cast<std::uint32_t>(a[l]);
        auto n = static_cast<std::uint32_t>(c[l]);
        n = wrap ? (n & 31u) : (n > 32 ? 32 : n);
        d[l] = left ? static_cast<std::uint32_t>((pair << n) >> 32) : static_cast<std::uint32_t>(pair >> n);
      });
      return true;
    }
    case Opcode::Bfe:
      for_lanes(mask, [&](int l) {
        std::uint32_t pos = static_cast<std::uint32_t>(b[l]) & 0xffu, len = static_cast<std::uint32_t>(c[l]) & 0xffu;
        U v = A(l);
        U field = pos >= kBits ? 0 : static_cast<U>(v >> pos);
        if (len < kBits) field &= static_cast<U>((U(1) << len) - 1);
        if (is_signed && len > 0) {
          std::uint32_t top = pos + len - 1 < kBits ? pos + len - 1 : kBits - 1;
          bool sign = (v >> top) & 1u;
          if (sign && len < kBits) field |= static_cast<U>(~((U(1) << len) - 1));
          if (len == 0) field = 0;
        }
        d[l] = to_bits<U>(field);
      });
      return true;
    case Opcode::Bfi:
      for_lanes(mask, [&](int l) {
        std::uint32_t pos = static_cast<std::uint32_t>(c[l]) & 0xffu, len = static_cast<std::uint32_t>(e[l]) & 0xffu;
        U f = A(l), base = B(l);
        if (pos >= kBits || len == 0) {
          d[l] = base;
          return;
        }
        U m = len >= kBits ? static_cast<U>(~U(0)) : static_cast<U>((U(1) << len) - 1);
        m = static_cast<U>(m << pos);
        d[l] = static_cast<U>((base & ~m) | (static_cast<U>(f << pos) & m));
      });
      return true;
    case Opcode::Prmt:
      for_lanes(mask, [&](int l) { d[l] = prmt<U>(A(l), B(l), static_cast<U>(c[l]), op.subop); });
      return true;
    case Opcode::Popc: for_lanes(mask, [&](int l) { d[l] = static_cast<std::uint32_t>(std::popcount(A(l))); }); return true;
    case Opcode::Clz: for_lanes(mask, [&](int l) { d[l] = static_cast<std::uint32_t>(std::countl_zero(A(l))); }); return true;
    case Opcode::Brev:
      for_lanes(mask, [&](int l) {
        U v = A(l), r = 0;
        for (unsigned i = 0; i < kBits; ++i) r = static_cast<U>(r | (((v >> i) & 1u) << (kBits - 1 - i)));
        d[l] = r;
      });
      return true;
    case Opcode::Bfind:
      for_lanes(mask, [&](int l) {
        U v = A(l);
        if (is_signed && (v >> (kBits - 1))) v = static_cast<U>(~v);
        std::uint32_t r = v == 0 ? 0xffffffffu : static_cast<std::uint32_t>(kBits - 1 - std::countl_zero(v));
        if (op.has(ptx::flag::Shiftamt) && r != 0xffffffffu) r = kBits - 1 - r;
        d[l] = r;
      });
      return true;
    case Opcode::Bmsk:
      // bmsk.clamp/.wrap.b32 d, a, b: a mask of b bits from bit a (the PTX ISA's
      // semantics, step by step). .wrap takes a and b mod 32; .clamp gives 0 from a >= 32
      // and every bit from a up when b >= 32.
      for_lanes(mask, [&](int l) {
        const std::uint64_t pos = a[l] & 0xffffffffu, width = b[l] & 0xffffffffu;
        const std::uint32_t a1 = static_cast<std::uint32_t>(pos & 31u), b1 = static_cast<std::uint32_t>(width & 31u);
        const std::uint32_t sum = a1 + b1;
        std::uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0u : ~0u << sum;
        bool overflow = sum >= 32;
        if (op.has(ptx::flag::Clamp)) {
          if (pos >= 32) {
            overflow = true;
            mask0 = 0;
          }
          if (width >= 32) overflow = true;
        }
        if (overflow) {
          mask1 = 0;
        } else if (b1 == 0) {
          mask1 = ~0u;
        }
        d[l] = mask0 & ~mask1;
      });
      return true;
    case Opcode::Lop3:
      for_lanes(mask, [&](int l) {
        U x = A(l), y = B(l), z = static_cast<U>(c[l]), r = 0;
        auto lut = static_cast<std::uint32_t>(e[l]);
        for (int i = 0; i < 8; ++i)
          if ((lut >> i) & 1u) r |= static_cast<U>((i & 4 ? x : ~x) & (i & 2 ? y : ~y) & (i & 1 ? z : ~z));
        d[l] = r;
      });
      return true;
    default:
      return false;
  }
}

}  // namespace

bool exec_bits(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  bool done = false;
  switch (op.type) {
    case Type::Pred:
      if (op.opcode == Opcode::Not) {
        std::uint64_t* d = w.row(op.dst[0]);
        const std::uint64_t* a = w.row(op.src[0]);
        for_lanes(mask, [&](int l) { d[l] = a[l] ? 0u : 1u; });
        done = true;
      } else {
        done = bits_op<std::uint8_t>(op, w, mask);
      }
      break;
    case Type::B8: case Type::U8: case Type::S8: done = bits_op<std::uint8_t>(op, w, mask); break;
    case Type::B16: case Type::U16: case Type::S16: done = bits_op<std::uint16_t>(op, w, mask); break;
    case Type::B32: case Type::U32: case Type::S32: done = bits_op<std::uint32_t>(op, w, mask); break;
    case Type::B64: case Type::U64: case Type::S64: done = bits_op<std::uint64_t>(op, w, mask); break;
    default: break;
  }
  return done ? true : unsupported(op, w, mask, ctx);
}

}  // namespace warpscope::emu
