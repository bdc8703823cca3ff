// async_modifiers.cc: decoding the modifiers of the sm_90 asynchronous instructions
// (see async_variant.h); the instruction parser asks here for a modifier its own table
// does not know.
#include <unordered_map>

#include "ptx/async_variant.h"

namespace warpscope::ptx::async {
namespace {

enum class Kind : std::uint8_t { Variant, Dims, Field, ClusterSpace, Ignore };

struct Entry {
  Kind kind;
  std::uint32_t value;
};

const std::unordered_map<std::string_view, Entry>& table() {
  static const auto* t = new std::unordered_map<std::string_view, Entry>{
      {"1d", {Kind::Dims, 1}}, {"2d", {Kind::Dims, 2}}, {"3d", {Kind::Dims, 3}}, {"4d", {Kind::Dims, 4}},
      {"5d", {Kind::Dims, 5}},
      {"tile", {Kind::Ignore, 0}},
      {"im2col", {Kind::Variant, Im2col}},
      {"im2col_no_offs", {Kind::Variant, Im2col}},
      {"mbarrier::complete_tx::bytes", {Kind::Variant, CompleteTx}},
      {"bulk_group", {Kind::Variant, BulkGroup}},
      {"multicast::cluster", {Kind::Variant, Multicast}},
      {"L2::cache_hint", {Kind::Variant, CacheHint}},
      {"cp_mask", {Kind::Variant, CpMask}},
      {"expect_tx", {Kind::Variant, ExpectTx}},
      {"parity", {Kind::Variant, Parity}},
      {"read", {Kind::Variant, Read}},
      {"tensormap::generic", {Kind::Variant, TensormapProxy}},
      {"mbarrier_init", {Kind::Variant, MbarrierInitFence}},
      {"launch_dependents", {Kind::Variant, LaunchDependents}},
      {"wait", {Kind::Variant, Wait}},
      {"noinc", {Kind::Variant, NoInc}},
      {"global_address", {Kind::Field, static_cast<std::uint32_t>(MapField::GlobalAddress)}},
      {"rank", {Kind::Field, static_cast<std::uint32_t>(MapField::Rank)}},
      {"box_dim", {Kind::Field, static_cast<std::uint32_t>(MapField::BoxDim)}},
      {"global_dim", {Kind::Field, static_cast<std::uint32_t>(MapField::GlobalDim)}},
      {"global_stride", {Kind::Field, static_cast<std::uint32_t>(MapField::GlobalStride)}},
      {"element_stride", {Kind::Field, static_cast<std::uint32_t>(MapField::ElementStride)}},
      {"elemtype", {Kind::Field, static_cast<std::uint32_t>(MapField::ElemType)}},
      {"interleave_layout", {Kind::Field, static_cast<std::uint32_t>(MapField::InterleaveLayout)}},
      {"swizzle_mode", {Kind::Field, static_cast<std::uint32_t>(MapField::SwizzleMode)}},
      {"swizzle_atomicity", {Kind::Field, static_cast<std::uint32_t>(MapField::SwizzleAtomicity)}},
      {"fill_mode", {Kind::Field, static_cast<std::uint32_t>(MapField::FillMode)}},
      {"shared::cluster", {Kind::ClusterSpace, 0}},
      // Scopes, sizes and forms that change no value or address.
      {"cluster", {Kind::Ignore, 0}},
      {"b1024", {Kind::Ignore, 0}},
      {"tensormap", {Kind::Ignore, 0}},
      {"L2::evict_normal", {Kind::Ignore, 0}},
  };
  return *t;
}

// Which opcodes take which modifiers of the table: the async family and the no-op and
// barrier instructions around it take all; memory instructions only the cluster space
// and scope (ld.shared::cluster, atom.cluster).
bool accepts(const Instruction& inst, Kind kind) {
  Family f = family_of(inst.opcode);
  if (f == Family::Async || f == Family::Nop || f == Family::Control) return true;
  if (f == Family::Memory) return kind == Kind::ClusterSpace || kind == Kind::Ignore;
  return false;
}

}  // namespace

bool apply_async_modifier(Instruction& inst, std::string_view mod) {
  auto it = table().find(mod);
  if (it == table().end() || !accepts(inst, it->second.kind)) return false;
  const Entry e = it->second;
  switch (e.kind) {
    case Kind::Variant: inst.variant |= e.value; break;
    case Kind::Dims: inst.variant = (inst.variant & ~kDimsMask) | e.value; break;
    case Kind::Field: inst.variant = (inst.variant & ~kFieldMask) | (e.value << kFieldShift); break;
    case Kind::ClusterSpace:
      // The first state space named is the one that may be another CTA's: the
      // destination of a copy, the address of an ld/st/atom/mbarrier.
      if (inst.space == Space::None) {
        inst.space = Space::Shared;
        inst.flags |= flag::Cluster;
      } else {
        inst.space2 = Space::Shared;
      }
      break;
    case Kind::Ignore: break;
  }
  return true;
}

}  // namespace warpscope::ptx::async
