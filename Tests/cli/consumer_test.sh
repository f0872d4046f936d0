#!/usr/bin/env bash
# The engine used as a Swift library from a package of its own, as
# docs/swift-library.md tells a new user to: Tests/consumer is that package.
# Its manifest must be the guide's (but for the path to this repository), its
# main.swift is written here from the guide's Swift blocks, in order, and the
# program must print exactly the guide's ```text blocks, in order. The
# TraitLabModule product (traitlab.so) must link from that package too and
# load in lua5.4.
#
# With --all, also: the guide's program in Swift 6 language mode (a
# swift-tools-version 6.0 copy of the package) and both in release.
# Builds go to .build-consumer*/ (git-ignored), apart from the main build.
#
# usage: Tests/cli/consumer_test.sh path/to/traitlab [--all]
set -u
: "${1:?usage: consumer_test.sh path/to/traitlab [--all]}"
all=false
[ "${2:-}" = --all ] && all=true
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/Tests/cli/lib/expect.sh"
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
doc=$root/docs/swift-library.md
pkg=$root/Tests/consumer
scratch=$root/.build-consumer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The guide's blocks: the manifest (the ```swift block that starts with
# swift-tools-version), the program (every other ```swift block) and its
# output (every ```text block).
# The DocC getting-started article is built from the same example: its
# manifest is the guide's, and its other Swift blocks, joined, are the
# guide's first program block.
article=$root/Sources/TraitEngine/TraitEngine.docc/GettingStarted.md
python3 - "$doc" "$tmp" "$article" <<'PY'
import re, sys
doc, out, article = sys.argv[1], sys.argv[2], sys.argv[3]
def blocks(path):
    return re.findall(r"^```(\w*)\n(.*?)^```$", open(path).read(), re.M | re.S)
def split(bs):
    manifest = [b for lang, b in bs if lang == "swift" and b.startswith("// swift-tools-version")]
    program = [b for lang, b in bs if lang == "swift" and not b.startswith("// swift-tools-version")]
    return (manifest[0] if len(manifest) == 1 else ""), program
manifest, program = split(blocks(doc))
output = [b for lang, b in blocks(doc) if lang == "text"]
open(out + "/manifest", "w").write(manifest)
open(out + "/main.swift", "w").write("\n".join(program))
open(out + "/expected", "w").write("".join(output))
a_manifest, a_program = split(blocks(article))
open(out + "/article", "w").write(a_manifest + "\n" + "\n".join(a_program))
open(out + "/article.expected", "w").write(manifest + "\n" + (program[0] if program else ""))
PY

# Comment lines and blank lines aside, Tests/consumer/Package.swift is the
# guide's manifest with this repository's path in place of ../TraitLab.
strip() { sed -e '1!{/^[[:space:]]*\/\//d}' -e '/^[[:space:]]*$/d' "$1"; }
sed 's|\.package(path: "\.\./TraitLab")|.package(name: "TraitLab", path: "../..")|' "$tmp/manifest" > "$tmp/manifest.expected"
out=$(diff <(strip "$tmp/manifest.expected") <(strip "$pkg/Package.swift") 2>&1)
if [ -s "$tmp/manifest" ] && [ -z "$out" ]; then
  ok "Tests/consumer/Package.swift is the guide's manifest (the dependency's path aside)"
else
  [ -s "$tmp/manifest" ] || out="docs/swift-library.md has no single \`// swift-tools-version\` block"
  bad "the consumer's manifest differs from the guide's"
fi
grep -q '^import TraitEngine$' "$tmp/main.swift" && [ -s "$tmp/expected" ] \
  && ok "the guide has the program and what it prints" \
  || { out=$(cat "$tmp/main.swift"); bad "the guide's Swift blocks (no import TraitEngine, or no \`\`\`text block)"; }

out=$(diff "$tmp/article.expected" "$tmp/article" 2>&1)
[ -z "$out" ] && [ -s "$tmp/manifest" ] \
  && ok "the DocC getting-started article shows the guide's manifest and example" \
  || bad "the DocC getting-started article (GettingStarted.md) differs from the guide"

mkdir -p "$pkg/Sources/MyApp"
cp "$tmp/main.swift" "$pkg/Sources/MyApp/main.swift"

# Builds the package in configuration $2 with scratch path $1, then runs the
# program; names the check by $3. The build must print no warning about the
# guide's code, and the program exactly the guide's output.
build_and_run() {
  local scratch=$1 config=$2 what=$3 package=${4:-$pkg}
  run swift build --package-path "$package" --scratch-path "$scratch" -c "$config" --product MyApp
  if [ "$status" -ne 0 ]; then bad "$what builds"; return; fi
  local warnings
  warnings=$(grep -E "main\.swift:[0-9]+:[0-9]+: warning" <<<"$out")
  if [ -n "$warnings" ]; then out=$warnings; bad "$what: the guide's code compiles without warnings"
  else ok "$what builds, without warnings"; fi
  run "$scratch/$config/MyApp"
  if [ "$status" -eq 0 ] && [ "$out" = "$(cat "$tmp/expected")" ]; then
    ok "$what prints what the guide shows"
  else
    out=$(diff <(cat "$tmp/expected") <(printf '%s\n' "$out"); echo "(exit status $status)")
    bad "$what prints what the guide shows"
  fi
}

build_and_run "$scratch" debug "the guide's program (debug)"

# traitlab.so for lua5.4, built from the same package (no -Xlinker flags).
run swift build --package-path "$pkg" --scratch-path "$scratch" --product TraitLabModule
if [ "$status" -ne 0 ]; then
  bad "the TraitLabModule product builds from a package using TraitLab"
elif ! command -v lua5.4 >/dev/null; then
  ok "the TraitLabModule product builds from a package using TraitLab"
  echo "skip lua5.4 is not installed (scripts/setup.sh installs it)"
else
  mkdir -p "$tmp/lua"
  ln -s "$scratch/debug/libTraitLabModule.so" "$tmp/lua/traitlab.so"
  run env LUA_CPATH="$tmp/lua/?.so;;" lua5.4 -e '
    local ui = require("traitlab").ui
    local scene = ui.WindowScene {}
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    print(scene.traitCollection.userInterfaceStyle)'
  expect "the TraitLabModule product builds from a package using TraitLab and loads in lua5.4" 0 '^dark$'
fi

if $all; then
  build_and_run "$scratch" release "the guide's program (release)"
  # A swift-tools-version 6.0 package builds its own code in Swift 6 mode.
  six=$root/.build-consumer-swift6/MyApp
  mkdir -p "$six/Sources/MyApp"
  sed -e 's|^// swift-tools-version:5.9|// swift-tools-version:6.0|' \
      -e "s|path: \"\.\./\.\.\"|path: \"$root\"|" "$pkg/Package.swift" > "$six/Package.swift"
  cp "$tmp/main.swift" "$six/Sources/MyApp/main.swift"
  for config in debug release; do
    build_and_run "$root/.build-consumer-swift6/build" "$config" "the guide's program in Swift 6 mode ($config)" "$six"
  done
fi

finish
