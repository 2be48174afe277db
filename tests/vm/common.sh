# Shared settings of the test-guest scripts (sourced, not run).
# The pinned guest kernel: Debian 12's linux-image-<kabi>-amd64. vkms is built
# out of tree from the matching linux-source package.
: "${DISPMAN_VM_KABI:=6.1.0-57}"
: "${DISPMAN_VM_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/libdispman/vm}"
# vkms options the design relies on: overlays, cursor and writeback.
DISPMAN_VKMS_ARGS="enable_overlay=1 enable_cursor=1 enable_writeback=1"
DISPMAN_VIVID_ARGS="n_devs=2 node_types=0x1,0x1 multiplanar=1,2 input_types=0x81,0x81"
export DISPMAN_VM_KABI DISPMAN_VM_CACHE
