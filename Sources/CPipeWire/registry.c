/* The registry: the daemon's camera nodes (bound for their full properties), the streams of other
 * programs (to end a reader of pipcam's own node) and the links that feed the shim's streams. */
#include "internal.h"

static pwshim_stream *stream_by_node(pwshim *c, uint32_t node_id);
static void bind_link(pwshim *c, struct link *l);
static void free_link(struct link *l);

/* ---------------------------------------------------------------- nodes */

static struct node *find_node(pwshim *c, uint32_t id)
{
	struct node *n;
	for (n = c->nodes; n; n = n->next)
		if (n->id == id)
			return n;
	return NULL;
}

static void node_info(void *data, const struct pw_node_info *info)
{
	struct node *n = data;
	pwshim *c = n->ctx;
	int changed = 0;
	if (info->change_mask & PW_NODE_CHANGE_MASK_STATE) {
		changed |= n->state != (int)info->state;
		n->state = (int)info->state;
	}
	if ((info->change_mask & PW_NODE_CHANGE_MASK_PROPS) && info->props) {
		pwshim_api.properties_update(n->props, info->props);
		n->have_full = 1;
		changed = 1;
	}
	if (!changed)
		return;
	pwshim__push_event(c, PWSHIM_EV_NODE_CHANGED, n->id, n->serial, 0, NULL,
			pwshim_api.properties_get(n->props, PW_KEY_NODE_NAME));
}

static const struct pw_node_events node_events = {
	PW_VERSION_NODE_EVENTS,
	.info = node_info,
};

static void free_node(struct node *n)
{
	if (n->proxy) {
		spa_hook_remove(&n->listener);
		pwshim_api.proxy_destroy(n->proxy);
	}
	if (n->props)
		pwshim_api.properties_free(n->props);
	free(n);
}

static void registry_global(void *data, uint32_t id, uint32_t permissions,
		const char *type, uint32_t version, const struct spa_dict *props)
{
	pwshim *c = data;
	const char *mclass, *role, *s;
	struct node *n;
	(void)permissions; (void)version;

	if (strcmp(type, PW_TYPE_INTERFACE_Link) == 0) {
		struct link *l = calloc(1, sizeof(*l));
		const char *in = dict_get(props, PW_KEY_LINK_INPUT_NODE);
		const char *outn = dict_get(props, PW_KEY_LINK_OUTPUT_NODE);
		if (l == NULL)
			return;
		l->ctx = c;
		l->id = id;
		l->in_node = in ? (uint32_t)strtoul(in, NULL, 10) : SPA_ID_INVALID;
		l->out_node = outn ? (uint32_t)strtoul(outn, NULL, 10) : SPA_ID_INVALID;
		l->next = c->links;
		c->links = l;
		if (stream_by_node(c, l->in_node))
			bind_link(c, l);
		return;
	}
	if (strcmp(type, PW_TYPE_INTERFACE_Node) != 0)
		return;
	mclass = dict_get(props, PW_KEY_MEDIA_CLASS);
	role = dict_get(props, PW_KEY_MEDIA_ROLE);
	/* Video/Source, Video/Sink ... and role=Camera nodes, but never client
	 * streams (Stream/Input/Video etc.: our own reader sets role Camera) */
	if (mclass && strncmp(mclass, "Stream/", 7) == 0) {
		struct streamnode *sn = calloc(1, sizeof(*sn));
		const char *client = dict_get(props, PW_KEY_CLIENT_ID);
		if (sn == NULL)
			return;
		sn->id = id;
		sn->client_id = client ? (uint32_t)strtoul(client, NULL, 10) : SPA_ID_INVALID;
		sn->next = c->streamnodes;
		c->streamnodes = sn;
		return;
	}
	if (!((mclass && strncmp(mclass, "Video/", 6) == 0) ||
	      (role && strcmp(role, "Camera") == 0)))
		return;

	n = calloc(1, sizeof(*n));
	if (n == NULL)
		return;
	n->id = id;
	n->ctx = c;
	n->state = PW_NODE_STATE_CREATING;
	n->props = pwshim_api.properties_new_dict(props);
	s = dict_get(props, PW_KEY_OBJECT_SERIAL);
	n->serial = s ? strtoull(s, NULL, 10) : 0;
	/* bind to get the full property set (device.api, api.v4l2.path ...) */
	n->proxy = pw_registry_bind(c->registry, id, PW_TYPE_INTERFACE_Node,
			PW_VERSION_NODE, 0);
	if (n->proxy) {
		pw_node_add_listener((struct pw_node *)n->proxy, &n->listener, &node_events, n);
	}
	n->next = c->nodes;
	c->nodes = n;
	pwshim__push_event(c, PWSHIM_EV_NODE_ADDED, id, n->serial, 0, NULL,
			dict_get(props, PW_KEY_NODE_NAME));
}

