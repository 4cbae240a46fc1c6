#!/bin/sh
# Renders a `vitals report` picture to PNG with headless Chromium, the way a person would see it, and
# checks that the PNG is there and not blank. With no arguments: simulates a 15-minute ECG (premature
# beats, atrial fibrillation from 7:00 to 10:40), writes its report and renders it to
# docs/report-example.png.
# Usage: scripts/report/render.sh [REPORT.svg|REPORT.html OUT.png]
# Needs Debian's `chromium` (apt-get install -y chromium) and a built `vitals` (VITALS=path to override).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
vitals=${VITALS:-$root/.build/debug/vitals}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "render.sh: chromium is not installed (apt-get install -y chromium)" >&2; exit 2; }
if [ $# -eq 0 ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  "$vitals" simulate --signal ecg --duration 900 --rate 250 --seed 3 --pvc 0.03 --afib 420:640 \
    -o "$scratch/holter.csv" > /dev/null
  "$vitals" report "$scratch/holter.csv" -o "$scratch/holter.svg"
  input=$scratch/holter.svg
  output=$root/docs/report-example.png
  palette=64
else
  input=$1
  output=$2
fi
# The window is as tall as the picture, so nothing is cut off.
height=$(sed -n 's/.*<svg[^>]* height="\([0-9]*\).*/\1/p' "$input" | head -n 1)
height=${height:-1800}
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --screenshot="$output" --window-size=1400,"$height" "file://$(cd "$(dirname "$input")" && pwd)/$(basename "$input")" \
  2> /dev/null
python3 - "$output" "${palette:-0}" <<'PY'
import struct, sys, zlib
path, palette = sys.argv[1], int(sys.argv[2])
if palette:
    # A committed picture: a 64-colour palette keeps it small (needs Pillow).
    from PIL import Image
    Image.open(path).convert("RGB").quantize(colors=palette).save(path, optimize=True)
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
# Decompress the image data and make sure it is not one flat colour.
kind = data[25]
chunks, pos = [], 8
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        chunks.append(data[pos + 8:pos + 8 + length])
    pos += 12 + length
pixels = zlib.decompress(b"".join(chunks))
step = 1 if kind == 3 else 3
distinct = len(set(pixels[i:i + step] for i in range(0, min(len(pixels), 3_000_000), 997)))
print(f"{path}: {width}x{height} PNG, {len(data) // 1024} KB, {distinct} distinct sampled colours")
assert distinct > (10 if kind == 3 else 20), "the picture is blank"
PY
