#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A GTK 3 window (PyGObject, Debian's gir1.2-gtk-3.0) for wayland-apps.sh's gtk3-popup
# case: a green (#20c060) main window with a menu button in its bottom-right corner whose
# GtkMenu (an xdg_popup) has three items coloured red, blue and yellow; there is no room
# below the button, so the compositor must flip the menu above it. Activating an item
# prints "activated: itemN"; item2 then opens a magenta (#c030a0) 360x240 dialog
# transient for the window (xdg_toplevel.set_parent) with an entry; Enter in it prints
# "dialog typed: TEXT" and exits 0. Also printed: "button: X Y W H" (the button in the
# window's coordinates, which are the output's for a full-screen window) and
# "dialog focused" when the dialog gets the keyboard, and "pressed SOURCE X Y" for a
# button press on the window itself (not on the button or the menu): SOURCE is the device
# kind GDK names (mouse, touchscreen: GTK emulates the press from a touch), X Y where
# in the window.
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

CSS = b"""
#main { background-color: #20c060; }
#item1 { background-color: #d02020; }
#item2 { background-color: #2040e0; }
#item3 { background-color: #e0c020; }
#dialog { background-color: #c030a0; }
"""

loop = GLib.MainLoop()
Gtk.init(sys.argv)
css = Gtk.CssProvider()
css.load_from_data(CSS)
Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css,
                                         Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

win = Gtk.Window(title="wayland-apps gtk3")
win.set_name("main")
win.connect("delete-event", lambda *a: (loop.quit(), False)[1])

menu = Gtk.Menu()
for i in (1, 2, 3):
    item = Gtk.MenuItem(label="  Item %d  " % i)
    item.set_name("item%d" % i)
    item.connect("activate", lambda w, n=i: on_item(n))
    menu.append(item)
menu.show_all()

button = Gtk.MenuButton(label="Menu")
button.set_popup(menu)
button.set_halign(Gtk.Align.END)
button.set_valign(Gtk.Align.END)
button.set_margin_end(10)
button.set_margin_bottom(10)
win.add(button)

last_alloc = None


def on_alloc(w, a):
    global last_alloc
    xy = w.translate_coordinates(win, 0, 0)
    if xy is None:
        return
    x, y = xy
    cur = (x, y, a.width, a.height)
    if cur != last_alloc:
        last_alloc = cur
        print("button: %d %d %d %d" % cur, flush=True)


button.connect("size-allocate", on_alloc)


def on_dialog_entry(entry):
    print("dialog typed: " + entry.get_text(), flush=True)
    loop.quit()


def on_item(n):
    print("activated: item%d" % n, flush=True)
    if n != 2:
        return
    dlg = Gtk.Dialog(title="wayland-apps dialog", transient_for=win, modal=True)
    dlg.set_name("dialog")
    dlg.set_default_size(360, 240)
    entry = Gtk.Entry()
    entry.set_valign(Gtk.Align.CENTER)
    entry.set_margin_start(40)
    entry.set_margin_end(40)
    entry.connect("activate", on_dialog_entry)
    box = dlg.get_content_area()
    box.pack_start(entry, True, False, 0)
    dlg.connect("focus-in-event",
                lambda *a: (print("dialog focused", flush=True), False)[1])
    dlg.show_all()
    entry.grab_focus()


def on_press(w, e):
    if e.window == win.get_window():
        src = e.get_source_device().get_source().value_nick
        print("pressed %s %d %d" % (src, e.x, e.y), flush=True)
    return False


win.add_events(Gdk.EventMask.BUTTON_PRESS_MASK)
win.connect("button-press-event", on_press)
win.show_all()
loop.run()
sys.exit(0)
