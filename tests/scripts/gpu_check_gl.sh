#!/usr/bin/env bash
# scripts/gpu-check --gl-missing: which of the packages a GPU run needs are not in .gl/.
# Regression: with nullglob on, an empty .gl/ once counted every package as present, so
# `gpu-check --build` fetched nothing and the GPU run had no Vulkan loader.
set -u
script="$1/scripts/gpu-check"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
all=" libvulkan1 libglvnd0 libegl1 libopengl0 libgl1 libglx0 libgles2"
pass=0 fail=0
check() { # name expected actual
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $1: expected '$2', got '$3'"; fi
}
check "no .gl directory" "$all" "$(GPU_CHECK_GL_DIR="$tmp/none" bash "$script" --gl-missing)"
mkdir "$tmp/gl"
check "empty .gl" "$all" "$(GPU_CHECK_GL_DIR="$tmp/gl" bash "$script" --gl-missing)"
check "empty .gl, nullglob inherited" "$all" \
  "$(env BASHOPTS=nullglob GPU_CHECK_GL_DIR="$tmp/gl" bash "$script" --gl-missing)"
touch "$tmp/gl/libvulkan1_1.3.239.0-1_amd64.deb" "$tmp/gl/libglx0_1.6.0-1_amd64.deb"
check "two present" " libglvnd0 libegl1 libopengl0 libgl1 libgles2" \
  "$(GPU_CHECK_GL_DIR="$tmp/gl" bash "$script" --gl-missing)"
for p in $all; do touch "$tmp/gl/${p}_1.0-1_amd64.deb"; done
check "all present" "" "$(GPU_CHECK_GL_DIR="$tmp/gl" bash "$script" --gl-missing)"
mkdir "$tmp/gl2"; mkdir "$tmp/gl2/libgl1_1.0_amd64.deb" # a directory is not a package
check "directory named like a package" "$all" "$(GPU_CHECK_GL_DIR="$tmp/gl2" bash "$script" --gl-missing)"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
