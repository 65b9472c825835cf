# Where a wheel build (pip install, OHPROF_WHEEL) finds its third-party C++ packages: never in the system's
# folders, so that `pip install` needs no root and no apt (docs/design/python-extension.md, "Dependencies").
#
#   nlohmann_json  PyPI nlohmann-json      (headers)                 pyproject.toml [build-system] requires
#   fmt            PyPI cmeel-fmt          (headers, CMake config; 12.1, the fmt spdlog 1.17 bundles)
#   spdlog         PyPI tokenspeed-spdlog  (headers, CMake config)
#   zlib           PyPI cmeel-zlib         (header, libz.so to link against; the user's libz.so.1 at run time)
#   CLI11          not on PyPI: the sdist carries its headers and licence in third_party/CLI11
#                  (tools/dist copies them in); a build from a checkout uses the system's CLI11 instead
#
# Each package's folder comes from the build environment's Python (scikit-build-core's Python_EXECUTABLE,
# which pip's build isolation points at the requirements it installed). OHPROF_WHEEL_LICENSES lists the
# licence of each but fmt's (name, file, name, file, ...; cmake/wheel.cmake adds fmt's): the front and the
# kit carry their code, so the wheel carries these.
set(locate_script [=[
import importlib.metadata as m, importlib.util as u, os
def dist(name, path):
    try:
        return str(m.distribution(name).locate_file(path))
    except m.PackageNotFoundError:
        return ""
def package(name):
    spec = u.find_spec(name)
    return spec.submodule_search_locations[0] if spec else ""
def licence(name):
    try:
        files = m.distribution(name).files or []
    except m.PackageNotFoundError:
        return ""
    found = [f for f in files if "licen" in str(f).lower() and f.name.lower() not in ("__init__.py",)]
    return str(found[0].locate()) if found else ""
print(";".join([package("nlohmann_json"), licence("nlohmann-json"),
                dist("cmeel-fmt", "cmeel.prefix"), dist("cmeel-zlib", "cmeel.prefix"),
                package("tokenspeed_spdlog"), licence("tokenspeed-spdlog")]))
]=])
if(NOT Python_EXECUTABLE)
  find_package(Python COMPONENTS Interpreter REQUIRED)
endif()
execute_process(COMMAND "${Python_EXECUTABLE}" -c "${locate_script}" OUTPUT_VARIABLE located
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE located_status)
list(LENGTH located located_count)
if(NOT located_status EQUAL 0 OR NOT located_count EQUAL 6)
  message(FATAL_ERROR "Could not ask ${Python_EXECUTABLE} where the wheel's build requirements are; build "
                      "with pip (pip install . or pip wheel .), which installs pyproject.toml's [build-system] requires")
endif()
list(GET located 0 json_package)
list(GET located 1 json_licence)
list(GET located 2 fmt_prefix)
list(GET located 3 zlib_prefix)
list(GET located 4 spdlog_package)
list(GET located 5 spdlog_licence)
foreach(required json_package fmt_prefix zlib_prefix spdlog_package)
  if(NOT ${required} OR NOT EXISTS "${${required}}")
    message(FATAL_ERROR "The wheel's build requirement for ${required} is missing from ${Python_EXECUTABLE}'s "
                        "environment; build with pip (pip install . or pip wheel .), which installs pyproject.toml's "
                        "[build-system] requires")
  endif()
endforeach()

# nlohmann-json ships headers only, no CMake config: the target is declared here.
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
                      INTERFACE_INCLUDE_DIRECTORIES "${json_package}/include")
set(nlohmann_json_FOUND TRUE)
set(fmt_DIR "${fmt_prefix}/lib/cmake/fmt" CACHE PATH "fmt from PyPI's cmeel-fmt" FORCE)
set(spdlog_DIR "${spdlog_package}/cmake" CACHE PATH "spdlog from PyPI's tokenspeed-spdlog" FORCE)
# cmeel's libz.a is not position-independent: the front links its libz.so (soname libz.so.1, which every
# Linux that runs Python has at run time), found here by path (FindZLIB would look in lib, not lib64).
find_path(ZLIB_INCLUDE_DIR zlib.h PATHS "${zlib_prefix}/include" NO_DEFAULT_PATH REQUIRED)
find_library(ZLIB_LIBRARY NAMES z PATHS "${zlib_prefix}/lib64" "${zlib_prefix}/lib" NO_DEFAULT_PATH REQUIRED)

# CLI11: the sdist's copy first (tools/dist), else the system's (a build from a checkout).
if(EXISTS "${CMAKE_SOURCE_DIR}/third_party/CLI11/include/CLI/CLI.hpp")
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  set_target_properties(CLI11::CLI11 PROPERTIES
                        INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_SOURCE_DIR}/third_party/CLI11/include")
  set(CLI11_FOUND TRUE)
  set(cli11_licence "${CMAKE_SOURCE_DIR}/third_party/CLI11/LICENSE")
else()
  find_package(CLI11 CONFIG QUIET)
  if(NOT CLI11_FOUND)
    message(FATAL_ERROR "CLI11's headers are not on PyPI, and this source tree does not carry them: install "
                        "ohprof from its sdist (made by tools/dist), or install CLI11 (Debian: libcli11-dev)")
  endif()
  find_file(cli11_licence NAMES copyright LICENSE HINTS /usr/share/doc/libcli11-dev NO_DEFAULT_PATH)
endif()

set(OHPROF_WHEEL_LICENSES
    "nlohmann_json;${json_licence}"
    "spdlog;${spdlog_licence}"
    "zlib;${zlib_prefix}/share/doc/zlib/zlib/LICENSE"
    "CLI11;${cli11_licence}")
