#!/bin/bash
# SPDX-License-Identifier: MIT
# Running dispman-kiosk for real (issue 27), in the guest, with kiosk-paint as its client
# (a still pattern computed from the position: tests/integration/kiosk-paint.c).
# Usage: kiosk-ops.sh CASE KIOSK PAINT CHECK [UINPUT_KEYS]   (CHECK: kiosk-ops-check)
#   screencopy  grim 1.4 (zwlr_screencopy_manager_v1) takes the whole output and a region:
#               its PNG (read by kiosk-ops-check, libpng) equals the compositor's own capture (--capture, SIGUSR1) pixel for
#               pixel, and both equal the client's pattern; the region is the pattern's
#               crop at its place.
#   blank       --blank-after 2: the CRTC goes inactive in the kernel's atomic state
#               (debugfs) with no input; a uinput key press turns it on and is not given to
#               the client (the next one is); swayidle 1.8 (ext-idle-notify-v1) runs its
#               idle command and, at the key, its resume command; a client holding a
#               zwp_idle_inhibitor_v1 keeps the CRTC active well past the timeout.
#   mode        --mode 800x600: the CRTC's mode in the kernel's state, the client's buffer
#               and the capture; the connector unplugged (forced status and uevent): the
#               kiosk and its client keep running; plugged again: the same mode and pixels.
# Only on vkms-6.1 and virtio-gpu (the CI time budget; one device of each kind, and 6.1's
# vkms is the one whose capture takes two modesets): elsewhere exit 77.
# Files go to $DISPMAN_VM_OUT/kiosk-ops-CASE.
set -u
case_=$1 kiosk=$2 paint=$3 check=$4 keys=${5:-}
case ${DISPMAN_VM_PROFILE:-} in
vkms-6.1|virtio-gpu|'') ;;
*)	echo "n/a: kiosk-ops runs on vkms-6.1 and virtio-gpu only (CI time budget)"
	exit 77 ;;
esac
out=${DISPMAN_VM_OUT:-/tmp}/kiosk-ops-$case_
rm -rf "$out"
mkdir -p "$out"
export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg-kiosk-ops.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
export WAYLAND_DISPLAY=kiosk-ops
stats=$out/stats
kpid= spid= kbpid=
t_start=$(date +%s)
elapsed() { echo $(($(date +%s) - t_start)); }

fail() {
	echo "FAIL: $*" >&2
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "$kbpid" ] && kill "$kbpid" 2>/dev/null
	[ -f "$out/kiosk.log" ] && tail -n 30 "$out/kiosk.log" >&2
	exit 1
}
stat() { awk -v k="$1" '$1 == k { print $2 }' "$stats" 2>/dev/null; }
wait_for() { # SECONDS WHAT CMD...: until CMD succeeds
	local t=$1 what=$2 i
	shift 2
	for ((i = 0; i < t * 5; i++)); do
		"$@" && return 0
		[ -n "$kpid" ] && { kill -0 "$kpid" 2>/dev/null || fail "dispman-kiosk exited early"; }
		sleep 0.2
	done
	fail "$what: not within $t s"
}
start() { # ARGS...: dispman-kiosk in the background, until its socket and stats are there
	rm -f "$stats"
	"$kiosk" --socket "$WAYLAND_DISPLAY" --stats "$stats" --capture "$out/cap" "$@" \
		>"$out/kiosk.log" 2>&1 &
	kpid=$!
	wait_for 120 "dispman-kiosk start" test -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" -a -f "$stats"
}
finish() {
	kill "$kpid" 2>/dev/null
	wait "$kpid" 2>/dev/null
	kpid=
}
painted() { grep -q '^painted' "$out/kiosk.log"; }
repainted() { [ "$(stat repaints)" -ge 2 ] 2>/dev/null; }

