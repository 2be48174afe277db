# Sourced by the guest scripts that run dispman-kiosk in the background: its pid in $kpid
# (empty when none runs), its log in $out/kiosk.log, and a fail() of the caller's that
# prints and exits.

# wait_for SECONDS WHAT CMD...: until CMD succeeds, by the clock (one look can be slow under
# TCG); fails with WHAT when the time is up or when dispman-kiosk exited meanwhile.
wait_for() {
	local end=$((SECONDS + $1)) what=$2
	shift 2
	until "$@"; do
		((SECONDS < end)) || fail "$what: not within the time"
		[ -n "$kpid" ] && { kill -0 "$kpid" 2>/dev/null || fail "dispman-kiosk exited early"; }
		sleep 0.1
	done
}

# Stops dispman-kiosk with SIGTERM; fails unless it exits 143 (the status of its command,
# which the SIGTERM ends, passed through) and its log has no ASan, LSan or UBSan report.
kiosk_stop_clean() {
	local rc
	kill "$kpid"
	wait "$kpid"
	rc=$?
	kpid=
	if grep -E "AddressSanitizer|LeakSanitizer|runtime error" "$out/kiosk.log"; then
		fail "sanitizer report from dispman-kiosk"
	fi
	[ "$rc" = 143 ] || fail "dispman-kiosk exited $rc (want 143, the client's SIGTERM status)"
}
