# Finds spvgen's third-party pieces. Order: an explicit -DSPVGEN_DEPS_DIR (what
# scripts/deps.sh prints), then the system / Vulkan SDK via find_package and find_path,
# then the default cache directory of scripts/deps.sh. -DSPVGEN_SYSTEM_DEPS=ON demands
# the system's (scripts/build.sh tries that first).
set(SPVGEN_DEPS_DIR "" CACHE PATH "prefix made by scripts/deps.sh (optional)")
if(NOT SPVGEN_DEPS_DIR)
  if(DEFINED ENV{XDG_CACHE_HOME})
    set(_cache "$ENV{XDG_CACHE_HOME}")
  else()
    set(_cache "$ENV{HOME}/.cache")
  endif()
  file(GLOB _cands "${_cache}/spvgen-deps/*/paths.cmake")
  if(_cands)
    list(SORT _cands)
    list(GET _cands -1 _p)
    get_filename_component(_d "${_p}" DIRECTORY)
    set(_default_deps "${_d}")
  endif()
endif()

# 1. System / SDK packages: their CMake packages where they install one, then the
#    headers on the default search paths (a Vulkan SDK, /usr, CMAKE_PREFIX_PATH).
option(SPVGEN_SYSTEM_DEPS "require the system's dependencies (fail instead of bootstrapping)" OFF)
find_package(SPIRV-Tools QUIET CONFIG)
find_package(SPIRV-Headers QUIET CONFIG)
find_package(VulkanHeaders QUIET CONFIG)
set(_hints "")
foreach(_t SPIRV-Headers::SPIRV-Headers Vulkan::Headers SPIRV-Tools-static)
  if(TARGET ${_t})
    get_target_property(_inc ${_t} INTERFACE_INCLUDE_DIRECTORIES)
    if(_inc)
      list(APPEND _hints ${_inc})
    endif()
  endif()
endforeach()
# Each is the include directory that holds the file named.
find_path(_sys_spirv spirv/unified1/spirv.core.grammar.json HINTS ${_hints} NO_CACHE)
find_path(_sys_vk vulkan/vulkan_core.h HINTS ${_hints} NO_CACHE)
find_path(_sys_volk volk.c HINTS ${_hints} PATH_SUFFIXES include NO_CACHE)
find_path(_sys_st spirv-tools/libspirv.h HINTS ${_hints} NO_CACHE)

function(_spvgen_header_new_enough hdr pattern out)
  set(${out} FALSE PARENT_SCOPE)
  if(EXISTS "${hdr}")
    file(STRINGS "${hdr}" _m REGEX "${pattern}")
    if(_m)
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

# New enough: the grammar and Vulkan headers know cooperative vectors, and SPIRV-Tools
# knows the Vulkan 1.4 environment (2025.1 and later; older releases cannot validate
# cooperative vector modules).
set(_use_sys FALSE)
set(_why "")
if(NOT TARGET SPIRV-Tools-static)
  set(_why "no SPIRV-Tools CMake package with the SPIRV-Tools-static target")
elseif(NOT _sys_spirv OR NOT _sys_vk OR NOT _sys_volk OR NOT _sys_st)
  set(_why "missing: spirv.core.grammar.json=${_sys_spirv} vulkan_core.h=${_sys_vk} volk.c=${_sys_volk} libspirv.h=${_sys_st}")
else()
  _spvgen_header_new_enough("${_sys_spirv}/spirv/unified1/spirv.core.grammar.json" "OpCooperativeVectorMatrixMulAddNV" _g_ok)
  _spvgen_header_new_enough("${_sys_vk}/vulkan/vulkan_core.h" "VK_NV_cooperative_vector" _v_ok)
  _spvgen_header_new_enough("${_sys_st}/spirv-tools/libspirv.h" "SPV_ENV_VULKAN_1_4" _t_ok)
  if(_g_ok AND _v_ok AND _t_ok)
    set(_use_sys TRUE)
  else()
    set(_why "too old (grammar: ${_g_ok}, Vulkan headers: ${_v_ok}, SPIRV-Tools: ${_t_ok})")
  endif()
endif()
if(SPVGEN_DEPS_DIR AND NOT SPVGEN_SYSTEM_DEPS)
  set(_use_sys FALSE) # an explicit prefix wins
endif()
if(SPVGEN_SYSTEM_DEPS AND NOT _use_sys)
  message(FATAL_ERROR "spvgen: SPVGEN_SYSTEM_DEPS is ON but the system's dependencies are not usable: ${_why}")
endif()

if(_use_sys)
  message(STATUS "spvgen: using system SPIRV-Tools, SPIRV-Headers, Vulkan-Headers, volk")
  set(SPVGEN_SPIRV_GRAMMAR_DIR "${_sys_spirv}/spirv/unified1")
  set(SPVGEN_SPIRV_HEADERS_INCLUDE "${_sys_spirv}")
  set(SPVGEN_VULKAN_INCLUDE "${_sys_vk}")
  set(SPVGEN_VOLK_SOURCE "${_sys_volk}/volk.c")
  set(SPVGEN_VOLK_INCLUDE "${_sys_volk}")
  add_library(spvgen_spirv_tools INTERFACE)
  target_link_libraries(spvgen_spirv_tools INTERFACE SPIRV-Tools-static stdc++ m)
  set(SPVGEN_SPIRV_TOOLS_ARCHIVE "$<TARGET_FILE:SPIRV-Tools-static>")
else()
  if(NOT SPVGEN_DEPS_DIR)
    set(SPVGEN_DEPS_DIR "${_default_deps}")
  endif()
  if(NOT SPVGEN_DEPS_DIR OR NOT EXISTS "${SPVGEN_DEPS_DIR}/paths.cmake")
    message(FATAL_ERROR "spvgen: dependencies not found. Run scripts/deps.sh (it prints the "
      "prefix) and pass -DSPVGEN_DEPS_DIR=<prefix>, or install SPIRV-Tools >= 2025.1, "
      "SPIRV-Headers >= 1.4.309, Vulkan-Headers >= 1.4.309 and volk.")
  endif()
  include("${SPVGEN_DEPS_DIR}/paths.cmake")
  message(STATUS "spvgen: dependencies from ${SPVGEN_DEPS_DIR}")
  set(SPVGEN_VOLK_SOURCE "${SPVGEN_VOLK_DIR}/include/volk.c")
  set(SPVGEN_VOLK_INCLUDE "${SPVGEN_VOLK_DIR}/include")
  add_library(spvgen_spirv_tools STATIC IMPORTED GLOBAL)
  set_target_properties(spvgen_spirv_tools PROPERTIES
    IMPORTED_LOCATION "${SPVGEN_SPIRV_TOOLS_LIB}"
    INTERFACE_INCLUDE_DIRECTORIES "${SPVGEN_SPIRV_TOOLS_INCLUDE}"
    INTERFACE_LINK_LIBRARIES "stdc++;m")
  set(SPVGEN_SPIRV_TOOLS_ARCHIVE "${SPVGEN_SPIRV_TOOLS_LIB}")
endif()
# SPVGEN_SPIRV_TOOLS_ARCHIVE: the static SPIRV-Tools library, which `cmake --install`
# copies next to libspvgen_check.a (as libspvgen_spirv_tools.a) for static consumers.
