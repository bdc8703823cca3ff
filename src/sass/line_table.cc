// line_table.cc: reading .debug_line from a cubin (ELF64) and annotating nvdisasm's listing.
#include "sass/line_table.h"

#include <cstring>

namespace warpscope::sass {

namespace {

// Bounds-checked little-endian reads; `ok` turns false at the first read past the end.
struct Reader {
  std::string_view data;
  std::size_t pos = 0;
  bool ok = true;

  bool has(std::size_t n) const { return ok && pos <= data.size() && data.size() - pos >= n; }
  std::uint64_t fixed(std::size_t n) {
    if (!has(n)) {
      ok = false;
      return 0;
    }
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n && i < 8; ++i)  // a wider field keeps its low 8 bytes
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(data[pos + i])) << (8 * i);
    pos += n;
    return v;
  }
  std::uint64_t uleb() {
    std::uint64_t v = 0;
    for (int shift = 0; ok; shift += 7) {
      const auto b = fixed(1);
      if (shift < 64) v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    return v;
  }
  std::int64_t sleb() {
    std::int64_t v = 0;
    int shift = 0;
    std::uint64_t b = 0;
    do {
      b = fixed(1);
      if (shift < 64) v |= static_cast<std::int64_t>((b & 0x7f) << shift);
      shift += 7;
    } while (ok && (b & 0x80));
    if (shift < 64 && (b & 0x40)) v |= -(static_cast<std::int64_t>(1) << shift);
    return v;
  }
  std::string cstring() {
    const auto end = ok ? data.find('\0', pos) : std::string_view::npos;
    if (end == std::string_view::npos) {
      ok = false;
      return {};
    }
    std::string s(data.substr(pos, end - pos));
    pos = end + 1;
    return s;
  }
};

struct Section {
  std::string name;
  std::uint32_t type = 0, link = 0;
  std::uint64_t offset = 0, size = 0;
  std::string_view bytes;
};

Expected<std::vector<Section>> sections_of(std::string_view elf) {
  if (elf.size() < 64 || elf.substr(0, 4) != std::string_view("\x7f" "ELF", 4) || elf[4] != 2 || elf[5] != 1)
    return make_error("not a 64-bit little-endian ELF file");
  Reader h{elf, 0x28};
  const std::uint64_t shoff = h.fixed(8);
  h.pos = 0x3a;
  const auto shentsize = h.fixed(2), shnum = h.fixed(2), shstrndx = h.fixed(2);
  if (shentsize < 64 || shnum == 0 || shstrndx >= shnum || shoff > elf.size() || (elf.size() - shoff) / shentsize < shnum)
    return make_error("ELF section headers out of range");
  std::vector<Section> out(shnum);
  std::vector<std::uint32_t> names(shnum);
  for (std::size_t k = 0; k < shnum; ++k) {
    Reader r{elf, static_cast<std::size_t>(shoff + k * shentsize)};
    names[k] = static_cast<std::uint32_t>(r.fixed(4));
    out[k].type = static_cast<std::uint32_t>(r.fixed(4));
    r.fixed(16);  // flags, addr
    out[k].offset = r.fixed(8);
    out[k].size = r.fixed(8);
    out[k].link = static_cast<std::uint32_t>(r.fixed(4));
    if (out[k].type != 8 /* SHT_NOBITS */ && out[k].offset <= elf.size() && out[k].size <= elf.size() - out[k].offset)
      out[k].bytes = elf.substr(out[k].offset, out[k].size);
  }
  const std::string_view strtab = out[shstrndx].bytes;
  for (std::size_t k = 0; k < shnum; ++k)
    if (names[k] < strtab.size()) {
      const auto end = strtab.find('\0', names[k]);
      out[k].name = std::string(strtab.substr(names[k], end == std::string_view::npos ? end : end - names[k]));
    }
  return out;
}

const Section* find(const std::vector<Section>& s, std::string_view name) {
  for (const Section& x : s)
    if (x.name == name) return &x;
  return nullptr;
}

// .rela.debug_line: offset in .debug_line -> (symbol name, addend).
std::map<std::uint64_t, std::pair<std::string, std::int64_t>> relocations(const std::vector<Section>& s) {
  std::map<std::uint64_t, std::pair<std::string, std::int64_t>> out;
  const Section* rela = find(s, ".rela.debug_line");
  if (!rela || rela->link >= s.size()) return out;
  const Section& symtab = s[rela->link];
  if (symtab.link >= s.size()) return out;
  const std::string_view strs = s[symtab.link].bytes;
  for (std::size_t k = 0; k + 24 <= rela->bytes.size(); k += 24) {
    Reader r{rela->bytes, k};
    const auto off = r.fixed(8), info = r.fixed(8);
    const auto addend = static_cast<std::int64_t>(r.fixed(8));
    const std::uint64_t sym = info >> 32;
    if (sym >= symtab.bytes.size() / 24) continue;
    Reader y{symtab.bytes, static_cast<std::size_t>(sym * 24)};
    const auto name = y.fixed(4);
    if (name >= strs.size()) continue;
    const auto end = strs.find('\0', name);
    out[off] = {std::string(strs.substr(name, end == std::string_view::npos ? end : end - name)), addend};
  }
  return out;
}

}  // namespace

