/* SPDX-License-Identifier: MIT */
/*
 * libdispman-wayland: a Wayland kiosk compositor on libdispman (built with -Dwayland).
 *
 * It serves wl_compositor, wl_subcompositor, wl_shm, wl_output, wl_seat, xdg_wm_base,
 * zwp_linux_dmabuf_v1 (v4, with feedback), wp_presentation, wp_viewporter and
 * wp_single_pixel_buffer_manager_v1 on one output of a dispman_device, or several
 * (dispman_wayland_add_output(), dispman_wayland_set_layout()). Every toplevel is
 * full-screen on an output (the newest on top); every mapped surface and subsurface is a
 * dispman_layer, so the library's plane assignment decides what goes on a plane and what is
 * composed. dma-buf wl_buffers are imported once and shown as they are; shm buffers are
 * copied (the damaged region only) into dumb buffers. wl_buffer.release, frame callbacks
 * and presentation feedback follow the page flips.
 *
 * Include this header to use it (it includes <dispman/dispman.h>); link libdispman-wayland.
 * Conventions as in <dispman/dispman.h>: constructors return NULL with errno set,
 * operations 0 or a negative errno, destroy(NULL) is fine, failures are logged through the
 * library's log handler. Everything runs on the caller's thread inside
 * dispman_wayland_dispatch().
 *
 * Threads: the compositor is not thread-safe. It may be created on one thread and then
 * dispatched on another, but every call (the input and client calls too) must come from the
 * thread that runs dispman_wayland_dispatch(), or while no thread does. To hand it work from
 * another thread, add an eventfd to the display's event loop (dispman_wayland_get_display(),
 * wl_display_get_event_loop(), wl_event_loop_add_fd()) and do the work in its callback, as
 * tests/wlcs/ does for client sockets and synthetic input.
 */
#ifndef DISPMAN_WAYLAND_H
#define DISPMAN_WAYLAND_H

#include <stddef.h>
#include <stdint.h>

#include <dispman/dispman.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dispman_input;
struct dispman_input_event;
struct dispman_wayland;
struct wl_display;
struct wl_resource;

/**
 * Create a compositor on out (enabled with its preferred mode if it is not enabled yet,
 * and committed once with a black screen). dev and out stay owned by the caller and must
 * outlive the compositor; the compositor sets the output's frame callback (do not set
 * another) and registers the device's fd in its own event loop, so the caller dispatches
 * only the compositor (dispman_wayland_dispatch() runs dispman_device_dispatch()).
 *
 * No socket is opened yet: see dispman_wayland_add_socket().
 *
 * Returns a compositor the caller owns (free with dispman_wayland_destroy()), or NULL
 * with errno: EINVAL (NULL argument, or an output of another device), ENOMEM, or the
 * errno of libwayland, of enabling the output or of its first commit.
 */
struct dispman_wayland *dispman_wayland_create(struct dispman_device *dev,
	struct dispman_output *out);

/**
 * Destroy the compositor: disconnects every client (their buffers are freed and their
 * layers destroyed), closes the sockets and unregisters from the device. The output keeps
 * its mode; its layers are gone at the next commit. NULL is fine.
 */
void dispman_wayland_destroy(struct dispman_wayland *wl);

/**
 * Listen on a socket in $XDG_RUNTIME_DIR. name NULL picks the first free "wayland-N".
 * Returns the socket's name, owned by the compositor and valid until it is destroyed, or
 * NULL with errno (ENOENT: XDG_RUNTIME_DIR not set; else the errno of libwayland).
 */
const char *dispman_wayland_add_socket(struct dispman_wayland *wl, const char *name);

/** The libwayland display, owned by the compositor (for adding globals or clients). */
struct wl_display *dispman_wayland_get_display(struct dispman_wayland *wl);

/** A pollable fd (owned by the compositor): readable when dispatch has work. */
int dispman_wayland_get_fd(struct dispman_wayland *wl);

/**
 * Wait up to timeout_ms (-1: forever) for client requests, page flips and input, handle
 * them and flush the clients. Returns 0 or a negative errno (EINTR returns 0).
 */
int dispman_wayland_dispatch(struct dispman_wayland *wl, int timeout_ms);

/**
 * Serve wl_seat from input: keyboard (keymap from xkbcommon's defaults, or $XKB_DEFAULT_*),
 * pointer and touch, with focus on the surface under the pointer or touch point, keyboard
 * focus on the top toplevel. input stays owned by the caller and must outlive the
 * compositor, or be unset first (input NULL); the compositor sets its event callback.
 * Returns 0 or -EINVAL.
 */
