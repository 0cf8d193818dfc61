// The webhook calls both workspace pages make, for either API's routes (/v1/webhooks,
// /platform/v1/webhooks), their answers mapped into the shapes webhooks.js reads: the
// two APIs differ only in their base path, their page parameters, their field spelling
// (an adapter's `endpoint` and `delivery`) and the body a create sends.
import { api } from '../../assets/session.js';

/**
 * `o`: { base, listPath, deliveriesQuery, endpoint(e), delivery(d), createBody(b) }; the
 * answer's `list`, `create`, `patch`, `remove`, `deliveries` and `redeliver` go into
 * the page's adapter beside its texts.
 */
export function webhookCalls(o) {
  const path = (id) => o.base + '/' + encodeURIComponent(id);
  return {
    path: path,
    async list() {
      const res = await api('GET', o.listPath);
      if (res.ok) res.items = res.body.data.map(o.endpoint);
      return res;
    },
    create: (b) => api('POST', o.base, o.createBody(b)),
    async patch(id, body) {
      const res = await api('PATCH', path(id), body);
      if (res.ok) res.item = o.endpoint(res.body);
      return res;
    },
    remove: (id) => api('DELETE', path(id)),
    async deliveries(id) {
      const res = await api('GET', path(id) + '/deliveries?' + o.deliveriesQuery);
      if (res.ok) res.items = res.body.data.map(o.delivery);
      return res;
    },
    redeliver: (id, deliveryId) => api('POST', path(id) + '/deliveries/' + encodeURIComponent(deliveryId) + '/redeliver'),
  };
}
