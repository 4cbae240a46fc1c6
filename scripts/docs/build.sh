#!/usr/bin/env bash
# Builds the DocC catalog of every public module (the modules `Vitals` re-exports, and `Vitals`) into
# .build/docs/MODULE.doccarchive, from the symbol graphs of the debug build's modules, with DocC's
# warnings as errors. Fails when a public module has no catalog or a catalog has no article.
# Needs a debug build (`swift build`) of the current sources; `make docs` does both.
# The swift-docc-plugin (`swift package generate-documentation --target MODULE`) builds the same
# catalogs, with a build of its own. Doc comments name the parameters that need more than their label
# says, not every one, so DocC's check that every parameter is listed is off. A module's links reach its
# own symbols only: other modules' symbols are written in code voice.
set -euo pipefail
cd "$(dirname "$0")/../.."

modules_dir="$(swift build --show-bin-path)/Modules"
[ -d "$modules_dir" ] || { echo "no debug build at $modules_dir: run swift build first" >&2; exit 1; }
out=.build/docs
rm -rf "$out"
mkdir -p "$out/symbol-graphs"

# Every directory holding a module map (C modules of the package and of its dependencies).
include_flags=(-I "$modules_dir")
while IFS= read -r map; do include_flags+=(-I "$(dirname "$map")"); done \
  < <(find Sources .build/checkouts -name module.modulemap 2>/dev/null)

modules=($(sed -n 's/^@_exported import \(Vitals[A-Za-z]*\)$/\1/p' Sources/Vitals/Vitals.swift) Vitals)
failed=0
for module in "${modules[@]}"; do
  catalog="Sources/$module/Documentation.docc"
  if [ ! -d "$catalog" ]; then echo "error: $module has no DocC catalog ($catalog)" >&2; failed=1; continue; fi
  if [ "$(find "$catalog" -name '*.md' | wc -l)" -lt 2 ]; then
    echo "error: $catalog has a module page but no article" >&2; failed=1
  fi
  graphs="$out/symbol-graphs/$module"
  mkdir -p "$graphs"
  swift-symbolgraph-extract -module-name "$module" "${include_flags[@]}" -target "$(uname -m)-unknown-linux-gnu" \
    -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols -output-dir "$graphs"
  echo "docc: $module"
  docc convert "$catalog" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.vitals.$module" \
    --output-path "$out/$module.doccarchive" --warnings-as-errors --disable-parameters-and-returns-validation \
    --transform-for-static-hosting \
    --hosting-base-path "$module" || failed=1
done
exit $failed