int dispman_wayland_set_input(struct dispman_wayland *wl, struct dispman_input *input);

/**
 * Hide the pointer's cursor (hide true) or show it again (false, the default). The cursor is
 * shown while the input set with dispman_wayland_set_input() has a pointer device: the
 * cursor surface of the client with pointer focus (wl_pointer.set_cursor), else left_ptr of
 * the XCursor theme ($XCURSOR_THEME, $XCURSOR_SIZE) or a built-in arrow. It is a layer on
 * top that the input moves (dispman_input_set_cursor_layer()): on a cursor plane when the
 * library's plane assignment gives it one, else composed. Returns 0 or -EINVAL (wl NULL).
 */
int dispman_wayland_hide_cursor(struct dispman_wayland *wl, bool hide);

/**
 * Let Ctrl+Alt+F1 to F12 switch virtual terminals (enable true), as a desktop session does;
 * off by default, so a kiosk's clients get every key. While on, a press of Fn with a Ctrl
 * and an Alt key held (evdev key codes, whatever the keymap) is not delivered to clients,
 * nor is its release: it asks the seat for VT n with dispman_device_switch_vt(), which
 * needs a device opened through seatd or logind (an error is logged otherwise and the
 * compositor stays where it is). While another VT is in front the device is paused and
 * its input suspended; when the seat gives the VT back, the library restores the output
 * with one modeset and the compositor carries on. The keys counted are those of
 * dispman_wayland_set_input()'s devices and of dispman_wayland_inject_input(); a client's
 * virtual keyboard (zwp_virtual_keyboard_v1) cannot switch VTs. Returns 0, -EINVAL (wl
 * NULL) or -ENOMEM.
 */
int dispman_wayland_set_vt_switch(struct dispman_wayland *wl, bool enable);

/**
 * Set the wl_seat capabilities the compositor advertises in addition to those of its
 * dispman_input (which are keyboard, pointer and touch while an input is set): caps is a
 * mask of DISPMAN_INPUT_CAP_KEYBOARD, DISPMAN_INPUT_CAP_POINTER and DISPMAN_INPUT_CAP_TOUCH
 * (<dispman/input.h>); 0 (the default) adds none. For an embedder that feeds the seat
 * itself with dispman_wayland_inject_input() (a remote or virtual input, a test harness),
 * with or without a dispman_input. Bound wl_seats get the new capabilities at once.
 * Returns 0 or -EINVAL (logged: wl NULL, or a bit outside those three).
 */
int dispman_wayland_set_seat_capabilities(struct dispman_wayland *wl, uint32_t caps);

/**
 * Deliver one input event to the seat as if a dispman_input had sent it: the same code
 * moves the pointer and keyboard focus and sends the wl_pointer, wl_keyboard and wl_touch
 * events (and feeds pointer grabs such as drag and drop). ev is read during the call
 * only (<dispman/input.h>). Types taken: DISPMAN_INPUT_KEY, DISPMAN_INPUT_POINTER_MOTION,
 * DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE, DISPMAN_INPUT_POINTER_BUTTON,
 * DISPMAN_INPUT_POINTER_AXIS and DISPMAN_INPUT_TOUCH_*. Positions are output pixels and
 * absolute for every type, as a dispman_input gives them: POINTER_* carry the pointer's
 * position after the event (a button's too), TOUCH_DOWN and TOUCH_MOTION the point's;
 * touch points are told apart by seat_slot (0 to 15). As from libinput, end each set of
 * touch events with a DISPMAN_INPUT_TOUCH_FRAME. time_usec is CLOCK_MONOTONIC; fields
 * the type does not use are ignored.
 *
 * Clients only see the devices advertised: see dispman_wayland_set_seat_capabilities().
 * Call it on the thread that runs dispman_wayland_dispatch(), not from another thread
 * while it runs. Returns 0 (the events are sent and flushed) or -EINVAL (logged: NULL
 * argument, another event type, or a position that is not finite).
 */
int dispman_wayland_inject_input(struct dispman_wayland *wl,
	const struct dispman_input_event *ev);

/**
 * Capture what the output shows now, as dispman_output_capture(): through its writeback
 * connector where the CRTC has one (two modesets on drivers that cannot drive both
 * connectors), else by composing on the CPU what the library put on the planes; then carry
 * on the frame cycle. On success *frame is an XRGB8888 buffer the caller owns
 * (dispman_buffer_unref()). Returns 0 or the negative errno of dispman_output_capture().
 */
