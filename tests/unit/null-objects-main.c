/* SPDX-License-Identifier: MIT */
/*
 * Every public function that takes an object, called with NULL objects (issue 32, item 4),
 * the cases generated from the headers by gen-null-test.py. Each case runs in a child
 * process of its own, so a crash is that case's failure; the results are TAP. With an
 * argument, runs only the case of the function of that name.
 */
#include "config.h"
#include "null-objects.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dispman/dispman.h>

_Alignas(max_align_t) unsigned char null_scratch[4096];

static int n_logged;
static char first_message[512];

static void record(enum dispman_log_level level, const char *fmt, va_list args, void *data)
{
	(void)data;
	if (level > DISPMAN_LOG_ERROR)
		return;
	if (n_logged++ == 0)
		vsnprintf(first_message, sizeof(first_message), fmt, args);
}

/* Whether the message names one of the case's words (space-separated in list). */
static bool names_one_of(const char *msg, const char *list)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (strstr(msg, w))
			return true;
	return false;
}

/*
 * A part this build left out (camera.h without V4L2, input.h without libinput): its
 * functions are stubs that fail with ENOTSUP whatever they are given (src/camera-stub.c,
 * src/input-stub.c). They must not crash nor succeed; they need not name the argument.
 */
static bool stubbed(const struct null_case *c)
{
	return (!HAVE_V4L2 && strcmp(c->header, "camera.h") == 0) ||
		(!HAVE_LIBINPUT && strcmp(c->header, "input.h") == 0);
}

static int run_stubbed(const struct null_case *c, int ret)
{
	bool failed = c->expect == NULL_EINVAL ? ret < 0 :
		c->expect == NULL_RETURNS_NULL ? ret == 0 : true;
	if (!failed)
		printf("# %s(NULL) of a stub did not fail (%d)\n", c->function, ret);
	return failed ? 0 : 1;
}

/* The child: one call and its checks; the exit status is the verdict. */
static int run_case(const struct null_case *c)
{
	dispman_log_set_handler(record, NULL);
	dispman_log_set_level(DISPMAN_LOG_ERROR);
	memset(null_scratch, 0, sizeof(null_scratch));
	errno = 0;
	int ret = c->call();
	int err = errno;
	int fails = 0;
	if (stubbed(c))
		return run_stubbed(c, ret);
	switch (c->expect) {
	case NULL_SILENT:
		if (n_logged) {
			printf("# %s(NULL) logged \"%s\": NULL is a no-op for it\n", c->function,
				first_message);
			fails++;
		}
		return fails;
	case NULL_EINVAL:
		if (ret != -EINVAL) {
			printf("# %s(NULL) returned %d, not -EINVAL\n", c->function, ret);
			fails++;
		}
		break;
	case NULL_RETURNS_NULL:
		if (ret != 0) {
			printf("# %s(NULL) returned an object\n", c->function);
			fails++;
		} else if (err != EINVAL) {
			printf("# %s(NULL) returned NULL with errno %d (%s), not EINVAL\n", c->function,
				err, strerror(err));
			fails++;
		}
		break;
	case NULL_LOGS:
		if (err != EINVAL) {
			printf("# %s(NULL) left errno %d (%s), not EINVAL\n", c->function, err,
				strerror(err));
			fails++;
		}
		break;
	}
	if (n_logged != 1) {
		printf("# %s(NULL) logged %d error lines, not one\n", c->function, n_logged);
		fails++;
	} else if (!strstr(first_message, c->function) ||
		   !(names_one_of(first_message, c->args) ||
		     names_one_of(first_message, c->objects))) {
		printf("# %s(NULL) logged \"%s\", which does not name the function and the "
			"argument (%s)\n", c->function, first_message, c->args);
		fails++;
	}
	return fails;
}

int main(int argc, char **argv)
{
	size_t n = 0;
	for (size_t i = 0; i < null_n_cases; i++)
		n += argc < 2 || strcmp(argv[1], null_cases[i].function) == 0;
	if (n == 0) {
		fprintf(stderr, "null-objects: no case %s\n", argc > 1 ? argv[1] : "");
		return 1;
	}
	printf("1..%zu\n", n);
	fflush(stdout);
	int failed = 0;
	size_t k = 0;
	for (size_t i = 0; i < null_n_cases; i++) {
		const struct null_case *c = &null_cases[i];
		if (argc >= 2 && strcmp(argv[1], c->function) != 0)
			continue;
		k++;
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			int f = run_case(c);
			fflush(stdout);
			_exit(f ? 1 : 0);
		}
		int status;
		if (waitpid(pid, &status, 0) < 0) {
			perror("waitpid");
			return 1;
		}
		bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (WIFSIGNALED(status))
			printf("# %s(NULL) crashed: signal %d (%s)\n", c->function,
				WTERMSIG(status), strsignal(WTERMSIG(status)));
		else if (WIFEXITED(status) && WEXITSTATUS(status) > 1)
			printf("# %s(NULL) exited with %d (a sanitizer report above?)\n",
				c->function, WEXITSTATUS(status));
		printf("%s %zu - %s(%s NULL)\n", ok ? "ok" : "not ok", k, c->function, c->args);
		fflush(stdout);
		failed += !ok;
	}
	return failed ? 1 : 0;
}
