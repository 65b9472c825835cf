#include "ohprof/base/elf.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ohprof {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void put(std::string& image, std::size_t at, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) image[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

// The header of section `index` of the table at `table_at` (Elf64_Shdr: sh_type, sh_offset, sh_size, sh_link).
void put_section(std::string& image, std::size_t table_at, std::size_t index, std::uint32_t type, std::size_t offset,
                 std::size_t size, std::uint32_t link) {
  const std::size_t at = table_at + 64 * index;
  put(image, at + 4, type, 4);
  put(image, at + 24, offset, 8);
  put(image, at + 32, size, 8);
  put(image, at + 40, link, 4);
}

// A minimal ELF64 image made by hand from the gABI's layouts: the header, a string table at 64, a dynamic
// section after it (two DT_NEEDED, a DT_SONAME, DT_NULL, then a DT_NEEDED past the end that must not be
// read) and the section table: null, .dynamic (linked to 2), .dynstr.
std::string hand_made_image() {
  const std::string strings("\0libfoo.so\0libstdc++.so.6\0self.so\0", 34);
  const std::size_t strings_at = 64;
  const std::size_t dynamic_at = 104;  // 8-aligned, after the strings
  const std::size_t dynamic_size = 5 * 16;
  const std::size_t table_at = dynamic_at + dynamic_size;
  std::string image(table_at + 3 * 64, '\0');
  image.replace(0, 6, std::string("\x7f" "ELF\x02\x01", 6));
  put(image, 0x28, table_at, 8);  // e_shoff
  put(image, 0x3A, 64, 2);        // e_shentsize
  put(image, 0x3C, 3, 2);         // e_shnum
  image.replace(strings_at, strings.size(), strings);
  const std::uint64_t entries[5][2] = {{1, 1}, {1, 11}, {14, 26}, {0, 0}, {1, 26}};
  for (std::size_t i = 0; i < 5; ++i) {
    put(image, dynamic_at + 16 * i, entries[i][0], 8);
    put(image, dynamic_at + 16 * i + 8, entries[i][1], 8);
  }
  put_section(image, table_at, 1, 6, dynamic_at, dynamic_size, 2);  // SHT_DYNAMIC
  put_section(image, table_at, 2, 3, strings_at, strings.size(), 0);  // SHT_STRTAB
  return image;
}

// A minimal ELF64 image with a dynamic symbol table, by hand from the gABI's layouts: the header, a string
// table at 64, six Elf64_Sym after it and the section table: null, .dynsym (linked to 2), .dynstr. Of the
// symbols (the null one first), two are defined members of std (std::vector's, std::string's abbreviated
// `Ss`); std::cout is only needed (SHN_UNDEF), malloc and foo() are defined outside std.
constexpr std::size_t kSymbolsTable = 64 + 80 + 6 * 24;  // after the strings (80 bytes) and the symbols

std::string hand_made_symbols_image() {
  const std::string strings("\0_ZNSt6vectorIiSaIiEE9push_backEOi\0_ZSt4cout\0_ZNKSs4sizeEv\0malloc\0_Z3foov\0", 74);
  const std::size_t strings_at = 64;
  const std::size_t symbols_at = 64 + 80;
  std::string image(kSymbolsTable + 3 * 64, '\0');
  image.replace(0, 6, std::string("\x7f" "ELF\x02\x01", 6));
  put(image, 0x28, kSymbolsTable, 8);
  put(image, 0x3A, 64, 2);
  put(image, 0x3C, 3, 2);
  image.replace(strings_at, strings.size(), strings);
  // {st_name, st_shndx}: the null symbol, then the five named above
  const std::uint64_t symbols[6][2] = {{0, 0}, {1, 12}, {35, 0}, {45, 12}, {59, 12}, {66, 12}};
  for (std::size_t i = 0; i < 6; ++i) {
    put(image, symbols_at + 24 * i, symbols[i][0], 4);
    put(image, symbols_at + 24 * i + 6, symbols[i][1], 2);
  }
  put_section(image, kSymbolsTable, 1, 11, symbols_at, 6 * 24, 2);  // SHT_DYNSYM
  put_section(image, kSymbolsTable, 2, 3, strings_at, strings.size(), 0);
  return image;
}

