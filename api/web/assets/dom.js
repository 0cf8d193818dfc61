// The pages' few DOM helpers: no framework, and text only ever set with textContent.

export const $ = (id) => document.getElementById(id);

/** An element with attributes (`text`, `onclick` and `onsubmit` are special) and children. */
export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  if (attrs) {
    Object.keys(attrs).forEach((k) => {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') node.textContent = v;
      else if (k === 'onclick') node.addEventListener('click', v);
      else if (k === 'onsubmit') node.addEventListener('submit', v);
      else node.setAttribute(k, v === true ? '' : String(v));
    });
  }
  (children || []).forEach((c) => {
    if (c === null || c === undefined) return;
    node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  });
  return node;
}

/** The page's aria-live status region: `kind` ok or error colours it. */
export function announce(text, kind) {
  const s = $('status');
  s.textContent = text || '';
  s.className = 'notice' + (kind ? ' is-' + kind : '');
}

/** A form while its call runs: buttons disabled, aria-busy set. */
export function setBusy(form, busy) {
  Array.prototype.forEach.call(form.querySelectorAll('button'), (b) => { b.disabled = busy; });
  form.setAttribute('aria-busy', busy ? 'true' : 'false');
}

/** A timestamp of the API in the reader's locale; '—' for none. */
export function when(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
}
