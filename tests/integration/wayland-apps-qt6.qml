// SPDX-License-Identifier: MIT
// A Qt 6 QML window (Debian's qml-qt6, QtQuick Controls) for wayland-apps.sh's qt6 case,
// all of it on an opaque #3070b0 background (checked in a capture): a press of the mouse
// in its left half prints "click X Y" (a MouseArea, window coordinates), a touch in its
// right half "touch X Y" (a MultiPointTouchArea that takes no mouse: only wl_touch
// reaches it); on Enter its TextField's onAccepted prints "typed: TEXT" and quits. QML's
// console.log goes to stderr as "qml: ...".
import QtQuick
import QtQuick.Controls

ApplicationWindow {
	id: win
	visible: true
	title: "wayland-apps qt6"
	background: Rectangle { color: "#3070b0" }
	MouseArea {
		x: 0
		y: 0
		width: win.width / 2
		height: win.height
		onPressed: (mouse) => console.log("click " + Math.round(mouse.x) + " " + Math.round(mouse.y))
	}
	MultiPointTouchArea {
		id: touchArea
		x: win.width / 2
		y: 0
		width: win.width - x
		height: win.height
		mouseEnabled: false
		onPressed: (points) => console.log("touch " + Math.round(touchArea.x + points[0].x) + " " +
			Math.round(points[0].y))
	}
	TextField {
		id: field
		anchors.centerIn: parent
		width: 400
		focus: true
		onAccepted: {
			console.log("typed: " + text)
			Qt.quit()
		}
	}
}
