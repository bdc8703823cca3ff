// report.h: what running a pattern program found, for the writers to format.
//
//   StatementReport  patterns/transpose.ws:4 "load tile[tx][ty]", lds of 4 bytes
//     Behaviour      8 warp executions (warps 0-7), wavefronts 32 (ideal 1), 32-way on bank 0
//
// One Behaviour stands for every warp execution (warp x loop iteration) whose access has
// the same mask, the same cost and the same addresses relative to its lowest address; it
// keeps the first such warp's access as the example to show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/access_cost.h"
#include "model/warp_access.h"
#include "pattern/ast.h"
#include "pattern/bank_view.h"

namespace warpscope::pattern {

struct Behaviour {
  model::WarpAccess access;  // the first warp execution seen with this behaviour
  model::AccessCost cost;
  long long executions = 0;  // warp executions (warps x loop iterations) behaving like this
  std::uint32_t warps = 0;   // bit w set: warp w behaved like this at least once
  int first_warp = 0;
  std::vector<std::int64_t> first_iteration;  // loop variable values of the first one
  std::vector<LaneView> lanes;  // the example access, lane by lane
  BankDiagram diagram;          // ... and bank by bank (shared memory only)
};

struct StatementReport {
  std::string file;
  int line = 0;
  int column = 0;
  std::string text;  // "load tile[tx][ty]"
  model::MemOp op = model::MemOp::SharedLoad;
  int width = 4;  // bytes per lane (ldmatrix: matrices)
  // The array accessed.
  std::string array;
  model::Space space = model::Space::Shared;
  std::string element_type;
  int element_bytes = 4;
  std::vector<std::int64_t> dims;
  std::uint64_t base = 0;
  std::vector<std::string> loops;  // enclosing loop variables, outermost first
  long long iterations = 1;        // product of the enclosing loops' trip counts
  long long idle_executions = 0;   // warp executions with no active lane (not issued)
  std::vector<Behaviour> behaviours;

  long long executions() const;  // warp executions issued: the sum over behaviours
  // Sums over all executions of a figure of the cost, e.g. wavefronts.
  long long total_wavefronts() const;
  long long total_ideal_wavefronts() const;
  long long total_sectors() const;
  long long total_ideal_sectors() const;
};

struct PatternReport {
  std::string arch;
  BlockShape block;
  std::vector<StatementReport> statements;
};

}  // namespace warpscope::pattern
