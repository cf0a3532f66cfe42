// Diagnostics as the views show them: which belong to a skill, to a refused SKILL.md or to the
// registry itself, how many of each kind, and the list that links each to its line.
import { h } from "./dom.js";
import { REPAIRS, ROOT, isSkillFile, state } from "./state.js";

// The registry's skill root in the page's one store (discovered as the user scope).
const ROOT_PATH = `user:${ROOT}`;

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
    } else if (d.code === "storage-skipped" && d.path === ROOT_PATH && state.keys.length === 0) {
      // The store holds nothing yet: a first visit, or after Clear. The page's own listing of it
      // succeeded (state.keys), so this is not a store that failed; the list says "No skills yet".
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

/**
 * The one count of skills the page shows (header, list, toasts): a skill is a SKILL.md the core
 * loaded, as the catalog and the skill tool see it; a SKILL.md the core refused is listed, marked
 * refused and counted apart, never as a skill. With `prefixes`, only entries under one of them.
 * @param {{ kind: string, location: string }[]} entries
 * @param {string[]} [prefixes]
 */
export function skillCounts(entries, prefixes) {
  const c = { skills: 0, refused: 0 };
  for (const e of entries) {
    if (prefixes && !prefixes.some((p) => e.location.startsWith(p))) continue;
    if (e.kind === "refused") c.refused++;
    else c.skills++;
  }
  return c;
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
