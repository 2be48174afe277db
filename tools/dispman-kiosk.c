/* SPDX-License-Identifier: MIT */
/*
 * dispman-kiosk: a Wayland kiosk compositor on libdispman (like cage).
 *
 *   dispman-kiosk [OPTIONS] [--] COMMAND [ARGS...]
 *
 * Runs COMMAND with WAYLAND_DISPLAY set and exits with its status (128 + signal when it
 * was killed). Without COMMAND it serves until SIGTERM or SIGINT; with one, SIGTERM, SIGINT
 * or SIGHUP is passed on to it, and a command still running 3 s later gets SIGKILL.
 * Options:
 *   --device PATH     DRM card node (default: the first one with connectors)
 *   --socket NAME     socket name in $XDG_RUNTIME_DIR (default: the first free wayland-N)
 *   --input PATH      an evdev node for wl_seat (repeatable; libinput path backend)
 *   --seat            wl_seat from every input device of seat0 (libinput udev backend)
 *   --stats FILE      write counters (key value lines) every second and at exit
 *   --capture PREFIX  on SIGUSR1, write the output's frame (writeback) to PREFIX.N.ppm
 *   --xdg-shell-version N  serve xdg_wm_base at version N (1-5, default 5): 3 for clients
 *                     that bind whatever is offered and abort on newer events (weston 10's
 *                     demo clients)
 *   --hide-cursor     draw no pointer cursor (by default one is drawn while the seat has a
 *                     pointer device: the client's, else the XCursor theme's left_ptr)
 *   --lenient-configure  take a client's buffer committed before it acknowledged its
 *                     surface's first configure as the acknowledgement, instead of the
 *                     protocol error (dispman_wayland_set_lenient_configure(); for clients
 *                     that stop waiting for the configure, as GStreamer's waylandsink does
 *                     after 100 ms)
 *   --vt-switch       Ctrl+Alt+F1..F12 switch VTs through the seat (seatd or logind; off
 *                     by default: the clients get those keys)
 *   --transform T     turn the output: normal, 90, 180, 270, flipped, flipped-90,
 *                     flipped-180, flipped-270 (wl_output.transform; 90: the screen's right
 *                     edge up, portrait on a landscape panel); touch follows it
 *   --output NAME     serve this connector (dispman-info lists them; default: the first
 *                     connected one)
 *   --layout L        serve every connected output (the first connected one, or --output,
 *                     first; the others in connector order), sharing the scene by L:
 *                     extend (side by side, left to right; toplevels on the first unless
 *                     they ask for another with set_fullscreen; the pointer crosses) or
 *                     mirror (the same scene on every output); an output plugged in
 *                     later is served too (and no longer when it is unplugged). Without
 *                     it one output is served.
 *   --mode WxH[@HZ]   enable the (first) output in this mode (default: its preferred mode);
 *                     with @HZ the mode whose refresh rounds to HZ, else the first of that
 *                     size
 *   --blank-after S   turn the output off after S seconds without input, unless a shown
 *                     surface inhibits idleness; the next input turns it on (and is not
 *                     given to clients)
 *   --repaint-window off|auto|MS  repaint late: at the output's next vblank less MS
 *                     milliseconds (auto: learned from the commits' cost), so that client
 *                     commits made meanwhile go out in one frame; off (the default)
 *                     repaints as soon as something changed and right after each flip
 *   --allow-virtual-input  let clients type and point (zwp_virtual_keyboard_manager_v1:
 *                     wtype; with zwlr_virtual_pointer_manager_v1: wayvnc); off by
 *                     default, as any client of the socket could type into the app
 *   --virtual-input-socket NAME  the same for the clients of a second socket NAME only
 *                     (wayvnc with WAYLAND_DISPLAY=NAME); the app's socket gets none
 * Without $XDG_RUNTIME_DIR, /tmp/dispman-kiosk-UID is made and used.
 */
#include <dispman/dispman.h>
#include <dispman/input.h>
#include <dispman/pipeline.h>
#include <dispman/wayland.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-server-core.h>

struct kiosk {
	struct dispman_device *dev;
	struct dispman_output *out;
	struct dispman_wayland *wl;
	const char *stats_path;
	const char *capture_prefix;
	unsigned captures;
	uint32_t last_crtc;             /* the output's CRTC when it was last on */
	struct wl_event_source *timer;
	struct wl_event_source *term_timer; /* the bound on the command's exit (on_term_timeout) */
	pid_t child;
	bool killed;                        /* the command got SIGKILL */
	bool done;
	int status;
};

