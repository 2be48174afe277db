/* SPDX-License-Identifier: MIT */
/*
 * A uinput keyboard for the guest tests with real Wayland clients (wayland-apps.sh): it
 * creates the device, prints its node (/dev/input/eventN) on stdout for the compositor's
 * --input, then reads commands from stdin, one a line, until EOF (then it removes the
 * device):
 *
 *   type TEXT        type TEXT on a US layout (letters, digits, space, a few symbols)
 *   key NAME         press and release one key: enter, tab, escape, backspace, space
 *   combo MOD+..+K   hold the modifiers (ctrl, shift, alt), press K, release all (K also
 *                    f1 to f12)
 *   sleep MS         wait
 *   sync             print "ok" on stdout once everything before is written
 *
 * Each key goes down and up in one evdev frame after the other, 30 ms apart, so that no
 * client-side key repeat (600 ms delay here) can start however slow the guest is.
 */
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "check.h"
#include "uinput-dev.h"

static struct uinput_dev kb = { .fd = -1 };

static void frame(void)
{
	uinput_emit(kb.fd, EV_SYN, SYN_REPORT, 0);
}

static void press(int code, int value)
{
	uinput_emit(kb.fd, EV_KEY, (unsigned)code, value);
	frame();
}

/* KEY_* for a character on a US layout; *shift when it needs Shift; -1 if unknown. */
static int char_key(char c, bool *shift)
{
	static const char *row_letters = "qwertyuiopasdfghjklzxcvbnm";
	static const int letter_keys[] = { KEY_Q, KEY_W, KEY_E, KEY_R, KEY_T, KEY_Y, KEY_U,
		KEY_I, KEY_O, KEY_P, KEY_A, KEY_S, KEY_D, KEY_F, KEY_G, KEY_H, KEY_J, KEY_K, KEY_L,
		KEY_Z, KEY_X, KEY_C, KEY_V, KEY_B, KEY_N, KEY_M };
	static const struct { char c; int key; bool shift; } sym[] = {
		{ ' ', KEY_SPACE, false }, { '-', KEY_MINUS, false }, { '_', KEY_MINUS, true },
		{ '.', KEY_DOT, false }, { ',', KEY_COMMA, false }, { '/', KEY_SLASH, false },
		{ '=', KEY_EQUAL, false }, { '+', KEY_EQUAL, true }, { ':', KEY_SEMICOLON, true },
		{ '!', KEY_1, true }, { '@', KEY_2, true }, { '#', KEY_3, true },
	};
	*shift = false;
	if (c >= 'A' && c <= 'Z') {
		*shift = true;
		c = (char)(c - 'A' + 'a');
	}
	const char *p = c ? strchr(row_letters, c) : NULL;
	if (p)
		return letter_keys[p - row_letters];
	if (c >= '1' && c <= '9')
		return KEY_1 + (c - '1');
	if (c == '0')
		return KEY_0;
	for (size_t i = 0; i < sizeof(sym) / sizeof(sym[0]); i++)
		if (sym[i].c == c) {
			*shift = sym[i].shift;
			return sym[i].key;
		}
	return -1;
}

static int named_key(const char *n)
{
	static const struct { const char *name; int key; } keys[] = {
		{ "enter", KEY_ENTER }, { "tab", KEY_TAB }, { "escape", KEY_ESC },
		{ "backspace", KEY_BACKSPACE }, { "space", KEY_SPACE }, { "ctrl", KEY_LEFTCTRL },
		{ "shift", KEY_LEFTSHIFT }, { "alt", KEY_LEFTALT },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].name, n) == 0)
			return keys[i].key;
	int f = n[0] == 'f' && n[1] ? atoi(n + 1) : 0;
	if (f >= 1 && f <= 10)
		return KEY_F1 + f - 1;
	if (f == 11 || f == 12)
		return f == 11 ? KEY_F11 : KEY_F12;
	bool shift;
	if (strlen(n) == 1)
		return char_key(n[0], &shift);
	return -1;
}

static void tap(int key)
{
	press(key, 1);
	usleep(30000);
	press(key, 0);
	usleep(30000);
}

static void type_text(const char *s)
{
	for (; *s; s++) {
		bool shift;
		int key = char_key(*s, &shift);
		if (key < 0)
			FAIL("uinput-keys: cannot type '%c'", *s);
		if (shift) {
			press(KEY_LEFTSHIFT, 1);
			usleep(30000);
		}
		tap(key);
		if (shift) {
			press(KEY_LEFTSHIFT, 0);
			usleep(30000);
		}
	}
}

static void combo(char *spec)
{
	int held[8], n = 0;
	for (char *tok = strtok(spec, "+"); tok; tok = strtok(NULL, "+")) {
		int key = named_key(tok);
		if (key < 0 || n == 8)
			FAIL("uinput-keys: unknown key '%s'", tok);
		held[n++] = key;
	}
	if (n == 0)
		FAIL("uinput-keys: empty combo");
	for (int i = 0; i < n - 1; i++) {
		press(held[i], 1);
		usleep(30000);
	}
	tap(held[n - 1]);
	for (int i = n - 2; i >= 0; i--) {
		press(held[i], 0);
		usleep(30000);
	}
}

int main(void)
{
	kb.fd = uinput_open();
	if (ioctl(kb.fd, UI_SET_EVBIT, EV_KEY) < 0)
		FAIL("UI_SET_EVBIT");
	for (int k = 1; k < 128; k++)
		if (ioctl(kb.fd, UI_SET_KEYBIT, k) < 0)
			FAIL("UI_SET_KEYBIT %d", k);
	uinput_create(&kb, "uinput-keys keyboard", "E:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n");
	printf("%s\n", kb.devnode);
	fflush(stdout);

	char line[1024];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		char *arg = strchr(line, ' ');
		if (arg)
			*arg++ = 0;
		if (strcmp(line, "type") == 0 && arg)
			type_text(arg);
		else if (strcmp(line, "key") == 0 && arg) {
			int key = named_key(arg);
			if (key < 0)
				FAIL("uinput-keys: unknown key '%s'", arg);
			tap(key);
		} else if (strcmp(line, "combo") == 0 && arg)
			combo(arg);
		else if (strcmp(line, "sleep") == 0 && arg)
			usleep((useconds_t)atoi(arg) * 1000);
		else if (strcmp(line, "sync") == 0) {
			printf("ok\n");
			fflush(stdout);
		} else if (line[0])
			FAIL("uinput-keys: unknown command '%s'", line);
	}
	uinput_destroy(&kb);
	return 0;
}
