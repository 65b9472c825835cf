#include "ohprof/harness/nvtx_ranges.hpp"

#include <atomic>

#ifdef OHPROF_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace ohprof {

#ifdef OHPROF_HAVE_NVTX
namespace {

struct OhprofDomain {
  nvtxDomainHandle_t domain = nvtxDomainCreateA("ohprof");
  nvtxStringHandle_t warmup = nvtxDomainRegisterStringA(domain, "warmup");
  nvtxStringHandle_t iteration = nvtxDomainRegisterStringA(domain, "iteration");
  nvtxStringHandle_t measure = nvtxDomainRegisterStringA(domain, "measure");
};

OhprofDomain& domain() {
  static OhprofDomain instance;
  return instance;
}

std::atomic<std::uint32_t> g_next_category{1};

void push(nvtxStringHandle_t name, std::uint32_t category, std::uint32_t color, std::int64_t payload) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.category = category;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = color;
  attributes.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  attributes.payload.llValue = payload;
  attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  attributes.message.registered = name;
  nvtxDomainRangePushEx(domain().domain, &attributes);
}

}  // namespace

NvtxRanges::NvtxRanges(const std::string& path_name) : m_category(g_next_category++) {
  nvtxDomainNameCategoryA(domain().domain, m_category, path_name.c_str());
}
NvtxRanges::~NvtxRanges() = default;
void NvtxRanges::on_measurement_begin() { push(domain().measure, m_category, 0xFF2E7D32, 0); }
void NvtxRanges::on_iteration_begin(std::int64_t index, bool warmup) {
  push(warmup ? domain().warmup : domain().iteration, m_category, warmup ? 0xFF9E9E9E : 0xFF1565C0, index);
}
void NvtxRanges::on_iteration_end(std::int64_t, bool) { nvtxDomainRangePop(domain().domain); }
void NvtxRanges::on_measurement_end() { nvtxDomainRangePop(domain().domain); }
bool NvtxRanges::available() { return true; }

#else

NvtxRanges::NvtxRanges(const std::string&) {}
NvtxRanges::~NvtxRanges() = default;
void NvtxRanges::on_measurement_begin() {}
void NvtxRanges::on_iteration_begin(std::int64_t, bool) {}
void NvtxRanges::on_iteration_end(std::int64_t, bool) {}
void NvtxRanges::on_measurement_end() {}
bool NvtxRanges::available() { return false; }

#endif

}  // namespace ohprof