# The device under test's debugfs folder (as wayland-clients.sh finds it).
dut=${DISPMAN_DEVICE:-/dev/dri/card0}
dri=/sys/kernel/debug/dri/$((0x$(stat -Lc %T "$dut")))
if [ -n "${DISPMAN_VM_DRIVER:-}" ] && ! grep -qs "^$DISPMAN_VM_DRIVER " "$dri/name"; then
	for d in /sys/kernel/debug/dri/*; do
		grep -qs "^$DISPMAN_VM_DRIVER " "$d/name" && { dri=$d; break; }
	done
fi
[ -r "$dri/state" ] || fail "no debugfs state at $dri/state"
# The CRTC that drives the kiosk's connector while it is on; the kiosk's stats name it
# (crtc_id: the one it uses or last used), then its active flag in the kernel's atomic state.
crtc=
kiosk_conn() { sed -n 's/.*serving WAYLAND_DISPLAY=.* on \(.*\)$/\1/p' "$out/kiosk.log" | head -n 1; }
try_crtc() { # the kiosk's connector has a CRTC now (sets $crtc to its name)
	local c
	c=$(awk -v n="$(kiosk_conn)" '/^connector\[/ { c = ($2 == n) } c && /crtc=/ {
		sub(/.*crtc=/, ""); print; exit }' "$dri/state")
	[ -n "$c" ] && [ "$c" != "(null)" ] && crtc=$c
}
find_crtc() { try_crtc || fail "no CRTC on $(kiosk_conn) in $dri/state"; }
stats_crtc() { # $crtc from the stats' crtc_id
	local id
	id=$(stat crtc_id)
	[ "${id:-0}" != 0 ] && crtc=$(sed -n "s/^crtc\[$id\]: //p" "$dri/state") && [ -n "$crtc" ]
}
crtc_active() {
	awk -v n="$crtc" '/^crtc\[/ { c = ($2 == n) } c && /active=/ {
		sub(/.*active=/, ""); print; exit }' "$dri/state"
}
active_is() { [ "$(crtc_active)" = "$1" ]; }

case "$case_" in
screencopy)
	command -v grim >/dev/null || fail "grim is not installed (scripts/setup-debian)"
	start -- "$paint"
	wait_for 120 "the client's first buffer" painted
	wait_for 60 "a repaint with it" repainted
	sleep 1
	grim "$out/grim.png" 2>"$out/grim.err" || fail "grim: $(cat "$out/grim.err")"
	grim -g "100,50 64x32" "$out/region.png" 2>"$out/grim-region.err" ||
		fail "grim -g: $(cat "$out/grim-region.err")"
	kill -USR1 "$kpid"
	wait_for 60 "the compositor's capture" test -f "$out/cap.0.ppm"
	sc=$(stat screencopies)
	"$check" grim "$out/grim.png" "$out/cap.0.ppm" "$out/region.png" ||
		fail "pixels"
	[ "${sc:-0}" -ge 2 ] || fail "screencopies ${sc:-none}, want 2"
	echo "$sc screencopies; $(elapsed) s"
	finish
	;;
blank)
	command -v swayidle >/dev/null || fail "swayidle is not installed (scripts/setup-debian)"
	[ -n "$keys" ] || fail "usage: kiosk-ops.sh blank KIOSK PAINT CHECK UINPUT_KEYS"
	coproc KB { exec "$keys"; }
	kbpid=$KB_PID
	read -r -t 30 kbdev <&"${KB[0]}" || fail "uinput-keys made no keyboard"
	keys_in=${KB[1]} keys_out=${KB[0]}
	send() { echo "$*" >&"$keys_in"; }
	keys_sync() {
		local ok
		send sync
		read -r -t 120 ok <&"$keys_out" && [ "$ok" = ok ] || fail "uinput-keys did not answer"
	}
	# --blank-after 2 is shorter than one look at the kernel's state can take under TCG:
	# what must be seen on is kept on by input (space, every 0.4 s for about 12 s, given
	# to the client), what must be seen off is waited for.
	keepalive() {
		local i
		for ((i = 0; i < 30; i++)); do send key space; send sleep 400; done
	}
	# 1. blanking and waking, with swayidle watching
	DISPMAN_DEBUG=1 start --input "$kbdev" --blank-after 2 -- "$paint"
	wait_for 60 "the kiosk's CRTC in its stats" stats_crtc
	swayidle -w timeout 1 "echo idle >>$out/swayidle.txt" \
		resume "echo resume >>$out/swayidle.txt" >"$out/swayidle.log" 2>&1 &
	spid=$!
	wait_for 120 "the client's first buffer" painted
	wait_for 60 "$crtc inactive after --blank-after 2" active_is 0
	blanked() { [ "$(stat blanks)" -ge 1 ]; }
	wait_for 10 "the blanks counter" blanked
	wait_for 60 "swayidle's idle" grep -q idle "$out/swayidle.txt"
	cp "$dri/state" "$out/state-blanked.txt"
	send type a
	keepalive
	wait_for 60 "$crtc active after a key" active_is 1
	cp "$dri/state" "$out/state-woken.txt"
	wait_for 30 "swayidle's resume" grep -q resume "$out/swayidle.txt"
	send type b
	wait_for 60 "the second key at the client" grep -q '^key 48 1' "$out/kiosk.log"
	grep -q '^key 30 ' "$out/kiosk.log" && fail "the waking key (A) reached the client"
	woke() { [ "$(stat unblanks)" -ge 1 ]; }
	wait_for 10 "the unblanks counter" woke
	keys_sync
	echo "blanked and woken (key A kept from the client, B given); swayidle: $(tr '\n' ' ' <"$out/swayidle.txt"); $(elapsed) s"
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; spid=
	finish
	# 2. an inhibitor keeps the output on (a key wakes it if it blanked before the client
	# showed its surface)
	start --input "$kbdev" --blank-after 2 -- "$paint" --inhibit
	wait_for 60 "the kiosk's CRTC in its stats" stats_crtc
	wait_for 120 "the inhibiting client's first buffer" painted
	[ "$(crtc_active)" = 1 ] || { send key space; keys_sync; }
	wait_for 60 "$crtc active with the inhibitor" active_is 1
	sleep 1.5
	b0=$(stat blanks)
	sleep 5
	[ "$(crtc_active)" = 1 ] || fail "$crtc went inactive although a shown surface inhibits idleness"
	[ "$(stat blanks)" = "$b0" ] || fail "blanks $(stat blanks) with an inhibitor, want $b0"
	echo "an inhibitor kept $crtc active for 5 s past painting; $(elapsed) s"
	finish
	exec {keys_in}>&-
	wait "$kbpid" 2>/dev/null
	kbpid=
	;;
mode)
	# --mode 800x600, then the connector unplugged and plugged again (forced status and
	# the kernel's hotplug uevent): the kiosk and its client keep running without it, and
	# the same mode and pattern are back after it
	start --mode 800x600 -- "$paint"
	wait_for 120 "the client's first buffer" painted
	wait_for 60 "a repaint with it" repainted
	grep -q '^painted 800 600$' "$out/kiosk.log" ||
		fail "the client was not configured 800x600: $(grep '^painted' "$out/kiosk.log")"
	find_crtc
	grep -A12 "^crtc\[.*\]: $crtc\$" "$dri/state" >"$out/crtc-state.txt"
	grep -q 'mode: "800x600"' "$out/crtc-state.txt" ||
		fail "$crtc is not in 800x600: $(grep mode: "$out/crtc-state.txt")"
	sleep 1
	kill -USR1 "$kpid"
	wait_for 60 "the compositor's capture" test -f "$out/cap.0.ppm"
	"$check" pattern "$out/cap.0.ppm" 800 600 || fail "pixels at 800x600"
	conn=$(kiosk_conn)
	card=$(basename "$(readlink -f "$dut")")
	status=/sys/class/drm/$card-$conn/status
	[ -w "$status" ] || fail "no $status to force"
	plug() {
		echo "$1" >"$status" || fail "cannot write $1 to $status"
		echo "change 3c9d2f70-6b1e-4e8a-9a57-0d4c2b7e1f93 HOTPLUG=1" \
			>"/sys/class/drm/$card/uevent" || fail "cannot send the uevent"
	}
	trap 'echo detect >"$status" 2>/dev/null' EXIT
	plug off
	crtc_off() { ! try_crtc; }
	wait_for 60 "$conn without a CRTC" crtc_off
	sleep 2
	kill -0 "$kpid" 2>/dev/null || fail "dispman-kiosk exited after the unplug"
	pgrep -f "$paint" >/dev/null || fail "the client exited after the unplug"
	plug detect
	wait_for 60 "$conn on a CRTC again" try_crtc
	wait_for 30 "$crtc active again" active_is 1
	grep -A12 "^crtc\[.*\]: $crtc\$" "$dri/state" | grep -q 'mode: "800x600"' ||
		fail "$crtc is not back in 800x600"
	sleep 1
	kill -USR1 "$kpid"
	wait_for 60 "the capture after the replug" test -f "$out/cap.1.ppm"
	"$check" pattern "$out/cap.1.ppm" 800 600 || fail "pixels after the replug"
	echo "--mode 800x600 in the kernel's state and the client's buffer; unplugged and back, same mode and pixels; $(elapsed) s"
	finish
	;;
*)
	fail "unknown case $case_"
	;;
esac
echo "PASS kiosk-ops $case_"