/* A command that ignores the SIGTERM passed on to it gets SIGKILL TERM_GRACE_MS later; if
 * it has not exited KILL_GRACE_MS after that either (a process stuck in the kernel), the
 * compositor exits without it. */
#define TERM_GRACE_MS 3000
#define KILL_GRACE_MS 2000

static void write_stats(struct kiosk *k)
{
	if (!k->stats_path)
		return;
	struct dispman_wayland_stats s = { .size = sizeof(s) };
	struct dispman_stats d = { .size = sizeof(d) };
	int ret = dispman_wayland_get_stats(k->wl, &s);
	if (ret == 0)
		ret = dispman_device_get_stats(k->dev, &d);
	if (ret < 0) {
		fprintf(stderr, "dispman-kiosk: stats: %s\n", strerror(-ret));
		return;
	}
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", k->stats_path);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "dispman-kiosk: %s: %s\n", tmp, strerror(errno));
		return;
	}
#define P(name) fprintf(f, #name " %llu\n", (unsigned long long)s.name)
	P(clients); P(surfaces); P(buffers); P(layers); P(surface_commits); P(repaints);
	P(flips); P(frame_callbacks); P(presented); P(discarded); P(releases); P(shm_copies);
	P(bytes_copied); P(dmabuf_imports); P(dmabuf_failed); P(zero_copy_frames);
	P(protocol_errors); P(layer_errors); P(screencopies); P(blanks); P(unblanks);
	P(shm_imports); P(shm_import_refused); P(virtual_keys); P(late_repaints);
#undef P
	fprintf(f, "compositions %llu\ncommits %llu\nfailed_commits %llu\n",
		(unsigned long long)d.compositions, (unsigned long long)d.commits,
		(unsigned long long)d.failed_commits);
	const struct dispman_mode *mode = dispman_output_get_current_mode(k->out);
	fprintf(f, "refresh_mhz %u\n", mode ? mode->refresh_mhz : 0);
	/* the CRTC the output uses, or last used while it is off (blanked, unplugged) */
	uint32_t crtc = dispman_output_get_crtc_id(k->out);
	if (crtc)
		k->last_crtc = crtc;
	fprintf(f, "crtc_id %u\n", k->last_crtc);
	fprintf(f, "pid %d\n", (int)getpid());
	fclose(f);
	rename(tmp, k->stats_path);
}

static void capture(struct kiosk *k)
{
	if (!k->capture_prefix)
		return;
	struct dispman_buffer *frame = NULL;
	int ret = dispman_wayland_capture(k->wl, &frame);
	if (ret < 0) {
		fprintf(stderr, "dispman-kiosk: capture: %s\n", strerror(-ret));
		return;
	}
	void *data;
	uint32_t stride;
	if (dispman_buffer_map(frame, &data, &stride) == 0) {
		char path[4096], tmp[4200];
		snprintf(path, sizeof(path), "%s.%u.ppm", k->capture_prefix, k->captures++);
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		FILE *f = fopen(tmp, "wb");
		if (f) {
			uint32_t w = dispman_buffer_get_width(frame);
			uint32_t h = dispman_buffer_get_height(frame);
			fprintf(f, "P6\n%u %u\n255\n", w, h);
			for (uint32_t y = 0; y < h; y++) {
				const uint32_t *row = (const uint32_t *)(const void *)
					((const char *)data + (size_t)y * stride);
				for (uint32_t x = 0; x < w; x++) {
					unsigned char px[3] = { (unsigned char)(row[x] >> 16),
						(unsigned char)(row[x] >> 8), (unsigned char)row[x] };
					fwrite(px, 1, 3, f);
				}
			}
			fclose(f);
			rename(tmp, path);
			fprintf(stderr, "dispman-kiosk: captured %s\n", path);
		}
	}
	dispman_buffer_unref(frame);
}

static int on_term_timeout(void *data)
{
	struct kiosk *k = data;
	if (!k->killed) {
		fprintf(stderr, "dispman-kiosk: the command (pid %ld) did not exit within %d ms of "
			"SIGTERM: SIGKILL\n", (long)k->child, TERM_GRACE_MS);
		kill(k->child, SIGKILL);
		k->killed = true;
		wl_event_source_timer_update(k->term_timer, KILL_GRACE_MS);
	} else {
		fprintf(stderr, "dispman-kiosk: the command (pid %ld) did not exit within %d ms of "
			"SIGKILL: exiting without it\n", (long)k->child, KILL_GRACE_MS);
		k->status = 128 + SIGKILL;
		k->done = true;
	}
	return 0;
}

