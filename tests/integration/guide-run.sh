#!/bin/bash
# The guide's programs (doc/guide.md) run in the guest, each as the page shows it,
# extracted unchanged and linked with guide-check.c, which checks the screen (writeback
# or QEMU's screendump) against what the page says the program shows.
# Usage: guide-run.sh NAME PROGRAM [UINPUT_KEYS]
#   hello, layers, loop   end by themselves; the screen is checked at their
#                         dispman_device_destroy()
#   camera, master        run until stopped: the screen is checked after a few
#                         seconds, then their dispatch returns an error, which ends
#                         their loop the way the page handles errors
#   input                 a uinput keyboard (UINPUT_KEYS) presses Escape: the program
#                         prints the key and ends by itself
#   hotplug               lists the outputs (no picture): the connected one is listed
# They run on vkms-6.1 (writeback) and virtio-gpu (screendump) only, n/a elsewhere: the CI
# time budget (under TCG on a host with a load of 17 to 20: 71 s for the seven on vkms-6.1;
# on virtio-gpu, where each screendump is slow, 27 s for layers and 35 s for camera).
set -u
name=$1 prog=$2 keys=${3:-}
# On virtio-gpu only the two whose path differs there: layers (no overlay: all composed)
# and camera (no dma-buf import: CPU copies); the others do the same on both drivers.
case ${DISPMAN_VM_PROFILE:-}:$name in
vkms-6.1:*|virtio-gpu:layers|virtio-gpu:camera) ;;
*)	echo "n/a: guide-$name runs on vkms-6.1 (and layers and camera on virtio-gpu): CI time budget"
	exit 77 ;;
esac
out=${DISPMAN_VM_OUT:-/tmp}
log=$out/guide-$name.out
fail() { echo "FAIL: guide-$name: $*"; exit 1; }
export GUIDE_SHOT=$out/guide-$name.ppm
rm -f "$GUIDE_SHOT"

run() { # run TIMEOUT: the program, its stdout in $log (and in the test log)
	timeout -k 5 "$1" "$prog" >"$log"
	rc=$?
	cat "$log"
	[ $rc -ne 124 ] || fail "still running after $1 s"
	[ $rc -eq 0 ] || fail "exit code $rc"
}

case "$name" in
hello)
	GUIDE_CHECK=hello run 60
	grep -q 'on screen$' "$log" || fail "no 'on screen' line" ;;
layers)
	GUIDE_CHECK=layers run 60
	grep -q '^layer 0: ' "$log" || fail "no placement line for layer 0"
	# no device of the guest has overlays that scale (the page: both would get planes)
	grep -q '^layer 1: composited, ' "$log" || fail "the box is not composited" ;;
loop)
	GUIDE_CHECK=loop run 90 ;;
camera)
	GUIDE_CHECK=camera GUIDE_STOP_AFTER=4 run 90
	n=$(sed -n 's/^\([0-9]*\) frames shown, zero-copy: .*/\1/p' "$log")
	[ "${n:-0}" -gt 0 ] || fail "no frame shown"
	# the line must say where the frames went: on virtio-gpu (no overlay) every one
	# is composed, on vkms the camera has an overlay and none is
	c=$(sed -n 's/^[0-9]* frames shown, zero-copy: [a-z]*, \([0-9]*\) composed$/\1/p' "$log")
	[ -n "$c" ] || fail "no composed count in: $(grep 'frames shown' "$log")"
	case "${DISPMAN_VM_DRIVER:-}" in
	virtio_gpu|virtio-gpu) [ "$c" -gt 0 ] || fail "virtio-gpu has no overlay, yet 0 frames composed" ;;
	vkms) [ "$c" = 0 ] || fail "vkms has an overlay for the camera, yet $c frames composed" ;;
	esac ;;
master)
	GUIDE_CHECK=master GUIDE_STOP_AFTER=1 run 60 ;;
hotplug)
	GUIDE_CHECK=none GUIDE_STOP_AFTER=1 run 60
	grep -q ': connected$' "$log" || fail "no connected output listed" ;;
input)
	[ -n "$keys" ] || fail "no uinput-keys given"
	coproc KB { exec "$keys"; }
	read -r -t 30 kbdev <&"${KB[0]}" || fail "uinput-keys made no keyboard"
	echo "keyboard $kbdev"
	# the safety stop (dispatch fails after 60 s) fails the test: Escape must end it
	GUIDE_CHECK=none GUIDE_STOP_AFTER=60 timeout -k 5 90 "$prog" >"$log" &
	pid=$!
	# press once the program has the keyboard's node open (libinput opened it)
	for _ in $(seq 600); do
		ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q " -> $kbdev\$" && break
		sleep 0.1
	done
	sleep 0.5
	echo "key escape" >&"${KB[1]}"
	wait $pid
	rc=$?
	cat "$log"
	eval "exec ${KB[1]}>&-"
	[ $rc -eq 0 ] || fail "exit code $rc"
	grep -q '^guide-check: stopping' "$log" && fail "Escape did not end the program"
	grep -q '^key 1 text ' "$log" || fail "no 'key 1' (Escape) line" ;;
*)
	fail "unknown program" ;;
esac
echo "PASS guide-$name"
