# What `pip install` puts into the user's environment (pyproject.toml, scikit-build-core; docs/design/python-extension.md):
#
#   bin/ohprof                  the torch-free front (SKBUILD_SCRIPTS_DIR)
#   site-packages/ohprof/*.py   the Python side (pyproject.toml, wheel.packages)
#   site-packages/ohprof/_build the kit python/ohprof/_native.py builds the measuring extension from, on first
#                               use, against the torch it finds there: the torch-free layers as static
#                               libraries (position-independent), the sources that include LibTorch, CPython
#                               or CUPTI, the headers, fmt's and nlohmann_json's headers, and manifest.json
#                               (what to compile and link, and a hash of the sources)
#   site-packages/ohprof/licenses  the licence of each third-party package the front or the kit carries
install(TARGETS ohprof RUNTIME DESTINATION "${SKBUILD_SCRIPTS_DIR}")

set(OHPROF_KIT ohprof/_build)
set(OHPROF_KIT_LAYERS cli session harness output trace analysis model base)  # linked in this order
set(OHPROF_KIT_SOURCES src/collectors/cupti_collector.cpp src/collectors/cupti_records.cpp src/collectors/cupti_join.cpp
                       src/collectors/cupti_buffers.cpp src/collectors/cpu_activity_collector.cpp
                       src/collectors/split_collector.cpp src/runtimes/aoti_runner.cpp src/runtimes/aoti_package.cpp
                       src/runtimes/python_session.cpp src/cli/measure_module.cpp src/harness/nvtx_ranges.cpp)
set(OHPROF_KIT_PRIVATE_HEADERS src/runtimes/torch_tensors.hpp src/cli/commands.hpp src/collectors/cupti_common.hpp)

set(kit_libraries "")
foreach(layer IN LISTS OHPROF_KIT_LAYERS)
  install(FILES "$<TARGET_FILE:ohprof_${layer}>" DESTINATION "${OHPROF_KIT}/lib")
  list(APPEND kit_libraries "\"lib/libohprof_${layer}.a\"")
endforeach()
install(DIRECTORY include/ DESTINATION "${OHPROF_KIT}/include")
set(kit_sources "")
foreach(file IN LISTS OHPROF_KIT_SOURCES OHPROF_KIT_PRIVATE_HEADERS)
  get_filename_component(dir "${file}" DIRECTORY)
  install(FILES "${file}" DESTINATION "${OHPROF_KIT}/${dir}")
endforeach()
foreach(file IN LISTS OHPROF_KIT_SOURCES)
  list(APPEND kit_sources "\"${file}\"")
endforeach()

# Third-party headers the kit's sources include (fmt, nlohmann_json's forward declarations), from the
# wheel's build requirements (cmake/wheel_dependencies.cmake), and the licence of every third-party
# package whose code the front or the kit carries, in ohprof/licenses/. fmt's licence is the comment
# that opens fmt/format.h (cmeel-fmt ships no separate file).
get_target_property(fmt_includes fmt::fmt-header-only INTERFACE_INCLUDE_DIRECTORIES)
get_target_property(json_includes nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
find_path(OHPROF_FMT_DIR fmt/format.h HINTS ${fmt_includes} NO_DEFAULT_PATH REQUIRED)
find_path(OHPROF_JSON_DIR nlohmann/json_fwd.hpp HINTS ${json_includes} NO_DEFAULT_PATH REQUIRED)
install(DIRECTORY "${OHPROF_FMT_DIR}/fmt" "${OHPROF_JSON_DIR}/nlohmann" DESTINATION "${OHPROF_KIT}/third_party/include")
file(READ "${OHPROF_FMT_DIR}/fmt/format.h" fmt_header LIMIT 4096)
string(REGEX MATCH "/\\*([^*]*Permission is hereby granted[^*]*)\\*/" fmt_comment "${fmt_header}")
if(NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "fmt/format.h in ${OHPROF_FMT_DIR} does not open with fmt's licence; the wheel must carry it")
endif()
file(WRITE "${CMAKE_BINARY_DIR}/fmt-licence.txt" "${CMAKE_MATCH_1}")
set(licences ${OHPROF_WHEEL_LICENSES} fmt "${CMAKE_BINARY_DIR}/fmt-licence.txt")
while(licences)
  list(POP_FRONT licences name file)
  if(NOT file OR NOT EXISTS "${file}")
    message(FATAL_ERROR "The wheel carries ${name}'s code and must carry its licence, which was not found (${file})")
  endif()
  install(FILES "${file}" DESTINATION ohprof/licenses RENAME "${name}.txt")
endwhile()

# The hash of every source and header: the extension is rebuilt when ohprof changes, not only torch.
file(GLOB_RECURSE hashed_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/include/*" "${CMAKE_SOURCE_DIR}/src/*")
list(SORT hashed_files)
set(hash_input "${PROJECT_VERSION}")
foreach(file IN LISTS hashed_files)
  file(SHA256 "${file}" file_hash)
  string(APPEND hash_input "${file_hash}")
endforeach()
string(SHA256 source_hash "${hash_input}")
list(JOIN kit_libraries ", " kit_libraries_json)
list(JOIN kit_sources ", " kit_sources_json)
file(WRITE "${CMAKE_BINARY_DIR}/kit-manifest.json" "{
  \"ohprof_version\": \"${PROJECT_VERSION}\",
  \"source_hash\": \"${source_hash}\",
  \"sources\": [${kit_sources_json}],
  \"include_dirs\": [\"include\", \"src/runtimes\", \"src/cli\", \"src/collectors\", \"third_party/include\"],
  \"libraries\": [${kit_libraries_json}],
  \"link_flags\": [\"-pthread\", \"-ldl\"],
  \"defines\": [\"FMT_HEADER_ONLY=1\", \"SPDLOG_FMT_EXTERNAL\"]
}
")
install(FILES "${CMAKE_BINARY_DIR}/kit-manifest.json" DESTINATION "${OHPROF_KIT}" RENAME manifest.json)
