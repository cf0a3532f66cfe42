// The catalog view: renderCatalog in each format, with or without locations, in a locale, and
// cut to the budget slider's tokens (what was shortened, dropped or hidden, and why).
import * as sw from "/pkg/browser.js";
import { $, fmt, h, put } from "./dom.js";
import { TOOL_NAME, state, timings } from "./state.js";

function catalogOptions(budget) {
  const c = state.catalog;
  const o = { format: c.format, includeLocation: c.location, toolName: TOOL_NAME };
  if (c.locale) o.locale = c.locale;
  if (budget !== null && budget !== undefined) o.budgetTokens = budget;
  return o;
}

export function renderCatalog() {
  const reg = state.registry;
  const c = state.catalog;
  const full = sw.renderCatalog(reg, catalogOptions(null));
  c.full = full.tokens;
  const slider = $("#budget");
  slider.max = String(Math.max(full.tokens, 11));
  slider.min = "10";
  if (c.budget === null || c.budget >= full.tokens) {
    c.budget = null;
    slider.value = slider.max;
  } else {
    slider.value = String(c.budget);
  }
  slider.disabled = full.text === null;
  const result = c.budget === null ? full : sw.renderCatalog(reg, catalogOptions(c.budget));
  $("#budget-value").textContent = c.budget === null ? `no budget (${fmt.format(full.tokens)} tokens)` : `${fmt.format(c.budget)} tokens`;
  for (const b of document.querySelectorAll("#catalog-formats button")) b.setAttribute("aria-pressed", String(b.dataset.format === c.format));

  put($("#catalog-stats"), 
    h("span", { class: "stat" }, h("b", { text: fmt.format(result.skills.length) }), " skills"),
    h("span", { class: "stat" }, h("b", { text: fmt.format(result.chars) }), " chars"),
    h("span", { class: "stat", id: "catalog-tokens" }, "≈ ", h("b", { text: fmt.format(result.tokens) }), " tokens"),
    full.tokens > 0 && result.tokens !== full.tokens ? h("span", { class: "stat muted", text: `(of ${fmt.format(full.tokens)} without a budget)` }) : null,
  );
  const chips = (label, names, cls) =>
    names.length ? h("div", { class: `cut ${cls}` }, h("span", { class: "cut-label", text: label }), names.map((n) => h("span", { class: "chip", text: n }))) : null;
  put($("#catalog-cuts"), 
    ...[
      chips(`dropped (${result.dropped.length})`, result.dropped, "dropped"),
      chips(`shortened (${result.shortened.length})`, result.shortened, "shortened"),
      chips(`hidden (${result.hidden.length})`, result.hidden.map((x) => `${x.name}: ${x.reason}`), "hidden"),
    ].filter(Boolean),
  );
  $("#catalog-text").textContent = result.text ?? "(no catalog: no skill is visible, so the model gets no catalog and no tool)";
  $("#catalog-instructions").textContent = result.instructions ?? "";
  document.body.dataset.catalogFormat = c.format;
  if (timings.firstCatalogMs === undefined && result.text !== null) {
    timings.firstCatalogMs = performance.now();
    timings.firstCatalogSkills = result.skills.length;
  }
}

/** The format buttons, the location and locale switches, the budget slider. */
export function wireCatalog() {
  for (const b of document.querySelectorAll("#catalog-formats button")) {
    b.addEventListener("click", () => {
      state.catalog.format = b.dataset.format;
      renderCatalog();
    });
  }
  $("#catalog-location").addEventListener("change", (ev) => {
    state.catalog.location = ev.target.checked;
    state.catalog.budget = null;
    renderCatalog();
  });
  $("#catalog-locale").addEventListener("change", (ev) => {
    state.catalog.locale = ev.target.value;
    state.catalog.budget = null;
    renderCatalog();
  });
  $("#budget").addEventListener("input", (ev) => {
    const v = Number(ev.target.value);
    state.catalog.budget = v >= state.catalog.full ? null : v;
    renderCatalog();
  });
}
