#!/usr/bin/env bash
# Renders an SVG with headless Chromium and checks that the picture is not blank: enough pixels
# that are not the background, several colours, and the chart's own colours (the fitting points'
# blue, the over-memory points' orange, the best plan's red; or those SVG_COLOURS names).
# Usage: tests/benchmark/render_svg.sh chart.svg [out.png]
# Exit codes: 0 rendered and not blank; 1 blank or wrong; 2 no chromium or python3 (skipped).
set -euo pipefail
svg="${1:?usage: render_svg.sh chart.svg [out.png]}"
png="${2:-${svg%.svg}.png}"
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$chromium" ]]; then
  echo "render_svg: $chromium not found (apt-get install -y chromium); skipped"
  exit 2
fi
command -v python3 >/dev/null || { echo "render_svg: python3 not found; skipped"; exit 2; }

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
svg_abs="$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")"
png_abs="$(cd "$(dirname "$png")" && pwd)/$(basename "$png")"
rm -f "$png_abs"
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --screenshot="$png_abs" --window-size=960,640 \
  "file://$svg_abs" >/dev/null 2>&1 || true
[[ -s "$png_abs" ]] || { echo "render_svg: chromium wrote no screenshot"; exit 1; }

python3 - "$png_abs" <<'EOF'
import os, struct, sys, zlib

def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0, "only 8-bit, non-interlaced PNGs"
            channels = {2: 3, 6: 4, 0: 1, 4: 2}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows

w, h, ch, rows = read_png(sys.argv[1])
colours, ink = set(), 0
near = {"blue (fits)": (0x1f, 0x77, 0xb4), "orange (over memory)": (0xf2, 0x8e, 0x2b),
        "red (best)": (0xd6, 0x27, 0x28)}
# A chart of other colours names them: SVG_COLOURS="blue (forward)=1f77b4,green (backward)=54a24b".
wanted = os.environ.get("SVG_COLOURS", "")
if wanted:
    near = {name: tuple(int(hexa[i:i + 2], 16) for i in (0, 2, 4))
            for name, hexa in (item.split("=") for item in wanted.split(","))}
seen = {k: 0 for k in near}
for line in rows:
    for x in range(0, w * ch, ch):
        px = tuple(line[x:x + 3]) if ch >= 3 else (line[x],) * 3
        colours.add(px)
        if px != (255, 255, 255):
            ink += 1
        for name, c in near.items():
            if sum(abs(px[k] - c[k]) for k in range(3)) < 60:
                seen[name] += 1
share = ink / (w * h)
print(f"render_svg: {w}x{h} px, {len(colours)} colours, {share:.1%} not white, "
      + ", ".join(f"{k} {v} px" for k, v in seen.items()))
problems = []
if share < 0.02: problems.append("almost nothing drawn")
if len(colours) < 8: problems.append("too few colours")
problems += [f"no {k} pixels" for k, v in seen.items() if v == 0]
if problems:
    print("render_svg: BLANK OR WRONG: " + "; ".join(problems))
    sys.exit(1)
print("render_svg: ok")
EOF
