/* SPDX-License-Identifier: MIT */
/* The pipeline snapshot as text, JSON or a Graphviz digraph (dispman_pipeline_write()). */
#include "pipeline-private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

static const char *type_name(enum dispman_pipeline_node_type t)
{
	static const char *const names[] = { "", "media-entity", "video-node", "camera",
		"buffer", "layer", "composition", "plane", "crtc", "encoder", "connector",
		"writeback" };
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "unknown";
}

static const char *link_name(enum dispman_pipeline_link_type t)
{
	static const char *const names[] = { "", "media", "interface", "stream", "export",
		"import", "copy", "show", "plane", "composed", "crtc", "encoder", "connector" };
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "unknown";
}

/* A switch without default: with -Wswitch (in -Wall), a reason added to
 * dispman.h without a token here does not compile. */
static const char *reason_name(enum dispman_placement_reason r)
{
	switch (r) {
	case DISPMAN_REASON_NONE: return "none";
	case DISPMAN_REASON_FORMAT: return "format";
	case DISPMAN_REASON_MODIFIER: return "modifier";
	case DISPMAN_REASON_SCALING: return "scaling";
	case DISPMAN_REASON_NO_PLANE: return "no-plane";
	case DISPMAN_REASON_KERNEL_REJECTED: return "kernel-rejected";
	case DISPMAN_REASON_INVISIBLE: return "invisible";
	case DISPMAN_REASON_ALPHA: return "alpha";
	case DISPMAN_REASON_STACKING: return "stacking";
	case DISPMAN_REASON_BUDGET: return "budget";
	case DISPMAN_REASON_SOURCE: return "source";
	case DISPMAN_REASON_DESTINATION: return "destination";
	case DISPMAN_REASON_IMPORT: return "import";
	case DISPMAN_REASON_ROTATION: return "rotation";
	}
	return "unknown";
}

