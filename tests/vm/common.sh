# Shared settings of the test-guest scripts (sourced, not run).
#
# Profiles: a guest kernel plus the DRM drivers and QEMU devices of one test
# guest. Each kernel is one of Debian 12's linux-image-<kabi>-amd64; vkms is
# built out of tree from the matching linux-source package (Debian does not
# ship it). `dispman_vm_profile NAME` sets, for the profile NAME:
#   DISPMAN_VM_KABI     the kernel ABI (the environment may override the two
#                       pinned kernels: DISPMAN_VM_KABI_6_1, DISPMAN_VM_KABI_6_12)
#   VM_DRIVERS          the DRM drivers to load (kernel module names), in this order
#   VM_DUT              the DRM driver name (DRM_IOCTL_VERSION, dispman_vm_drm_name)
#                       whose card is the device under test (DISPMAN_DEVICE in the guest)
#   VM_QEMU_ARGS        extra QEMU arguments (an array)
#   VM_GPU_ID           the QEMU id of the display device QEMU can screendump (virtio-gpu,
#                       bochs-display, cirrus-vga), empty without one (its heads can be
#                       screendumped: tests/vm/screendump)
#   VM_GPU_DRIVER       the module driving that device
#   VM_SMP              the guest's vCPUs (tests/vm/run; DISPMAN_VM_SMP overrides): 1 on
#                       every profile (see below)
# and returns 1 for an unknown profile.
# bochs (bochs-display: one primary plane, no cursor, no vblank interrupt) and cirrus
# (cirrus-vga: one plane, 16/24/32 bpp, 4 MiB) are the simplest hardware there is; their
# guests run a short list of tests (DISPMAN_VM_SHORT_TESTS) for the CI time budget.
DISPMAN_VM_PROFILES="vkms-6.1 vkms-6.12 virtio-gpu multi bochs cirrus"
DISPMAN_VM_DEFAULT_PROFILE=vkms-6.1
: "${DISPMAN_VM_KABI_6_1:=6.1.0-57}"
: "${DISPMAN_VM_KABI_6_12:=6.12.118+deb12}"
: "${DISPMAN_VM_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/libdispman/vm}"
# vkms options the design relies on: overlays, cursor and writeback.
DISPMAN_VKMS_ARGS="enable_overlay=1 enable_cursor=1 enable_writeback=1"
# vivid: two capture nodes, the second multi-planar. Input 0 of each is a webcam
# (input_types: 2 bits an input, 00 webcam): a TV input (01) gives interlaced PAL frames
# that vary from frame to frame (seen: 8 to 31 colours where the webcam gives vivid's 8
# bars every time), which made the camera tests' pattern checks fail at random.
DISPMAN_VIVID_ARGS="n_devs=2 node_types=0x1,0x1 multiplanar=1,2 input_types=0x80,0x80"
export DISPMAN_VM_CACHE
# Kernel command line of every guest, for looking inside one that stalls
# (tests/vm/stall-dump, doc/testing.md "When a guest stalls"): no address-space
# randomization, so the kernel's symbols (tests/vm/guest-main keeps
# /proc/kallsyms) name the vCPUs' instruction pointers from QEMU's registers;
# every SysRq key, sent by the host through QEMU's keyboard; an NMI the kernel
# does not expect (QEMU's inject-nmi, stall-dump's last step) panics with the
# interrupted CPU's registers and stack; a soft lockup prints every CPU's
# backtrace. no_timer_check: at boot the kernel counts the IO-APIC timer's ticks
# during a short delay loop and panics when too few came ("IO-APIC + timer doesn't
# work!"); on a loaded host (a load of 30 on two cores) QEMU's TCG did not deliver
# them within that window, while the timer works afterwards. The check is left
# out, as many virtual machine images do.
DISPMAN_VM_KERNEL_ARGS="nokaslr sysrq_always_enabled unknown_nmi_panic softlockup_all_cpu_backtrace=1 no_timer_check ${DISPMAN_VM_EXTRA_KERNEL_ARGS:-}"
# (DISPMAN_VM_EXTRA_KERNEL_ARGS: more, for a test; tests/vm/boot-retry-test makes the kernel die)