// An image whose dynamic symbol table defines `names` (each at section index 12), laid out as above: the
// strings at 64, the symbols after them (8-aligned), the section table last.
std::string defining(const std::vector<std::string>& names) {
  std::string strings(1, '\0');
  std::vector<std::size_t> offsets;
  for (const std::string& name : names) {
    offsets.push_back(strings.size());
    strings += name + '\0';
  }
  const std::size_t symbols_at = 64 + (strings.size() + 7) / 8 * 8;
  const std::size_t symbols_size = 24 * (names.size() + 1);
  const std::size_t table_at = symbols_at + symbols_size;
  std::string image(table_at + 3 * 64, '\0');
  image.replace(0, 6, std::string("\x7f" "ELF\x02\x01", 6));
  put(image, 0x28, table_at, 8);
  put(image, 0x3A, 64, 2);
  put(image, 0x3C, 3, 2);
  image.replace(64, strings.size(), strings);
  for (std::size_t i = 0; i < names.size(); ++i) {
    put(image, symbols_at + 24 * (i + 1), offsets[i], 4);
    put(image, symbols_at + 24 * (i + 1) + 6, 12, 2);
  }
  put_section(image, table_at, 1, 11, symbols_at, symbols_size, 2);
  put_section(image, table_at, 2, 3, 64, strings.size(), 0);
  return image;
}

// Every form of a std name the count reads (elf.cpp, in_namespace_std), each once, then names outside std
// that look alike: a vtable and typeinfo of a class nested in a std class, std::allocator's and the const
// iostream members' abbreviations, a libc++ member (std::__1, still std; its users are told apart by their
// DT_NEEDED), and a function of a namespace foo::St..., a vtable of ::Foo, the guard of a static.
TEST(ElfStdDefinitions, CountsEveryManglingOfAStdNameAndNoLookAlike) {
  const std::vector<std::string> std_names{
      "_ZSt9terminatev", "_ZNSt9exceptionD1Ev", "_ZNKSt9exception4whatEv", "_ZTVSt9exception", "_ZTISt9exception",
      "_ZTSSt9exception", "_ZTVNSt6locale5facetE", "_ZTINSt8ios_base7failureE", "_ZTSNSt8ios_base7failureE",
      "_ZNSaIcEC1Ev", "_ZNSs4swapERSs", "_ZNKSs4sizeEv", "_ZNSi3getEv", "_ZNKSi6gcountEv", "_ZNSo5flushEv",
      "_ZNKSo6sentrycvbEv", "_ZNSdD0Ev", "_ZNKSd5rdbufEv", "_ZNSt3__16vectorIiNS_9allocatorIiEEE9push_backEOi"};
  EXPECT_EQ(elf_std_definitions(defining(std_names)), std::optional<std::size_t>(std_names.size()));
  EXPECT_EQ(elf_std_definitions(defining({"_ZN3foo2St3barEv", "_ZTV3Foo", "_ZGVZ4mainE1x", "main", "_Z3foov"})),
            std::optional<std::size_t>(0));
}

TEST(ElfStdDefinitions, CountsTheDefinedSymbolsOfNamespaceStdInAHandMadeImage) {
  EXPECT_EQ(elf_std_definitions(hand_made_symbols_image()), std::optional<std::size_t>(2));
  std::string past = hand_made_symbols_image();
  put(past, 64 + 80 + 24, 4096, 4);  // the first named symbol's st_name outside the string table
  EXPECT_FALSE(elf_std_definitions(past).has_value());
  std::string undefined = hand_made_symbols_image();
  put(undefined, 64 + 80 + 24 + 6, 0, 2);  // std::vector's member needed, not defined: one left
  EXPECT_EQ(elf_std_definitions(undefined), std::optional<std::size_t>(1));
  std::string cut = hand_made_symbols_image();
  put(cut, kSymbolsTable + 64 + 32, 1 << 20, 8);  // .dynsym's sh_size past the image
  EXPECT_FALSE(elf_std_definitions(cut).has_value());
  // the other image has a dynamic section but no dynamic symbol table: no answer
  EXPECT_FALSE(elf_std_definitions(hand_made_image()).has_value());
  EXPECT_FALSE(elf_std_definitions("not an ELF file at all, but long enough to hold a header of 64 bytes").has_value());
}

