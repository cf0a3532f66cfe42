// Diagnostics as the views show them: which belong to a skill, to a refused SKILL.md or to the
// registry itself, how many of each kind, and the list that links each to its line.
import { h } from "./dom.js";
import { REPAIRS, isSkillFile, state } from "./state.js";

/** Skills and refused SKILL.md files, with their diagnostics; and the notes about neither. */
export function skillEntries() {
  const reg = state.registry;
  const metas = reg.listMetasAcross();
  const known = new Set(metas.map((m) => `${m.scope}:${m.location}`));
  const out = metas.map((m) => ({ kind: "skill", name: m.name, location: m.location, meta: m, diagnostics: m.diagnostics }));
  const refused = new Map();
  const notes = [];
  for (const d of reg.diagnostics()) {
    if (d.path && isSkillFile(d.path) && !known.has(d.path)) {
      const location = d.path.replace(/^[^:]*:/, "");
      if (!refused.has(location)) refused.set(location, []);
      refused.get(location).push(d);
    } else if (!d.path || !known.has(d.path)) {
      notes.push(d);
    }
  }
  for (const [location, diagnostics] of refused) {
    const name = location.split("/").at(-2) ?? location;
    out.push({ kind: "refused", name, location, meta: null, diagnostics });
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries: out, notes };
}

export function counts(diags) {
  const c = { error: 0, warning: 0, info: 0, repair: 0 };
  for (const d of diags) {
    c[d.severity]++;
    if (REPAIRS.test(d.code)) c.repair++;
  }
  return c;
}

/** A list of diagnostics; `onLine(line)` makes their lines links. */
export function diagList(diags, onLine) {
  return h(
    "ul",
    { class: "diags" },
    diags.map((d) =>
      h(
        "li",
        { class: `diag ${d.severity}${REPAIRS.test(d.code) ? " repair" : ""}` },
        h("span", { class: `sev ${d.severity}`, text: REPAIRS.test(d.code) ? "repair" : d.severity }),
        h("code", { class: "diag-code", text: d.code }),
        h("span", { class: "diag-msg", text: d.message }),
        d.line
          ? h("button", { type: "button", class: "line-link", text: `line ${d.line}`, onclick: () => onLine?.(d.line) })
          : null,
      ),
    ),
  );
}
