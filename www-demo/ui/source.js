// One skill in detail: the fields the core read, its diagnostics, the SKILL.md as stored with line
// numbers (the frontmatter, as the package's frontmatterSpan finds it, tinted; repaired lines
// marked with what the lenient parse read), and its files.
import * as sw from "/pkg/browser.js";
import { diagList, skillEntries } from "./diagnostics.js";
import { $, decode, fmt, h, put, row } from "./dom.js";
import { REPAIRS, state } from "./state.js";
import { openTurn } from "./turn.js";

// Frontmatter keys and the SkillMeta fields they are read into.
const FIELD_OF = {
  name: "name",
  description: "description",
  license: "license",
  compatibility: "compatibility",
  "allowed-tools": "allowedTools",
  "argument-hint": "argumentHint",
  metadata: "metadata",
  "user-invocable": "userInvocable",
  "disable-model-invocation": "disableModelInvocation",
  min_tier: "minTier",
};

/** The selected skill (or refused SKILL.md), read from the store. */
export async function renderSkillDetail() {
  const box = $("#skill-detail");
  const { entries } = skillEntries();
  const e = entries.find((x) => x.location === state.selected);
  if (!e) {
    box.className = "empty";
    put(box, "Pick a skill on the left to see what the core read from it.");
    return;
  }
  const location = e.location;
  const raw = await state.storage.read(location);
  if (state.selected !== location) return; // another skill was picked meanwhile
  box.className = "detail";
  const m = e.meta;
  const dir = location.slice(0, location.lastIndexOf("/") + 1);
  const files = state.keys.filter((k) => k.key.startsWith(dir) && k.key !== location);

  const fields = m
    ? h(
        "dl",
        { class: "fields" },
        row("description", m.description),
        row("license", m.license),
        row("compatibility", m.compatibility),
        row("allowed-tools", m.allowedTools.length ? m.allowedTools.join("  ·  ") : null),
        row("argument-hint", m.argumentHint),
        row("metadata", Object.keys(m.metadata).length ? Object.entries(m.metadata).map(([k, v]) => `${k}: ${v}`).join("\n") : null),
        row("localized", Object.keys(m.localizedDescriptions).length ? Object.entries(m.localizedDescriptions).map(([k, v]) => `${k}: ${v}`).join("\n") : null),
        row("user-invocable", m.userInvocable ? "yes" : "no"),
        m.disableModelInvocation ? row("model invocation", "disabled") : null,
        Object.keys(m.extra).length ? row("other fields", JSON.stringify(m.extra)) : null,
        row("location", `${m.scope}:${m.location}`),
        m.shadowedBy ? row("shadowed by", m.shadowedBy) : null,
      )
    : h("p", { class: "refused-note", text: "The core refused this SKILL.md: no skill was loaded from it. The other skills are unaffected." });

  const source = sourceView(raw, e.diagnostics, m);
  const jump = (line) => {
    const target = source.querySelector(`[data-line="${line}"]`);
    if (target) {
      target.scrollIntoView({ block: "center", behavior: "smooth" });
      target.classList.add("flash");
      setTimeout(() => target.classList.remove("flash"), 1200);
    }
  };

  put(box,
    h("div", { class: "detail-head" }, h("h2", { text: e.name }), e.kind === "refused" ? h("span", { class: "badge error", text: "refused" }) : null),
    fields,
    h("h3", { text: e.diagnostics.length ? `Diagnostics (${e.diagnostics.length})` : "Diagnostics" }),
    e.diagnostics.length ? diagList(e.diagnostics, jump) : h("p", { class: "ok", text: "No findings: the file is clean." }),
    h("h3", {}, "SKILL.md ", h("span", { class: "muted", text: raw ? `${fmt.format(raw.length)} bytes, as stored` : "missing" })),
    source,
    h("h3", { text: `Files (${files.length + 1})` }),
    h(
      "ul",
      { class: "files" },
      h("li", {}, h("code", { text: "SKILL.md" }), h("span", { class: "muted", text: raw ? `${fmt.format(raw.length)} B` : "" })),
      files.map((f) =>
        h(
          "li",
          {},
          h("code", { text: f.key.slice(dir.length) }),
          h("span", { class: "muted", text: `${fmt.format(f.size ?? 0)} B` }),
          m && !m.shadowedBy
            ? h("button", { type: "button", class: "link", text: "read with the tool", onclick: () => openTurn(m.name, f.key.slice(dir.length)) })
            : null,
        ),
      ),
    ),
    m && !m.shadowedBy ? h("div", { class: "buttons" }, h("button", { type: "button", class: "primary", text: "Activate in a model turn →", onclick: () => openTurn(m.name, "") })) : null,
  );
}

/** The stored SKILL.md with line numbers; lines a diagnostic names are marked, repairs most. */
function sourceView(raw, diags, meta) {
  if (!raw) return h("pre", { class: "code source", text: "(not in storage)" });
  const text = decode(raw);
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const byLine = new Map();
  for (const d of diags) {
    if (!d.line) continue;
    if (!byLine.has(d.line)) byLine.set(d.line, []);
    byLine.get(d.line).push(d);
  }
  // The fences as the core finds them; an unclosed frontmatter runs to the end.
  const span = sw.frontmatterSpan(raw);
  const inFront = (n) => span !== null && n >= span.openLine && n <= (span.closeLine ?? lines.length);
  const rows = lines.map((l, i) => {
    const n = i + 1;
    const crlf = l.endsWith("\r");
    const content = crlf ? l.slice(0, -1) : l;
    const ds = byLine.get(n) ?? [];
    const repaired = ds.some((d) => REPAIRS.test(d.code));
    const worst = ds.some((d) => d.severity === "error") ? "error" : ds.length ? "warning" : "";
    const cls = ["src-line", inFront(n) ? "front" : "", repaired ? "repaired" : worst ? `diag-${worst}` : ""].filter(Boolean).join(" ");
    return h(
      "div",
      { class: cls, dataset: { line: String(n) } },
      h("span", { class: "ln", text: String(n) }),
      h("span", { class: "tx" }, content === "" ? "\u200b" : content, crlf ? h("span", { class: "crlf", title: "CRLF line ending", text: "\\r" }) : null),
      ds.length
        ? h(
            "span",
            { class: "notes" },
            ds.map((d) => h("span", { class: `note ${REPAIRS.test(d.code) ? "repair" : d.severity}`, title: d.message, text: d.code })),
            repaired ? readAs(content, meta) : null,
          )
        : null,
    );
  });
  return h("div", { class: "code source", role: "region", "aria-label": "SKILL.md source" }, rows);
}

/** For a repaired line `key: ...`, what the lenient parse read for that key. */
function readAs(line, meta) {
  const m = /^([A-Za-z_][\w-]*)\s*:/.exec(line);
  if (!m || !meta) return null;
  const field = FIELD_OF[m[1]];
  if (!field) return null;
  let v = meta[field];
  if (v === undefined || v === null) return null;
  v = Array.isArray(v) ? v.join(" ") : typeof v === "object" ? JSON.stringify(v) : String(v);
  if (v.length > 70) v = `${v.slice(0, 70)}…`;
  return h("span", { class: "read-as", text: `read as ${m[1]} = ${JSON.stringify(v)}` });
}
