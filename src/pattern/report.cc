// report.cc: totals over a statement's behaviours.
#include "pattern/report.h"

namespace warpscope::pattern {

namespace {
template <class Figure>
long long sum(const std::vector<Behaviour>& behaviours, Figure figure) {
  long long total = 0;
  for (const Behaviour& b : behaviours) total += b.executions * figure(b.cost);
  return total;
}
}  // namespace

long long StatementReport::executions() const {
  return sum(behaviours, [](const model::AccessCost&) { return 1LL; });
}
long long StatementReport::total_wavefronts() const {
  return sum(behaviours, [](const model::AccessCost& c) { return c.shared ? c.shared->wavefronts : 0LL; });
}
long long StatementReport::total_ideal_wavefronts() const {
  return sum(behaviours, [](const model::AccessCost& c) { return c.shared ? c.shared->ideal_wavefronts : 0LL; });
}
long long StatementReport::total_sectors() const {
  return sum(behaviours, [](const model::AccessCost& c) { return c.global ? c.global->sectors : 0LL; });
}
long long StatementReport::total_ideal_sectors() const {
  return sum(behaviours, [](const model::AccessCost& c) { return c.global ? c.global->ideal_sectors : 0LL; });
}

}  // namespace warpscope::pattern
