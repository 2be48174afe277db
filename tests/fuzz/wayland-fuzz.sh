#!/bin/bash
# SPDX-License-Identifier: MIT
# The compositor fuzzed (issue 29): dispman-kiosk (the ASan build in CI) runs a
# well-behaved client (wayland-fuzz --good: an shm toplevel counting its frame callbacks)
# while wayland-fuzz throws SECONDS of random valid and invalid requests at it from two
# clients at a time. Passes when the compositor did not crash, wrote no sanitizer report
# (LSan at exit included), kept its fds and RSS flat from after a warm-up to the end, kept
# no surface, layer, buffer or client of the fuzzer, and the good client got frames in
# every 10 s of the run and after it.
# Usage: wayland-fuzz.sh KIOSK FUZZ [SECONDS [SEED]]   (results in $DISPMAN_VM_OUT/wayland-fuzz)
set -u
kiosk=$1 fuzz=$2 secs=${3:-45} seed=${4:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
# one profile in CI (the time budget); any device when run by hand
case ${DISPMAN_VM_PROFILE:-} in
''|vkms-6.1) ;;
*) [ -n "${WAYLAND_FUZZ_ANY_PROFILE:-}" ] ||
	{ echo "n/a: the fuzzer runs on vkms-6.1 only (CI time budget)"; exit 77; } ;;
esac
out=${DISPMAN_VM_OUT:-/tmp}/wayland-fuzz
rm -rf "$out"
mkdir -p "$out"
export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg-fuzz.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
export WAYLAND_DISPLAY=wayland-fuzz
stats=$out/stats good=$out/good-frames
kpid=

fail() {
	echo "FAIL: $*" >&2
	echo "(replay: wayland-fuzz.sh KIOSK FUZZ $secs $seed)" >&2
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null
	tail -n 40 "$out/kiosk.log" >&2
	exit 1
}
. "$(dirname "$0")/../integration/kiosk-lib.sh"
stat() { kill -USR1 "$kpid" 2>/dev/null; sleep 0.5; awk -v k="$1" '$1 == k { print $2 }' "$stats"; }
frames() { cat "$good" 2>/dev/null || echo 0; }
alive() { kill -0 "$kpid" 2>/dev/null || fail "dispman-kiosk died"; }
wait_frames() { # MIN TIMEOUT_S
	local i
	for ((i = 0; i < $2 * 2; i++)); do
		[ "$(frames)" -ge "$1" ] && return 0
		alive
		sleep 0.5
	done
	fail "the good client's frames stayed at $(frames) (< $1) for $2 s"
}
fdcount() { ls /proc/"$kpid"/fd | wc -l; }
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' /proc/"$kpid"/status; }
resources() { echo "$(fdcount) fds, $(rss_kb) kB RSS, $(stat surfaces) surfaces, $(stat layers) layers, $(stat buffers) buffers, $(stat clients) clients"; }

# ASan's quarantine (freed memory kept aside to catch a use after free) bounded to 1 MiB
# so that RSS settles during the warm-up (the default, 256 MiB, grows through any run)
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:quarantine_size_mb=1 \
	"$kiosk" --socket "$WAYLAND_DISPLAY" --stats "$stats" -- "$fuzz" --good "$good" \
	>"$out/kiosk.log" 2>&1 &