static const char *placement_name(enum dispman_placement_state s)
{
	static const char *const names[] = { "not-shown", "on-plane", "composited" };
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

static void fourcc(uint32_t f, char out[8])
{
	if (!f) {
		strcpy(out, "");
		return;
	}
	for (int i = 0; i < 4; i++) {
		char c = (char)((f >> (8 * i)) & 0xff);
		out[i] = c >= 32 && c < 127 ? c : '?';
	}
	out[4] = 0;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c < 0x20)
			fprintf(f, "\\u%04x", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

static bool is_layer_like(const struct dispman_pipeline_node *n)
{
	return n->type == DISPMAN_PIPELINE_LAYER || n->type == DISPMAN_PIPELINE_COMPOSITION;
}

static void write_json(const struct dispman_pipeline *p, FILE *f)
{
	fputs("{\n  \"device\": ", f);
	json_str(f, p->device);
	fputs(",\n  \"driver\": ", f);
	json_str(f, p->driver);
	fputs(",\n  \"nodes\": [", f);
	for (size_t i = 0; i < p->n_nodes; i++) {
		const struct dispman_pipeline_node *n = p->nodes[i];
		char fmt[8];
		fourcc(n->format, fmt);
		fprintf(f, "%s\n    {\"index\": %zu, \"type\": \"%s\", \"id\": %u, \"name\": ",
			i ? "," : "", i, type_name(n->type), n->id);
		json_str(f, n->name);
		fputs(", \"kind\": ", f);
		json_str(f, n->kind);
		fputs(", \"device\": ", f);
		json_str(f, n->device);
		fprintf(f, ", \"active\": %s, \"fb_id\": %u, \"format\": \"%s\", \"width\": %u, "
			"\"height\": %u", n->active ? "true" : "false", n->fb_id, fmt, n->width,
			n->height);
		if (is_layer_like(n))
			fprintf(f, ", \"placement\": {\"state\": \"%s\", \"plane_id\": %u, "
				"\"reason\": \"%s\"}, \"connector_id\": %u, \"z\": %d, \"x\": %d, "
				"\"y\": %d", placement_name(n->placement.state),
				n->placement.plane_id, reason_name(n->placement.reason),
				n->connector_id, n->z, n->x, n->y);
		if (n->type == DISPMAN_PIPELINE_CAMERA)
			fprintf(f, ", \"memory\": \"%s\", \"zero_copy\": %s", n->kind,
				n->zero_copy ? "true" : "false");
		if (n->type == DISPMAN_PIPELINE_VIDEO_NODE)
			fprintf(f, ", \"major\": %u, \"minor\": %u", n->major, n->minor);
		if (n->camera)
			fprintf(f, ", \"camera\": %u", n->camera);
		if (n->type == DISPMAN_PIPELINE_MEDIA_ENTITY) {
			fputs(", \"pads\": [", f);
			for (size_t k = 0; k < n->n_pads; k++)
				fprintf(f, "%s{\"id\": %u, \"index\": %u, \"source\": %s}",
					k ? ", " : "", n->pads[k]->id, n->pads[k]->index,
					n->pads[k]->source ? "true" : "false");
			fputs("]", f);
		}
		fputs("}", f);
	}
	fputs("\n  ],\n  \"links\": [", f);
	for (size_t i = 0; i < p->n_links; i++) {
		const struct dispman_pipeline_link *l = p->links[i];
		fprintf(f, "%s\n    {\"type\": \"%s\", \"source\": %zu, \"sink\": %zu, "
			"\"active\": %s", i ? "," : "", link_name(l->type), l->source, l->sink,
			l->active ? "true" : "false");
		if (l->type == DISPMAN_PIPELINE_LINK_MEDIA)
			fprintf(f, ", \"source_pad\": %u, \"sink_pad\": %u", l->source_pad,
				l->sink_pad);
		if (l->flags)
			fprintf(f, ", \"flags\": %u", l->flags);
		fputs("}", f);
	}
	fputs("\n  ]\n}\n", f);
}

/* "layer 2 (on-plane 33)", etc.: one line of a node. */
static void node_line(const struct dispman_pipeline_node *n, FILE *f)
{
	char fmt[8];
	fourcc(n->format, fmt);
	/* the name, less what "type id" already says: "layer 1 (foot)" prints
	 * as "layer 1 (foot)", not "layer 1: layer 1 (foot)" */
	char gen[48];
	int glen = snprintf(gen, sizeof(gen), "%s %u", type_name(n->type), n->id);
	fprintf(f, "%s", gen);
	if (n->name && strcmp(n->name, gen) != 0) {
		if (glen > 0 && strncmp(n->name, gen, (size_t)glen) == 0 && n->name[glen] == ' ')
			fprintf(f, "%s", n->name + glen);
		else
			fprintf(f, ": %s", n->name);
	}
	if (n->kind)
		fprintf(f, " [%s]", n->kind);
	if (n->device)
		fprintf(f, " on %s", n->device);
	if (n->fb_id)
		fprintf(f, ", fb %u", n->fb_id);
	if (n->format || n->width)
		fprintf(f, ", %s %ux%u", fmt, n->width, n->height);
	if (is_layer_like(n)) {
		fprintf(f, ", %s", placement_name(n->placement.state));
		if (n->placement.state == DISPMAN_PLACEMENT_ON_PLANE)
			fprintf(f, " %u", n->placement.plane_id);
		if (n->placement.reason)
			fprintf(f, " (why: %s)", reason_name(n->placement.reason));
		if (n->type == DISPMAN_PIPELINE_LAYER)
			fprintf(f, ", z %d at %d,%d", n->z, n->x, n->y);
	}
	if (n->type == DISPMAN_PIPELINE_VIDEO_NODE)
		fprintf(f, ", char %u:%u", n->major, n->minor);
	if (n->type == DISPMAN_PIPELINE_CAMERA)
		fprintf(f, ", %s", n->zero_copy ? "zero-copy" : "CPU copy");
	for (size_t k = 0; k < n->n_pads; k++)
		fprintf(f, "%s pad%u %s", k ? "," : ",", n->pads[k]->index,
			n->pads[k]->source ? "source" : "sink");
	fputs(n->active ? ", active\n" : "\n", f);
}

static void write_text(const struct dispman_pipeline *p, FILE *f)
{
	fprintf(f, "pipeline of %s (%s): %zu nodes, %zu links\n", p->device, p->driver,
		p->n_nodes, p->n_links);
	for (size_t i = 0; i < p->n_nodes; i++) {
		fputs("  ", f);
		node_line(p->nodes[i], f);
		for (size_t l = 0; l < p->n_links; l++) {
			const struct dispman_pipeline_link *lk = p->links[l];
			if (lk->source != i || (!lk->active && lk->type == DISPMAN_PIPELINE_LINK_CRTC))
				continue;
			const struct dispman_pipeline_node *s = p->nodes[lk->sink];
			fprintf(f, "    -> %s %s %u%s\n", link_name(lk->type), type_name(s->type),
				s->id, lk->active ? "" : ", possible");
		}
	}
}

/* A DOT identifier for node i: its type and id. */
static void dot_id(const struct dispman_pipeline *p, size_t i, FILE *f)
{
	const char *t = type_name(p->nodes[i]->type);
	for (; *t; t++)
		fputc(*t == '-' ? '_' : *t, f);
	fprintf(f, "_%u", p->nodes[i]->id);
}

/* Text safe inside a DOT record label: record syntax characters escaped. */
static void dot_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("{}|<>\"\\", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static const char *dot_colour(enum dispman_pipeline_node_type t)
{
	switch (t) {
	case DISPMAN_PIPELINE_MEDIA_ENTITY: return "yellow";
	case DISPMAN_PIPELINE_VIDEO_NODE: return "gold";
	case DISPMAN_PIPELINE_CAMERA: return "orange";
	case DISPMAN_PIPELINE_BUFFER: return "wheat";
	case DISPMAN_PIPELINE_LAYER: return "lightpink";
	case DISPMAN_PIPELINE_COMPOSITION: return "plum";
	case DISPMAN_PIPELINE_PLANE: return "lightgreen";
	case DISPMAN_PIPELINE_CRTC: return "lightblue";
	case DISPMAN_PIPELINE_ENCODER: return "lightgrey";
	case DISPMAN_PIPELINE_WRITEBACK: return "khaki";
	default: return "lightyellow";
	}
}

static void dot_node(const struct dispman_pipeline *p, size_t i, FILE *f)
{
	const struct dispman_pipeline_node *n = p->nodes[i];
	char fmt[8];
	fourcc(n->format, fmt);
	fputc('\t', f);
	dot_id(p, i, f);
	fputs(" [label=\"{", f);
	if (n->type == DISPMAN_PIPELINE_MEDIA_ENTITY && n->n_pads) {
		fputc('{', f);
		for (size_t k = 0, first = 1; k < n->n_pads; k++)
			if (!n->pads[k]->source) {
				fprintf(f, "%s<in%u> %u", first ? "" : "|", n->pads[k]->index,
					n->pads[k]->index);
				first = 0;
			}
		fputs("}|", f);
	}
	dot_text(f, n->name);
	if (n->kind) {
		fputc('|', f);
		dot_text(f, n->kind);
	}
	if (n->fb_id || n->format) {
		fputc('|', f);
		if (n->fb_id)
			fprintf(f, "fb %u ", n->fb_id);
		if (n->format)
			fprintf(f, "%s %ux%u", fmt, n->width, n->height);
	}
	if (is_layer_like(n) && n->placement.reason) {
		fputs("|why: ", f);
		fputs(reason_name(n->placement.reason), f);
	}
	if (n->type == DISPMAN_PIPELINE_MEDIA_ENTITY && n->n_pads) {
		fputs("|{", f);
		for (size_t k = 0, first = 1; k < n->n_pads; k++)
			if (n->pads[k]->source) {
				fprintf(f, "%s<out%u> %u", first ? "" : "|", n->pads[k]->index,
					n->pads[k]->index);
				first = 0;
			}
		fputs("}", f);
	}
	fprintf(f, "}\", style=\"filled%s\", fillcolor=%s]\n", n->active ? ",bold" : "",
		n->active ? dot_colour(n->type) : "white");
}

static void write_dot(const struct dispman_pipeline *p, FILE *f)
{
	fputs("digraph pipeline {\n\trankdir=LR\n\tnode [shape=record]\n\tlabel=\"", f);
	dot_text(f, p->device);
	fputs(" (", f);
	dot_text(f, p->driver);
	fputs(")\"\n", f);
	for (size_t i = 0; i < p->n_nodes; i++)
		dot_node(p, i, f);
	for (size_t i = 0; i < p->n_links; i++) {
		const struct dispman_pipeline_link *l = p->links[i];
		fputc('\t', f);
		dot_id(p, l->source, f);
		if (l->type == DISPMAN_PIPELINE_LINK_MEDIA)
			fprintf(f, ":out%u", l->source_pad);
		fputs(" -> ", f);
		dot_id(p, l->sink, f);
		if (l->type == DISPMAN_PIPELINE_LINK_MEDIA)
			fprintf(f, ":in%u", l->sink_pad);
		fprintf(f, " [style=%s", l->active ? "bold" : "dashed");
		switch (l->type) {
		case DISPMAN_PIPELINE_LINK_EXPORT:
		case DISPMAN_PIPELINE_LINK_IMPORT:
		case DISPMAN_PIPELINE_LINK_COPY:
		case DISPMAN_PIPELINE_LINK_COMPOSED:
			fprintf(f, ", label=\"%s\"", l->type == DISPMAN_PIPELINE_LINK_EXPORT ?
				"dma-buf export" : l->type == DISPMAN_PIPELINE_LINK_IMPORT ?
				"dma-buf import" : l->type == DISPMAN_PIPELINE_LINK_COPY ?
				"CPU copy" : "composed");
			break;
		default:
			break;
		}
		fputs("]\n", f);
	}
	fputs("}\n", f);
}

int dispman_pipeline_write(const struct dispman_pipeline *pipeline,
	enum dispman_describe_format format, FILE *out)
{
	if (refuse_null(pipeline, "pipeline") || refuse_null(out, "out"))
		return -EINVAL;
	switch (format) {
	case DISPMAN_DESCRIBE_TEXT:
		write_text(pipeline, out);
		break;
	case DISPMAN_DESCRIBE_JSON:
		write_json(pipeline, out);
		break;
	case DISPMAN_DESCRIBE_DOT:
		write_dot(pipeline, out);
		break;
	default:
		dispman_log(DISPMAN_LOG_ERROR, "%s: unknown format %d", __func__, (int)format);
		return -EINVAL;
	}
	if (fflush(out) != 0 || ferror(out)) {
		int err = errno ? errno : EIO;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "pipeline: write failed");
		return -err;
	}
	return 0;
}
