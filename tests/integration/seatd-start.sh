# SPDX-License-Identifier: MIT
# Sourced by the seat tests: seatd_start LOG [ENV=VALUE ...] starts seatd for nobody (its
# socket /run/seatd.sock owned by nobody:nogroup, debug log in LOG) and sets seatd_pid. It
# returns once seatd is ready: "seatd started" in its log. A socket that merely exists is
# not enough: seatd binds it before it gives it to nobody (chown), and a socket left by an
# earlier seatd exists before the new one replaced it. Calls FAIL when seatd did not start.
seatd_start() {
	_log=$1
	shift
	rm -f /run/seatd.sock
	env "$@" seatd -u nobody -g nogroup -l debug >"$_log" 2>&1 &
	seatd_pid=$!
	_i=0
	while ! grep -q "seatd started" "$_log" && [ $_i -lt 300 ]; do
		kill -0 $seatd_pid 2>/dev/null || break
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -q "seatd started" "$_log" || FAIL "seatd did not start: $(tail -n 3 "$_log")"
	[ -S /run/seatd.sock ] || FAIL "seatd did not create /run/seatd.sock"
	[ "$(stat -c %U /run/seatd.sock 2>/dev/null)" = nobody ] || FAIL "/run/seatd.sock is not nobody's"
	ls -l /run/seatd.sock
}
