#!/bin/bash
# SPDX-License-Identifier: MIT
# dispman-kiosk's virtual input (zwp_virtual_keyboard_manager_v1 and
# zwlr_virtual_pointer_manager_v1), end to end with wtype and with wayvnc.
#
# Usage: kiosk-vkbd.sh KIOSK TYPED VNC_CLIENT
#   TYPED: kiosk-typed, a client that logs what it reads and its pointer's buttons;
#   VNC_CLIENT: vnc-client.py, what a VNC user's viewer does, from a script.
#
#   1. --allow-virtual-input: `wtype hello` makes the client read "hello" with the keymap
#      the compositor sent it before the keys (wtype's own: its key codes mean nothing in
#      the seat's keymap, so "hello" shows the switch works); the stats count 10 keys; when
#      wtype is gone the client gets the seat's keymap back (the size of its first one).
#   2. without it: the compositor offers no such global and wtype fails with its error.
#   3. remote control: wayvnc 0.5 (screencopy, virtual keyboard and virtual pointer) on a
#      Unix socket; within 120 s the viewer gets a frame of the output's size with the
#      client's colour (0x204080) on at least 99% of it (once wayvnc's first frame was
#      all grey, before a capture); a click at (W/4, H/3) reaches the client as a
#      left button press and release at that point; "hi" typed in the viewer reaches it as
#      text.
#   4. --virtual-input-socket: wtype on the application's socket fails (no such global),
#      on the second socket it types "ok" into the client; the socket and its lock are
#      gone when the compositor is.
# Files go to $DISPMAN_VM_OUT/kiosk-vkbd.
set -u
kiosk=$1 typed=$2 vnc_client=$3
case ${DISPMAN_VM_PROFILE:-} in
vkms-6.1|virtio-gpu|'') ;;
*)	echo "n/a: kiosk-vkbd runs on vkms-6.1 and virtio-gpu only (CI time budget)"
	exit 77 ;;
esac
command -v wtype >/dev/null || { echo "FAIL: wtype is not installed (scripts/setup-debian)"; exit 1; }
command -v wayvnc >/dev/null || { echo "FAIL: wayvnc is not installed (scripts/setup-debian)"; exit 1; }
out=${DISPMAN_VM_OUT:-/tmp}/kiosk-vkbd
rm -rf "$out"
mkdir -p "$out"
export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg-kiosk-vkbd.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
export WAYLAND_DISPLAY=kiosk-vkbd
stats=$out/stats log=
kpid= vpid=
# whatever way the script ends, no compositor or wayvnc stays (a retry needs the device)
trap '[ -n "$vpid" ] && kill "$vpid" 2>/dev/null; [ -n "$kpid" ] && kill "$kpid" 2>/dev/null' EXIT
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
. "$(dirname "$0")/kiosk-lib.sh"
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

# 3. remote control with wayvnc
start "$out/typed-vnc.log" --allow-virtual-input
read -r w h <<<"$(awk '/^painted/ { print $2, $3; exit }' "$log")"
[ -n "$w" ] || fail "the client did not paint"
vsock=$XDG_RUNTIME_DIR/vnc.sock
wayvnc --unix-socket "$vsock" >"$out/wayvnc.log" 2>&1 &
vpid=$!
x=$((w / 4)) y=$((h / 3))
if ! timeout 180 python3 "$vnc_client" unix "$vsock" "$out" 32,64,128 "click:$x,$y" type:hi \
		>"$out/vnc-client.txt" 2>&1; then
	cat "$out/wayvnc.log" >&2
	kill "$vpid" 2>/dev/null
	fail "the VNC viewer: $(tail -n 3 "$out/vnc-client.txt")"
fi
read -r _ vw vh <<<"$(grep '^size' "$out/vnc-client.txt")"
read -r _ r g b share <<<"$(grep '^colour' "$out/vnc-client.txt")"
[ "$vw $vh" = "$w $h" ] || fail "the viewer's screen is ${vw}x$vh, the output ${w}x$h"
[ "$r $g $b" = "32 64 128" ] || fail "the viewer's most common colour is $r $g $b, not the client's 32 64 128"
awk -v s="$share" 'BEGIN { exit !(s >= 0.99) }' || fail "only $share of the viewer's pixels are the client's"
pressed() { grep -qx "button 272 1 $x.0 $y.0" "$log" && grep -qx "button 272 0 $x.0 $y.0" "$log"; }
wait_for 10 "the viewer's click at $x,$y reaching the client" pressed
wait_for 10 "the viewer's typing reaching the client" grep -qx 'text hi' "$log"
kill "$vpid" 2>/dev/null
wait "$vpid" 2>/dev/null
vpid=
finish
frames=$(awk '/^frames/ { print $2 }' "$out/vnc-client.txt")
echo "wayvnc: the viewer saw ${vw}x$vh of the client's colour ($share, frame $frames), its click and \"hi\" reached the client; $(elapsed) s"
# 4. virtual input for the clients of a socket of its own only
start "$out/typed-socket.log" --virtual-input-socket kiosk-vkbd-vi
if timeout 30 wtype no >"$out/wtype-main.txt" 2>&1; then
	fail "wtype typed through the application's socket"
fi
grep -q 'does not support the virtual keyboard' "$out/wtype-main.txt" ||
	fail "wtype on the main socket: $(cat "$out/wtype-main.txt")"
WAYLAND_DISPLAY=kiosk-vkbd-vi timeout 30 wtype ok >"$out/wtype-vi.txt" 2>&1 ||
	fail "wtype on the virtual input socket: $(cat "$out/wtype-vi.txt")"
wait_for 10 "the client reading ok" grep -qx 'text ok' "$log"
finish
for f in kiosk-vkbd-vi kiosk-vkbd-vi.lock; do
	[ -e "$XDG_RUNTIME_DIR/$f" ] && fail "$f left behind"
done
echo "virtual input socket: wtype refused on the main socket, typed ok on its own; $(elapsed) s"
echo "PASS kiosk-vkbd"
