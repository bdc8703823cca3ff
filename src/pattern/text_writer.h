// text_writer.h: the human-readable pattern report.
//
//   patterns/seeds.ws:3: load s[lane*2]
//     shared float s[1024] at 0: lds, 4 bytes per lane; block 32x1x1: 1 warp x 1 iteration
//
//     behaviour 1 of 1: 1 warp execution, warp 0
//       wavefronts 2, ideal 1, bank conflicts 1
//       worst bank 0: 2-way conflict, lanes 0,16
//       ...the lane table, each bank's load and the bank diagram (see bank_view.h)
#pragma once

#include <string>

#include "pattern/report.h"

namespace warpscope::pattern {

std::string text_report(const PatternReport& report);

// "0-15,17,20-21" for a set of lanes or warps.
std::string ranges_text(std::uint32_t bits);

}  // namespace warpscope::pattern
