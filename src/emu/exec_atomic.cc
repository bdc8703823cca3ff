// exec_atomic.cc: atom and red of every form nvcc and Triton emit for sm_90: integer ops on
// 16/32/64 bits, float add, f16/bf16 and their x2 packs (add, min, max; .noftz), the vector
// forms (.v2/.v4 of f32, f16x2, bf16x2; .v2/.v4/.v8 of f16, bf16), any scope (.cta .gpu .sys .cluster) and
// order (.relaxed .acquire .release .acq_rel): one warp executes its lanes in lane order, and
// blocks run in parallel, so global memory is updated with host atomics.
//
//   atom.global.add.v4.f32 {%f1..%f4}, [%rd1], {%f5..%f8}   4 elements of 4 bytes per lane
//   atom.shared.add.noftz.f16x2 %r1, [%r2], %r3              two halves added in float
//   red.global.add.noftz.v8.f16 [%rd1], {%h1..%h8}           eight halves, one 16-byte REDG
#include <atomic>
#include <cstring>

#include "emu/exec.h"
#include "emu/lanes.h"
#include "emu/memory_access.h"

namespace warpscope::emu {
namespace {

using ptx::SubOp;
using ptx::Type;

// The new value of an element from the old one.
template <class T>
T combine(SubOp op, T old, T b, T c) {
  switch (op) {
    case SubOp::Add: return static_cast<T>(old + b);
    case SubOp::Min: return b < old ? b : old;
    case SubOp::Max: return b > old ? b : old;
    case SubOp::Exch: return b;
    case SubOp::Cas: return old == b ? c : old;
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case SubOp::Inc: return old >= b ? T(0) : static_cast<T>(old + 1);
      case SubOp::Dec: return (old == 0 || old > b) ? b : static_cast<T>(old - 1);
      case SubOp::And: return static_cast<T>(old & b);
      case SubOp::Or: return static_cast<T>(old | b);
      case SubOp::Xor: return static_cast<T>(old ^ b);
      default: break;
    }
  }
  return old;
}

// f16 / bf16 halves: computed in float and rounded back (.noftz: subnormals are kept).
std::uint16_t combine_half(SubOp op, bool bf, std::uint16_t old, std::uint16_t b, std::uint16_t c) {
  if (op == SubOp::Exch) return b;
  if (op == SubOp::Cas) return old == b ? c : old;
  const float x = bf ? bf16_to_float(old) : half_to_float(old);
  const float y = bf ? bf16_to_float(b) : half_to_float(b);
  const float r = combine<float>(op, x, y, y);
  return bf ? float_to_bf16(r) : float_to_half(r);
}

// One element's read-modify-write; with host atomics for global memory.
template <class Bits, class F>
Bits rmw(std::uint8_t* p, bool concurrent, F&& next) {
  Bits* word = reinterpret_cast<Bits*>(p);
  if (!concurrent) {
    const Bits old = *word;
    *word = next(old);
    return old;
  }
  std::atomic_ref<Bits> ref(*word);
  Bits old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, next(old), std::memory_order_relaxed)) {
  }
  return old;
}

// The bytes of one element, and how it combines: (old bits, b bits, c bits) -> new bits.
struct Element {
  int bytes = 0;
  bool ok = false;
};

Element element_of(Type t) {
  switch (t) {
    case Type::F16x2: case Type::BF16x2: return {4, true};
    case Type::F16: case Type::BF16: case Type::B16: case Type::U16: case Type::S16: return {2, true};
    default: break;
  }
  const int bits = ptx::type_bits(t);
  return {bits / 8, bits == 32 || bits == 64};
}

std::uint64_t update(const Op& op, std::uint8_t* p, bool concurrent, std::uint64_t b, std::uint64_t c, bool& handled) {
  const Type t = op.type;
  handled = true;
  if (t == Type::F16 || t == Type::BF16) {
    const bool bf = t == Type::BF16;
    return rmw<std::uint16_t>(p, concurrent, [&](std::uint16_t old) {
      return combine_half(op.subop, bf, old, static_cast<std::uint16_t>(b), static_cast<std::uint16_t>(c));
    });
  }
  if (t == Type::F16x2 || t == Type::BF16x2) {
    const bool bf = t == Type::BF16x2;
    return rmw<std::uint32_t>(p, concurrent, [&](std::uint32_t old) {
      std::uint32_t out = 0;
      for (int h = 0; h < 2; ++h) {
        const auto part = [h](std::uint64_t v) { return static_cast<std::uint16_t>(v >> (16 * h)); };
        out |= static_cast<std::uint32_t>(combine_half(op.subop, bf, part(old), part(b), part(c))) << (16 * h);
      }
      return out;
    });
  }
  std::uint64_t old = 0;
  handled = with_type(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
      using Bits = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                      std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;
      old = rmw<Bits>(p, concurrent, [&](Bits o) {
        return static_cast<Bits>(to_bits<T>(combine<T>(op.subop, from_bits<T>(o), from_bits<T>(b), from_bits<T>(c))));
      });
    }
  });
  return old;
}

}  // namespace

