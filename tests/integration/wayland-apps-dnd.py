#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Two GTK 3 clients (PyGObject, Debian's gir1.2-gtk-3.0) for wayland-apps.sh's dnd case, a
# drag from one to the other through wl_data_device:
#   source TEXT  a green (#20c060) full-screen window with a red (#d02020) 200x100 drag
#                source in its top-left corner, offering TEXT as text/plain (copy), with a
#                48x48 magenta (#c030a0) drag icon whose top-left corner is the hotspot.
#                Prints "source: X Y W H" (the red box in the window's coordinates, the
#                output's for a full-screen window), "drag-begin", "sent" when the target
#                asked for the data, and "drag-end"; exits 0 after the drag ended.
#   target       a blue (#2040e0) window of its own fixed 400x300 size (the kiosk centres
#                it), a drop target for text: prints "dropped: TEXT" and exits 0.
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GdkPixbuf, GLib, Gtk  # noqa: E402

CSS = b"""
#source-win { background-color: #20c060; }
#source { background-color: #d02020; }
#target { background-color: #2040e0; }
"""

loop = GLib.MainLoop()
Gtk.init(sys.argv)
css = Gtk.CssProvider()
css.load_from_data(CSS)
Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css,
                                         Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
win = Gtk.Window(title="wayland-apps dnd " + sys.argv[1])
win.connect("delete-event", lambda *a: (loop.quit(), False)[1])


def say(line):
    print(line, flush=True)


if sys.argv[1] == "source":
    text = sys.argv[2]
    win.set_name("source-win")
    box = Gtk.EventBox()
    box.set_name("source")
    box.set_size_request(200, 100)
    box.set_halign(Gtk.Align.START)
    box.set_valign(Gtk.Align.START)
    box.set_margin_start(40)
    box.set_margin_top(40)
    box.add(Gtk.Label(label="drag me"))
    win.add(box)
    box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
    box.drag_source_add_text_targets()

    def on_begin(w, ctx):
        icon = GdkPixbuf.Pixbuf.new(GdkPixbuf.Colorspace.RGB, True, 8, 48, 48)
        icon.fill(0xc030a0ff)
        Gtk.drag_set_icon_pixbuf(ctx, icon, 0, 0)
        say("drag-begin")

    def on_get(w, ctx, data, info, time):
        data.set_text(text, -1)
        say("sent")

    def on_end(w, ctx):
        say("drag-end")
        GLib.timeout_add(500, loop.quit)

    box.connect("drag-begin", on_begin)
    box.connect("drag-data-get", on_get)
    box.connect("drag-end", on_end)
    last = None

    def on_alloc(w, a):
        global last
        xy = w.translate_coordinates(win, 0, 0)
        if xy is not None and (xy[0], xy[1], a.width, a.height) != last:
            last = (xy[0], xy[1], a.width, a.height)
            say("source: %d %d %d %d" % last)

    box.connect("size-allocate", on_alloc)
else:
    win.set_name("target")
    win.set_default_size(400, 300)
    win.set_resizable(False)
    area = Gtk.Label(label="drop here")
    win.add(area)
    win.drag_dest_set(Gtk.DestDefaults.ALL, [], Gdk.DragAction.COPY)
    win.drag_dest_add_text_targets()

    def on_received(w, ctx, x, y, data, info, time):
        say("dropped: " + (data.get_text() or ""))
        GLib.timeout_add(500, loop.quit)

    win.connect("drag-data-received", on_received)

win.show_all()
loop.run()
sys.exit(0)
