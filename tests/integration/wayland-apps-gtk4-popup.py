#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A GTK 4 window (PyGObject, Debian's gir1.2-gtk-4.0) for wayland-apps.sh's gtk4-popup
# case: a green (#20c060) main window with a Gtk.DropDown in its bottom-right corner whose
# popover (an xdg_popup) lists three items coloured red, blue and yellow; there is no room
# below the drop-down, so the compositor must flip the popover above it. Printed:
#   "button: X Y W H"   the drop-down in the window's coordinates (the output's for a
#                       full-screen window), each time its bounds change
#   "selected: itemN"   an item was chosen (the drop-down's selection changed); after
#                       item2 the script exits 0
#   "pressed SOURCE X Y" a press on the window (its click gesture): SOURCE the device
#                       kind GDK names (mouse, touchscreen), X Y where in the window
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

CSS = b"""
window.main { background-color: #20c060; }
label.item1 { background-color: #d02020; }
label.item2 { background-color: #2040e0; }
label.item3 { background-color: #e0c020; }
"""

loop = GLib.MainLoop()
Gtk.init()
css = Gtk.CssProvider()
css.load_from_data(CSS)
Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), css,
                                          Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

win = Gtk.Window(title="wayland-apps gtk4 popup")
win.add_css_class("main")
win.connect("close-request", lambda w: (loop.quit(), False)[1])

names = ["item1", "item2", "item3"]
dd = Gtk.DropDown.new_from_strings(names)


# the popover's rows: a flat-coloured label each, large enough to click
def on_setup(factory, item):
    label = Gtk.Label()
    label.set_size_request(180, 36)
    item.set_child(label)


def on_bind(factory, item):
    label = item.get_child()
    name = item.get_item().get_string()
    label.set_text(name)
    for n in names:
        label.remove_css_class(n)
    label.add_css_class(name)


factory = Gtk.SignalListItemFactory()
factory.connect("setup", on_setup)
factory.connect("bind", on_bind)
dd.set_list_factory(factory)
dd.set_halign(Gtk.Align.END)
dd.set_valign(Gtk.Align.END)
dd.set_margin_end(10)
dd.set_margin_bottom(10)
win.set_child(dd)


def on_selected(w, pspec):
    name = names[w.get_selected()]
    print("selected: " + name, flush=True)
    if name == "item2":
        # a moment for the popover to go, then out
        GLib.timeout_add(300, loop.quit)


dd.connect("notify::selected", on_selected)

last = None


def report():
    global last
    ok, r = dd.compute_bounds(win)
    if ok:
        cur = (round(r.get_x()), round(r.get_y()), round(r.get_width()), round(r.get_height()))
        if cur != last and cur[2] > 0:
            last = cur
            print("button: %d %d %d %d" % cur, flush=True)
    return True


GLib.timeout_add(200, report)


def on_pressed(gesture, n, x, y):
    dev = gesture.get_current_event_device()
    src = dev.get_source().value_nick if dev else "none"
    print("pressed %s %d %d" % (src, round(x), round(y)), flush=True)


# presses on the window (a touch on its background: "pressed touchscreen X Y")
click = Gtk.GestureClick()
click.connect("pressed", on_pressed)
win.add_controller(click)
win.present()
loop.run()
sys.exit(0)