int dispman_wayland_capture(struct dispman_wayland *wl, struct dispman_buffer **frame);

/*
 * The compositor's counters: a struct that grows, as the core's dispman_stats (see "Structs
 * that grow" in <dispman/dispman.h>): set size first.
 */
struct dispman_wayland_stats {
	size_t size;                 /* set by the caller: sizeof(struct dispman_wayland_stats) */
	uint64_t clients;            /* clients connected now */
	uint64_t surfaces;           /* wl_surfaces alive now */
	uint64_t buffers;            /* wl_buffers alive now (or still held) */
	uint64_t layers;             /* dispman_layers of mapped surfaces now */
	uint64_t surface_commits;    /* wl_surface.commit requests */
	uint64_t repaints;           /* frames committed to the device */
	uint64_t flips;              /* page flips seen */
	uint64_t frame_callbacks;    /* wl_callback.done sent */
	uint64_t presented;          /* wp_presentation_feedback.presented sent */
	uint64_t discarded;          /* wp_presentation_feedback.discarded sent */
	uint64_t releases;           /* wl_buffer.release sent */
	uint64_t shm_copies;         /* shm buffers copied into dumb buffers */
	uint64_t bytes_copied;       /* bytes the compositor copied (shm uploads) */
	uint64_t dmabuf_imports;     /* dma-buf wl_buffers imported */
	uint64_t dmabuf_failed;      /* dma-buf imports refused */
	uint64_t zero_copy_frames;   /* repaints that put a client dma-buf on a plane */
	uint64_t protocol_errors;    /* protocol errors the compositor sent */
	/* surfaces not shown in a repaint because the library refused their layer's settings
	 * (each logged, and a protocol error for the client where it asked for them) */
	uint64_t layer_errors;
	uint64_t screencopies;       /* zwlr_screencopy_frame_v1 copies made (ready sent) */
	uint64_t blanks;             /* times the outputs were blanked (--blank-after) */
	uint64_t unblanks;           /* times input turned them on again */
	/* shm wl_buffers scanned out from the client's own pool (a memfd sealed against
	 * shrinking, imported through /dev/udmabuf): no copy */
	uint64_t shm_imports;
	/* shm wl_buffers that take the copy path (no udmabuf, a pool that is no memfd or may
	 * shrink, an import the device refused; the reason is logged once per pool) */
	uint64_t shm_import_refused;
	/* keys of virtual keyboards delivered to a client (dispman_wayland_set_virtual_input()) */
	uint64_t virtual_keys;
	/* repaints run from the late-repaint timer (dispman_wayland_set_repaint_window()) */
	uint64_t late_repaints;
};

/**
 * Copy the compositor's counters into *stats (caller-owned storage; a struct that grows:
 * set stats->size to sizeof(*stats) first, the rest to 0). Only the first stats->size bytes
 * are written, and stats->size becomes the number written. Returns 0 or -EINVAL (logged;
 * *stats untouched) when wl or stats is NULL or stats->size is smaller than a size_t.
 */
int dispman_wayland_get_stats(struct dispman_wayland *wl, struct dispman_wayland_stats *stats);

/** How several outputs share the scene (dispman_wayland_set_layout()). */
enum dispman_wayland_layout {
	/**
	 * One desktop across the outputs (the default): the outputs side by side, left to
	 * right in the order they were added, tops aligned; each wl_output (and its
	 * zxdg_output_v1) says its place. A toplevel goes full-screen on the first output
	 * unless it asks for another with xdg_toplevel.set_fullscreen(output); the pointer
	 * crosses from one output to the next.
	 */
	DISPMAN_WAYLAND_LAYOUT_EXTEND = 0,
	/**
	 * The same scene on every output: every output at (0, 0), each with its own layers
	 * showing the same surfaces (a dma-buf is imported once for the device); toplevels are
	 * sized for the first output and the others show it from their top left corner.
	 */
	DISPMAN_WAYLAND_LAYOUT_MIRROR = 1,
};

/**
 * Serve one more output of the compositor's device (enabled with its preferred mode if it
 * is not enabled yet): it gets its own wl_output global, its own layers and its own frame
 * cycle, and takes the next place in the layout. out stays owned by the caller and must
 * outlive the compositor; the compositor sets its frame callback. Returns 0, or -EINVAL
 * (logged) for a NULL argument, an output of another device or one already served, or the
 * negative errno of enabling it or of its first commit (logged).
 */