static int on_signal(int sig, void *data)
{
	struct kiosk *k = data;
	if (sig == SIGCHLD) {
		int st;
		pid_t p;
		while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
			if (p != k->child)
				continue;
			k->status = WIFEXITED(st) ? WEXITSTATUS(st) :
				WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
			k->done = true;
		}
	} else if (sig == SIGUSR1) {
		write_stats(k);
		capture(k);
	} else {
		if (k->child > 0) {
			kill(k->child, SIGTERM);
			if (!k->term_timer) {
				struct wl_event_loop *loop = wl_display_get_event_loop(
					dispman_wayland_get_display(k->wl));
				k->term_timer = wl_event_loop_add_timer(loop, on_term_timeout, k);
				if (k->term_timer)
					wl_event_source_timer_update(k->term_timer, TERM_GRACE_MS);
				else
					k->done = true; /* no bound to wait with: do not wait */
			}
		} else {
			k->done = true;
		}
	}
	return 0;
}

static int on_timer(void *data)
{
	struct kiosk *k = data;
	write_stats(k);
	wl_event_source_timer_update(k->timer, 1000);
	return 0;
}

/* --transform's names, in enum dispman_transform's order; -1 for an unknown one. */
static int transform_from_name(const char *name)
{
	static const char *const names[] = { "normal", "90", "180", "270", "flipped",
		"flipped-90", "flipped-180", "flipped-270" };
	for (int t = 0; t < 8; t++)
		if (strcmp(name, names[t]) == 0)
			return t;
	return -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: dispman-kiosk [--device PATH] [--socket NAME] [--input PATH]... "
		"[--seat] [--stats FILE] [--capture PREFIX] [--xdg-shell-version N] [--hide-cursor] "
		"[--lenient-configure] [--vt-switch] "
		"[--transform T] [--blank-after SECONDS] [--output NAME] [--layout extend|mirror] "
		"[--mode WxH[@HZ]] [--repaint-window off|auto|MS] [--allow-virtual-input] [--virtual-input-socket NAME] [--] "
		"[COMMAND [ARGS...]]\n");
}

struct options {
	const char *device, *socket_name;
	const char *inputs[16];
	size_t n_inputs;
	bool use_seat;
	unsigned xdg_shell_version;     /* 0: the library's default */
	bool hide_cursor;
	bool lenient_configure;
	bool vt_switch;
	bool virtual_input;             /* --allow-virtual-input */
	const char *vinput_socket;      /* --virtual-input-socket */
	int transform;                  /* enum dispman_transform */
	unsigned blank_after;           /* seconds, 0: never */
	int32_t repaint_window_us;      /* --repaint-window: -1 off, 0 auto */
	const char *output_name;        /* --output */
	int layout;                     /* --layout: enum dispman_wayland_layout, -1: none */
	unsigned mode_w, mode_h, mode_hz; /* --mode (0: preferred; hz 0: any) */
	char **command; /* NULL: serve until killed */
};

/* --repaint-window: off, auto or milliseconds (a decimal, at most 1000) into *us. */
static bool parse_window(const char *s, int32_t *us)
{
	if (strcmp(s, "off") == 0 || strcmp(s, "auto") == 0) {
		*us = s[0] == 'o' ? -1 : 0;
		return true;
	}
	char *end;
	errno = 0;
	double ms = strtod(s, &end);
	if (errno || end == s || *end || !(ms > 0) || ms > 1000)
		return false;
	*us = (int32_t)(ms * 1000 + 0.5);
	return *us > 0;
}

/* A whole decimal number in [min, max] into *v. */
static bool parse_uint(const char *s, unsigned min, unsigned max, unsigned *v)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || n < min || n > max)
		return false;
	*v = (unsigned)n;
	return true;
}

