#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A GTK 4 window with one entry (PyGObject, Debian's gir1.2-gtk-4.0): on Enter it prints
# "typed: TEXT" on stdout and exits 0. wayland-apps.sh types into it through uinput.
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk  # noqa: E402

loop = GLib.MainLoop()


def on_activate(entry):
    print("typed: " + entry.get_text(), flush=True)
    loop.quit()


Gtk.init()
win = Gtk.Window(title="wayland-apps gtk4")
entry = Gtk.Entry()
entry.connect("activate", on_activate)
win.set_child(entry)
win.connect("close-request", lambda w: (loop.quit(), False)[1])
win.present()
entry.grab_focus()
loop.run()
sys.exit(0)