int dispman_wayland_add_output(struct dispman_wayland *wl, struct dispman_output *out);

/**
 * Serve (serve true) or not the outputs of the device that are plugged in while the
 * compositor runs. When the device's hotplug re-probe (dispman_device_dispatch()) reports
 * an output connected that is not served, the compositor serves it as
 * dispman_wayland_add_output() does (its preferred mode, its own wl_output global, the next
 * place in the layout: right of the others in the extended layout, the same scene in the
 * mirror one) and every toplevel is configured again; when such an output is unplugged it
 * is no longer served: its wl_output global is removed (clients get
 * wl_registry.global_remove), its toplevels go to another output and its layers are
 * destroyed. The outputs given to dispman_wayland_create() and dispman_wayland_add_output()
 * stay served while unplugged, as before. Both happen from an idle callback of the
 * compositor's loop after the hotplug. Off by default. Returns 0, or -EINVAL (logged) for
 * a NULL compositor.
 */
int dispman_wayland_serve_new_outputs(struct dispman_wayland *wl, bool serve);

/**
 * Choose how the outputs share the scene; every toplevel is configured again and every
 * output repainted. Returns 0, or -EINVAL (logged) for a NULL compositor or an unknown
 * layout.
 */
int dispman_wayland_set_layout(struct dispman_wayland *wl, enum dispman_wayland_layout layout);

/** How the compositor places xdg toplevels. */
enum dispman_wayland_window_policy {
	/**
	 * The kiosk's (the default): a toplevel without a parent is configured full-screen
	 * with the output's size and shown centred on black when its window is smaller (a
	 * larger one is cropped at the right and bottom); a toplevel with a parent (a dialog,
	 * a file chooser) keeps the size it chooses and is centred over its parent, above it.
	 */
	DISPMAN_WAYLAND_POLICY_KIOSK = 0,
	/**
	 * The embedder's: every toplevel keeps the size it chooses and is shown at (0, 0), or
	 * where dispman_wayland_place_surface() put it; set_fullscreen is honoured.
	 */
	DISPMAN_WAYLAND_POLICY_FREE = 1,
};

/**
 * Choose how toplevels are placed; every toplevel is configured again. Returns 0, or
 * -EINVAL (logged) for a NULL compositor or an unknown policy.
 */
int dispman_wayland_set_window_policy(struct dispman_wayland *wl,
	enum dispman_wayland_window_policy policy);

/**
 * Serve xdg_wm_base at version (1 to 5; 5, the default, sends xdg_toplevel's
 * configure_bounds and wm_capabilities). Some clients bind the version the compositor
 * offers whatever their own protocol files know, and abort on an event they have no
 * handler for (Debian 12's weston demo clients, weston-presentation-shm among them): serve
 * them 3. Clients bound before keep their version; call it before clients connect.
 * Returns 0, or -EINVAL (logged) for a NULL compositor or a version out of range, or
 * -ENOMEM.
 */
int dispman_wayland_set_xdg_shell_version(struct dispman_wayland *wl, uint32_t version);

/**
 * Tolerate (lenient true) or refuse (false, the default) an xdg_surface whose client commits
 * a buffer before it acknowledged the surface's first configure. xdg-shell makes that the
 * protocol error xdg_surface.unconfigured_buffer, which the compositor sends by default (as
 * wlroots does). Lenient, it takes such a commit as if the client had acknowledged the
 * configure it was sent (one is sent first when the commit is the surface's initial one):
 * the toplevel or popup maps with that buffer at once. For an embedder hosting old clients
 * written against compositors that allow it (Mir does); the kiosk keeps the default.
 * Each client doing so is logged once, at DISPMAN_LOG_DEBUG. A buffer on a wl_surface
 * before it got its xdg_surface stays an error either way. Applies to every surface's next
 * commit. Returns 0, or -EINVAL (logged) for a NULL compositor.
 */
int dispman_wayland_set_lenient_configure(struct dispman_wayland *wl, bool lenient);

/**
 * Put a toplevel's window (its xdg window geometry) at (x, y) on the output, under
 * DISPMAN_WAYLAND_POLICY_FREE (the kiosk policy keeps its own placement, and uses this
 * position again if the policy becomes FREE). surface is the server's wl_surface resource
 * (from wl_client_get_object(), say); it stays owned by libwayland. The position shows at
 * the next repaint. Returns 0, or -EINVAL (logged) for a NULL argument or a surface
 * that is not an xdg toplevel.
 */
