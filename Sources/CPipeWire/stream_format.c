/* A stream's formats: those offered (EnumFormat pods, exact then ranges), the one agreed read back
 * and the buffers asked for it. */
#include "internal.h"

static const struct { uint32_t bit; uint32_t spa; const char *name; } fmt_table[] = {
	{ PWSHIM_FMT_YUY2, SPA_VIDEO_FORMAT_YUY2, "YUY2" },
	{ PWSHIM_FMT_NV12, SPA_VIDEO_FORMAT_NV12, "NV12" },
	{ PWSHIM_FMT_I420, SPA_VIDEO_FORMAT_I420, "I420" },
	/* BGRx first: it is shown as it comes; RGBx is turned round as it is copied. */
	{ PWSHIM_FMT_BGRX, SPA_VIDEO_FORMAT_BGRx, "BGRx" },
	{ PWSHIM_FMT_RGBX, SPA_VIDEO_FORMAT_RGBx, "RGBx" },
	{ PWSHIM_FMT_RGB,  SPA_VIDEO_FORMAT_RGB,  "RGB" },
};

static void send_buffer_params(pwshim_stream *s)
{
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[2];
	int types = (1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd);
	if (s->allow_dmabuf)
		types |= (1 << SPA_DATA_DmaBuf);

	/* A whole frame per buffer: raw frames their exact size, a JPEG at most a byte a pixel (a
	 * producer that sizes buffers by the first JPEG overflows them with a larger one later). */
	/* In 64 bits: the size agreed comes from the daemon. At most 256 MiB a buffer (a 8192x8192
	 * frame of 4 bytes a pixel), which the copies pipcam makes of one are sized by. */
	int64_t want = s->fmt.format == PWSHIM_FMT_MJPG
		? SPA_MAX((int64_t)s->fmt.width * s->fmt.height, 65536) : (int64_t)s->fmt.stride * s->fmt.height;
	int32_t size = (int32_t)SPA_CLAMP(want, 1, MAXBUFBYTES);

	params[0] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
		SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(s->buffers_pref, 2, MAXBUF),
		SPA_PARAM_BUFFERS_size, SPA_POD_CHOICE_RANGE_Int(size, size, MAXBUFBYTES),
		SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(types));
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	pwshim_api.stream_update_params(s->stream, params, 2);
}

void pwshim__stream_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	pwshim_stream *s = data;
	uint32_t mtype, msub;
	unsigned i;

	if (id != SPA_PARAM_Format)
		return;
	if (param == NULL) {	/* format cleared */
		s->fmt.negotiated = 0;
		pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_FORMAT, pwshim_api.stream_get_node_id(s->stream), 0, 0, s, "cleared");
		return;
	}
	if (spa_format_parse(param, &mtype, &msub) < 0 || mtype != SPA_MEDIA_TYPE_video)
		return;
	memset(&s->fmt, 0, sizeof(s->fmt));
	if (msub == SPA_MEDIA_SUBTYPE_raw) {
		struct spa_video_info_raw raw;
		memset(&raw, 0, sizeof(raw));
		if (spa_format_video_raw_parse(param, &raw) < 0)
			return;
		for (i = 0; i < SPA_N_ELEMENTS(fmt_table); i++)
			if (fmt_table[i].spa == raw.format) {
				s->fmt.format = fmt_table[i].bit;
				copystr(s->fmt.format_name, sizeof(s->fmt.format_name), fmt_table[i].name);
			}
		s->fmt.width = raw.size.width;
		s->fmt.height = raw.size.height;
		s->fmt.fps_num = raw.framerate.num;
		s->fmt.fps_denom = raw.framerate.denom;
		switch (raw.format) {
		case SPA_VIDEO_FORMAT_YUY2: s->fmt.stride = raw.size.width * 2; break;
		case SPA_VIDEO_FORMAT_NV12:
		case SPA_VIDEO_FORMAT_I420: s->fmt.stride = raw.size.width; break;
		case SPA_VIDEO_FORMAT_RGB: s->fmt.stride = raw.size.width * 3; break;
		default: s->fmt.stride = raw.size.width * 4; break;
		}
	} else if (msub == SPA_MEDIA_SUBTYPE_mjpg) {
		struct spa_video_info_mjpg mj;
		memset(&mj, 0, sizeof(mj));
		if (spa_format_video_mjpg_parse(param, &mj) < 0)
			return;
		s->fmt.format = PWSHIM_FMT_MJPG;
		copystr(s->fmt.format_name, sizeof(s->fmt.format_name), "MJPG");
		s->fmt.width = mj.size.width;
		s->fmt.height = mj.size.height;
		s->fmt.fps_num = mj.framerate.num;
		s->fmt.fps_denom = mj.framerate.denom;
	} else {
		return;
	}
	s->fmt.negotiated = 1;
	s->fmt.n_buffers = s->n_bufs;
	send_buffer_params(s);
	pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_FORMAT, pwshim_api.stream_get_node_id(s->stream), 0, 1, s,
			s->fmt.format_name);
}

