#!/bin/bash
# SPDX-License-Identifier: MIT
# dispman-kiosk --vt-switch (issue 27), in the guest: the kiosk runs as nobody through a
# VT-bound seatd with a uinput keyboard (uinput-keys) and kiosk-typed as its client.
#
# Usage: kiosk-vt.sh KIOSK TYPED UINPUT_KEYS
#
# Checks, in the kernel's state and in what the client itself logs:
# 1. with --vt-switch, Ctrl+Alt+F<n> brings VT n to the front (fgconsole), the kiosk's
#    DRM file loses master (debugfs "clients"), the client got Ctrl and Alt but neither the
#    F key's press nor its release; `chvt` back: master again, and typed text reaches the
#    client (its input came back with the seat);
# 2. without the option the same keys reach the client (key F<n> pressed and released)
#    and the VT stays.
# The kiosk exits 143 (its client's SIGTERM status) each time, with no sanitizer report.
# Exit 77 where the guest has no virtual terminals.
set -u
kiosk=$1 typed=$2 keys=$3
# nobody writes its logs and runtime dir here (the guest's tmpfs), copied out at the end
out=/tmp/kiosk-vt
keep=${DISPMAN_VM_OUT:-/tmp}
rm -rf "$out"
mkdir -p "$out"
uid=65534
kpid= kbpid= seatd_pid=
cleanup() {
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null
	[ -n "$kbpid" ] && kill "$kbpid" 2>/dev/null
	[ -n "$seatd_pid" ] && kill "$seatd_pid" 2>/dev/null
	[ -n "${vt:-}" ] && chvt "$vt" 2>/dev/null
	[ "$keep" != /tmp ] && for f in "$out"/*.log; do cp "$f" "$keep/kiosk-vt-${f##*/}"; done
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*" >&2
	[ -f "$out/kiosk.log" ] && { echo "--- dispman-kiosk:"; grep -v "^dispman debug" "$out/kiosk.log" | tail -n 20; } >&2
	[ -f "$out/typed.log" ] && { echo "--- client:"; tail -n 20 "$out/typed.log"; } >&2
	exit 1
}
FAIL() { fail "$@"; }
. "$(dirname "$0")/seatd-start.sh"
. "$(dirname "$0")/kiosk-lib.sh"

command -v seatd >/dev/null || fail "seatd is not installed (scripts/setup-debian)"
command -v chvt >/dev/null || fail "chvt is not installed (kbd, scripts/setup-debian)"
if [ ! -e /dev/tty0 ] || ! vt=$(fgconsole 2>/dev/null); then
	echo "n/a on this guest: no virtual terminals (/dev/tty0, fgconsole)"
	exit 77
fi
other=$((vt + 1))
fkey=$((58 + other)) # KEY_F1 is 59
card=${DISPMAN_DEVICE:-/dev/dri/card0}
dri=/sys/kernel/debug/dri/$((0x$(stat -Lc %T "$card")))
echo "device $card, debugfs $dri, VT $vt in front; Ctrl+Alt+F$other (key $fkey) to switch"

# The kiosk's DRM file in debugfs "clients": seatd opened it, so the kernel names seatd's
# pid; its master column (y or n), or "none".
master() {
	awk -v pid="$seatd_pid" '$2 == pid && !f { print $4; f = 1 } END { if (!f) print "none" }' \
		"$dri/clients"
}
is_master() { [ "$(master)" = "$1" ]; }
in_front() { [ "$(fgconsole)" = "$1" ]; }

seatd_start "$out/seatd.log"

# the uinput keyboard (root makes it; the kiosk opens its node through seatd)
coproc KB { "$keys"; }
kbpid=$KB_PID
read -r node <&"${KB[0]}" || fail "uinput-keys did not start"
exec {kb_in}>&"${KB[1]}"
echo "keyboard $node"
send() { echo "$*" >&"$kb_in"; echo sync >&"$kb_in"; read -r _ <&"${KB[0]}"; }

rt=$out/run
mkdir -p "$rt"
chown $uid:$uid "$rt" "$out"
chmod 700 "$rt"
start() { # ARGS...: the kiosk as nobody, its client up and focused
	rm -f "$out/typed.log"
	LIBSEAT_BACKEND=seatd XDG_RUNTIME_DIR=$rt DISPMAN_DEBUG=1 \
		setpriv --reuid=$uid --regid=$uid --clear-groups \
		"$kiosk" --socket wayland-vt --input "$node" "$@" -- "$typed" "$out/typed.log" \
		>"$out/kiosk.log" 2>&1 &
	kpid=$!
	wait_for 120 "the client's keyboard focus" grep -qs '^enter' "$out/typed.log"
	wait_for 30 "the kiosk as DRM master on VT $vt" is_master y
}

# 1. --vt-switch
start --vt-switch
grep -q "using seat seat0 through libseat" "$out/kiosk.log" || fail "the kiosk did not use the seat"
send "combo ctrl+alt+f$other"
wait_for 30 "VT $other in front after Ctrl+Alt+F$other" in_front "$other"
echo "VT in front: $(fgconsole)"
wait_for 30 "the kiosk losing DRM master" is_master n
grep -q "switching to VT $other" "$out/kiosk.log" || fail "the kiosk did not log the switch"
grep -qx "key 29 1" "$out/typed.log" || fail "the client did not get Ctrl (key 29)"
grep -qx "key 56 1" "$out/typed.log" || fail "the client did not get Alt (key 56)"
if grep -Eq "^key $fkey [01]$" "$out/typed.log"; then
	fail "the client got F$other (key $fkey) although it switched the VT"
fi
chvt "$vt"
wait_for 30 "the kiosk as DRM master again on VT $vt" is_master y
wait_for 30 "the seat enabled again" grep -q "seat seat0 enabled" "$out/kiosk.log"
send "type ok"
wait_for 30 "typing reaching the client after the switch back" grep -qx "text ok" "$out/typed.log"
echo "--vt-switch: VT $other in front, master dropped, back on VT $vt, typing works"
kiosk_stop_clean
grep "^dispman error" "$out/kiosk.log" && fail "errors in the kiosk's log"
cp "$out/typed.log" "$out/typed-switch.log"

# 2. without the option: the keys are the client's
start
send "combo ctrl+alt+f$other"
wait_for 30 "the client getting F$other" grep -qx "key $fkey 0" "$out/typed.log"
grep -qx "key $fkey 1" "$out/typed.log" || fail "the client got F$other's release only"
sleep 1
in_front "$vt" || fail "VT $(fgconsole) in front without --vt-switch"
is_master y || fail "the kiosk lost DRM master without --vt-switch"
kiosk_stop_clean
echo "PASS: Ctrl+Alt+F$other switched to VT $other only with --vt-switch; the seat came back"