# One vCPU where vkms is loaded: vkms (6.1 and 6.12) can deadlock the guest kernel
# with two. Its vblank hrtimer callback (vkms_vblank_simulate -> drm_handle_vblank)
# takes dev->event_lock and dev->vblank_time_lock; drm_crtc_vblank_off() (a modeset
# that turns the CRTC off) and the vblank-off timer take them with interrupts off and
# then call vkms_disable_vblank() -> hrtimer_cancel(), which waits for a callback
# running on the other CPU, which waits for the lock: both vCPUs spin for ever (the
# "guest stall" of doc/reliability.md, caught twice by tests/vm/stall-dump). With one
# CPU the callback cannot run while the canceller holds the lock, so it cannot happen.
# Measured on vkms-6.1's whole suite: doc/reliability.md.
# One vCPU on the other profiles too (virtio-gpu, bochs, cirrus): CI runs two guests at
# once on two host cores, and there a second vCPU thread buys no parallelism and slows
# both guests (TCG's cross-vCPU work). Measured on 2026-12-07, a virtio-gpu selection of 8
# tests beside a vkms-6.1 guest: 322 s with two vCPUs, 252 s with one, and the guest
# beside it faster too (doc/reliability.md). DISPMAN_VM_SMP=2 still boots two.
dispman_vm_profile() {
	local kabi
	VM_QEMU_ARGS=()
	VM_SMP=1
	VM_GPU_ID= VM_GPU_DRIVER=
	case "$1" in
	vkms-6.1)
		kabi=$DISPMAN_VM_KABI_6_1 VM_DRIVERS="vkms" VM_DUT=vkms ;;
	vkms-6.12)
		kabi=$DISPMAN_VM_KABI_6_12 VM_DRIVERS="vkms" VM_DUT=vkms ;;
	virtio-gpu)
		kabi=$DISPMAN_VM_KABI_6_12 VM_DRIVERS="virtio_gpu" VM_DUT=virtio_gpu VM_GPU_ID=gpu0 ;;
	multi)
		# virtio_gpu first: it becomes card0 and vkms, the device under
		# test, card1, so a test that ignores DISPMAN_DEVICE shows it.
		kabi=$DISPMAN_VM_KABI_6_12 VM_DRIVERS="virtio_gpu vkms" VM_DUT=vkms VM_GPU_ID=gpu0 ;;
	bochs)
		kabi=$DISPMAN_VM_KABI_6_12 VM_DRIVERS="bochs" VM_DUT=bochs-drm VM_GPU_ID=gpu0
		VM_GPU_DRIVER=bochs VM_QEMU_ARGS=(-vga none -device "bochs-display,id=$VM_GPU_ID") ;;
	cirrus)
		kabi=$DISPMAN_VM_KABI_6_1 VM_DRIVERS="cirrus" VM_DUT=cirrus VM_GPU_ID=gpu0
		VM_GPU_DRIVER=cirrus VM_QEMU_ARGS=(-vga none -device "cirrus-vga,id=$VM_GPU_ID") ;;
	*) return 1 ;;
	esac
	if [ -n "$VM_GPU_ID" ] && [ -z "$VM_GPU_DRIVER" ]; then
		VM_GPU_DRIVER=virtio_gpu
		VM_QEMU_ARGS+=(-vga none -device "virtio-gpu-pci,max_outputs=2,id=$VM_GPU_ID")
	fi
	VM_SMP=${DISPMAN_VM_SMP:-$VM_SMP}
	DISPMAN_VM_KABI=$kabi
	return 0
}

# The DRM driver name (DRM_IOCTL_VERSION) of a kernel module: they differ for bochs.
dispman_vm_drm_name() {
	case "$1" in
	bochs) echo bochs-drm ;;
	*) echo "$1" ;;
	esac
}

# The tests a short profile runs (bochs, cirrus, multi: tests/vm/short-tests, for the CI time
# budget); nothing for the others (every test).
dispman_vm_short_tests() {
	case "$1" in
	bochs|cirrus|multi)
		awk -v p="$1" '$1 !~ /^#/ && NF && (NF == 1 || index("," $2 ",", "," p ",")) { print $1 }' \
			"$(dirname "${BASH_SOURCE[0]:-$0}")/short-tests" ;;
	esac
}