static void registry_global_remove(void *data, uint32_t id)
{
	pwshim *c = data;
	struct node **pp, *n;
	struct link **lp, *l;
	struct streamnode **sp, *sn;
	for (sp = &c->streamnodes; (sn = *sp) != NULL; sp = &sn->next) {
		if (sn->id == id) {
			*sp = sn->next;
			free(sn);
			return;
		}
	}
	for (lp = &c->links; (l = *lp) != NULL; lp = &l->next) {
		if (l->id == id) {
			pwshim_stream *s = stream_by_node(c, l->in_node);
			*lp = l->next;
			if (s && s->peer_id == l->out_node) {
				s->peer_id = SPA_ID_INVALID;
				s->link_state = PW_LINK_STATE_UNLINKED;
				pwshim__push_event(c, PWSHIM_EV_STREAM_LINK, l->out_node, 0,
						PW_LINK_STATE_UNLINKED, s, "link removed");
			}
			free_link(l);
			return;
		}
	}
	for (pp = &c->nodes; (n = *pp) != NULL; pp = &n->next) {
		if (n->id == id) {
			*pp = n->next;
			pwshim__push_event(c, PWSHIM_EV_NODE_REMOVED, id, n->serial, 0, NULL,
					pwshim_api.properties_get(n->props, PW_KEY_NODE_NAME));
			free_node(n);
			return;
		}
	}
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = registry_global,
	.global_remove = registry_global_remove,
};

static void fill_info(struct node *n, pwshim_node_info *o)
{
	const struct pw_properties *p = n->props;
	const char *mclass, *role, *dapi, *path;
	memset(o, 0, sizeof(*o));
	o->id = n->id;
	o->serial = n->serial;
	o->have_full_props = n->have_full;
	o->state = n->state;
	mclass = pwshim_api.properties_get(p, PW_KEY_MEDIA_CLASS);
	role = pwshim_api.properties_get(p, PW_KEY_MEDIA_ROLE);
	dapi = pwshim_api.properties_get(p, PW_KEY_DEVICE_API);
	o->is_camera = (mclass && strcmp(mclass, "Video/Source") == 0) ||
		(role && strcmp(role, "Camera") == 0);
	o->from_monitor = (dapi && (strcmp(dapi, "v4l2") == 0 || strcmp(dapi, "libcamera") == 0)) ||
		pwshim_api.properties_get(p, PW_KEY_DEVICE_ID) != NULL;
	copystr(o->name, sizeof(o->name), pwshim_api.properties_get(p, PW_KEY_NODE_NAME));
	copystr(o->description, sizeof(o->description), pwshim_api.properties_get(p, PW_KEY_NODE_DESCRIPTION));
	copystr(o->nick, sizeof(o->nick), pwshim_api.properties_get(p, PW_KEY_NODE_NICK));
	copystr(o->media_class, sizeof(o->media_class), mclass);
	copystr(o->media_role, sizeof(o->media_role), role);
	copystr(o->device_api, sizeof(o->device_api), dapi);
	copystr(o->object_path, sizeof(o->object_path), pwshim_api.properties_get(p, PW_KEY_OBJECT_PATH));
	path = pwshim_api.properties_get(p, "api.v4l2.path");
	if (path == NULL)
		path = pwshim_api.properties_get(p, "api.libcamera.path");
	/* WirePlumber's V4L2 nodes also say object.path "v4l2:/dev/videoN". */
	if (path == NULL && o->object_path[0] && strncmp(o->object_path, "v4l2:/dev/", 10) == 0)
		path = o->object_path + 5;
	copystr(o->api_path, sizeof(o->api_path), path);
	o->is_pipcam_share = pwshim_api.properties_get(p, "pipcam.share") != NULL;
}

