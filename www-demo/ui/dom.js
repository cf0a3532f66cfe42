// Small DOM helpers shared by the playground's views: element building, number formatting, the
// toast, and buttons that are busy while their action runs.

export const $ = (sel) => document.querySelector(sel);

/** An element: attributes (`class`, `text`, `dataset`, `on<event>` handlers, others as given), then children. */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** Replace target's children, leaving out null/undefined/false. */
export function put(target, ...children) {
  target.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

export const fmt = new Intl.NumberFormat("en");
export const plural = (n, one, many = `${one}s`) => `${fmt.format(n)} ${n === 1 ? one : many}`;

let toastTimer;
/** A message at the bottom of the page for a few seconds. */
export function toast(message, kind = "info") {
  const t = $("#toast");
  t.textContent = message;
  t.className = `toast ${kind}`;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), 4000);
}

/** `fn` as a handler that disables `button` while it runs and shows a failure as a toast. */
export function busy(button, fn) {
  return async (...args) => {
    if (button.disabled) return;
    button.disabled = true;
    try {
      await fn(...args);
    } catch (e) {
      toast(String(e?.message ?? e), "error");
    } finally {
      button.disabled = false;
    }
  };
}

/** Bytes as text (invalid UTF-8 shown as replacement characters). */
export function decode(bytes) {
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

/** A `<dt>`/`<dd>` pair, or null for an empty value. */
export function row(label, value) {
  if (value === undefined || value === null || value === "") return null;
  return [h("dt", { text: label }), h("dd", { text: String(value) })];
}

/** A collapsed block of preformatted text. */
export function details(summary, text) {
  return h("details", {}, h("summary", { text: summary }), h("pre", { class: "code small", text }));
}

/** Shows one tab's panel. */
export function showTab(name) {
  for (const b of document.querySelectorAll(".tabs button")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== `panel-${name}`;
}
