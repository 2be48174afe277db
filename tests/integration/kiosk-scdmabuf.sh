#!/bin/bash
# SPDX-License-Identifier: MIT
# zwlr_screencopy_manager_v1 into dma-bufs (issue 27), in the guest: dispman-kiosk runs
# kiosk-paint (a still pattern: tests/integration/kiosk-paint.c); kiosk-scdmabuf (a client
# without a GPU: a dumb buffer on the DRM node, or udmabuf) copies the whole output and a
# region into dma-bufs it makes, and gets invalid_buffer for one of the wrong size. Its
# whole-output frame must equal the compositor's own capture (--capture, SIGUSR1) byte for
# byte and show the client's pattern (kiosk-ops-check); the kiosk's log must show no
# failed copy, its stats two copies, and it must end clean (no sanitizer report).
# Usage: kiosk-scdmabuf.sh KIOSK PAINT CHECK SCDMABUF
# Not on bochs and cirrus (their short list: the CI time budget); on multi it opens the
# device under test, card1, not card0.
# Files go to $DISPMAN_VM_OUT/kiosk-scdmabuf.
set -u
kiosk=$1 paint=$2 check=$3 client=$4
out=${DISPMAN_VM_OUT:-/tmp}/kiosk-scdmabuf
rm -rf "$out"
mkdir -p "$out"
export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg-kiosk-scdmabuf.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
export WAYLAND_DISPLAY=kiosk-scdmabuf
stats=$out/stats
kpid=
fail() {
	echo "FAIL: $*" >&2
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null
	[ -f "$out/kiosk.log" ] && tail -n 30 "$out/kiosk.log" >&2
	exit 1
}
. "$(dirname "$0")/kiosk-lib.sh"
stat() { awk -v k="$1" '$1 == k { print $2 }' "$stats" 2>/dev/null; }
painted() { grep -q '^painted' "$out/kiosk.log"; }
repainted() { [ "$(stat repaints)" -ge 2 ] 2>/dev/null; }
dut=${DISPMAN_TEST_DEVICE:-${DISPMAN_DEVICE:-/dev/dri/card0}}

"$kiosk" --socket "$WAYLAND_DISPLAY" --stats "$stats" --capture "$out/cap" -- "$paint" \
	>"$out/kiosk.log" 2>&1 &
kpid=$!
wait_for 120 "dispman-kiosk start" test -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" -a -f "$stats"
wait_for 120 "the client's first buffer" painted
wait_for 60 "a repaint with it" repainted
sleep 1
t0=$SECONDS
"$client" "$dut" "$out/dmabuf.ppm" >"$out/client.log" 2>&1 ||
	fail "kiosk-scdmabuf: $(cat "$out/client.log")"
t1=$SECONDS
cat "$out/client.log"
kill -USR1 "$kpid"
captured() { grep -q "captured $out/cap.0.ppm" "$out/kiosk.log"; }
wait_for 60 "the compositor's capture" captured
cmp "$out/dmabuf.ppm" "$out/cap.0.ppm" ||
	fail "the dma-buf copy differs from the compositor's capture"
wh=$(sed -n 2p "$out/cap.0.ppm")
w=${wh% *} h=${wh#* }
"$check" pattern "$out/dmabuf.ppm" "$w" "$h" || fail "the dma-buf copy is not the pattern"
grep -q "screencopy:" "$out/kiosk.log" && fail "the kiosk logged a screencopy failure"
sc=$(stat screencopies)
[ "${sc:-0}" -ge 2 ] || fail "screencopies ${sc:-none}, want 2"
kiosk_stop_clean
echo "PASS kiosk-scdmabuf: $sc dma-buf copies (${w}x$h), client $((t1 - t0)) s"
