#!/bin/sh
# examples/player on a clip in a real container (MPEG-4 in MP4, through FFmpeg),
# played to its end: every frame decoded, the player keeps running (it holds the
# last frame) until --frames, and the screenshot shows the clip's colour bars.
# Usage: player-ffmpeg.sh PLAYER GEN-Y4M
set -eu
player=$1 gen=$2
dir=$(mktemp -d /tmp/player-ffmpeg.XXXXXX)
/usr/bin/python3 "$gen" "$dir/clip.y4m" 640 360 30 30
ffmpeg -loglevel error -y -i "$dir/clip.y4m" -c:v mpeg4 -q:v 3 "$dir/clip.mp4"
out=${DISPMAN_VM_OUT:-$dir}
# The clip lasts 1 s; the player shows its frames on time, so it must run longer than
# that: 150 flips are 2 s at 75 Hz (virtio-gpu), 2.5 s at 60 Hz (vkms).
"$player" --camera none --frames 150 --screenshot "$out/player-ffmpeg.ppm" "$dir/clip.mp4" |
	tee "$dir/log"
grep -q '^player: 150 flips, 30 video frames$' "$dir/log" ||
	{ echo "FAIL: expected 150 flips and all 30 frames of the clip"; exit 1; }
/usr/bin/python3 - "$out/player-ffmpeg.ppm" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
parts = data.split(b"\n", 3)
w, h = map(int, parts[1].split())
px = parts[3]
# the clip is letterboxed to 1024x576 in the middle of 1024x768: sample its middle row
y = 384
row = px[y * w * 3:(y + 1) * w * 3]
colours = {tuple(row[i:i + 3]) for i in range(0, len(row), 3)}
# saturated bars: some pixel with red high and blue low (yellow/red), and one blue-ish
yellow = any(r > 180 and g > 180 and b < 80 for r, g, b in colours)
blue = any(b > 180 and r < 80 for r, g, b in colours)
print(f"screenshot {w}x{h}: {len(colours)} colours on row {y}, yellow bar {yellow}, blue bar {blue}")
if len(colours) < 6 or not yellow or not blue:
    print("FAIL: the decoded clip is not on screen")
    sys.exit(1)
print("PASS")
PY
rm -rf "$dir"
