#!/usr/bin/env bash
# How long `traitlab swift import` takes over a whole app: generates an app's
# folder of Swift files (600 by default: view controllers, views, models, one
# trait or key in every few files, #if blocks, namespaces), builds the
# release importer (scripts/build-swift-import.sh --release: about ten minutes
# from nothing) and prints the wall time of three imports, their best, and
# the ratio to the 5 s the documentation promises (docs/swift.md).
#   bash scripts/bench-swift-import.sh [FILES]
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-600}
importer=$(bash scripts/build-swift-import.sh --release)
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT

# One file of an app: about 120 lines of ordinary code, and every fifth file a
# trait (with its accessors), every seventh a bridged key, every eleventh an enum.
for ((i = 0; i < files; i++)); do
  dir="$app/Sources/Feature$((i % 24))"
  mkdir -p "$dir"
  {
    echo "import UIKit"
    echo "import SwiftUI"
    echo
    echo "/// Screen $i of the app."
    echo "final class Screen${i}ViewController: UIViewController {"
    for ((m = 0; m < 8; m++)); do
      echo "  private var value$m = $m"
      echo "  func update$m(_ items: [String], animated: Bool) -> Int {"
      echo "    let filtered = items.filter { !\$0.isEmpty }.map { \$0.uppercased() }"
      echo "    if animated { UIView.animate(withDuration: 0.25) { self.view.alpha = 1 } }"
      echo "    #if DEBUG"
      echo "      print(\"screen $i: \\(filtered.count)\")"
      echo "    #endif"
      echo "    return filtered.count + value$m"
      echo "  }"
    done
    echo "}"
    echo
    echo "struct Row${i}View: View {"
    echo "  var title: String"
    echo "  var body: some View { Text(title).padding(.horizontal, 12) }"
    echo "}"
    if ((i % 11 == 0)); then
      echo
      echo "enum Mode$i: Int, CaseIterable {"
      echo "  case off = 0"
      echo "  case on, auto"
      echo "}"
    fi
    if ((i % 5 == 0)); then
      echo
      echo "enum Defaults$i {"
      echo "  static let spacing: CGFloat = $((i % 17))"
      echo "}"
      echo
      echo "#if canImport(UIKit)"
      echo "  struct Spacing${i}Trait: UITraitDefinition {"
      echo "    static let defaultValue: CGFloat = Defaults$i.spacing"
      echo "  }"
      echo
      echo "  extension UITraitCollection {"
      echo "    var spacing$i: CGFloat { self[Spacing${i}Trait.self] }"
      echo "  }"
      echo "#endif"
    fi
    if ((i % 7 == 0)); then
      echo
      echo "struct Flag${i}Trait: UITraitDefinition {"
      echo "  static let defaultValue = false"
      echo "}"
      echo
      echo "extension UITraitCollection {"
      echo "  var flag$i: Bool { self[Flag${i}Trait.self] }"
      echo "}"
      echo
      echo "extension UIMutableTraits {"
      echo "  var flag$i: Bool {"
      echo "    get { self[Flag${i}Trait.self] }"
      echo "    set { self[Flag${i}Trait.self] = newValue }"
      echo "  }"
      echo "}"
      echo
      echo "struct Flag${i}Key: EnvironmentKey {"
      echo "  static let defaultValue = false"
      echo "}"
      echo
      echo "extension Flag${i}Key: UITraitBridgedEnvironmentKey {"
      echo "  static func read(from traitCollection: UITraitCollection) -> Bool { traitCollection.flag$i }"
      echo "  static func write(to mutableTraits: inout UIMutableTraits, value: Bool) { mutableTraits.flag$i = value }"
      echo "}"
    fi
  } >"$dir/Screen$i.swift"
done

lines=$(cat "$app"/Sources/*/*.swift | wc -l)
best=""
for run in 1 2 3; do
  start=$(date +%s.%N)
  "$importer" "$app" -o "$app/imported.lua" 2>"$app/report"
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  echo "run $run: ${secs} s"
  if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$secs; fi
done
echo "swift import of $files files ($lines lines): best of 3 ${best} s; $(tail -1 "$app/report" | sed 's/^traitlab: swift import: //')"
awk -v s="$best" -v f="$files" 'BEGIN { printf "%.0f files/s; %.2f of the 5 s target\n", f / s, s / 5 }'
