// SPDX-License-Identifier: MIT
// A Qt 6 QML window with one TextField (Debian's qml-qt6, QtQuick Controls): on Enter its
// onAccepted prints "typed: TEXT" (console.log, on stderr as "qml: typed: TEXT") and quits.
// wayland-apps.sh types into it through uinput.
import QtQuick
import QtQuick.Controls

ApplicationWindow {
	visible: true
	title: "wayland-apps qt6"
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
