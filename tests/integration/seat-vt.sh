#!/bin/sh
# SPDX-License-Identifier: MIT
# A VT switch through seatd: examples/kiosk runs as nobody on a VT-bound seatd; switching
# to another VT must pause it (the seat is disabled, DRM master is dropped) and switching
# back must restore it with one modeset, after which it keeps drawing.
#
# Usage: seat-vt.sh KIOSK
#
# Checks, in the kernel's own state (debugfs "clients": the kiosk's file is master or
# not) and in the logs: the kiosk is master on its VT, not master while another VT is in
# front, master again after the switch back; its log says the seat was disabled and
# enabled, has no error line, and makes exactly one modeset after the switch back; frames
# reach the screen after the restore; its screenshot then shows the UI. Exit 77 where the
# guest has no VTs.
set -u
kiosk=$1
out=${DISPMAN_VM_OUT:-/tmp}
uid=65534
fail=0
FAIL() { echo "FAIL: $*"; fail=1; }
. "$(dirname "$0")/seatd-start.sh"

command -v seatd >/dev/null || { echo "FAIL: seatd is not installed (scripts/setup-debian)"; exit 1; }
command -v chvt >/dev/null || { echo "FAIL: chvt is not installed (kbd, scripts/setup-debian)"; exit 1; }
if [ ! -e /dev/tty0 ] || ! vt=$(fgconsole 2>/dev/null); then
	echo "n/a on this guest: no virtual terminals (/dev/tty0, fgconsole)"
	exit 77
fi
other=$((vt + 1))
card=${DISPMAN_DEVICE:-/dev/dri/card0}
dri=/sys/kernel/debug/dri/$((0x$(stat -Lc %T "$card")))
if [ -n "${DISPMAN_VM_DRIVER:-}" ] && ! grep -qs "^$DISPMAN_VM_DRIVER " "$dri/name"; then
	for d in /sys/kernel/debug/dri/*; do
		grep -qs "^$DISPMAN_VM_DRIVER " "$d/name" && { dri=$d; break; }
	done
fi
echo "device $card, debugfs $dri, VT $vt in front, switching to $other and back"

# The kiosk's file in debugfs "clients" ("command tgid dev master a uid magic"): y or n.
# seatd opened it for the kiosk, so the kernel names seatd (pid $1) as its opener; seatd
# keeps no DRM file of its own.
master_of() {
	awk -v pid="$1" '$2 == pid && !found { print $4; found = 1 } END { if (!found) print "none" }' \
		"$dri/clients"
}
# Wait (up to $3 s) until the kiosk's master column is $2.
wait_master() {
	i=0
	while [ "$(master_of "$1")" != "$2" ] && [ $i -lt $(($3 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	m=$(master_of "$1")
	echo "kiosk's DRM file (opened by seatd) master: $m"
	[ "$m" = "$2" ]
}

seatd_start "$out/seatd-vt.log"

rm -f /tmp/seat-vt.ppm /tmp/seat-vt.log
LIBSEAT_BACKEND=seatd DISPMAN_DEBUG=1 setpriv --reuid=$uid --regid=$uid --clear-groups \
	"$kiosk" --render cpu --frames 1000000 --screenshot /tmp/seat-vt.ppm \
	>/tmp/seat-vt.log 2>&1 &
kpid=$!
i=0
while ! grep -q "^kiosk: ready" /tmp/seat-vt.log && [ $i -lt 600 ]; do
	kill -0 $kpid 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
grep -q "^kiosk: ready" /tmp/seat-vt.log || FAIL "the kiosk did not come up"
sed -n '/^[^d]/p' "$dri/clients" 2>/dev/null | head -n 5
wait_master $seatd_pid y 30 || FAIL "the kiosk is not DRM master on its VT"

chvt $other
echo "VT in front: $(fgconsole)"
wait_master $seatd_pid n 30 || FAIL "the kiosk is still DRM master with VT $other in front"
grep -q "seat seat0 disabled" /tmp/seat-vt.log || { sleep 2; grep -q "seat seat0 disabled" /tmp/seat-vt.log; } ||
	FAIL "the kiosk did not log the seat being disabled"
grep -m1 "allocated by" "$dri/state" | sed 's/^/state while away: /'
sleep 1

chvt "$vt"
echo "VT in front: $(fgconsole)"
wait_master $seatd_pid y 30 || FAIL "the kiosk did not get DRM master back"
i=0
while ! grep -q "seat seat0 enabled" /tmp/seat-vt.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
grep -q "seat seat0 enabled" /tmp/seat-vt.log || FAIL "the kiosk did not log the seat being enabled"
# frames reach the screen again: the kiosk's plane shows its framebuffers
sleep 3
grep "allocated by" "$dri/state" | sort | uniq -c | sed 's/^/state after the switch back: /'
grep -q "allocated by = kiosk" "$dri/state" || FAIL "no framebuffer of the kiosk on screen after the switch back"

kill -TERM $kpid
wait $kpid
krc=$?
kill $seatd_pid 2>/dev/null
wait $seatd_pid 2>/dev/null
cp /tmp/seat-vt.log "$out/seat-vt-kiosk.log"
grep -vE "^dispman debug" /tmp/seat-vt.log | tail -n 20
[ $krc -eq 0 ] || FAIL "the kiosk exited with $krc"
if grep -q "^dispman error" /tmp/seat-vt.log; then
	FAIL "the kiosk logged errors around the VT switch: $(grep '^dispman error' /tmp/seat-vt.log | head -n 3)"
fi
done_line=$(grep -m1 "^kiosk: done:" /tmp/seat-vt.log)
echo "$done_line"
# The start needs a modeset only where the console's mode differs from the kiosk's (on
# these guests it does not: 0); the restore after the switch back is exactly one.
modesets=$(echo "$done_line" | sed -n 's/.* \([0-9][0-9]*\) modesets.*/\1/p')
before=$(sed -n '/seat seat0 enabled/q; /modeset commit accepted/p' /tmp/seat-vt.log | wc -l)
# (up to the done line: a screenshot through writeback makes modeset commits of its own)
after=$(sed -n '/seat seat0 enabled/,/^kiosk: done:/p' /tmp/seat-vt.log | grep -c "modeset commit accepted")
echo "modeset commits: $before before the switch away, $after after the switch back, $modesets in the stats"
[ "$after" = 1 ] || FAIL "expected one modeset to restore after the switch back, got $after"
[ "${modesets:-x}" = $((before + after)) ] ||
	FAIL "the stats count ${modesets:-no} modesets, the debug log $((before + after))"
echo "--- seatd:"; grep -iE "vt|disabl|activat|enabl" "$out/seatd-vt.log" | head -n 20

if [ -f /tmp/seat-vt.ppm ]; then
	cp /tmp/seat-vt.ppm "$out/seat-vt.ppm"
	python3 - /tmp/seat-vt.ppm <<'PY' || fail=1
import sys
data = open(sys.argv[1], "rb").read()
parts = data.split(maxsplit=4)
w, h = int(parts[1]), int(parts[2])
px = parts[4][: w * h * 3]
ui = sum(1 for i in range(0, len(px), 3 * 31) if px[i:i + 3] == bytes.fromhex("404858"))
print("screenshot %dx%d: %d sampled pixels of the kiosk's button colour" % (w, h, ui))
if ui < 100:
    print("FAIL: the screenshot after the switch back does not show the kiosk UI")
    sys.exit(1)
PY
else
	FAIL "no screenshot from the kiosk"
fi
[ $fail -eq 0 ] && echo "PASS: paused on VT $other, restored on VT $vt with one modeset"
exit $fail
