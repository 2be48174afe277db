#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad clients against dispman-kiosk, in the guest: while weston-simple-shm keeps running,
# each wayland-abuse case must get its own protocol error, a client killed mid-frame
# (SIGKILL, shm and, with vivid, weston-simple-dmabuf-v4l with dma-bufs on a plane) must
# leave no surface, buffer, layer or fd behind, the good client's frames must keep
# flowing after every case, and the compositor must exit without ASan/LSan reports.
# Usage: wayland-abuse.sh KIOSK ABUSE_CLIENT
set -u
kiosk=$1 abuse=$2
out=${DISPMAN_VM_OUT:-/tmp}/wayland-abuse
rm -rf "$out"
mkdir -p "$out"
export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg-kiosk.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
export WAYLAND_DISPLAY=wayland-abuse
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
stats=$out/stats
kpid=

fail() {
	echo "FAIL: $*" >&2
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null
	tail -n 40 "$out/kiosk.log" >&2
	exit 1
}
. "$(dirname "$0")/kiosk-lib.sh"
stat() { kill -USR1 "$kpid"; sleep 0.5; awk -v k="$1" '$1 == k { print $2 }' "$stats"; }
wait_stat() { # NAME MIN TIMEOUT_S
	local i v
	for ((i = 0; i < $3 * 2; i++)); do
		v=$(stat "$1")
		[ "${v:-0}" -ge "$2" ] && return 0
		kill -0 "$kpid" 2>/dev/null || fail "dispman-kiosk died"
	done
	fail "$1 stayed at ${v:-none} (< $2) for $3 s"
}
# the compositor's open fds, one "fd target" line each
fdlist() { for f in /proc/"$kpid"/fd/*; do echo "${f##*/} $(readlink "$f")"; done; }

"$kiosk" --socket "$WAYLAND_DISPLAY" --stats "$stats" -- weston-simple-shm >"$out/kiosk.log" 2>&1 &
kpid=$!
# the first stats file is written once its signal handlers are in place
i=0; while [ ! -f "$stats" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
wait_stat frame_callbacks 20 180
# the good client alone: its surface, layer and buffers, and the compositor's fds
sleep 1
fdlist >"$out/fds-base.txt"
base_fds=$(wc -l <"$out/fds-base.txt") base_surfaces=$(stat surfaces) base_layers=$(stat layers)
base_buffers=$(stat buffers)
echo "baseline with weston-simple-shm: $base_fds fds, $base_surfaces surfaces, $base_layers layers, $base_buffers buffers"

errors0=$(stat protocol_errors)
n=0
for c in shm-pool-beyond-file shm-buffer-beyond-pool dmabuf-bad-modifier dmabuf-missing-plane \
	dmabuf-plane-index dmabuf-out-of-bounds viewport-out-of-buffer unconfigured-buffer; do
	# the abuse client leaks what it abandons on purpose: LSan only for the compositor
	ASAN_OPTIONS=detect_leaks=0 "$abuse" "$c" || fail "case $c"
	n=$((n + 1))
	f=$(stat frame_callbacks)
	wait_stat frame_callbacks $((f + 10)) 120
done
ASAN_OPTIONS=detect_leaks=0 "$abuse" crash-mid-frame
rc=$?
[ "$rc" = 137 ] || fail "crash-mid-frame exited $rc, not by SIGKILL"
echo "crash-mid-frame: the client died by SIGKILL with a frame in flight"
# the dma-buf client needs a display that imports vivid's dma-bufs onto an overlay plane
# (the guest's capability probe, DISPMAN_VM_CAPS; virtio-gpu imports none)
cap() { sed -n "s/^$1=//p" "${DISPMAN_VM_CAPS:-/nonexistent}" 2>/dev/null | head -n 1; }
v4l_case=1
if [ ! -e /dev/video0 ]; then
	v4l_case=0; echo "weston-simple-dmabuf-v4l case: n/a, no /dev/video0"
elif [ -n "${DISPMAN_VM_CAPS:-}" ] && { [ "$(cap vivid-import)" != 1 ] || [ "$(cap overlays)" = 0 ]; }; then
	v4l_case=0
	echo "weston-simple-dmabuf-v4l case: n/a, the device imports vivid's dma-bufs: $(cap vivid-import), overlays: $(cap overlays)"
fi
if [ $v4l_case = 1 ]; then
	v4l2-ctl -d /dev/video0 --set-fmt-video=width=640,height=480,pixelformat=XR24 ||
		fail "vivid: cannot set XR24 640x480"
	weston-simple-dmabuf-v4l -v /dev/video0 -f XR24 -d XR24 >"$out/v4l.log" 2>&1 &
	vpid=$!
	z=$(stat zero_copy_frames)
	wait_stat zero_copy_frames $((z + 10)) 300
	kill -KILL "$vpid"
	wait "$vpid" 2>/dev/null
	echo "weston-simple-dmabuf-v4l killed (SIGKILL) with its dma-bufs on screen"
fi
# the good client still runs, and the bad ones left nothing behind
f=$(stat frame_callbacks)
wait_stat frame_callbacks $((f + 20)) 120
sleep 2
fdlist >"$out/fds-after.txt"
fds=$(wc -l <"$out/fds-after.txt") surfaces=$(stat surfaces) layers=$(stat layers)
buffers=$(stat buffers)
clients=$(stat clients) errors=$(stat protocol_errors)
echo "after the bad clients: $fds fds, $surfaces surfaces, $layers layers, $buffers buffers, $clients clients, $((errors - errors0)) protocol errors sent (plus libwayland's own)"
# A leak is more fds than at the baseline. Fewer is not one (seen once on virtio-gpu under
# load, 25 -> 24: something open at the baseline, not after); the two listings are kept
# and their difference is shown either way.
if ! diff -u "$out/fds-base.txt" "$out/fds-after.txt" >"$out/fds.diff"; then
	echo "the compositor's fds, baseline -> after:"
	grep '^[-+][^-+]' "$out/fds.diff"
fi
[ "$fds" -le "$base_fds" ] || fail "fds $base_fds -> $fds"
[ "$surfaces" = "$base_surfaces" ] || fail "surfaces $base_surfaces -> $surfaces"
[ "$layers" = "$base_layers" ] || fail "layers $base_layers -> $layers"
[ "$buffers" -le "$base_buffers" ] || fail "buffers $base_buffers -> $buffers"
[ "$clients" = 1 ] || fail "$clients clients connected, want 1"
kiosk_stop_clean
echo "PASS: $n protocol-error cases, $((1 + v4l_case)) crashed clients, nothing left behind, no sanitizer report"
