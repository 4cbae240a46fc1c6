#!/usr/bin/env bash
# The command line uses the library's public API only: type-checks Sources/VitalsCLI against the debug
# build's modules as if it were another package's code, where `package` symbols are invisible.
# Warnings are left out: as another package, the CLI's conformances of library types to ArgumentParser
# protocols read as retroactive. Needs a debug build of the current sources (make test builds one first).
set -euo pipefail
cd "$(dirname "$0")/../.."
modules_dir="$(swift build --show-bin-path)/Modules"
include_flags=(-I "$modules_dir")
while IFS= read -r map; do include_flags+=(-I "$(dirname "$map")"); done \
  < <(find Sources .build/checkouts -name module.modulemap 2>/dev/null)
swiftc -typecheck -suppress-warnings -module-name VitalsCLI -package-name another-package "${include_flags[@]}" Sources/VitalsCLI/*.swift
echo "cli public api: Sources/VitalsCLI type-checks without package symbols"