TEST(ElfNeeded, ReadsTheNeededNamesOfAHandMadeImageUpToDtNull) {
  const auto needed = elf_needed_libraries(hand_made_image());
  ASSERT_TRUE(needed.has_value());
  EXPECT_EQ(*needed, (std::vector<std::string>{"libfoo.so", "libstdc++.so.6"}));
  EXPECT_TRUE(names_libstdcxx(*needed));
  EXPECT_FALSE(names_libstdcxx({"libfoo.so", "libc.so.6"}));
  EXPECT_TRUE(names_shared_cxx_runtime(*needed));
  EXPECT_TRUE(names_shared_cxx_runtime({"libc++.so.1", "libc.so.6"}));
  EXPECT_FALSE(names_libstdcxx({"libc++.so.1"}));
  EXPECT_FALSE(names_shared_cxx_runtime({"libfoo.so", "libc.so.6"}));
}

TEST(ElfNeeded, RefusesWhatIsNoSixtyFourBitLittleEndianImageOrPointsOutsideIt) {
  EXPECT_FALSE(elf_needed_libraries("not an ELF file at all, but long enough to hold a header of 64 bytes").has_value());
  std::string image = hand_made_image();
  // the section table cut inside .dynstr's header (section 2 of the table at 184), before its sh_size
  EXPECT_FALSE(elf_needed_libraries(image.substr(0, 184 + 2 * 64 + 30)).has_value());
  std::string thirty_two = image;
  thirty_two[4] = 1;  // ELFCLASS32
  EXPECT_FALSE(elf_needed_libraries(thirty_two).has_value());
  std::string past = image;
  put(past, 104 + 8, 4096, 8);  // the first DT_NEEDED's name (the entry at 104) outside the string table
  std::string beyond = image;
  put(beyond, 184 + 64 + 32, 1 << 20, 8);  // .dynamic's sh_size past the image
  EXPECT_FALSE(elf_needed_libraries(past).has_value());
  EXPECT_FALSE(elf_needed_libraries(beyond).has_value());
  std::string wraps = image;
  put(wraps, 0x28, ~std::uint64_t{0} - 63, 8);  // e_shoff so large that offset + 64 wraps around
  EXPECT_FALSE(elf_needed_libraries(wraps).has_value());
  std::string none = image;
  put(none, 0x3C, 0, 2);  // e_shnum 0
  EXPECT_FALSE(elf_needed_libraries(none).has_value());
  std::string undynamic = image;
  put(undynamic, 184 + 64 + 4, 3, 4);  // section 1 a string table, not SHT_DYNAMIC: no dynamic section at all
  EXPECT_FALSE(elf_needed_libraries(undynamic).has_value());
  std::string link = image;
  put(link, 184 + 64 + 40, 7, 4);  // .dynamic's sh_link (section 1 of the table at 184) past the section count
  EXPECT_FALSE(elf_needed_libraries(link).has_value());
}

// The same C++ source linked twice by this build's compiler (test/CMakeLists.txt): as usual it needs
// libstdc++.so; with -static-libstdc++ it needs none, as an AOTI package a compiler with only a static
// libstdc++ links (docs/design/python-extension.md, "One C++ runtime").
TEST(ElfNeeded, TellsALibraryWithAStaticCxxRuntimeFromOneThatLinksLibstdcxx) {
  const auto shared = elf_needed_libraries(read_file(OHPROF_ELF_FIXTURE_SHARED));
  const auto own = elf_needed_libraries(read_file(OHPROF_ELF_FIXTURE_STATIC));
  ASSERT_TRUE(shared.has_value() && own.has_value());
  EXPECT_TRUE(names_libstdcxx(*shared));
  EXPECT_FALSE(names_libstdcxx(*own));
  EXPECT_FALSE(own->empty());  // it still needs the C library
  // and it defines std's symbols itself (1,950 with this machine's g++ 12), where the usual link defines none
  EXPECT_EQ(elf_std_definitions(read_file(OHPROF_ELF_FIXTURE_SHARED)), std::optional<std::size_t>(0));
  const auto defined = elf_std_definitions(read_file(OHPROF_ELF_FIXTURE_STATIC));
  ASSERT_TRUE(defined.has_value());
  EXPECT_GT(*defined, 100u);
}

}  // namespace
}  // namespace ohprof
