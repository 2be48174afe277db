#!/bin/sh
# hello's Must show: hello --check reads its frame back (dispman_output_capture) and
# compares it with its drawing pixel for pixel. Where the host can screendump the
# device's heads (DISPMAN_SCREENDUMP_DEVICE is DISPMAN_DEVICE: virtio-gpu), QEMU's
# screendump of head 0 (hello's first connected output) taken while the frame is shown
# must also equal that capture: capture and screen agree.
# Usage: hello-check.sh HELLO PPM_COMPARE
set -u
hello=$1 compare=$2
out=${DISPMAN_VM_OUT:-/tmp}
same_dev() { [ -n "${1:-}" ] && [ -n "${2:-}" ] && [ "$(stat -Lc %t:%T "$1")" = "$(stat -Lc %t:%T "$2")" ]; }
if [ -n "${DISPMAN_SCREENDUMP:-}" ] && same_dev "${DISPMAN_SCREENDUMP_DEVICE:-}" "${DISPMAN_DEVICE:-}"; then
	echo "hello-check: comparing the capture with QEMU's screendump of head 0 too"
	rm -f "$out/hello.ppm" "$out/hello-screen.ppm"
	exec "$hello" --check --capture "$out/hello.ppm" --then \
		"'$DISPMAN_SCREENDUMP' --head 0 '$out/hello-screen.ppm' && /usr/bin/python3 '$compare' '$out/hello-screen.ppm' '$out/hello.ppm'"
fi
exec "$hello" --check --capture "$out/hello.png"
