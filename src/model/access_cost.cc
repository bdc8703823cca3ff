// access_cost.cc: dispatch to the shared or global model, and ncu metric naming.
#include "model/access_cost.h"

namespace warpscope::model {

AccessCost price_valid(const Arch& arch, const WarpAccess& access) {
  AccessCost cost;
  cost.op = access.op;
  if (space_of(access.op) == Space::Shared)
    price_shared(arch, access, cost.shared.emplace());  // in place: no copy of a freshly written struct
  else
    price_global(arch, access, cost.global.emplace());
  return cost;
}

Expected<AccessCost> price(const Arch& arch, const WarpAccess& access) {
  if (Status s = validate(access); !s) return s.error();
  return price_valid(arch, access);
}

std::string_view ncu_op_suffix(MemOp op) {
  switch (op) {
    case MemOp::SharedLoad:
    case MemOp::LdMatrix: return "shared_op_ld";
    case MemOp::SharedStore: return "shared_op_st";
    case MemOp::SharedAtomic:
    case MemOp::SharedAtomicAggregated: return "shared_op_atom";
    case MemOp::GlobalLoad: return "global_op_ld";
    case MemOp::GlobalStore: return "global_op_st";
    case MemOp::GlobalReduction: return "global_op_red";
    case MemOp::GlobalAtomic: return "global_op_atom";
    case MemOp::Gmma: return "shared_op_gmma";
  }
  return "?";
}

MetricList ncu_metrics(const AccessCost& cost) {
  const std::string suffix(ncu_op_suffix(cost.op));
  MetricList m;
  if (cost.shared) {
    m.emplace_back("l1tex__data_pipe_lsu_wavefronts_mem_" + suffix, cost.shared->wavefronts);
    m.emplace_back("l1tex__data_bank_conflicts_pipe_lsu_mem_" + suffix, cost.shared->bank_conflicts());
  } else if (cost.global) {
    m.emplace_back("l1tex__t_requests_pipe_lsu_mem_" + suffix, cost.global->requests);
    m.emplace_back("l1tex__t_sectors_pipe_lsu_mem_" + suffix, cost.global->sectors);
  }
  return m;
}

}  // namespace warpscope::model
