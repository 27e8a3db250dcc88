#!/usr/bin/env bash
# tests/install/install_test.sh BUILD_DIR SOURCE_DIR — installs the build into a
# temporary prefix (`cmake --install --prefix`), then checks what a user of the package
# gets:
#  1. the layout: headers (with the generated ops.h and version.h and the SPIR-V headers
#     builder.h includes), static libraries, libspvgen.so, the CLI, the CMake package
#     and the .pc files;
#  2. libspvgen.so exports exactly the functions the installed headers declare (all
#     spvgen_*: nothing of SPIRV-Tools, volk or spvgen's internals) and needs no
#     libvulkan at link time;
#  3. tests/install/consumer built with CMake (find_package(spvgen CONFIG COMPONENTS
#     core runner)): against spvgen::spvgen, spvgen::core alone, and the static set, run;
#     and samples/embed against spvgen::volk (volk.h and the Vulkan headers installed)
#     and spvgen::spvgen, run (or skipped without a Vulkan device);
#  4. the same consumer built with the C compiler and pkg-config (spvgen, spvgen-core), run;
#  5. the installed CLI runs and reports the library's version.
# Label "install" (ctest -L install); no GPU needed.
set -euo pipefail
build=$1
src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d /tmp/spvgen-install-test-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cc=${CC:-cc}

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
version=$(sed -n 's/^#define SPVGEN_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/spvgen/version.h")
[ -n "$version" ] || fail "include/spvgen/version.h has no SPVGEN_VERSION_STRING"
libdir=$(dirname "$(find "$prefix" -name spvgenConfig.cmake)")/../..
libdir=$(cd "$libdir" && pwd)

# 1. layout
for f in include/spvgen/spvgen.h include/spvgen/builder.h include/spvgen/export.h include/spvgen/volk/volk.h \
         include/spvgen/ops.h include/spvgen/version.h include/spvgen/gemm.h include/spvgen/vk.h include/spvgen/tune.h \
         include/spvgen/spirv-headers/spirv/unified1/spirv.h \
         include/spvgen/spirv-headers/spirv/unified1/GLSL.std.450.h bin/spvgen; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
for f in libspvgen_core.a libspvgen_check.a libspvgen_vk.a libspvgen_volk.a libspvgen_emitters.a libspvgen_tune.a \
         libspvgen_spirv_tools.a pkgconfig/spvgen.pc pkgconfig/spvgen-core.pc \
         cmake/spvgen/spvgenConfig.cmake cmake/spvgen/spvgenConfigVersion.cmake; do
  [ -e "$libdir/$f" ] || fail "not installed: lib/$f"
done
shared=0
if [ -e "$libdir/libspvgen.so" ]; then shared=1; fi
grep -q '^#define SPVGEN_OPS_H' "$prefix/include/spvgen/ops.h" || fail "ops.h is not the generated header"
grep -B1 '^uint32_t spvgen_op_i_add(' "$prefix/include/spvgen/ops.h" | grep -q '^SPVGEN_API$' || fail "ops.h prototypes lack SPVGEN_API"

# 2. exported symbols = declared functions
if [ $shared = 1 ]; then
  cat "$prefix"/include/spvgen/*.h | grep -oE '\bspvgen_[a-z0-9_]+\(' | tr -d '(' | sort -u >"$tmp/declared"
  nm -D --defined-only "$libdir/libspvgen.so" | awk '{print $3}' | sed 's/@.*//' | sort -u >"$tmp/exported"
  [ "$(wc -l <"$tmp/declared")" -gt 500 ] || fail "too few declarations found in the headers"
  if ! cmp -s "$tmp/declared" "$tmp/exported"; then
    echo "declared but not exported (<) / exported but not declared (>):" >&2
    diff "$tmp/declared" "$tmp/exported" | grep '^[<>]' | head -40 >&2
    fail "libspvgen.so's exports differ from the public headers"
  fi
  if readelf -d "$libdir/libspvgen.so" | grep -q 'NEEDED.*libvulkan'; then
    fail "libspvgen.so links libvulkan (volk loads it at run time)"
  fi
  echo "libspvgen.so exports the $(wc -l <"$tmp/exported") public functions and nothing else"
fi

# 3. CMake consumer
gen=()
if command -v ninja >/dev/null; then gen=(-G Ninja); fi
cmake -S "$src/tests/install/consumer" -B "$tmp/cmake-build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DSPVGEN_SOURCE_DIR="$src" >"$tmp/consumer-configure.log" 2>&1 ||
  { cat "$tmp/consumer-configure.log"; fail "configuring the CMake consumer"; }
cmake --build "$tmp/cmake-build" >"$tmp/consumer-build.log" 2>&1 ||
  { cat "$tmp/consumer-build.log"; fail "building the CMake consumer"; }
for exe in consumer consumer_core consumer_static; do
  out=$("$tmp/cmake-build/$exe") || fail "CMake-built $exe failed: $out"
  [[ "$out" == "consumer ok $version "* ]] || fail "CMake-built $exe printed: $out"
  echo "cmake $exe: $out"
done
if [ $shared = 1 ]; then
  readelf -d "$tmp/cmake-build/consumer" | grep -q 'NEEDED.*libspvgen\.so' || fail "spvgen::spvgen did not link libspvgen.so"
fi
# samples/embed, built from the installed headers (volk.h included): runs, or skips (77)
# where there is no Vulkan device.
set +e
out=$(SPVGEN_PIPELINE_CACHE=off "$tmp/cmake-build/embed" 2>&1)
rc=$?
set -e
[ $rc = 0 ] || [ $rc = 77 ] || fail "samples/embed built from the install failed ($rc): $out"
echo "cmake embed (samples/embed): exit $rc"
# spvgen::core alone has neither SPIRV-Tools nor the runner in it
if nm "$tmp/cmake-build/consumer_core" | grep -qE ' T (spvValidate|spvgen_vk_create|spvgen_validate)$'; then
  fail "consumer_core (spvgen::core) contains SPIRV-Tools or the runner"
fi
# a components the package lacks must fail find_package
mkdir -p "$tmp/bad" && cat >"$tmp/bad/CMakeLists.txt" <<'EOC'
cmake_minimum_required(VERSION 3.20)
project(bad LANGUAGES C)
find_package(spvgen CONFIG REQUIRED COMPONENTS no_such_component)
EOC
if cmake -S "$tmp/bad" -B "$tmp/bad/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1; then
  fail "find_package(spvgen COMPONENTS no_such_component) succeeded"
fi

# 4. pkg-config consumer
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pcv=$(pkg-config --modversion spvgen) || fail "pkg-config cannot find spvgen.pc"
[ "$pcv" = "$version" ] || fail "spvgen.pc version $pcv, headers $version"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Werror -o "$tmp/pc-consumer" "$src/tests/install/consumer/consumer.c" \
  $(pkg-config --cflags --libs spvgen) || fail "compiling with pkg-config spvgen"
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/pc-consumer") || fail "pkg-config consumer failed: $out"
[[ "$out" == "consumer ok $version "* ]] || fail "pkg-config consumer printed: $out"
echo "pkg-config spvgen: $out"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Werror -DCONSUMER_CORE_ONLY -o "$tmp/pc-consumer-core" \
  "$src/tests/install/consumer/consumer.c" $(pkg-config --cflags --libs spvgen-core) ||
  fail "compiling with pkg-config spvgen-core"
out=$("$tmp/pc-consumer-core") || fail "pkg-config core consumer failed: $out"
[[ "$out" == "consumer ok $version "* ]] || fail "pkg-config core consumer printed: $out"
echo "pkg-config spvgen-core: $out"

# 5. the installed CLI
out=$("$prefix/bin/spvgen" version) || fail "installed spvgen version failed"
[ "$(echo "$out" | head -n 1)" = "spvgen $version" ] || fail "installed spvgen version printed: $out"
"$prefix/bin/spvgen" gemm --m 16 --n 16 --k 16 --caps vulkan13 -o "$tmp/g.spv" 2>/dev/null || fail "installed spvgen gemm"
"$prefix/bin/spvgen" val "$tmp/g.spv" >/dev/null || fail "installed spvgen val"
echo "install test passed (prefix layout, $( [ $shared = 1 ] && echo "libspvgen.so, " )CMake package, pkg-config, CLI)"