/* WxH or WxH@HZ into o->mode_*. */
static bool parse_mode(const char *s, struct options *o)
{
	unsigned w, h, hz = 0;
	int n = 0;
	if ((sscanf(s, "%ux%u%n", &w, &h, &n) != 2 || s[n]) &&
	    (sscanf(s, "%ux%u@%u%n", &w, &h, &hz, &n) != 3 || s[n] || !hz))
		return false;
	if (!w || !h)
		return false;
	o->mode_w = w;
	o->mode_h = h;
	o->mode_hz = hz;
	return true;
}

/* Returns -1 to go on, else the exit status (usage printed). */
static int parse_args(int argc, char **argv, struct options *o, struct kiosk *k)
{
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		bool has = i + 1 < argc;
		if (strcmp(a, "--device") == 0 && has)
			o->device = argv[++i];
		else if (strcmp(a, "--socket") == 0 && has)
			o->socket_name = argv[++i];
		else if (strcmp(a, "--input") == 0 && has && o->n_inputs < 16)
			o->inputs[o->n_inputs++] = argv[++i];
		else if (strcmp(a, "--seat") == 0)
			o->use_seat = true;
		else if (strcmp(a, "--hide-cursor") == 0)
			o->hide_cursor = true;
		else if (strcmp(a, "--lenient-configure") == 0)
			o->lenient_configure = true;
		else if (strcmp(a, "--vt-switch") == 0)
			o->vt_switch = true;
		else if (strcmp(a, "--allow-virtual-input") == 0)
			o->virtual_input = true;
		else if (strcmp(a, "--virtual-input-socket") == 0 && has)
			o->vinput_socket = argv[++i];
		else if (strcmp(a, "--transform") == 0 && has &&
			 (o->transform = transform_from_name(argv[++i])) >= 0)
			;
		else if (strcmp(a, "--output") == 0 && has)
			o->output_name = argv[++i];
		else if (strcmp(a, "--layout") == 0 && has &&
			 (o->layout = strcmp(argv[++i], "extend") == 0 ? DISPMAN_WAYLAND_LAYOUT_EXTEND :
			  strcmp(argv[i], "mirror") == 0 ? DISPMAN_WAYLAND_LAYOUT_MIRROR : -1) >= 0)
			;
		else if (strcmp(a, "--mode") == 0 && has && parse_mode(argv[++i], o))
			;
		else if (strcmp(a, "--blank-after") == 0 && has &&
			 parse_uint(argv[++i], 1, 86400, &o->blank_after))
			;
		else if (strcmp(a, "--repaint-window") == 0 && has &&
			 parse_window(argv[++i], &o->repaint_window_us))
			;
		else if (strcmp(a, "--stats") == 0 && has)
			k->stats_path = argv[++i];
		else if (strcmp(a, "--capture") == 0 && has)
			k->capture_prefix = argv[++i];
		else if (strcmp(a, "--xdg-shell-version") == 0 && has &&
			 (o->xdg_shell_version = (unsigned)strtoul(argv[++i], NULL, 10)) >= 1 &&
			 o->xdg_shell_version <= 5)
			;
		else {
			usage();
			return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ? 0 : 2;
		}
	}
	o->command = i < argc ? &argv[i] : NULL;
	return -1;
}

/* Wayland clients need XDG_RUNTIME_DIR for the socket: make one when it is not set. */
static bool ensure_runtime_dir(void)
{
	if (getenv("XDG_RUNTIME_DIR"))
		return true;
	static char dir[64];
	snprintf(dir, sizeof(dir), "/tmp/dispman-kiosk-%u", (unsigned)getuid());
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "dispman-kiosk: cannot make %s: %s\n", dir, strerror(errno));
		return false;
	}
	setenv("XDG_RUNTIME_DIR", dir, 1);
	return true;
}

/* The input devices for wl_seat (--seat: the udev seat; --input: these nodes), or NULL. */
static struct dispman_input *open_input(struct kiosk *k, const struct options *o)
{
	struct dispman_input *input = NULL;
	if (o->use_seat)
		input = dispman_input_create_udev(k->dev, NULL);
	else if (o->n_inputs)
		input = dispman_input_create_path(k->dev, o->inputs, o->n_inputs);
	if ((o->use_seat || o->n_inputs) && !input)
		fprintf(stderr, "dispman-kiosk: no input: %s (wl_seat has no devices)\n",
			strerror(errno));
	if (input && dispman_wayland_set_input(k->wl, input) < 0) {
		fprintf(stderr, "dispman-kiosk: wl_seat gets no input devices\n");
		dispman_input_destroy(input);
		input = NULL;
	}
	return input;
}