bool exec_atomic(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  const bool is_red = op.opcode == ptx::Opcode::Red;
  const Element elem = element_of(op.type);
  const int vec = op.vec;
  const int width = elem.bytes * vec;
  const bool bitwise_half = elem.bytes == 2 && (op.type == Type::B16 || op.type == Type::U16 || op.type == Type::S16);
  if (!elem.ok || (vec != 1 && vec != 2 && vec != 4 && vec != 8) || width > 16 || (vec > 1 && op.subop == SubOp::Cas) ||
      (bitwise_half && op.subop != SubOp::Cas && op.subop != SubOp::Exch) || op.nsrc < vec)
    return unsupported(op, w, mask, ctx);
  LaneAccess acc;
  if (!resolve(op, op.space, op.addr, op.offset, width, Intent::Atomic, w, mask, ctx, acc)) return false;
  std::array<const std::uint64_t*, 8> b{};
  std::array<std::uint64_t*, 8> d{};
  for (int k = 0; k < vec; ++k) {
    b[static_cast<std::size_t>(k)] = w.row(op.src[static_cast<std::size_t>(k)]);
    d[static_cast<std::size_t>(k)] = is_red || op.ndst <= k ? nullptr : w.row(op.dst[static_cast<std::size_t>(k)]);
  }
  const std::uint64_t* c = op.subop == SubOp::Cas && op.nsrc > 1 ? w.row(op.src[1]) : b[0];
  bool ok = true;
  for_lanes(mask, [&](int l) {
    const bool concurrent = acc.where[l] == Where::Global;
    for (int k = 0; k < vec; ++k) {
      bool handled = false;
      const std::uint64_t old = update(op, acc.ptr[l] + k * elem.bytes, concurrent, b[static_cast<std::size_t>(k)][l],
                                       c[l], handled);
      if (!handled) ok = false;
      const bool min_max = op.subop == SubOp::Min || op.subop == SubOp::Max;
      if (min_max && vec == 1 && !concurrent) {
        std::uint64_t now = 0;
        std::memcpy(&now, acc.ptr[l], static_cast<std::size_t>(elem.bytes));
        const std::uint64_t bytes_mask = elem.bytes == 8 ? ~0ull : (1ull << (8 * elem.bytes)) - 1;
        if (now == (old & bytes_mask)) acc.unchanged |= 1u << l;
      }
      if (std::uint64_t* dk = d[static_cast<std::size_t>(k)])
        dk[l] = ptx::is_signed(op.type) && elem.bytes == 4 ? to_bits<std::int32_t>(static_cast<std::int32_t>(old)) : old;
    }
  });
  if (!ok) return unsupported(op, w, mask, ctx);
  // ptxas turns a shared add of 1 whose result is unused into ATOMS.POPC.INC.
  model::MemOp shared_op = model::MemOp::SharedAtomic;
  const bool unused = is_red || op.has(ptx::flag::ResultUnused);
  if (unused && op.subop == SubOp::Add && (op.type == Type::U32 || op.type == Type::S32) &&
      op.src[0] >= ctx.program->first_constant_row &&
      ctx.program->constants[op.src[0] - ctx.program->first_constant_row] == 1)
    shared_op = model::MemOp::SharedAtomicAggregated;
  // ...and a global one whose result is unused into RED (ncu counts the two apart); exch and
  // cas have no RED form, and a generic atom is an ATOM.
  const bool red = unused && op.subop != SubOp::Exch && op.subop != SubOp::Cas && op.space == ptx::Space::Global;
  publish(op, w, acc, shared_op, red ? model::MemOp::GlobalReduction : model::MemOp::GlobalAtomic, width, ctx);
  return true;
}

}  // namespace warpscope::emu
