// access_cost.h: the cost of one warp instruction, and the ncu metrics it predicts.
//
//   price(sm_90, {lds, 4, 0xffffffff, s[lane*32]})
//     -> shared: wavefronts 32, ideal 1, bank conflicts 31, worst bank 0 (32-way)
//   ncu_metrics(...) -> l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld = 32
//                       l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld = 31
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/arch.h"
#include "model/global_cost.h"
#include "model/shared_cost.h"
#include "model/warp_access.h"
#include "support/expected.h"

namespace warpscope::model {

struct AccessCost {
  MemOp op = MemOp::SharedLoad;
  std::optional<SharedCost> shared;  // set for shared-memory ops
  std::optional<GlobalCost> global;  // set for global-memory ops
};
// Kept to 80 bytes: GCC (x86-64, generic tuning) clears a larger object with `rep stosq`,
// whose start-up alone cost a third of pricing a conflict-free access (model_bench; and
// std::optional's constructor clears its storage).
static_assert(sizeof(AccessCost) <= 80, "price_valid's result must stay small");

// Validates, then prices. The only errors are invalid accesses (see validate()).
Expected<AccessCost> price(const Arch& arch, const WarpAccess& access);

// Prices an access already known to be valid (the emulator's hot path).
AccessCost price_valid(const Arch& arch, const WarpAccess& access);

// The ncu counter suffix of an op: "shared_op_ld" for lds and ldsm, "global_op_st", ...
std::string_view ncu_op_suffix(MemOp op);

using MetricList = std::vector<std::pair<std::string, long long>>;

// The ncu metrics (names without ".sum") this cost predicts, in a fixed order:
// shared ops give wavefronts and bank conflicts; global ops give requests and sectors.
// (Instruction counts such as smsp__inst_executed_op_ldsm are not a property of one access's
// addresses: the seed's harness measured 2 for ldmatrix .x1/.x2 where ours measured 1.)
MetricList ncu_metrics(const AccessCost& cost);

}  // namespace warpscope::model
