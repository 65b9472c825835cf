// Reads only what elf_needed_libraries needs of the ELF64 format (the System V ABI's gABI): the file
// header's section-header table, the SHT_DYNAMIC section and the string table its sh_link names. Every
// offset is checked against the image before it is read.
#include "ohprof/base/elf.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ohprof {
namespace {

// A little-endian unsigned integer of sizeof(T) bytes at `offset`; nullopt past the end.
template <typename T>
std::optional<T> read_le(std::string_view image, std::uint64_t offset) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return std::nullopt;
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    value |= static_cast<T>(static_cast<unsigned char>(image[offset + i])) << (8 * i);
  }
  return value;
}

struct Section {
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
};

constexpr std::uint32_t kShtDynamic = 6;
constexpr std::int64_t kDtNull = 0;
constexpr std::int64_t kDtNeeded = 1;
constexpr std::uint64_t kSectionHeaderSize = 64;  // Elf64_Shdr
constexpr std::uint64_t kDynamicEntrySize = 16;   // Elf64_Dyn

std::optional<Section> section_at(std::string_view image, std::uint64_t table, std::uint64_t index) {
  const std::uint64_t at = table + index * kSectionHeaderSize;
  const auto type = read_le<std::uint32_t>(image, at + 4);
  const auto offset = read_le<std::uint64_t>(image, at + 24);
  const auto size = read_le<std::uint64_t>(image, at + 32);
  const auto link = read_le<std::uint32_t>(image, at + 40);
  if (!type || !offset || !size || !link) return std::nullopt;
  return Section{*type, *offset, *size, *link};
}

// Whether the section's bytes lie in the image (SHT_NOBITS sections, .bss, need not: only read ones are asked).
bool inside(std::string_view image, const Section& section) {
  return section.offset <= image.size() && image.size() - section.offset >= section.size;
}

}  // namespace

std::optional<std::vector<std::string>> elf_needed_libraries(std::string_view image) {
  // e_ident: the magic, ELFCLASS64 (2), ELFDATA2LSB (1).
  if (image.size() < 64 || image.substr(0, 4) != std::string_view("\x7f" "ELF", 4) || image[4] != 2 || image[5] != 1) {
    return std::nullopt;
  }
  const auto table = read_le<std::uint64_t>(image, 0x28);        // e_shoff
  const auto entry_size = read_le<std::uint16_t>(image, 0x3A);   // e_shentsize
  const auto count = read_le<std::uint16_t>(image, 0x3C);        // e_shnum
  if (!table || !entry_size || !count || *table == 0 || *entry_size != kSectionHeaderSize) return std::nullopt;
  // The whole section table inside the image, so that no header's offset can wrap (e_shnum 0: extended
  // numbering, which a shared object never needs, is refused too).
  if (*count == 0 || *table > image.size() || (image.size() - *table) / kSectionHeaderSize < *count) return std::nullopt;
  std::vector<std::string> needed;
  bool dynamic = false;
  for (std::uint64_t i = 0; i < *count; ++i) {
    const auto section = section_at(image, *table, i);
    if (!section) return std::nullopt;
    if (section->type != kShtDynamic) continue;
    dynamic = true;
    if (section->link >= *count) return std::nullopt;
    const auto strings = section_at(image, *table, section->link);
    if (!strings || !inside(image, *section) || !inside(image, *strings)) return std::nullopt;
    const std::string_view text = image.substr(strings->offset, strings->size);
    for (std::uint64_t at = section->offset; at + kDynamicEntrySize <= section->offset + section->size;
         at += kDynamicEntrySize) {
      const auto tag = read_le<std::uint64_t>(image, at);
      const auto value = read_le<std::uint64_t>(image, at + 8);
      if (!tag || !value) return std::nullopt;
      if (static_cast<std::int64_t>(*tag) == kDtNull) break;
      if (static_cast<std::int64_t>(*tag) != kDtNeeded) continue;
      if (*value >= text.size()) return std::nullopt;
      const std::string_view rest = text.substr(*value);
      needed.emplace_back(rest.substr(0, std::min(rest.find('\0'), rest.size())));
    }
  }
  if (!dynamic) return std::nullopt;  // a static executable or an object file: no answer about libstdc++
  return needed;
}

bool names_libstdcxx(const std::vector<std::string>& needed) {
  return std::any_of(needed.begin(), needed.end(), [](const std::string& name) { return name.starts_with("libstdc++.so"); });
}

}  // namespace ohprof
