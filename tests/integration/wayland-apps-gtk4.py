#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A GTK 4 window (PyGObject, Debian's gir1.2-gtk-4.0) with an entry at its top: on Enter it
# prints "typed: TEXT" on stdout and exits 0. Below the entry, an area whose click gesture
# (Gtk.GestureClick: mouse buttons and touches alike) prints "pressed SOURCE X Y" for
# each press: SOURCE is the device kind GDK names (mouse, touchscreen), X Y where in the
# window. wayland-apps.sh types, clicks and taps into it through uinput.
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk  # noqa: E402

loop = GLib.MainLoop()


def on_activate(entry):
    print("typed: " + entry.get_text(), flush=True)
    loop.quit()


def on_pressed(gesture, n, x, y):
    dev = gesture.get_current_event_device()
    src = dev.get_source().value_nick if dev else "none"
    r = area.translate_coordinates(win, x, y)  # (ok, x, y) or (x, y)
    wx, wy = r[-2:]
    print("pressed %s %d %d" % (src, round(wx), round(wy)), flush=True)


Gtk.init()
win = Gtk.Window(title="wayland-apps gtk4")
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
entry = Gtk.Entry()
entry.connect("activate", on_activate)
box.append(entry)
area = Gtk.DrawingArea()
area.set_vexpand(True)
area.set_hexpand(True)
click = Gtk.GestureClick()
click.connect("pressed", on_pressed)
area.add_controller(click)
box.append(area)
win.set_child(box)
win.connect("close-request", lambda w: (loop.quit(), False)[1])
win.present()
entry.grab_focus()
loop.run()
sys.exit(0)
