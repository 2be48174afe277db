#!/bin/bash
# SPDX-License-Identifier: MIT
# What foot runs in wayland-apps.sh's foot case (its tty in raw mode): it asks foot for its
# cell size in pixels (CSI 16 t) and writes the answer into DIR/foot-cell, turns on xterm
# mouse reporting (CSI ? 1000 h), says so in DIR/foot-mouse-ready, writes the first 12
# bytes that arrive (a press and a release report, ESC [ M b x y each) into
# DIR/foot-mouse, turns reporting off, then reads one typed line into DIR/typed.
# Usage: wayland-apps-foot.sh DIR
out=$1
stty raw -echo
printf '\033[16t'
IFS= read -r -t 30 -d t cell
echo "${cell#*[}" >"$out/foot-cell"
printf '\033[?1000h'
echo ready >"$out/foot-mouse-ready"
head -c 12 >"$out/foot-mouse"
printf '\033[?1000l'
stty sane
IFS= read -r l
echo "$l" >"$out/typed"
