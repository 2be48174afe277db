/* fill: the whole screen in one colour for five seconds (README's first example). */
#include <dispman/dispman.h>
#include <unistd.h>

int main(void)
{
	struct dispman_device *dev = dispman_device_open(NULL);
	struct dispman_output *out = dispman_device_get_first_connected_output(dev);
	dispman_output_enable(out, NULL);
	struct dispman_buffer *buf = dispman_output_create_buffer(out);
	dispman_buffer_fill(buf, 0x2060a0);
	dispman_output_set_buffer(out, buf);
	int r = dispman_device_commit(dev);
	sleep(5);
	return r < 0; /* exiting closes the device: the kernel takes the picture down */
}
