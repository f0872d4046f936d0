#!/usr/bin/env bash
# Builds the libFuzzer target .build-fuzz/traitlab-fuzz (see FuzzTarget.swift):
# TraitEngine, TraitLabLua and the C shim compiled with coverage and
# AddressSanitizer in their own scratch folder, then linked with the fuzz entry
# points, the model-based test's model and libFuzzer. The main package and CI
# never see these flags.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

scratch=.build-fuzz
log="$scratch/build.log"
# One -sanitize= list: given separately, swiftc keeps only the last (and the
# Swift code would get no coverage counters).
mkdir -p "$scratch"
if ! swift build --scratch-path "$scratch" --target TraitLabLua \
    -Xswiftc -sanitize=fuzzer,address \
    -Xcc -fsanitize=fuzzer-no-link,address >"$log" 2>&1; then
  grep -v "Cannot export local symbol" "$log" | tail -n 40 >&2
  echo "fuzz build: swift build failed" >&2
  exit 1
fi
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"

clang="$(dirname "$(command -v swift)")/clang"
"$clang" -c -g -O1 -fsanitize=fuzzer-no-link,address -I Sources/CLuaShim/include \
  Fuzz/CFuzzHooks/fuzz_hooks.c -o "$scratch/fuzz_hooks.o"

swiftc -g -Onone -parse-as-library -sanitize=fuzzer,address \
  -module-cache-path "$scratch/ModuleCache" \
  -I "$bin/Modules" -I Fuzz/CFuzzHooks \
  -Xcc -fmodule-map-file=Sources/CLua/module.modulemap \
  -Xcc -fmodule-map-file="$bin/CLuaShim.build/module.modulemap" \
  -Xcc -I -Xcc Sources/CLuaShim/include \
  Fuzz/FuzzTarget.swift Tests/TraitEngineTests/TraitFlowModel.swift Tests/TraitEngineTests/TraitFlowModelWorld.swift \
  "$bin"/TraitEngine.build/*.o "$bin"/TraitLabLua.build/*.o "$bin"/CLuaShim.build/*.o "$scratch/fuzz_hooks.o" \
  -llua5.4 -o "$scratch/traitlab-fuzz"
echo "built $scratch/traitlab-fuzz"