Expected<std::map<std::string, std::vector<LineRow>>> read_line_rows(std::string_view elf) {
  auto secs = sections_of(elf);
  if (!secs) return secs.error();
  const Section* dl = find(*secs, ".debug_line");
  if (!dl) return make_error("no .debug_line section (compile with -lineinfo)");
  const auto rel = relocations(*secs);
  std::map<std::string, std::vector<LineRow>> out;
  Reader r{dl->bytes};
  while (r.ok && r.pos < r.data.size()) {
    const std::size_t unit = r.pos;
    const std::uint64_t length = r.fixed(4);
    if (!r.ok || length == 0xffffffff || length > r.data.size() - r.pos) return make_error(".debug_line: bad unit length");
    const std::size_t end = r.pos + length;
    const auto version = r.fixed(2);
    if (version < 2 || version > 4) return make_error(".debug_line: DWARF version " + std::to_string(version) + " not read");
    const std::uint64_t header = r.fixed(4);
    if (header > end - r.pos) return make_error(".debug_line: bad header length");
    const std::size_t program = r.pos + header;
    const auto min_length = r.fixed(1);
    if (version >= 4) r.fixed(1);  // maximum operations per instruction
    r.fixed(1);                    // default is_stmt
    const auto line_base = static_cast<std::int8_t>(r.fixed(1));
    const auto line_range = r.fixed(1);
    const auto opcode_base = r.fixed(1);
    if (!r.ok || line_range == 0 || opcode_base == 0) return make_error(".debug_line: bad header");
    std::vector<std::uint64_t> lengths(opcode_base);
    for (std::size_t k = 1; k < opcode_base; ++k) lengths[k] = r.fixed(1);
    std::vector<std::string> dirs{""};
    while (r.has(1) && r.data[r.pos] != '\0') dirs.push_back(r.cstring());
    r.fixed(1);
    std::vector<std::string> files{""};
    while (r.has(1) && r.data[r.pos] != '\0') {
      std::string name = r.cstring();
      const auto dir = r.uleb();
      r.uleb();
      r.uleb();
      files.push_back(dir > 0 && dir < dirs.size() ? dirs[dir] + "/" + name : name);
    }
    if (!r.ok) return make_error(".debug_line: bad file table");
    r.pos = program;
    std::uint64_t address = 0, file = 1;
    std::int64_t line = 1;
    std::vector<LineRow>* rows = nullptr;
    auto emit = [&] {
      if (rows && rows->size() < (1u << 22))
        rows->push_back({static_cast<std::uint32_t>(address), file < files.size() ? files[file] : std::string(),
                         static_cast<int>(line)});
    };
    while (r.ok && r.pos < end) {
      const auto op = r.fixed(1);
      if (op >= opcode_base) {
        const auto adjusted = op - opcode_base;
        address += adjusted / line_range * min_length;
        line += line_base + static_cast<std::int64_t>(adjusted % line_range);
        emit();
      } else if (op == 0) {
        const auto len = r.uleb();
        if (!r.ok || len == 0 || len > end - r.pos) return make_error(".debug_line: bad extended opcode");
        const std::size_t next = r.pos + len;
        const auto sub = r.fixed(1);
        if (sub == 1) {  // end_sequence
          address = 0, file = 1, line = 1;
        } else if (sub == 2) {  // set_address: the function it names (a relocation)
          const std::uint64_t at = r.pos;
          address = len == 9 ? r.fixed(8) : 0;
          auto it = rel.find(at);
          if (it != rel.end()) {
            rows = &out[it->second.first];
            address = static_cast<std::uint64_t>(it->second.second);
          } else {
            rows = &out[""];
          }
        }
        r.pos = next;  // others (NVIDIA's inlining contexts among them) skipped
      } else if (op == 1) {
        emit();
      } else if (op == 2) {
        address += r.uleb() * min_length;
      } else if (op == 3) {
        line += r.sleb();
      } else if (op == 4) {
        file = r.uleb();
      } else if (op == 8) {
        address += (255 - opcode_base) / line_range * min_length;
      } else if (op == 9) {
        address += r.fixed(2);
      } else if (op != 6 && op != 7) {
        for (std::uint64_t k = 0; k < lengths[op] && r.ok; ++k) r.uleb();
      }
    }
    if (!r.ok) return make_error(".debug_line: truncated line program");
    r.pos = end;
    (void)unit;
  }
  out.erase("");
  return out;
}

std::string annotate_listing(std::string_view listing, const std::map<std::string, std::vector<LineRow>>& rows) {
  std::string out;
  out.reserve(listing.size() + listing.size() / 4);
  const std::vector<LineRow>* current = nullptr;
  std::size_t next = 0;  // the first row not yet placed
  while (!listing.empty()) {
    const auto nl = listing.find('\n');
    const std::string_view line = listing.substr(0, nl == std::string_view::npos ? listing.size() : nl + 1);
    listing.remove_prefix(line.size());
    if (line.rfind(".text.", 0) == 0) {
      const auto colon = line.find(':');
      auto it = colon == std::string_view::npos ? rows.end() : rows.find(std::string(line.substr(6, colon - 6)));
      current = it == rows.end() ? nullptr : &it->second;
      next = 0;
    }
    const auto open = line.find("/*");
    if (current && open != std::string_view::npos && line.find_first_not_of(" \t") == open) {
      const auto close = line.find("*/", open);
      std::uint32_t offset = 0;
      bool hex = close != std::string_view::npos && close > open + 2;
      for (std::size_t i = open + 2; hex && i < close; ++i) {
        const char c = line[i];
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) hex = false;
        else offset = offset * 16 + static_cast<std::uint32_t>(d);
      }
      if (hex) {
        // The last group of rows at or before this instruction (one address).
        std::size_t group = next, k = next;
        bool any = false;
        while (k < current->size() && (*current)[k].offset <= offset) {
          if ((*current)[k].offset != (*current)[group].offset) group = k;
          any = true;
          ++k;
        }
        if (any) {
          for (std::size_t g = group; g < k; ++g)
            out += "\t//## Row \"" + (*current)[g].file + "\", line " + std::to_string((*current)[g].line) + "\n";
          next = k;
        }
      }
    }
    out += line;
  }
  return out;
}

}  // namespace warpscope::sass