kpid=$!
i=0; while [ ! -f "$stats" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
wait_frames 20 180
# a warm-up (allocator pools, libwayland's buffers, the planner's caches), then the baseline
# the fuzzer leaks what it abandons on purpose: LSan only for the compositor
warm=$((secs / 3)); [ $warm -ge 10 ] || warm=10
ASAN_OPTIONS=detect_leaks=0 "$fuzz" --seed $((seed + 1000000)) --seconds $warm >"$out/warmup.log" 2>&1 ||
	fail "warm-up: $(tail -n 3 "$out/warmup.log")"
sleep 2
alive
base_fds=$(fdcount) base_rss=$(rss_kb) base_surfaces=$(stat surfaces) base_layers=$(stat layers)
base_buffers=$(stat buffers) errors0=$(stat protocol_errors)
ls -l /proc/"$kpid"/fd >"$out/fds-base.txt"
echo "baseline after the warm-up: $base_fds fds, $base_rss kB RSS, $base_surfaces surfaces, $base_layers layers, $base_buffers buffers"

ASAN_OPTIONS=detect_leaks=0 "$fuzz" --seed "$seed" --seconds "$secs" --stats "$out/fuzz-stats" \
	>"$out/fuzz.log" 2>&1 &
fpid=$!
# the good client's frames, every 10 s while the fuzzer runs
f0=$(frames) t=0 min=
while kill -0 "$fpid" 2>/dev/null; do
	sleep 10
	alive
	f=$(frames) t=$((t + 10))
	r=$(rss_kb)
	[ "$t" != 10 ] || rss10=$r
	echo "t=${t}s good frames $f (+$((f - f0))) $(fdcount) fds $r kB" | tee -a "$out/timeline.txt"
	# the last window may be cut short by the fuzzer's end: only full ones count
	if kill -0 "$fpid" 2>/dev/null; then
		[ "$f" -gt "$f0" ] || fail "the good client got no frame in 10 s of fuzzing (at t=${t}s)"
		[ -z "$min" ] || [ $((f - f0)) -lt "$min" ] && min=$((f - f0))
	fi
	f0=$f
done
wait "$fpid"
frc=$?
cat "$out/fuzz.log"
[ "$frc" = 0 ] || fail "wayland-fuzz exited $frc"
# the good client still runs, and the fuzzer left nothing behind
wait_frames $(($(frames) + 20)) 120
sleep 2
fds=$(fdcount) rss=$(rss_kb) surfaces=$(stat surfaces) layers=$(stat layers)
buffers=$(stat buffers) clients=$(stat clients) errors=$(stat protocol_errors)
ls -l /proc/"$kpid"/fd >"$out/fds-after.txt"
echo "after the fuzzer: $fds fds, $rss kB RSS, $surfaces surfaces, $layers layers, $buffers buffers, $clients clients, $((errors - errors0)) protocol errors counted by dispman-kiosk"
echo "the good client's frames per 10 s of fuzzing: at least ${min:-?}"
{
	echo "seed $seed"
	cat "$out/fuzz-stats"
	echo "fds $base_fds $fds"
	echo "rss_kb $base_rss $rss"
	echo "surfaces $base_surfaces $surfaces"
	echo "layers $base_layers $layers"
	echo "buffers $base_buffers $buffers"
	echo "good_frames_min_per_10s ${min:-?}"
} >"$out/summary.txt"
[ "$fds" -le "$base_fds" ] || { diff "$out/fds-base.txt" "$out/fds-after.txt"; fail "fds $base_fds -> $fds"; }
# RSS: flat within 5 % or 4 MiB (ASan's quarantine and allocator caches move a little),
# from the baseline or, when the first 10 s of fuzzing took a one-time step above it, from
# there. Seen once in CI: 27,100 kB at the baseline, 31,104 kB at t=10 s, then flat to
# 31,252 kB at the end; the next run's baseline was already 30,532 kB (a warm-up whose seed
# had not yet made the compositor allocate what a composition or a large pool needs once).
# Growth that goes on, as a leak per request does, still shows from t=10 s to the end
# (three quarters of the run), and LSan checks the compositor's exit.
ref_rss=$base_rss
if [ -n "${rss10:-}" ] && [ "$rss10" -gt "$base_rss" ]; then
	ref_rss=$rss10
	echo "RSS reference: $rss10 kB at t=10 s (a one-time step of $((rss10 - base_rss)) kB over the baseline)"
fi
slack=$((ref_rss / 20)); [ $slack -ge 4096 ] || slack=4096
[ "$rss" -le $((ref_rss + slack)) ] || fail "RSS $ref_rss kB -> $rss kB (more than $slack kB)"
[ "$surfaces" = "$base_surfaces" ] || fail "surfaces $base_surfaces -> $surfaces"
[ "$layers" = "$base_layers" ] || fail "layers $base_layers -> $layers"
[ "$buffers" -le "$base_buffers" ] || fail "buffers $base_buffers -> $buffers"
[ "$clients" = 1 ] || fail "$clients clients connected, want 1 (the good one)"
kiosk_stop_clean
echo "PASS: seed $seed, $(awk '$1 == "requests" { print $2 }' "$out/fuzz-stats") requests in $secs s, compositor flat and clean"