int pwshim_node_count(pwshim *c)
{
	int k = 0;
	struct node *n;
	if (!c) return 0;
	for (n = c->nodes; n; n = n->next)
		k++;
	return k;
}

int pwshim_node_at(pwshim *c, int index, pwshim_node_info *out)
{
	struct node *n;
	int k = pwshim_node_count(c) - 1;	/* list is newest-first; index 0 = oldest */
	if (!c || !out || index < 0)
		return PWSHIM_ERR_INVALID;
	for (n = c->nodes; n; n = n->next, k--)
		if (k == index) {
			fill_info(n, out);
			return PWSHIM_OK;
		}
	return PWSHIM_ERR_INVALID;
}

int pwshim_node_by_id(pwshim *c, uint32_t id, pwshim_node_info *out)
{
	struct node *n;
	if (!c || !out || (n = find_node(c, id)) == NULL)
		return PWSHIM_ERR_INVALID;
	fill_info(n, out);
	return PWSHIM_OK;
}

const char *pwshim_node_prop(pwshim *c, uint32_t id, const char *key)
{
	struct node *n;
	if (!c || !key || (n = find_node(c, id)) == NULL)
		return NULL;
	return pwshim_api.properties_get(n->props, key);
}

/* ---------------------------------------------------------------- links */

static pwshim_stream *stream_by_node(pwshim *c, uint32_t node_id)
{
	pwshim_stream *s;
	if (node_id == SPA_ID_INVALID)
		return NULL;
	for (s = c->streams; s; s = s->next)
		if (s->node_id == node_id)
			return s;
	return NULL;
}

static void link_info(void *data, const struct pw_link_info *info)
{
	struct link *l = data;
	pwshim_stream *s = stream_by_node(l->ctx, info->input_node_id);
	if (s == NULL || !(info->change_mask & PW_LINK_CHANGE_MASK_STATE))
		return;
	s->peer_id = info->output_node_id;
	s->link_state = info->state;
	copystr(s->link_error, sizeof(s->link_error), info->error);
	pwshim__push_event(l->ctx, PWSHIM_EV_STREAM_LINK, info->output_node_id, 0, info->state, s,
			info->error);
}

static const struct pw_link_events link_events = {
	PW_VERSION_LINK_EVENTS,
	.info = link_info,
};

static void bind_link(pwshim *c, struct link *l)
{
	if (l->proxy)
		return;
	l->proxy = pw_registry_bind(c->registry, l->id, PW_TYPE_INTERFACE_Link,
			PW_VERSION_LINK, 0);
	if (l->proxy)
		pw_link_add_listener((struct pw_link *)l->proxy, &l->listener, &link_events, l);
}

/* called when a stream learns its node id: watch links that feed it */
void pwshim__bind_links_for(pwshim *c, uint32_t node_id)
{
	struct link *l;
	for (l = c->links; l; l = l->next)
		if (l->in_node == node_id)
			bind_link(c, l);
}

static void free_link(struct link *l)
{
	if (l->proxy) {
		spa_hook_remove(&l->listener);
		pwshim_api.proxy_destroy(l->proxy);
	}
	free(l);
}

void pwshim__registry_listen(pwshim *c)
{
	pw_registry_add_listener(c->registry, &c->registry_listener, &registry_events, c);
}

void pwshim__registry_forget(pwshim *c)
{
	struct node *n;
	while (c->streamnodes) {
		struct streamnode *sn = c->streamnodes;
		c->streamnodes = sn->next;
		free(sn);
	}
	while ((n = c->nodes) != NULL) {
		c->nodes = n->next;
		free_node(n);
	}
	while (c->links) {
		struct link *l = c->links;
		c->links = l->next;
		free_link(l);
	}
	if (c->registry) {
		spa_hook_remove(&c->registry_listener);
		pwshim_api.proxy_destroy((struct pw_proxy *)c->registry);
	}
}
