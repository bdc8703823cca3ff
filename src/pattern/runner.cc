// runner.cc: lane addresses, pricing, and grouping of warp behaviours.
#include "pattern/runner.h"

#include <algorithm>
#include <map>
#include <vector>

#include "model/access_cost.h"
#include "pattern/expression.h"
#include "pattern/parser.h"

namespace warpscope::pattern {

namespace {

std::string describe_thread(const std::vector<std::int64_t>& vars, const Program& program, int loops) {
  auto v = [&](Builtin b) { return std::to_string(vars[static_cast<std::size_t>(b)]); };
  std::string s = "warp " + v(Builtin::Warp) + " lane " + v(Builtin::Lane) + ": tx=" + v(Builtin::Tx) +
                  " ty=" + v(Builtin::Ty) + " tz=" + v(Builtin::Tz);
  for (int i = 0; i < loops; ++i)
    s += " " + program.loops[static_cast<std::size_t>(i)].name + "=" +
         std::to_string(vars[static_cast<std::size_t>(kFirstLoopVariable + i)]);
  return s;
}

std::string shape(const ArrayDecl& a) {
  std::string s = a.name;
  for (std::int64_t d : a.dims) s += "[" + std::to_string(d) + "]";
  return s;
}

// What makes two warp executions "the same behaviour": mask, cost, relative addresses.
std::vector<std::uint64_t> behaviour_key(const model::WarpAccess& a, const model::AccessCost& c) {
  std::vector<std::uint64_t> key;
  key.reserve(48);
  key.push_back(a.mask);
  for (const auto& [name, value] : model::ncu_metrics(c)) key.push_back(static_cast<std::uint64_t>(value));
  if (c.shared) {
    key.push_back(static_cast<std::uint64_t>(c.shared->ideal_wavefronts));
    key.push_back(static_cast<std::uint64_t>(c.shared->worst_degree));
  }
  if (c.global) {
    key.push_back(static_cast<std::uint64_t>(c.global->lines));
    key.push_back(static_cast<std::uint64_t>(c.global->ideal_sectors));
    key.push_back(static_cast<std::uint64_t>(c.global->cause));
  }
  std::uint64_t low = ~std::uint64_t{0};
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    if (a.active(lane)) low = std::min(low, a.address[static_cast<std::size_t>(lane)]);
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    if (a.active(lane)) key.push_back(a.address[static_cast<std::size_t>(lane)] - low);
  return key;
}

class StatementRunner {
 public:
  StatementRunner(const Source& source, const Program& program, const model::Arch& arch, const Access& access)
      : source_(source), program_(program), arch_(arch), access_(access),
        array_(program.arrays[static_cast<std::size_t>(access.array)]) {}

  Expected<StatementReport> run() {
    StatementReport r;
    r.file = source_.name();
    r.line = access_.at.line;
    r.column = access_.at.column;
    r.text = access_.text;
    r.op = access_.op;
    r.width = access_.op == model::MemOp::LdMatrix ? access_.matrices : array_.type.bytes;
    r.array = array_.name;
    r.space = array_.space;
    r.element_type = std::string(array_.type.name);
    r.element_bytes = array_.type.bytes;
    r.dims = array_.dims;
    r.base = array_.base;
    for (int i = 0; i < access_.loops; ++i) r.loops.push_back(program_.loops[static_cast<std::size_t>(i)].name);

    const BlockShape& block = program_.block;
    vars_.assign(static_cast<std::size_t>(kFirstLoopVariable + access_.loops), 0);
    vars_[static_cast<std::size_t>(Builtin::Bx)] = block.x;
    vars_[static_cast<std::size_t>(Builtin::By)] = block.y;
    vars_[static_cast<std::size_t>(Builtin::Bz)] = block.z;
    for (int i = 0; i < access_.loops; ++i) {
      r.iterations *= program_.loops[static_cast<std::size_t>(i)].trip_count();
      vars_[static_cast<std::size_t>(kFirstLoopVariable + i)] = program_.loops[static_cast<std::size_t>(i)].begin;
    }

    std::map<std::vector<std::uint64_t>, std::size_t> seen;
    for (long long iteration = 0; iteration < r.iterations; ++iteration) {
      for (int warp = 0; warp < block.warps(); ++warp) {
        auto access = warp_access(warp);
        if (!access) return access.error();
        if (access->mask == 0) {
          ++r.idle_executions;
          continue;
        }
        auto cost = model::price(arch_, *access);
        if (!cost)
          return source_.error(std::string(model::op_name(access_.op)) + " of " + shape(array_) + ": " +
                                   cost.error().message,
                               access_.at);
        auto [it, inserted] = seen.try_emplace(behaviour_key(*access, *cost), r.behaviours.size());
        if (inserted) {
          Behaviour b;
          b.access = *access;
          b.cost = *cost;
          b.first_warp = warp;
          b.first_iteration.assign(vars_.begin() + kFirstLoopVariable, vars_.end());
          b.lanes = lane_views(arch_, b.access, b.cost);
          b.diagram = bank_diagram(arch_, b.access, b.cost);
          r.behaviours.push_back(std::move(b));
        }
        Behaviour& b = r.behaviours[it->second];
        ++b.executions;
        b.warps |= 1u << warp;
      }
      advance_loops();
    }
    return r;
  }

