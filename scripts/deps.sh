#!/usr/bin/env bash
# Sets up everything spvgen needs on a Debian 12 machine, idempotently.
#
#   scripts/deps.sh            install system packages (if root) and build/cache the
#                              third-party pieces; prints the cache prefix on the last line
#
# What and why (see docs/dependencies.md):
#  - Debian 12 packages: a C compiler, cmake, python3 (our grammar generator), xz,
#    lavapipe (mesa-vulkan-drivers), the Vulkan loader, and the Khronos validation layer
#    (vulkan-validationlayers: the runner's tests also run under it) for kernels on the CPU;
#    for the tests, clang-14 + libclang-rt-14-dev (libFuzzer: scripts/fuzz) and valgrind.
#  - From Debian 13 "trixie" (binary .debs unpacked into our cache, never into /):
#    spirv-headers 1.4.309 (headers + grammar JSON), libvulkan-dev 1.4.309 (headers only),
#    libvulkan-volk-dev (volk.c/volk.h as source, compiled by our CMake).
#  - SPIRV-Tools 2025.1: trixie's source tarball, built here as a static library
#    (its binary package needs glibc 2.38, Debian 12 has 2.36).
# Everything lands in ${SPVGEN_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spvgen-deps/$DEPS_VERSION}.
# A stamp file per step makes re-runs cost nothing.
set -euo pipefail

DEPS_VERSION=1.4.309-2025.1-r1
CACHE_ROOT=${XDG_CACHE_HOME:-$HOME/.cache}/spvgen-deps
PREFIX=${SPVGEN_DEPS_DIR:-$CACHE_ROOT/$DEPS_VERSION}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

log() { printf '[deps] %s\n' "$*" >&2; }
die() { printf '[deps] error: %s\n' "$*" >&2; exit 1; }

# ---- 1. Debian 12 packages -------------------------------------------------------
SYS_PKGS="gcc g++ make ninja-build cmake pkg-config python3 xz-utils ca-certificates mesa-vulkan-drivers libvulkan1 vulkan-validationlayers"
missing=""
for p in $SYS_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    log "installing Debian packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends $missing >&2
  else
    die "missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)"
  fi
fi

# Test tools: clang-14 with libFuzzer's runtime (scripts/fuzz, the fuzz preset) and
# valgrind (tests/valgrind). Installed when root; otherwise only named, since the build
# does not need them (their tests say they are skipped and why).
TEST_PKGS="clang-14 libclang-rt-14-dev valgrind"
missing=""
for p in $TEST_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    log "installing Debian packages for the tests:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends $missing >&2
  else
    log "not installed (fuzzing / valgrind tests will be skipped):$missing (sudo apt-get install$missing)"
  fi
fi

mkdir -p "$PREFIX"
PREFIX=$(cd "$PREFIX" && pwd)
DL="$PREFIX/downloads"
mkdir -p "$DL"

# ---- 2. Newer headers and volk from Debian 13, unpacked into the cache ------------
# The mirror is whatever apt already uses here; never hard-coded.
mirror() {
  local m=""
  m=$(grep -hoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -m1 '/debian/\?$' || true)
  [ -n "$m" ] || m=$(grep -hoE '^deb +(\[[^]]*\] +)?[^ ]+/debian/? ' /etc/apt/sources.list 2>/dev/null | awk '{print $NF}' | head -1 || true)
  [ -n "$m" ] || m=$(grep -hoE '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+' /etc/apt/sources.list 2>/dev/null | awk '{print $NF}' | head -1 || true)
  [ -n "$m" ] || die "cannot find a Debian mirror in /etc/apt/sources.list{,.d}"
  echo "${m%/}"
}

APT_DIR="$PREFIX/apt"
apt_opts() {
  echo "-oDir::Etc::SourceList=$APT_DIR/sources.list -oDir::Etc::SourceParts=/dev/null -oDir::State::Lists=$APT_DIR/lists -oDir::Cache=$APT_DIR/cache -oAPT::Architecture=amd64 -oDebug::NoLocking=1"
}
apt_ready=0
apt_setup() {
  [ $apt_ready = 1 ] && return
  mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
  local m; m=$(mirror)
  { echo "deb $m trixie main"; echo "deb-src $m trixie main"; } > "$APT_DIR/sources.list"
  log "apt update (trixie lists, private to the cache)"
  # shellcheck disable=SC2046
  apt-get $(apt_opts) update -qq >&2 || die "apt-get update for trixie failed"
  apt_ready=1
}

unpack_deb() { # name
  local name=$1 stamp="$PREFIX/.stamp-deb-$1"
  [ -f "$stamp" ] && return
  apt_setup
  ( cd "$DL" && rm -f "${name}"_*.deb && apt-get $(apt_opts) download "$name" >&2 ) || die "download of $name from trixie failed"
  dpkg-deb -x "$DL/${name}"_*.deb "$PREFIX/root"
  touch "$stamp"
}
unpack_deb spirv-headers
unpack_deb libvulkan-dev
unpack_deb libvulkan-volk-dev