/* The output of --output (else the first connected one), enabled in the --mode asked for;
 * NULL (said why) when there is none or it has no such mode. */
static struct dispman_output *choose_output(struct dispman_device *dev, const struct options *o)
{
	struct dispman_output *out = NULL;
	if (o->output_name) {
		for (size_t i = 0; i < dispman_device_get_output_count(dev); i++) {
			struct dispman_output *c = dispman_device_get_output(dev, i);
			if (strcmp(dispman_output_get_name(c), o->output_name) == 0)
				out = c;
		}
		if (!out || dispman_output_get_status(out) == DISPMAN_DISCONNECTED) {
			fprintf(stderr, "dispman-kiosk: %s output %s; outputs:", out ?
				"disconnected" : "no", o->output_name);
			for (size_t i = 0; i < dispman_device_get_output_count(dev); i++)
				fprintf(stderr, " %s", dispman_output_get_name(
					dispman_device_get_output(dev, i)));
			fprintf(stderr, "\n");
			return NULL;
		}
	} else {
		out = dispman_device_get_first_connected_output(dev);
		if (!out) {
			fprintf(stderr, "dispman-kiosk: no connected output\n");
			return NULL;
		}
	}
	if (!o->mode_w)
		return out;
	const struct dispman_mode *mode = NULL;
	for (size_t i = 0; i < dispman_output_get_mode_count(out) && !mode; i++) {
		const struct dispman_mode *m = dispman_output_get_mode(out, i);
		if (m->width == o->mode_w && m->height == o->mode_h &&
		    (!o->mode_hz || (m->refresh_mhz + 500) / 1000 == o->mode_hz))
			mode = m;
	}
	if (!mode) {
		fprintf(stderr, "dispman-kiosk: %s has no mode %ux%u", dispman_output_get_name(out),
			o->mode_w, o->mode_h);
		if (o->mode_hz)
			fprintf(stderr, "@%u", o->mode_hz);
		fprintf(stderr, "; modes:");
		for (size_t i = 0; i < dispman_output_get_mode_count(out); i++) {
			const struct dispman_mode *m = dispman_output_get_mode(out, i);
			fprintf(stderr, " %ux%u@%.2f", m->width, m->height, m->refresh_mhz / 1000.0);
		}
		fprintf(stderr, "\n");
		return NULL;
	}
	int ret = dispman_output_enable(out, mode);
	if (ret < 0) {
		fprintf(stderr, "dispman-kiosk: cannot enable %s in %ux%u: %s\n",
			dispman_output_get_name(out), mode->width, mode->height, strerror(-ret));
		return NULL;
	}
	return out;
}

/* Serve every other connected output too, in connector order after the first (one that
 * cannot be enabled is left out, said why). */
static void add_other_outputs(struct kiosk *k)
{
	for (size_t i = 0; i < dispman_device_get_output_count(k->dev); i++) {
		struct dispman_output *c = dispman_device_get_output(k->dev, i);
		if (c == k->out || dispman_output_get_status(c) != DISPMAN_CONNECTED)
			continue;
		int ret = dispman_wayland_add_output(k->wl, c);
		if (ret < 0)
			fprintf(stderr, "dispman-kiosk: %s left out: %s\n",
				dispman_output_get_name(c), strerror(-ret));
		else
			fprintf(stderr, "dispman-kiosk: serving %s too\n",
				dispman_output_get_name(c));
	}
}

/* Start COMMAND with the compositor's environment and signals unblocked. */
static void run_command(struct kiosk *k, char **command)
{
	k->child = fork();
	if (k->child < 0) {
		fprintf(stderr, "dispman-kiosk: fork: %s\n", strerror(errno));
		k->status = 1;
		k->done = true;
	} else if (k->child == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(command[0], command);
		fprintf(stderr, "dispman-kiosk: cannot run %s: %s\n", command[0], strerror(errno));
		_exit(127);
	}
}

