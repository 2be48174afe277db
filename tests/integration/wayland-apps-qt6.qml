// SPDX-License-Identifier: MIT
// A Qt 6 QML window (Debian's qml-qt6, QtQuick Controls) for wayland-apps.sh's qt6 case,
// all of it on an opaque #3070b0 background (checked in a capture): a press of the mouse
// in its left half prints "click X Y" (a MouseArea, window coordinates), a touch in its
// right half "touch X Y" (a MultiPointTouchArea that takes no mouse: only wl_touch
// reaches it); a ComboBox near its top-left corner prints "combo opened X Y W H" (its
// popup's place and size in the window) and "combo closed" as its popup opens and closes,
// and "combo activated TEXT" when an item is picked; on Enter its TextField's onAccepted
// prints "typed: TEXT" and quits. QML's console.log goes to stderr as "qml: ...".
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
	ComboBox {
		id: combo
		x: 40
		y: 40
		width: 240
		height: 40
		focusPolicy: Qt.NoFocus
		model: ["one", "two", "three"]
		popup.onOpened: {
			var p = combo.popup.contentItem.mapToItem(null, 0, 0)
			console.log("combo opened " + Math.round(p.x) + " " + Math.round(p.y) + " " +
				Math.round(combo.popup.contentItem.width) + " " +
				Math.round(combo.popup.contentItem.height))
		}
		popup.onClosed: console.log("combo closed")
		onActivated: console.log("combo activated " + currentText)
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
