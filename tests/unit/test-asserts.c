/* SPDX-License-Identifier: MIT */
/*
 * The library's runtime assertions are compiled in: a broken invariant inside the library
 * (here the flip state machine, output_flip_complete() without a flip event) aborts. A
 * build that defines NDEBUG for the library by accident fails this test; one that wants
 * NDEBUG on purpose (-Db_ndebug=true) must say so by expecting this failure.
 */
#include "unit.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output.h"

static void test_enabled(void **state)
{
	struct unit_fixture *f = *state;
	assert_non_null(f->out);
	assert_false(output_flip_pending(f->out));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* stderr stays: the assertion's message names the invariant */
		output_flip_complete(f->out); /* no flip pending: must abort */
		_exit(0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		fail_msg("output_flip_complete() without a flip did not abort (status 0x%x): "
			"the library's assertions are compiled out (NDEBUG)", status);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "asserts@enabled", test_enabled, unit_setup_vkms, unit_teardown, NULL },
	};
	return unit_main("asserts", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
