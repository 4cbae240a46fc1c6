#!/bin/sh
# Proves that the tests modify no input: `scripts/inputs_unchanged.sh record FILE` writes the SHA-256
# of every file of the committed fixtures (Fixtures/) and of ../shared/data (when present) to FILE;
# `scripts/inputs_unchanged.sh verify FILE` compares them again and fails naming every file that
# changed, appeared or disappeared.
set -eu
mode=${1:?usage: scripts/inputs_unchanged.sh record|verify FILE}
list=${2:?usage: scripts/inputs_unchanged.sh record|verify FILE}
cd "$(dirname "$0")/.."
digests() {
  for dir in Fixtures ../shared/data; do
    [ -d "$dir" ] && find "$dir" -type f -print0 | sort -z | xargs -0 sha256sum
  done
}
case "$mode" in
  record) digests > "$list" ;;
  verify)
    if ! digests | diff "$list" - > "$list.diff"; then
      echo "inputs changed during the tests:" >&2
      cat "$list.diff" >&2
      exit 1
    fi
    echo "inputs unchanged: $(wc -l < "$list") files of Fixtures/ and ../shared/data"
    ;;
  *) echo "usage: scripts/inputs_unchanged.sh record|verify FILE" >&2; exit 2 ;;
esac
