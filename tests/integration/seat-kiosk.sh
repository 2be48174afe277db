#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/kiosk as an unprivileged user (nobody) through seatd, in the guest.
#
# Usage: seat-kiosk.sh KIOSK
#
# Shows that it went through the seat: nobody cannot open /dev/dri/card0 itself, the
# kiosk fails without a seat (DISPMAN_SEAT=0) and runs with one; the kiosk process's uid
# is 65534; seatd's log has the client and the devices it opened for it; the kiosk's
# screenshot (taken through the seat's DRM fd) shows its UI. Exit 0 or 1 with FAIL lines.
set -u
kiosk=$1
out=${DISPMAN_VM_OUT:-/tmp}
uid=65534
gid=65534
as_nobody() { setpriv --reuid=$uid --regid=$gid --clear-groups "$@"; }
fail=0
FAIL() { echo "FAIL: $*"; fail=1; }
. "$(dirname "$0")/seatd-start.sh"

command -v seatd >/dev/null || { echo "FAIL: seatd is not installed (scripts/setup-debian)"; exit 1; }
card=${DISPMAN_DEVICE:-/dev/dri/card0}
ls -l $card

# 1. nobody has no access of its own
if as_nobody sh -c "exec 3<>$card" 2>/dev/null; then
	FAIL "nobody opens $card directly: this test would prove nothing"
fi

# 2. without a seat the kiosk cannot start, and says why
DISPMAN_SEAT=0 as_nobody "$kiosk" --render cpu --frames 5 >/tmp/noseat.log 2>&1
rc=$?
cat /tmp/noseat.log
[ $rc -ne 0 ] || FAIL "the kiosk ran as nobody without a seat"
grep -q "seatd" /tmp/noseat.log || FAIL "the error without a seat does not mention seatd"

# 3. seatd, socket for nobody; not bound to a VT (the guest has a serial console)
seatd_start "$out/seatd.log" SEATD_VTBOUND=0

# An input node for the kiosk (the guest's keyboard): without udevd, give libinput the
# udev properties it wants through the database, as tests/integration/uinput-dev.c does.
inputs=
for e in /dev/input/event*; do
	[ -e "$e" ] || continue
	inputs="--input $e"
	if [ ! -e /run/udev/control ]; then
		mkdir -p /run/udev/data
		mm=$(stat -c '%t %T' "$e")
		printf 'I:1\nE:ID_INPUT=1\nE:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n' \
			>"/run/udev/data/c$(printf '%d:%d' 0x${mm% *} 0x${mm#* })"
	fi
	ls -l "$e"
	break
done
echo "input: ${inputs:-none}"
rm -f /tmp/seat-kiosk.ppm
# shellcheck disable=SC2086
LIBSEAT_BACKEND=seatd DISPMAN_DEBUG=1 setpriv --reuid=$uid --regid=$gid --clear-groups \
	"$kiosk" --render cpu --frames 40 --screenshot /tmp/seat-kiosk.ppm $inputs \
	>/tmp/kiosk.log 2>&1 &
kpid=$!
# setpriv changes the ids and then execs the kiosk: on a loaded emulated guest that can take
# more than a second, so read the ids until they changed (or the process is gone)
for _ in $(seq 1 300); do
	grep -E '^(Uid|Gid):' /proc/$kpid/status >"$out/kiosk-ids.txt.new" 2>/dev/null || break
	mv "$out/kiosk-ids.txt.new" "$out/kiosk-ids.txt"
	grep -q "^Uid:[[:space:]]*$uid[[:space:]]" "$out/kiosk-ids.txt" && break
	sleep 0.2
done
rm -f "$out/kiosk-ids.txt.new"
wait $kpid
krc=$?
cp /tmp/kiosk.log "$out/kiosk.log"
grep -v "^dispman debug" /tmp/kiosk.log | tail -n 15
echo "--- kiosk ids while running:"; cat "$out/kiosk-ids.txt"
if [ $krc -ne 0 ]; then
	FAIL "the kiosk exited with $krc through the seat: $(grep -E "error|warning|kiosk:" /tmp/kiosk.log | tail -n 4 | tr '\n' ' ')"
fi
grep -q "^Uid:[[:space:]]*$uid[[:space:]]" "$out/kiosk-ids.txt" || FAIL "the kiosk did not run as uid $uid"
grep -q "using seat seat0 through libseat" /tmp/kiosk.log || FAIL "the kiosk log does not say it used the seat"
kill $seatd_pid 2>/dev/null
wait $seatd_pid 2>/dev/null
echo "--- seatd log:"; grep -iE "client|device|seat" "$out/seatd.log" | head -n 30
grep -qiE "new client connected|client.*connected" "$out/seatd.log" || FAIL "seatd did not see the client"
grep -q "Opening device $card" "$out/seatd.log" || FAIL "seatd did not open $card for the client"
if [ -n "$inputs" ]; then
	grep -qE "Opening device /dev/input/event[0-9]" "$out/seatd.log" || FAIL "seatd did not open the input node for the client"
fi

# 4. the kiosk's own capture shows its UI: several colours, much of it not black
if [ -f /tmp/seat-kiosk.ppm ]; then
	cp /tmp/seat-kiosk.ppm "$out/seat-kiosk.ppm"
	python3 - /tmp/seat-kiosk.ppm <<'PY' || fail=1
import sys
data = open(sys.argv[1], "rb").read()
parts = data.split(maxsplit=4)
assert parts[0] == b"P6", parts[0]
w, h = int(parts[1]), int(parts[2])
px = parts[4][: w * h * 3]
colours = {px[i:i + 3] for i in range(0, len(px), 3 * 97)}
lit = sum(1 for i in range(0, len(px), 3 * 97) if px[i:i + 3] != b"\0\0\0")
total = len(range(0, len(px), 3 * 97))
print("screenshot %dx%d: %d colours sampled, %.0f%% not black" % (w, h, len(colours),
      100.0 * lit / total))
if len(colours) < 3 or lit < total // 10:
    print("FAIL: the screenshot does not show the kiosk UI")
    sys.exit(1)
PY
else
	FAIL "no screenshot from the kiosk"
fi
[ $fail -eq 0 ] && echo "PASS: kiosk ran as uid $uid through seatd"
exit $fail
