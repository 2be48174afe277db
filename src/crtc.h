/* SPDX-License-Identifier: MIT */
/* A KMS CRTC: its ids and properties, the output that claims it, what the last accepted
 * commit left on it (crtc.c; created and destroyed by lifecycle.c). */
#ifndef DISPMAN_CRTC_H
#define DISPMAN_CRTC_H

#include <stdbool.h>
#include <stdint.h>

#include "props.h"

struct crtc;
struct dispman_device;
struct dispman_output;

/* CRTC id, of index index in the kernel's list: its properties (it needs ACTIVE and
 * MODE_ID) and whether it is lit now. NULL with errno set when it cannot be used.
 * lifecycle.c only, as crtc_destroy(). */
struct crtc *crtc_create(struct dispman_device *dev, uint32_t id, unsigned index);
/* Frees crtc and the MODE_ID blob it holds (crtc_cur_mode_blob()). */
void crtc_destroy(struct dispman_device *dev, struct crtc *crtc);
/* The device's CRTC of that id, or NULL. */
struct crtc *crtc_find(const struct dispman_device *dev, uint32_t id);

/*
 * The body of struct crtc is crtc.c's: only crtc.c writes its fields. The other modules
 * read a CRTC through the getters below; what they record has one writer each, named at
 * each setter: output.c the output that claims it (crtc_set_user()), commit.c what an
 * accepted commit left on it (crtc_record_on(), crtc_record_off()).
 */
uint32_t crtc_id(const struct crtc *crtc);
/* its index in the kernel's list: bit crtc_index() of a possible_crtcs mask */
unsigned crtc_index(const struct crtc *crtc);
const struct crtc_props *crtc_props(const struct crtc *crtc);
/* The output using it in the pending state, or NULL: set by output.c alone
 * (dispman_output_enable(), dispman_output_disable()). */
struct dispman_output *crtc_user(const struct crtc *crtc);
void crtc_set_user(struct crtc *crtc, struct dispman_output *out);
/* Committed state: lit (ACTIVE), and the MODE_ID blob it shows when the library made it
 * (0: none of ours). */
bool crtc_cur_active(const struct crtc *crtc);
uint32_t crtc_cur_mode_blob(const struct crtc *crtc);
/* An accepted commit lit crtc; blob, when not 0, is its new MODE_ID blob (the one it held
 * before is destroyed). commit.c (apply_success()) only. */
void crtc_record_on(struct dispman_device *dev, struct crtc *crtc, uint32_t blob);
/* An accepted commit left crtc off: its MODE_ID blob, if any, is destroyed. commit.c
 * (apply_success()) only. */
void crtc_record_off(struct dispman_device *dev, struct crtc *crtc);

#endif