int dispman_wayland_place_surface(struct dispman_wayland *wl, struct wl_resource *surface,
	int32_t x, int32_t y);

/**
 * Blank the output after ms milliseconds without input (0, the default: never): its CRTC
 * is disabled in one modeset commit and the compositor stops committing frames (clients get
 * no frame callbacks meanwhile, as with a screen that is off). A mapped surface with a
 * zwp_idle_inhibitor_v1 keeps it from blanking. The next input event of the seat (from the
 * dispman_input or dispman_wayland_inject_input()) enables the output again in its mode and
 * is not delivered to clients (nor the release of the key or button it pressed). The count
 * starts again at each call. Returns 0, or -EINVAL (logged) for a NULL compositor.
 */
int dispman_wayland_set_blank_timeout(struct dispman_wayland *wl, uint32_t ms);

/**
 * Repaint late: a repaint waits until its output's next vblank
 * (dispman_output_get_next_vblank()) less window_us microseconds, so that client commits
 * made meanwhile go out in the same frame, and a commit made while a flip is pending shows
 * at the vblank after it rather than a refresh later (the repaint does not run right
 * after the flip). window_us 0 learns the window: the larger of the library's commit cost
 * (dispman_output_get_commit_cost()) and the compositor's own repaint time (timer wake-up
 * to commit), plus one millisecond. A negative window_us (the default) repaints as soon as
 * something changed and right after each flip. An output whose flips do not wait for a
 * vblank (dispman_output_stats.clock DISPMAN_PACING_TIMESTAMP: virtio-gpu), or before its
 * first flips, repaints at once; so does one whose deadline is less than 0.3 ms away.
 * Repaints made late are counted in dispman_wayland_stats.late_repaints. Returns 0,
 * -EINVAL (logged) for a NULL compositor, -ERANGE (logged) for a window above one second,
 * or a negative errno of timerfd_create() (logged).
 */
int dispman_wayland_set_repaint_window(struct dispman_wayland *wl, int32_t window_us);

/**
 * Let clients type and point (allow) or not (the default): offer
 * zwp_virtual_keyboard_manager_v1 (wtype, wayvnc) and zwlr_virtual_pointer_manager_v1
 * version 2 (wayvnc), or withdraw them. Off by default because any client that can connect
 * to the socket could then type into and click on the application shown. A virtual
 * keyboard's keys go to the surface with keyboard focus, read with the keymap its client
 * set (sent to the focused client before them; the seat's keymap goes back to that client
 * at the seat's next key, when the focus leaves it, or when the virtual keyboard is
 * destroyed). Virtual keys and pointer events are input like the seat's: they reset idle
 * timers, and one wakes a blanked output without being delivered. A virtual pointer moves the seat's pointer (relative motion from where it
 * is, absolute motion over the output's size), presses its buttons and scrolls, as
 * dispman_wayland_inject_input() does; buttons it holds when it goes are released. While
 * allowed, wl_seat advertises a keyboard and a pointer even without an input device.
 * Withdrawing leaves keyboards and pointers already made working: call it before clients
 * connect. To let only some clients use virtual input, leave this off and give them a
 * socket of their own: dispman_wayland_add_virtual_input_socket().
 * Returns 0, or -EINVAL (logged) for a NULL compositor, or -ENOMEM.
 */
int dispman_wayland_set_virtual_input(struct dispman_wayland *wl, bool allow);

/**
 * Listen on a second socket, $XDG_RUNTIME_DIR/name, whose clients (and, unless
 * dispman_wayland_set_virtual_input() allows every client, only they) see the virtual
 * keyboard and pointer globals described there: a remote-control server such as wayvnc
 * or an on-screen keyboard connects through it (WAYLAND_DISPLAY=name), while the
 * application shown, on the compositor's own socket, cannot type into itself or others.
 * Clients of that socket are ordinary clients otherwise. The seat advertises a keyboard and
 * a pointer to every client while such a socket exists. A name.lock file beside it keeps a
 * second compositor from taking the name; both files are removed by
 * dispman_wayland_destroy(). Returns name (the caller's string), or NULL with errno:
 * EINVAL (logged: wl or name NULL, a name that is empty, has a slash or makes too long a
 * path), ENOENT (XDG_RUNTIME_DIR unset), EADDRINUSE (another compositor has the name), or
 * another errno from creating the socket; every failure is logged.
 */
const char *dispman_wayland_add_virtual_input_socket(struct dispman_wayland *wl,
	const char *name);

#ifdef __cplusplus
}
#endif

#endif