# ---- 2b. The pinned SPIR-V grammar the committed generated API comes from ----------
# tools/gen_grammar.py accepts only this grammar (by sha256); the build does not need it
# (include/spvgen/ops.h and lib/core/gen/ are committed), only the target regen_grammar
# and the ctest grammar_generated_fresh do, so a failed download warns and that test
# reports "skipped". Debian's binary package (architecture all), fetched by its pool path
# and checked against the sha256 apt's index lists for it.
PINNED_HEADERS_DEB=spirv-headers_1.6.1+1.4.309.0-1_all.deb
PINNED_HEADERS_SHA256=dc18db866d63680351c40ac6b6bece34cb52da64a7799ce1cc4f16f6bff4d064
PINNED_DIR="$PREFIX/pinned/${PINNED_HEADERS_DEB%.deb}"
PINNED_STAMP="$PREFIX/.stamp-pinned-${PINNED_HEADERS_DEB%.deb}"
if [ ! -f "$PINNED_STAMP" ]; then
  url="$(mirror)/pool/main/s/spirv-headers/$PINNED_HEADERS_DEB"
  if python3 - "$url" "$DL/$PINNED_HEADERS_DEB" "$PINNED_HEADERS_SHA256" <<'EOPY'
import hashlib, sys, urllib.request
url, out, want = sys.argv[1:4]
data = urllib.request.urlopen(url, timeout=120).read()
got = hashlib.sha256(data).hexdigest()
if got != want:
    sys.exit("%s: sha256 %s, expected %s" % (url, got, want))
open(out, "wb").write(data)
EOPY
  then
    rm -rf "$PINNED_DIR" && mkdir -p "$PINNED_DIR"
    dpkg-deb -x "$DL/$PINNED_HEADERS_DEB" "$PINNED_DIR"
    touch "$PINNED_STAMP"
  else
    log "warning: could not download the pinned $PINNED_HEADERS_DEB ($url); the build does not need it, the test grammar_generated_fresh will be skipped"
  fi
fi
# (CMakeLists.txt finds it there: $PREFIX/pinned/spirv-headers_*/usr/include/spirv/unified1.)

# ---- 3. SPIRV-Tools 2025.1 static library from trixie's source tarball -----------
ST_STAMP="$PREFIX/.stamp-spirv-tools"
if [ ! -f "$ST_STAMP" ]; then
  apt_setup
  ( cd "$DL" && apt-get $(apt_opts) source --download-only spirv-tools >&2 ) || true
  tarball=$(ls "$DL"/spirv-tools_*.orig.tar.* 2>/dev/null | head -1)
  [ -n "$tarball" ] || die "could not download trixie's spirv-tools source tarball"
  src="$PREFIX/src/spirv-tools"
  rm -rf "$src" && mkdir -p "$src"
  tar -xf "$tarball" -C "$src" --strip-components=1
  log "building SPIRV-Tools (static library only; a few minutes on 2 cores)"
  cmake -S "$src" -B "$PREFIX/build/spirv-tools" -DCMAKE_BUILD_TYPE=Release \
    -DSPIRV-Headers_SOURCE_DIR="$PREFIX/root/usr" \
    -DSPIRV_SKIP_TESTS=ON -DSPIRV_SKIP_EXECUTABLES=ON -DSPIRV_WERROR=OFF \
    -DSPIRV_TOOLS_BUILD_STATIC=ON -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DCMAKE_INSTALL_PREFIX="$PREFIX/spirv-tools" >&2
  cmake --build "$PREFIX/build/spirv-tools" --target SPIRV-Tools-static -j "$JOBS" >&2
  mkdir -p "$PREFIX/spirv-tools/lib" "$PREFIX/spirv-tools/include"
  cp "$PREFIX/build/spirv-tools/source/libSPIRV-Tools.a" "$PREFIX/spirv-tools/lib/"
  cp -r "$src/include/spirv-tools" "$PREFIX/spirv-tools/include/"
  rm -rf "$PREFIX/build/spirv-tools" "$src"
  touch "$ST_STAMP"
fi

# A small file CMake reads (-DSPVGEN_DEPS_DIR=...)
cat > "$PREFIX/paths.cmake" <<EOC
set(SPVGEN_SPIRV_HEADERS_INCLUDE "$PREFIX/root/usr/include")
set(SPVGEN_SPIRV_GRAMMAR_DIR "$PREFIX/root/usr/include/spirv/unified1")
set(SPVGEN_VULKAN_INCLUDE "$PREFIX/root/usr/include")
set(SPVGEN_VOLK_DIR "$PREFIX/root/usr")
set(SPVGEN_SPIRV_TOOLS_INCLUDE "$PREFIX/spirv-tools/include")
set(SPVGEN_SPIRV_TOOLS_LIB "$PREFIX/spirv-tools/lib/libSPIRV-Tools.a")
EOC
echo "$PREFIX"
