# Sourced by the guest scripts that run dispman-kiosk in the background: its pid in $kpid,
# its log in $out/kiosk.log, and a fail() of the caller's that prints and exits.

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
