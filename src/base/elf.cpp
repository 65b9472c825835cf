// Reads only what elf_needed_libraries and elf_std_definitions need of the ELF64 format (the System V
// ABI's gABI): the file header's section-header table, the SHT_DYNAMIC or SHT_DYNSYM section and the
// string table its sh_link names. Every offset is checked against the image before it is read.
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
constexpr std::uint32_t kShtDynsym = 11;
constexpr std::int64_t kDtNull = 0;
constexpr std::int64_t kDtNeeded = 1;
constexpr std::uint16_t kShnUndef = 0;
constexpr std::uint64_t kSectionHeaderSize = 64;  // Elf64_Shdr
constexpr std::uint64_t kDynamicEntrySize = 16;   // Elf64_Dyn
constexpr std::uint64_t kSymbolSize = 24;         // Elf64_Sym

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

// The section table of a 64-bit little-endian image: where it starts and how many headers it has, all of
// them inside the image (so that no header's offset can wrap); nullopt otherwise. e_shnum 0 (extended
// numbering, which a shared object never needs) is refused.
struct SectionTable {
  std::uint64_t at = 0;
  std::uint64_t count = 0;
};

std::optional<SectionTable> section_table(std::string_view image) {
  // e_ident: the magic, ELFCLASS64 (2), ELFDATA2LSB (1).
  if (image.size() < 64 || image.substr(0, 4) != std::string_view("\x7f" "ELF", 4) || image[4] != 2 || image[5] != 1) {
    return std::nullopt;
  }
  const auto table = read_le<std::uint64_t>(image, 0x28);        // e_shoff
  const auto entry_size = read_le<std::uint16_t>(image, 0x3A);   // e_shentsize
  const auto count = read_le<std::uint16_t>(image, 0x3C);        // e_shnum
  if (!table || !entry_size || !count || *table == 0 || *entry_size != kSectionHeaderSize) return std::nullopt;
  if (*count == 0 || *table > image.size() || (image.size() - *table) / kSectionHeaderSize < *count) return std::nullopt;
  return SectionTable{*table, *count};
}

// The string table a section's sh_link names, inside the image with the section itself; nullopt otherwise.
std::optional<std::string_view> linked_strings(std::string_view image, const SectionTable& table, const Section& section) {
  if (section.link >= table.count) return std::nullopt;
  const auto strings = section_at(image, table.at, section.link);
  if (!strings || !inside(image, section) || !inside(image, *strings)) return std::nullopt;
  return image.substr(strings->offset, strings->size);
}

// The NUL-ended name at `offset` of a string table; nullopt past its end.
std::optional<std::string_view> name_at(std::string_view text, std::uint64_t offset) {
  if (offset >= text.size()) return std::nullopt;
  const std::string_view rest = text.substr(offset);
  return rest.substr(0, std::min(rest.find('\0'), rest.size()));
}

// Whether a mangled name is in namespace std (the Itanium C++ ABI's `St` prefix, and its abbreviations of
// std::allocator, std::string, std::istream, std::ostream and std::iostream): a function, a member (const
// or not), or the vtable, typeinfo or typeinfo name of a class in std or nested in one of its classes.
bool in_namespace_std(std::string_view name) {
  for (const std::string_view prefix : {"_ZSt", "_ZNSt", "_ZNKSt", "_ZTVSt", "_ZTISt", "_ZTSSt", "_ZTVNSt", "_ZTINSt",
                                        "_ZTSNSt", "_ZNSa", "_ZNSs", "_ZNKSs", "_ZNSi", "_ZNKSi", "_ZNSo", "_ZNKSo",
                                        "_ZNSd", "_ZNKSd"}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

enum class Step { next, stop, fail };

// Calls visit(entry's offset, the section's linked string table) for each entry of `entry_size` bytes of
// each section of `type`, in order; visit says go on, stop that section, or fail. nullopt when the image
// or a section is malformed or a visit failed; else whether any section of that type was there.
template <typename Visit>
std::optional<bool> visit_entries(std::string_view image, std::uint32_t type, std::uint64_t entry_size, Visit visit) {
  const auto table = section_table(image);
  if (!table) return std::nullopt;
  bool found = false;
  for (std::uint64_t i = 0; i < table->count; ++i) {
    const auto section = section_at(image, table->at, i);
    if (!section) return std::nullopt;
    if (section->type != type) continue;
    found = true;
    const auto text = linked_strings(image, *table, *section);
    if (!text) return std::nullopt;
    for (std::uint64_t at = section->offset; at + entry_size <= section->offset + section->size; at += entry_size) {
      const Step step = visit(at, *text);
      if (step == Step::fail) return std::nullopt;
      if (step == Step::stop) break;
    }
  }
  return found;
}

}  // namespace

std::optional<std::vector<std::string>> elf_needed_libraries(std::string_view image) {
  std::vector<std::string> needed;
  const auto dynamic = visit_entries(image, kShtDynamic, kDynamicEntrySize, [&](std::uint64_t at, std::string_view text) {
    const auto tag = read_le<std::uint64_t>(image, at);
    const auto value = read_le<std::uint64_t>(image, at + 8);
    if (!tag || !value) return Step::fail;
    if (static_cast<std::int64_t>(*tag) == kDtNull) return Step::stop;
    if (static_cast<std::int64_t>(*tag) != kDtNeeded) return Step::next;
    const auto name = name_at(text, *value);
    if (!name) return Step::fail;
    needed.emplace_back(*name);
    return Step::next;
  });
  // no dynamic section: a static executable or an object file, no answer about libstdc++
  if (!dynamic || !*dynamic) return std::nullopt;
  return needed;
}

std::optional<std::size_t> elf_std_definitions(std::string_view image) {
  std::size_t defined = 0;
  const auto symbols = visit_entries(image, kShtDynsym, kSymbolSize, [&](std::uint64_t at, std::string_view text) {
    const auto name_offset = read_le<std::uint32_t>(image, at);        // st_name
    const auto section_index = read_le<std::uint16_t>(image, at + 6);  // st_shndx
    if (!name_offset || !section_index) return Step::fail;
    if (*section_index == kShnUndef) return Step::next;  // needed from elsewhere, not defined here
    const auto name = name_at(text, *name_offset);
    if (!name) return Step::fail;
    if (in_namespace_std(*name)) ++defined;
    return Step::next;
  });
  if (!symbols || !*symbols) return std::nullopt;
  return defined;
}

bool names_libstdcxx(const std::vector<std::string>& needed) {
  return std::any_of(needed.begin(), needed.end(), [](const std::string& name) { return name.starts_with("libstdc++.so"); });
}

bool names_shared_cxx_runtime(const std::vector<std::string>& needed) {
  return names_libstdcxx(needed) ||
         std::any_of(needed.begin(), needed.end(), [](const std::string& name) { return name.starts_with("libc++.so"); });
}

}  // namespace ohprof