 private:
  // The odometer over the enclosing loops, innermost (last declared) fastest.
  void advance_loops() {
    for (int i = access_.loops - 1; i >= 0; --i) {
      const Loop& loop = program_.loops[static_cast<std::size_t>(i)];
      std::int64_t& v = vars_[static_cast<std::size_t>(kFirstLoopVariable + i)];
      v += loop.step;
      if (v < loop.end) return;
      v = loop.begin;
    }
  }

  Expected<model::WarpAccess> warp_access(int warp) {
    const BlockShape& block = program_.block;
    model::WarpAccess a;
    a.op = access_.op;
    a.width = access_.op == model::MemOp::LdMatrix ? access_.matrices : array_.type.bytes;
    a.mask = 0;
    for (int lane = 0; lane < model::kWarpSize; ++lane) {
      const int tid = warp * model::kWarpSize + lane;
      if (tid >= block.threads() || !(access_.mask >> lane & 1u)) continue;
      vars_[static_cast<std::size_t>(Builtin::Tid)] = tid;
      vars_[static_cast<std::size_t>(Builtin::Lane)] = lane;
      vars_[static_cast<std::size_t>(Builtin::Warp)] = warp;
      vars_[static_cast<std::size_t>(Builtin::Tx)] = tid % block.x;
      vars_[static_cast<std::size_t>(Builtin::Ty)] = tid / block.x % block.y;
      vars_[static_cast<std::size_t>(Builtin::Tz)] = tid / (block.x * block.y);
      if (access_.predicate) {
        auto p = evaluate(*access_.predicate, vars_, source_);
        if (!p) return p.error();
        if (*p == 0) continue;
      }
      std::uint64_t element = 0;
      for (std::size_t d = 0; d < access_.indices.size(); ++d) {
        auto index = evaluate(access_.indices[d], vars_, source_);
        if (!index) return index.error();
        const std::int64_t extent = array_.dims[d];
        if (*index < 0 || *index >= extent)
          return source_.error("index " + std::to_string(*index) + " is out of bounds for dimension " +
                                   std::to_string(d) + " of " + shape(array_) + " (" +
                                   describe_thread(vars_, program_, access_.loops) + ")",
                               access_.index_at[d]);
        element = element * static_cast<std::uint64_t>(extent) + static_cast<std::uint64_t>(*index);
      }
      a.address[static_cast<std::size_t>(lane)] = array_.base + element * static_cast<std::uint64_t>(array_.type.bytes);
      a.mask |= 1u << lane;
    }
    return a;
  }

  const Source& source_;
  const Program& program_;
  const model::Arch& arch_;
  const Access& access_;
  const ArrayDecl& array_;
  std::vector<std::int64_t> vars_;
};

}  // namespace

Expected<PatternReport> run(const Source& source, const Program& program, const model::Arch& arch,
                            const RunLimits& limits) {
  // Check the total work first, so that no program runs for long before failing.
  long long total = 0;
  for (const Access& a : program.accesses) {
    long long n = program.block.warps();
    for (int i = 0; i < a.loops; ++i) {
      n *= program.loops[static_cast<std::size_t>(i)].trip_count();
      if (n > limits.max_warp_executions) break;
    }
    total += n;
    if (total > limits.max_warp_executions)
      return source.error("too much work: more than " + std::to_string(limits.max_warp_executions) +
                              " warp executions (warps x loop iterations) up to here",
                          a.at);
  }
  PatternReport report;
  report.arch = arch.name;
  report.block = program.block;
  for (const Access& a : program.accesses) {
    auto statement = StatementRunner(source, program, arch, a).run();
    if (!statement) return statement.error();
    report.statements.push_back(std::move(*statement));
  }
  return report;
}

Expected<PatternReport> analyze(const Source& source, const model::Arch& arch, const RunLimits& limits) {
  auto program = parse(source);
  if (!program) return program.error();
  return run(source, *program, arch, limits);
}

}  // namespace warpscope::pattern