/* Serve (and run the command) until it exits or a signal says stop. */
static void serve(struct kiosk *k, char **command)
{
	struct wl_event_loop *loop = wl_display_get_event_loop(dispman_wayland_get_display(k->wl));
	struct wl_event_source *sigs[5];
	int signals[] = { SIGCHLD, SIGUSR1, SIGTERM, SIGINT, SIGHUP };
	for (size_t s = 0; s < 5; s++)
		sigs[s] = wl_event_loop_add_signal(loop, signals[s], on_signal, k);
	if (k->stats_path) {
		k->timer = wl_event_loop_add_timer(loop, on_timer, k);
		if (k->timer)
			wl_event_source_timer_update(k->timer, 1000);
		write_stats(k);
	}
	if (command)
		run_command(k, command);
	while (!k->done) {
		int ret = dispman_wayland_dispatch(k->wl, -1);
		if (ret < 0) {
			fprintf(stderr, "dispman-kiosk: dispatch: %s\n", strerror(-ret));
			k->status = 1;
			break;
		}
	}
	write_stats(k);
	if (k->timer)
		wl_event_source_remove(k->timer);
	if (k->term_timer)
		wl_event_source_remove(k->term_timer);
	for (size_t s = 0; s < 5; s++)
		if (sigs[s])
			wl_event_source_remove(sigs[s]);
}

int main(int argc, char **argv)
{
	struct kiosk k = { .child = -1 };
	struct options o = { .layout = -1, .repaint_window_us = -1 };
	int rc = parse_args(argc, argv, &o, &k);
	if (rc >= 0)
		return rc;
	if (!ensure_runtime_dir())
		return 1;
	k.dev = dispman_device_open(o.device);
	if (!k.dev) {
		fprintf(stderr, "dispman-kiosk: cannot open %s: %s\n",
			o.device ? o.device : "a device", strerror(errno));
		return 1;
	}
	dispman_device_publish_pipeline(k.dev); /* for dispman-info --pipeline --pid */
	k.out = choose_output(k.dev, &o);
	if (!k.out) {
		dispman_device_destroy(k.dev);
		return 1;
	}
	if (o.transform > 0 && (rc = dispman_output_set_transform(k.out,
	    (enum dispman_transform)o.transform)) < 0) {
		fprintf(stderr, "dispman-kiosk: cannot turn the output: %s\n", strerror(-rc));
		dispman_device_destroy(k.dev);
		return 1;
	}
	k.wl = dispman_wayland_create(k.dev, k.out);
	if (!k.wl) {
		fprintf(stderr, "dispman-kiosk: cannot start the compositor: %s\n", strerror(errno));
		dispman_device_destroy(k.dev);
		return 1;
	}
	if (o.layout >= 0) {
		dispman_wayland_set_layout(k.wl, (enum dispman_wayland_layout)o.layout);
		add_other_outputs(&k);
		dispman_wayland_serve_new_outputs(k.wl, true);
	}
	if (o.xdg_shell_version)
		dispman_wayland_set_xdg_shell_version(k.wl, o.xdg_shell_version);
	if (o.hide_cursor)
		dispman_wayland_hide_cursor(k.wl, true);
	if (o.lenient_configure)
		dispman_wayland_set_lenient_configure(k.wl, true);
	if (o.vt_switch && dispman_wayland_set_vt_switch(k.wl, true) < 0)
		fprintf(stderr, "dispman-kiosk: --vt-switch: out of memory\n");
	if (o.blank_after)
		dispman_wayland_set_blank_timeout(k.wl, o.blank_after * 1000u);
	if (o.repaint_window_us >= 0 &&
	    dispman_wayland_set_repaint_window(k.wl, o.repaint_window_us) < 0)
		fprintf(stderr, "dispman-kiosk: --repaint-window: cannot set it (see the log)\n");
	if ((o.virtual_input && dispman_wayland_set_virtual_input(k.wl, true) < 0) ||
	    (o.vinput_socket && !dispman_wayland_add_virtual_input_socket(k.wl, o.vinput_socket))) {
		fprintf(stderr, "dispman-kiosk: cannot offer virtual input\n");
		dispman_wayland_destroy(k.wl);
		dispman_device_destroy(k.dev);
		return 1;
	}
	struct dispman_input *input = open_input(&k, &o);
	const char *sock = dispman_wayland_add_socket(k.wl, o.socket_name);
	if (sock) {
		setenv("WAYLAND_DISPLAY", sock, 1);
		fprintf(stderr, "dispman-kiosk: serving WAYLAND_DISPLAY=%s on %s\n", sock,
			dispman_output_get_name(k.out));
		serve(&k, o.command);
	} else {
		k.status = 1;
	}
	dispman_wayland_destroy(k.wl);
	dispman_input_destroy(input);
	dispman_device_destroy(k.dev);
	return k.status;
}
