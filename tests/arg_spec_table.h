// arg_spec_table.h: reads tests/data/arg_specs.txt, the --arg specs both warpscope and
// tools/ptxlaunch must read alike (see the file's header). Header-only, plain C++17: the
// ptxlaunch test includes it too.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace arg_spec_table {

struct ExpectedBuffer {
  std::string kind;  // "hex", "zero" or "default"
  std::string hex;   // kind "hex": the contents
  unsigned long long size = 0;
};

struct Row {
  int line = 0;
  std::string spec, param;  // param: the .param declaration with P for the name
  bool reject = false;
  std::string message;      // reject: text every message contains (may be empty)
  std::string param_hex;    // p: any pointer nibble
  std::vector<ExpectedBuffer> buffers;

  // A one-kernel PTX module taking that parameter.
  std::string ptx() const {
    std::string decl = param;
    decl.replace(decl.find('P'), 1, "k_param_0");
    return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(" + decl + ")\n{\nret;\n}\n";
  }
};

inline std::vector<Row> read(const std::string& path) {
  std::vector<Row> rows;
  std::ifstream in(path);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    Row r;
    r.line = number;
    std::istringstream fields(line);
    std::string expected;
    std::getline(fields, r.spec, '\t');
    std::getline(fields, r.param, '\t');
    std::getline(fields, expected);
    std::istringstream words(expected);
    std::string word;
    words >> word;
    if (word == "reject") {
      r.reject = true;
      std::getline(words >> std::ws, r.message);
    } else {
      words >> r.param_hex;
      while (words >> word) {  // "buffer"
        ExpectedBuffer b;
        words >> b.kind;
        if (b.kind == "zero" || b.kind == "default") {
          words >> b.size;
        } else {
          b.hex = b.kind;
          b.kind = "hex";
          b.size = b.hex.size() / 2;
        }
        r.buffers.push_back(b);
      }
    }
    rows.push_back(r);
  }
  return rows;
}

inline std::string hex(const unsigned char* bytes, unsigned long long n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned long long i = 0; i < n; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

// `actual` against an expected hex string where 'p' matches any nibble.
inline bool hex_matches(const std::string& expected, const std::string& actual) {
  if (expected.size() != actual.size()) return false;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (expected[i] != 'p' && expected[i] != actual[i]) return false;
  return true;
}

}  // namespace arg_spec_table