static void add_framerate(struct spa_pod_builder *b, int mode, struct spa_fraction *fd,
		struct spa_fraction *fmin, struct spa_fraction *fmax)
{
	if (mode == PWSHIM_FPS_OMIT)
		return;
	if (mode == PWSHIM_FPS_FIXED)
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(fd), 0);
	else
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate,
				SPA_POD_CHOICE_RANGE_Fraction(fd, fmin, fmax), 0);
}

static struct spa_pod *build_raw(struct spa_pod_builder *b, uint32_t mask,
		const pwshim_stream_params *p, struct spa_rectangle *def, struct spa_rectangle *mn,
		struct spa_rectangle *mx, struct spa_fraction *fd, struct spa_fraction *fmin,
		struct spa_fraction *fmax)
{
	struct spa_pod_frame f, fc;
	unsigned i;
	int first = 1;
	spa_pod_builder_push_object(b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), 0);
	spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_format, 0);
	spa_pod_builder_push_choice(b, &fc, SPA_CHOICE_Enum, 0);
	for (i = 0; i < SPA_N_ELEMENTS(fmt_table); i++) {
		if (!(mask & fmt_table[i].bit))
			continue;
		if (first) {	/* first value of an Enum choice is the default */
			spa_pod_builder_id(b, fmt_table[i].spa);
			first = 0;
		}
		spa_pod_builder_id(b, fmt_table[i].spa);
	}
	spa_pod_builder_pop(b, &fc);
	spa_pod_builder_add(b,
		SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(def, mn, mx), 0);
	add_framerate(b, p->fps_mode, fd, fmin, fmax);
	return spa_pod_builder_pop(b, &f);
}

static struct spa_pod *build_mjpg(struct spa_pod_builder *b, int fps_mode,
		struct spa_rectangle *def, struct spa_rectangle *mn, struct spa_rectangle *mx,
		struct spa_fraction *fd, struct spa_fraction *fmin, struct spa_fraction *fmax)
{
	struct spa_pod_frame f;
	spa_pod_builder_push_object(b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_mjpg),
		SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(def, mn, mx), 0);
	add_framerate(b, fps_mode, fd, fmin, fmax);
	return spa_pod_builder_pop(b, &f);
}

uint32_t pwshim__stream_enum_formats(struct spa_pod_builder *b, const pwshim_stream_params *p,
		const struct spa_pod **params)
{
	uint32_t n_params = 0, mask;
	int pass;
	struct spa_rectangle def, mn, mx;
	struct spa_fraction fd, fmin, fmax;

	def = SPA_RECTANGLE(p->width > 0 ? p->width : 640, p->height > 0 ? p->height : 480);
	mn = SPA_RECTANGLE(p->min_width > 0 ? p->min_width : 1, p->min_height > 0 ? p->min_height : 1);
	mx = SPA_RECTANGLE(p->max_width > 0 ? p->max_width : 8192, p->max_height > 0 ? p->max_height : 8192);
	fd = SPA_FRACTION(p->fps > 0 ? p->fps : 30, 1);
	fmin = SPA_FRACTION(p->min_fps > 0 ? p->min_fps : 0, 1);
	fmax = SPA_FRACTION(p->max_fps > 0 ? p->max_fps : 1000, 1);

	mask = p->formats ? p->formats : PWSHIM_FMT_ALL;
	/* The link tries our EnumFormats in order, each as a filter on the
	 * camera's EnumFormat, then fixates to the CAMERA's defaults inside the
	 * intersection. So a preferred size/fps is only honoured if offered as a
	 * fixed value: pass 0 = exact (fixed size + fps), pass 1 = ranges. */
	for (pass = p->exact_first ? 0 : 1; pass < 2; pass++) {
		pwshim_stream_params q = *p;
		struct spa_rectangle *pmn = &mn, *pmx = &mx;
		struct spa_fraction *pfmin = &fmin, *pfmax = &fmax;
		if (pass == 0) {
			q.fps_mode = PWSHIM_FPS_FIXED;
			pmn = pmx = &def;
			pfmin = pfmax = &fd;
		}
		if (p->mjpg_first && (mask & PWSHIM_FMT_MJPG))
			params[n_params++] = build_mjpg(b, q.fps_mode, &def, pmn, pmx, &fd, pfmin, pfmax);
		if (mask & ~PWSHIM_FMT_MJPG)
			params[n_params++] = build_raw(b, mask, &q, &def, pmn, pmx, &fd, pfmin, pfmax);
		if (!p->mjpg_first && (mask & PWSHIM_FMT_MJPG))
			params[n_params++] = build_mjpg(b, q.fps_mode, &def, pmn, pmx, &fd, pfmin, pfmax);
	}
	return n_params;
}
