// special_registers.cc: the values of PTX special registers (see special_registers.h).
#include "emu/special_registers.h"

#include "emu/memory.h"

namespace warpscope::emu {
namespace {

std::uint32_t pick(const Dim3& d, std::uint8_t component) {
  return component == 0 ? d.x : component == 1 ? d.y : component == 2 ? d.z : 0;  // .w reads 0
}

std::uint64_t mask_to(int bits, std::uint64_t v) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::uint64_t special_register(ptx::Sreg s, std::uint8_t c, const SregLaunch& launch, const SregThread& t) {
  using ptx::Sreg;
  const Dim3& cl = launch.cluster;
  const auto lane = static_cast<unsigned>(t.lane);
  const std::uint64_t total_shared = align_up(launch.shared_bytes, kSharedAllocationUnit);
  std::uint64_t v = 0;
  switch (s) {
    case Sreg::Tid: v = pick(t.tid, c); break;
    case Sreg::Ntid: v = pick(launch.block, c); break;
    case Sreg::Laneid: v = lane; break;
    case Sreg::Warpid: v = t.warp; break;
    case Sreg::Nwarpid: v = kWarpSlotsPerSm; break;
    case Sreg::Ctaid: v = pick(t.ctaid, c); break;
    case Sreg::Nctaid: v = pick(launch.grid, c); break;
    case Sreg::Smid: v = t.block_index % kSmCount; break;
    case Sreg::Nsmid: v = kSmCount; break;
    case Sreg::Gridid: v = 1; break;
    case Sreg::IsExplicitCluster: v = launch.explicit_cluster ? 1 : 0; break;
    case Sreg::Clusterid: v = c < 3 ? pick(t.ctaid, c) / pick(cl, c) : 0; break;
    case Sreg::Nclusterid: v = c < 3 ? (pick(launch.grid, c) + pick(cl, c) - 1) / pick(cl, c) : 0; break;
    case Sreg::ClusterCtaid: v = c < 3 ? pick(t.ctaid, c) % pick(cl, c) : 0; break;
    case Sreg::ClusterNctaid: v = pick(cl, c); break;
    case Sreg::ClusterCtarank:
      v = t.ctaid.x % cl.x + std::uint64_t(t.ctaid.y % cl.y) * cl.x + std::uint64_t(t.ctaid.z % cl.z) * cl.x * cl.y;
      break;
    case Sreg::ClusterNctarank: v = cl.count(); break;
    case Sreg::LanemaskEq: v = 1ull << lane; break;
    case Sreg::LanemaskLe: v = (2ull << lane) - 1; break;
    case Sreg::LanemaskLt: v = (1ull << lane) - 1; break;
    case Sreg::LanemaskGe: v = ~((1ull << lane) - 1); break;
    case Sreg::LanemaskGt: v = ~((2ull << lane) - 1); break;
    case Sreg::Clock: case Sreg::ClockHi: case Sreg::Clock64:
    case Sreg::Globaltimer: case Sreg::GlobaltimerLo: case Sreg::GlobaltimerHi: v = 0; break;
    case Sreg::Pm: case Sreg::Pm64: v = 0; break;
    case Sreg::Envreg:
      v = c == 1 ? launch.grid_workspace >> 32 : c == 2 ? launch.grid_workspace & 0xffffffffu : 0;
      break;
    case Sreg::ReservedSmemOffsetBegin: v = kReservedSharedOffset; break;
    case Sreg::ReservedSmemOffsetEnd: v = kReservedSharedOffset + kReservedSharedBytes; break;
    case Sreg::ReservedSmemOffsetCap: v = kReservedSharedBytes; break;
    case Sreg::ReservedSmemOffset: v = kReservedSharedOffset + (c == 0 ? kReservedSmemOffset0 : kReservedSmemOffset1); break;
    case Sreg::TotalSmemSize: v = total_shared; break;
    case Sreg::AggrSmemSize: v = total_shared + kReservedSharedBytes; break;
    case Sreg::DynamicSmemSize: v = launch.dynamic_shared_bytes; break;
    case Sreg::CurrentGraphExec: v = 0; break;
    case Sreg::kCount: break;
  }
  return mask_to(ptx::sreg_bits(s), v);
}

bool is_clock(ptx::Sreg s) {
  using ptx::Sreg;
  return s == Sreg::Clock || s == Sreg::ClockHi || s == Sreg::Clock64 || s == Sreg::Globaltimer ||
         s == Sreg::GlobaltimerLo || s == Sreg::GlobaltimerHi;
}

std::uint64_t clock_reading(ptx::Sreg s, std::uint64_t steps) {
  using ptx::Sreg;
  const std::uint64_t cycles = steps * 4, ns = steps * 1000;
  switch (s) {
    case Sreg::Clock: return cycles & 0xffffffffu;
    case Sreg::ClockHi: return cycles >> 32;
    case Sreg::Clock64: return cycles;
    case Sreg::Globaltimer: return ns;
    case Sreg::GlobaltimerLo: return ns & 0xffffffffu;
    case Sreg::GlobaltimerHi: return ns >> 32;
    default: return 0;
  }
}

}  // namespace warpscope::emu
