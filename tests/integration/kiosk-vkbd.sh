#!/bin/bash
# SPDX-License-Identifier: MIT
# dispman-kiosk's virtual keyboard (zwp_virtual_keyboard_manager_v1), end to end with wtype.
#
# Usage: kiosk-vkbd.sh KIOSK TYPED   (TYPED: kiosk-typed, a client that logs what it reads)
#
#   1. --allow-virtual-input: `wtype hello` makes the client read "hello" with the keymap
#      the compositor sent it before the keys (wtype's own: its key codes mean nothing in
#      the seat's keymap, so "hello" shows the switch works); the stats count 10 keys; when
#      wtype is gone the client gets the seat's keymap back (the size of its first one).
#   2. without it: the compositor offers no such global and wtype fails with its error.
# Files go to $DISPMAN_VM_OUT/kiosk-vkbd.
set -u
kiosk=$1 typed=$2
case ${DISPMAN_VM_PROFILE:-} in
vkms-6.1|virtio-gpu|'') ;;
*)	echo "n/a: kiosk-vkbd runs on vkms-6.1 and virtio-gpu only (CI time budget)"
	exit 77 ;;
esac
command -v wtype >/dev/null || { echo "FAIL: wtype is not installed (scripts/setup-debian)"; exit 1; }
out=${DISPMAN_VM_OUT:-/tmp}/kiosk-vkbd
rm -rf "$out"
mkdir -p "$out"
export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg-kiosk-vkbd.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
export WAYLAND_DISPLAY=kiosk-vkbd
stats=$out/stats log=
kpid=
t_start=$(date +%s)
elapsed() { echo $(($(date +%s) - t_start)); }

fail() {
	echo "FAIL: $*" >&2
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null
	[ -f "$out/kiosk.log" ] && tail -n 20 "$out/kiosk.log" >&2
	[ -n "$log" ] && [ -f "$log" ] && { echo "client log:"; cat "$log"; } >&2
	exit 1
}
stat() { awk -v k="$1" '$1 == k { print $2 }' "$stats" 2>/dev/null; }
wait_for() { # SECONDS WHAT CMD...: until CMD succeeds (by the clock: a look is slow in TCG)
	local end=$((SECONDS + $1)) what=$2
	shift 2
	until "$@"; do
		((SECONDS < end)) || fail "$what: not within the time"
		[ -n "$kpid" ] && { kill -0 "$kpid" 2>/dev/null || fail "dispman-kiosk exited early"; }
		sleep 0.1
	done
}
start() { # LOG ARGS...: dispman-kiosk running kiosk-typed LOG, until the client has focus
	log=$1
	shift
	rm -f "$stats" "$log"
	"$kiosk" --socket "$WAYLAND_DISPLAY" --stats "$stats" "$@" -- "$typed" "$log" \
		>"$out/kiosk.log" 2>&1 &
	kpid=$!
	wait_for 60 "the client's keyboard focus" grep -qs '^enter' "$log"
}
finish() {
	kill "$kpid" 2>/dev/null
	wait "$kpid" 2>/dev/null
	kpid=
}

# 1. allowed
start "$out/typed-allowed.log" --allow-virtual-input
timeout 30 wtype hello >"$out/wtype-allowed.txt" 2>&1 || fail "wtype: $(cat "$out/wtype-allowed.txt")"
wait_for 10 "the client reading hello" grep -qx 'text hello' "$log"
keys() { [ "$(stat virtual_keys)" = 10 ]; }
wait_for 5 "virtual_keys 10 in the stats (have $(stat virtual_keys))" keys
# keymaps: the seat's, wtype's, the seat's again once wtype's keyboard is gone
restored() { [ "$(grep -c '^keymap' "$log")" -ge 3 ]; }
wait_for 5 "the seat's keymap back" restored
first=$(awk '/^keymap 1 / { print $3 }' "$log")
second=$(awk '/^keymap 2 / { print $3 }' "$log")
last=$(awk '/^keymap/ { s = $3 } END { print s }' "$log")
[ "$last" = "$first" ] || fail "last keymap $last bytes, the seat's is $first"
[ "$second" != "$first" ] || fail "wtype's keymap has the seat's size $first"
grep -q unusable "$log" && fail "a keymap the client cannot compile"
[ "$(grep -c '^text' "$log")" = 5 ] || fail "$(grep -c '^text' "$log") texts, want 5"
finish
echo "allowed: the client read hello (keymaps $first, $second, $last bytes); $(elapsed) s"

# 2. not allowed (the default): the kiosk alone (no client: what wtype sees is the
# registry)
rm -f "$stats"
"$kiosk" --socket "$WAYLAND_DISPLAY" --stats "$stats" >"$out/kiosk.log" 2>&1 &
kpid=$!
wait_for 60 "dispman-kiosk start" test -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" -a -f "$stats"
if timeout 30 wtype hello >"$out/wtype-default.txt" 2>&1; then
	fail "wtype succeeded without --allow-virtual-input"
fi
grep -q 'does not support the virtual keyboard' "$out/wtype-default.txt" ||
	fail "wtype's error: $(cat "$out/wtype-default.txt")"
finish
echo "default: wtype refused ($(head -n 1 "$out/wtype-default.txt")); $(elapsed) s"
echo "PASS kiosk-vkbd"
