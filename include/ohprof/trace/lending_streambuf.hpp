#pragma once
// A std::streambuf that can lend its bytes: a reader that knows it (the JSON parser, json_stream.hpp)
// reads them where they lie instead of copying them out with sgetn. Any stream buffer whose get area
// holds the next bytes can derive from it; nothing else changes for its other readers.
#include <streambuf>
#include <string_view>

namespace ohprof {

class LendingStreambuf : public std::streambuf {
 public:
  // The bytes not read yet, now counted as read: the get area, filled by underflow() first when it
  // is empty. They stay valid until the next call to lend() or any other read of this buffer (a
  // buffer may reuse their memory then). Empty at the end of the input.
  std::string_view lend() {
    if (gptr() == egptr() && traits_type::eq_int_type(underflow(), traits_type::eof())) return {};
    const std::string_view bytes(gptr(), static_cast<std::size_t>(egptr() - gptr()));
    setg(eback(), egptr(), egptr());
    return bytes;
  }
};

}  // namespace ohprof
