# Packaging: libspvgen.so (SPVGEN_SHARED), `cmake --install`, the CMake package
# (find_package(spvgen CONFIG) -> spvgen::spvgen, spvgen::core, spvgen::runner) and the
# pkg-config files spvgen.pc and spvgen-core.pc. tests/install/ installs into a
# temporary prefix and builds a consumer against it both ways.
#
# Installed:
#   bin/spvgen                                  the CLI (static, no libspvgen.so needed)
#   include/spvgen/*.h                          public headers, with the generated ops.h and
#                                               version.h
#   include/spvgen/volk/{volk.h,vulkan/*.h,vk_video/*.h}
#                                               volk and the Vulkan headers, for spvgen::volk
#   include/spvgen/spirv-headers/spirv/unified1/{spirv.h,GLSL.std.450.h}
#                                               what builder.h includes (on the include
#                                               path through the package / spvgen.pc)
#   lib/libspvgen.so.X.Y                        everything, only spvgen_* exported
#   lib/libspvgen_{core,check,vk,volk,emitters,tune}.a, lib/libspvgen_spirv_tools.a
#                                               the static libraries
#   lib/cmake/spvgen/, lib/pkgconfig/spvgen.pc, spvgen-core.pc

set(SPVGEN_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/spvgen")
set_target_properties(spvgen_core PROPERTIES EXPORT_NAME core)
set_target_properties(spvgen_check PROPERTIES EXPORT_NAME check)
set_target_properties(spvgen_vk PROPERTIES EXPORT_NAME vk)
set_target_properties(spvgen_volk PROPERTIES EXPORT_NAME volk)
set_target_properties(spvgen_emitters PROPERTIES EXPORT_NAME emitters)
set_target_properties(spvgen_tune PROPERTIES EXPORT_NAME tune)
set_target_properties(spvgen_runner PROPERTIES EXPORT_NAME runner)
# lib/ref and lib/template are internal (no installed headers); spvgen_tune is built on
# them, so the static set carries them.
set_target_properties(spvgen_ref PROPERTIES EXPORT_NAME internal_ref)
set_target_properties(spvgen_template PROPERTIES EXPORT_NAME internal_template)
set(_spvgen_static_targets spvgen_core spvgen_check spvgen_vk spvgen_volk spvgen_emitters spvgen_ref
    spvgen_template spvgen_tune spvgen_runner)
# The libraries' code is hidden unless a public header declares it (SPVGEN_API_BEGIN/END,
# SPVGEN_API). Only the libraries: executables keep default visibility (the sanitizer
# builds' dlclose override in tests/sanitize/keep_loaded.c must stay exported).
set_target_properties(spvgen_core spvgen_check spvgen_vk spvgen_volk spvgen_ref spvgen_template spvgen_tune
                      PROPERTIES C_VISIBILITY_PRESET hidden)
get_target_property(_emitters_type spvgen_emitters TYPE)
if(NOT _emitters_type STREQUAL "INTERFACE_LIBRARY")
  set_target_properties(spvgen_emitters PROPERTIES C_VISIBILITY_PRESET hidden)
endif()

set(SPVGEN_SHARED_BUILT OFF)
if(SPVGEN_SHARED AND CMAKE_VERSION VERSION_LESS 3.24)
  message(WARNING "spvgen: libspvgen.so needs CMake 3.24 ($<LINK_LIBRARY:WHOLE_ARCHIVE>); not built")
elseif(SPVGEN_SHARED)
  # One shared object from the static libraries, whole (nothing in them is referenced
  # from a source of its own). A version script keeps spvgen_* and nothing else global:
  # SPIRV-Tools' C++ symbols and volk's vk* pointers stay local, so an application
  # with its own volk or SPIRV-Tools does not collide with them.
  set(_stub "${SPVGEN_GEN_DIR}/libspvgen.c")
  file(WRITE "${_stub}.tmp" "/* Generated: libspvgen.so is made of the static libraries (cmake/package.cmake). */\ntypedef int spvgen_shared_library_unit;\n")
  configure_file("${_stub}.tmp" "${_stub}" COPYONLY)
  set(_map "${SPVGEN_GEN_DIR}/libspvgen.map")
  file(WRITE "${_map}.tmp" "{\n  global: spvgen_*;\n  local: *;\n};\n")
  configure_file("${_map}.tmp" "${_map}" COPYONLY)
  add_library(spvgen_shared SHARED "${_stub}")
  set_target_properties(spvgen_shared PROPERTIES C_VISIBILITY_PRESET hidden)
  # spvgen_core comes in through the others' dependencies, once, at their end; the
  # override makes that occurrence whole too.
  set(_whole spvgen_tune spvgen_template spvgen_ref spvgen_check spvgen_vk spvgen_emitters)
  target_link_libraries(spvgen_shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${_whole}>"
                        spvgen_volk spvgen_spirv_tools)
  foreach(_t ${_whole} spvgen_core)
    set_property(TARGET spvgen_shared PROPERTY LINK_LIBRARY_OVERRIDE_${_t} WHOLE_ARCHIVE)
  endforeach()
  target_include_directories(spvgen_shared INTERFACE
    "$<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include;${SPVGEN_GEN_DIR};${SPVGEN_SPIRV_HEADERS_INCLUDE}>"
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR};${CMAKE_INSTALL_INCLUDEDIR}/spvgen/spirv-headers>")
  target_link_options(spvgen_shared PRIVATE "-Wl,--version-script=${_map}" "-Wl,--no-undefined")
  set_target_properties(spvgen_shared PROPERTIES
    OUTPUT_NAME spvgen EXPORT_NAME spvgen LINK_DEPENDS "${_map}"
    VERSION "${PROJECT_VERSION}" SOVERSION "${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
  add_library(spvgen::spvgen ALIAS spvgen_shared)
  set(SPVGEN_SHARED_BUILT ON)
  set(_spvgen_all_target spvgen_shared)
else()
  # Without the shared library spvgen::spvgen is the static set.
  set_target_properties(spvgen PROPERTIES EXPORT_NAME spvgen)
  add_library(spvgen::spvgen ALIAS spvgen)
  set(_spvgen_all_target spvgen)
endif()

install(TARGETS ${_spvgen_static_targets} ${_spvgen_all_target} EXPORT spvgenTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${SPVGEN_SPIRV_TOOLS_ARCHIVE}" DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        RENAME libspvgen_spirv_tools.a)
install(DIRECTORY include/spvgen DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h")
install(FILES "${SPVGEN_GEN_DIR}/spvgen/version.h"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/spvgen")
install(FILES "${SPVGEN_SPIRV_HEADERS_INCLUDE}/spirv/unified1/spirv.h"
              "${SPVGEN_SPIRV_HEADERS_INCLUDE}/spirv/unified1/GLSL.std.450.h"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/spvgen/spirv-headers/spirv/unified1")
# volk.h and the Vulkan C headers it includes, for applications that load Vulkan with
# spvgen::volk (samples/embed): include/spvgen/volk/{volk.h,vulkan/,vk_video/}, on the
# include path of spvgen::volk only.
target_include_directories(spvgen_volk PUBLIC "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/spvgen/volk>")
install(FILES "${SPVGEN_VOLK_INCLUDE}/volk.h" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/spvgen/volk")
foreach(_vkdir vulkan vk_video)
  if(EXISTS "${SPVGEN_VULKAN_INCLUDE}/${_vkdir}")
    install(DIRECTORY "${SPVGEN_VULKAN_INCLUDE}/${_vkdir}" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/spvgen/volk"
            FILES_MATCHING PATTERN "*.h")
  endif()
endforeach()
install(EXPORT spvgenTargets NAMESPACE spvgen:: FILE spvgenTargets.cmake
        DESTINATION "${SPVGEN_CMAKE_DIR}")

include(CMakePackageConfigHelpers)
configure_package_config_file(cmake/spvgenConfig.cmake.in
  "${CMAKE_BINARY_DIR}/package/spvgenConfig.cmake" INSTALL_DESTINATION "${SPVGEN_CMAKE_DIR}")
# 0.x: a minor release may change the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file("${CMAKE_BINARY_DIR}/package/spvgenConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/package/spvgenConfig.cmake"
              "${CMAKE_BINARY_DIR}/package/spvgenConfigVersion.cmake"
        DESTINATION "${SPVGEN_CMAKE_DIR}")

# pkg-config. spvgen: everything (libspvgen.so, or the static set); spvgen-core: the
# builder alone (static, no Vulkan, no SPIRV-Tools).
if(SPVGEN_SHARED_BUILT)
  set(SPVGEN_PC_LIBS "-lspvgen")
  set(SPVGEN_PC_LIBS_PRIVATE "")
else()
  set(SPVGEN_PC_LIBS "-lspvgen_tune -lspvgen_template -lspvgen_ref -lspvgen_emitters -lspvgen_check -lspvgen_vk -lspvgen_volk -lspvgen_core -lspvgen_spirv_tools -lstdc++ -lm -ldl")
  set(SPVGEN_PC_LIBS_PRIVATE "")
endif()
# Relocatable: the prefix is found from the .pc file's own place (${pcfiledir}), so a
# tree installed with `cmake --install --prefix P` works wherever P is.
file(RELATIVE_PATH SPVGEN_PC_PREFIX_FROM_PCFILEDIR "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" SPVGEN_PC_PREFIX_FROM_PCFILEDIR "${SPVGEN_PC_PREFIX_FROM_PCFILEDIR}")
configure_file(cmake/spvgen.pc.in "${CMAKE_BINARY_DIR}/package/spvgen.pc" @ONLY)
configure_file(cmake/spvgen-core.pc.in "${CMAKE_BINARY_DIR}/package/spvgen-core.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/package/spvgen.pc" "${CMAKE_BINARY_DIR}/package/spvgen-core.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
