// The skillwasm playground: skills in IndexedDB, everything else done by the package's wasm core.
import * as sw from "/pkg/browser.js";

const DB = { dbName: "skillwasm-playground", storeName: "files" };
const ROOT = ".agents/skills/";
const TOOL_NAME = "view_skill";
const MAX_FILE_BYTES = 2 * 1024 * 1024; // larger files are not stored (the tool refuses over 256 KiB anyway)
const SKIP_DIRS = new Set([".git", "node_modules", "__MACOSX", ".DS_Store"]);
const REPAIRS = /^(yaml-repair-|yaml-duplicate-key$)/;
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

const state = {
  storage: null,
  registry: null,
  tool: null,
  session: null,
  keys: [], // every { key, size } under ROOT
  selected: null, // a location
  catalog: { format: "xml", location: true, locale: "", budget: null, full: 0 },
  discover: null,
};

/** Timings and a small scripting surface (the console, and the browser test). */
const timings = {};
const playground = { timings, addFiles, clearAll, state };
window.playground = playground;

// ---------------------------------------------------------------------------------------------
// Small DOM helpers
// ---------------------------------------------------------------------------------------------
const $ = (sel) => document.querySelector(sel);

function h(tag, attrs = {}, ...children) {
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
function put(target, ...children) {
  target.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

const fmt = new Intl.NumberFormat("en");
const plural = (n, one, many = `${one}s`) => `${fmt.format(n)} ${n === 1 ? one : many}`;

let toastTimer;
function toast(message, kind = "info") {
  const t = $("#toast");
  t.textContent = message;
  t.className = `toast ${kind}`;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), 4000);
}

function busy(button, fn) {
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

function decode(bytes) {
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

// ---------------------------------------------------------------------------------------------
// Storage: files in, files out
// ---------------------------------------------------------------------------------------------

async function listAll(prefix) {
  const out = [];
  let cursor;
  do {
    const page = await state.storage.list(prefix, cursor ? { cursor } : {});
    out.push(...page.entries);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return out;
}

function validKey(key) {
  try {
    sw.assertKey(key);
    return true;
  } catch {
    return false;
  }
}

function safeSegment(s) {
  const cleaned = s.replace(/[\\/%\u0000-\u001f]+/g, "-").replace(/^\.+/, "").trim();
  return cleaned === "" ? "skill" : cleaned;
}

/**
 * Store files as skills: every directory holding a SKILL.md becomes `.agents/skills/<its name>/`
 * with the files beneath it (a nested skill takes its own files). A skill already stored under
 * that name is replaced. `entries`: [{ path: "folder/SKILL.md", data: Uint8Array | string }].
 * Returns { skills, files, skipped }.
 */
async function addFiles(entries, { refresh = true } = {}) {
  const files = [];
  const skipped = [];
  for (const { path, data } of entries) {
    const parts = String(path).replace(/^\.?\/+/, "").split("/").filter((p) => p !== "" && p !== ".");
    if (parts.length === 0 || parts.includes("..")) {
      skipped.push(`${path}: not a usable path`);
      continue;
    }
    if (parts.some((p) => SKIP_DIRS.has(p))) continue;
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data instanceof Uint8Array ? data : new Uint8Array(data);
    if (bytes.length > MAX_FILE_BYTES) {
      skipped.push(`${path}: over ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
      continue;
    }
    files.push({ parts, bytes });
  }
  // Skill directories, deepest first so that a file belongs to its nearest skill.
  const dirs = files
    .filter((f) => f.parts.at(-1) === "SKILL.md" || f.parts.at(-1) === "skill.md")
    .map((f) => f.parts.slice(0, -1));
  const unique = [...new Map(dirs.map((d) => [d.join("/"), d])).values()].sort((a, b) => b.length - a.length);
  const targets = new Map(); // dir -> target name
  const used = new Set();
  for (const d of [...unique].reverse()) {
    let base = d.at(-1);
    if (base === undefined) {
      const md = files.find((f) => f.parts.length === 1 && /^skill\.md$/i.test(f.parts[0]));
      base = sw.parseSkill(md.bytes, { includeBody: false }).skill?.name ?? "skill";
    }
    base = safeSegment(base);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}-${i}`;
    used.add(name);
    targets.set(d.join("/"), name);
  }
  const puts = new Map();
  let orphans = 0;
  for (const f of files) {
    const dir = unique.find((d) => d.length < f.parts.length && d.every((p, i) => f.parts[i] === p));
    if (dir === undefined) {
      orphans++;
      continue;
    }
    const key = `${ROOT}${targets.get(dir.join("/"))}/${f.parts.slice(dir.length).join("/")}`;
    if (!validKey(key)) {
      skipped.push(`${f.parts.join("/")}: not a valid storage key`);
      continue;
    }
    puts.set(key, f.bytes);
  }
  if (orphans > 0) skipped.push(`${plural(orphans, "file")} outside any skill folder`);
  if (puts.size > 0) {
    const prefixes = [...targets.values()].map((n) => `${ROOT}${n}/`);
    const stale = state.keys.filter((k) => prefixes.some((p) => k.key.startsWith(p)) && !puts.has(k.key)).map((k) => k.key);
    if (stale.length > 0) await sw.deleteKeys(state.storage, stale);
    await sw.putSkillFiles(state.storage, puts);
  }
  const result = { skills: targets.size, files: puts.size, skipped };
  if (refresh) await reload({ changed: true });
  return result;
}

async function clearAll() {
  const keys = (await listAll("")).map((e) => e.key);
  await sw.deleteKeys(state.storage, keys);
  state.selected = null;
  state.session.clear();
  await reload({ changed: true });
  return keys.length;
}

async function loadExamples() {
  const index = await (await fetch("/examples/index.json")).json();
  const entries = [];
  await Promise.all(
    index.groups.flatMap(({ group, skills }) =>
      skills.flatMap(({ dir, files }) =>
        files.map(async ({ path }) => {
          const res = await fetch(`/examples/${group}/${dir}/${path.split("/").map(encodeURIComponent).join("/")}`);
          if (!res.ok) throw new Error(`examples/${group}/${dir}/${path}: HTTP ${res.status}`);
          entries.push({ path: `${dir}/${path}`, data: new Uint8Array(await res.arrayBuffer()) });
        }),
      ),
    ),
  );
  const r = await addFiles(entries);
  toast(`Loaded ${plural(r.skills, "example skill")} (${plural(r.files, "file")})`);
}

// Drag and drop: folders are walked with the entries API; zips are unpacked.
function readEntries(reader) {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}
async function walkEntry(entry, prefix, out) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push({ path: prefix + entry.name, file });
  } else if (entry.isDirectory) {
    if (SKIP_DIRS.has(entry.name)) return;
    const reader = entry.createReader();
    for (;;) {
      const batch = await readEntries(reader);
      if (batch.length === 0) break;
      for (const child of batch) await walkEntry(child, `${prefix}${entry.name}/`, out);
    }
  }
}

async function filesToEntries(list) {
  const entries = [];
  for (const { path, file } of list) {
    if (/\.zip$/i.test(file.name) && !path.includes("/")) {
      entries.push(...(await zipEntries(file)));
    } else {
      entries.push({ path, data: new Uint8Array(await file.arrayBuffer()) });
    }
  }
  return entries;
}

async function zipEntries(file) {
  const files = (await sw.unzip(await file.arrayBuffer(), { fileBytes: MAX_FILE_BYTES })).map((f) => ({ path: f.path, data: f.bytes }));
  // A zip of one skill with SKILL.md at its top: the archive's name is the folder's.
  const atTop = files.some((f) => /^skill\.md$/i.test(f.path));
  const base = safeSegment(file.name.replace(/\.zip$/i, ""));
  return files.map((f) => ({ path: atTop ? `${base}/${f.path}` : f.path, data: f.data }));
}

async function addFromList(list, what) {
  const entries = await filesToEntries(list);
  const r = await addFiles(entries);
  const extra = r.skipped.length > 0 ? `; skipped ${r.skipped.length}: ${r.skipped.slice(0, 3).join("; ")}` : "";
  if (r.skills === 0) toast(`No SKILL.md in ${what}${extra}`, "error");
  else toast(`Added ${plural(r.skills, "skill")} (${plural(r.files, "file")}) from ${what}${extra}`);
}

// ---------------------------------------------------------------------------------------------
// The registry and everything drawn from it
// ---------------------------------------------------------------------------------------------

async function reload({ changed = false } = {}) {
  const t0 = performance.now();
  let report = null;
  if (state.registry === null) {
    state.registry = await sw.SkillRegistry.discover({ user: state.storage });
  } else {
    report = await state.registry.refresh();
  }
  const ms = performance.now() - t0;
  state.keys = await listAll(ROOT);
  state.discover = { ms, stats: state.registry.stats(), report };
  state.tool?.free();
  state.tool = new sw.SkillTool(state.registry, { toolName: TOOL_NAME });
  state.tool.setSession(state.session);
  state.catalog.budget = null;
  renderAll();
  if (changed && report) {
    const parts = ["added", "changed", "removed"].filter((k) => report[k].length > 0).map((k) => `${report[k].length} ${k}`);
    if (parts.length > 0) $("#status").append(h("span", { class: "pill", text: `refresh: ${parts.join(", ")}` }));
  }
}

function renderAll() {
  renderStatus();
  renderSkillList();
  renderSkillDetail();
  renderCatalog();
  renderTurnControls();
  renderActivations();
  renderCompactionChoices();
}

function renderStatus() {
  const reg = state.registry;
  const names = reg.names();
  const { ms, stats } = state.discover;
  put($("#status"), 
    h("span", { class: "pill strong", text: plural(names.length, "skill") }),
    h("span", { class: "pill", text: `${plural(state.keys.length, "file")} in IndexedDB` }),
    h("span", { class: "pill", text: `${state.discover.report ? "refresh" : "discovery"} ${ms.toFixed(0)} ms · ${plural(stats.listCalls, "list")} · ${plural(stats.readCalls, "read")}` }),
    h("span", { class: "pill muted", text: `skillwasm ${sw.version()}` }),
  );
}

/** Skills and refused SKILL.md files, with their diagnostics. */
function skillEntries() {
  const reg = state.registry;
  const metas = reg.listMetasAcross();
  const known = new Set(metas.map((m) => `${m.scope}:${m.location}`));
  const out = metas.map((m) => ({ kind: "skill", name: m.name, location: m.location, meta: m, diagnostics: m.diagnostics }));
  const refused = new Map();
  const notes = [];
  for (const d of reg.diagnostics()) {
    if (d.path && /\/?(SKILL|skill)\.md$/.test(d.path) && !known.has(d.path)) {
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

function counts(diags) {
  const c = { error: 0, warning: 0, info: 0, repair: 0 };
  for (const d of diags) {
    c[d.severity]++;
    if (REPAIRS.test(d.code)) c.repair++;
  }
  return c;
}

function renderSkillList() {
  const { entries, notes } = skillEntries();
  const list = $("#skill-list");
  $("#skill-count").textContent = entries.length ? String(entries.length) : "";
  if (entries.length === 0) {
    put(list, h("li", { class: "empty", text: "No skills yet. Load the bundled examples, or drop a folder with a SKILL.md." }));
  } else {
    if (!entries.some((e) => e.location === state.selected)) state.selected = entries[0].location;
    put(list, 
      ...entries.map((e) => {
        const c = counts(e.diagnostics);
        return h(
          "li",
          { hidden: !matchesFilter(e) },
          h(
            "button",
            {
              type: "button",
              class: `skill-item${e.location === state.selected ? " selected" : ""}${e.kind === "refused" ? " refused" : ""}`,
              dataset: { location: e.location, name: e.name },
              onclick: () => {
                state.selected = e.location;
                renderSkillList();
                renderSkillDetail();
                showTab("skill");
              },
            },
            h("span", { class: "skill-name", text: e.name }),
            h(
              "span",
              { class: "badges" },
              e.kind === "refused" ? h("span", { class: "badge error", text: "refused" }) : null,
              e.meta?.shadowedBy ? h("span", { class: "badge info", text: "shadowed" }) : null,
              c.error && e.kind !== "refused" ? h("span", { class: "badge error", text: `${c.error} error` }) : null,
              c.repair ? h("span", { class: "badge repair", text: `${c.repair} repaired` }) : null,
              c.warning - c.repair > 0 ? h("span", { class: "badge warning", text: `${c.warning - c.repair} warning` }) : null,
            ),
            h("span", { class: "skill-desc", text: e.meta?.description ?? e.diagnostics[0]?.message ?? "" }),
          ),
        );
      }),
    );
  }
  const box = $("#registry-notes");
  put(box, 
    ...(notes.length ? [h("h3", { text: "Registry notes" }), diagList(notes)] : []),
  );
}

function matchesFilter(e) {
  const q = $("#skill-filter").value.trim().toLowerCase();
  return q === "" || e.name.toLowerCase().includes(q) || (e.meta?.description ?? "").toLowerCase().includes(q);
}

function diagList(diags, onLine) {
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

async function renderSkillDetail() {
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

function row(label, value) {
  if (value === undefined || value === null || value === "") return null;
  return [h("dt", { text: label }), h("dd", { text: String(value) })];
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
  const bare = (l) => l.replace(/\r$/, "").replace(/^\ufeff/, "").trimEnd();
  let frontEnd = -1; // index of the closing fence
  if (lines.length > 0 && bare(lines[0]) === "---") {
    frontEnd = lines.findIndex((l, i) => i > 0 && bare(l) === "---");
    if (frontEnd < 0) frontEnd = lines.length - 1;
  }
  const rows = lines.map((l, i) => {
    const n = i + 1;
    const crlf = l.endsWith("\r");
    const content = crlf ? l.slice(0, -1) : l;
    const inFront = i <= frontEnd;
    const ds = byLine.get(n) ?? [];
    const repaired = ds.some((d) => REPAIRS.test(d.code));
    const worst = ds.some((d) => d.severity === "error") ? "error" : ds.length ? "warning" : "";
    const cls = ["src-line", inFront ? "front" : "", repaired ? "repaired" : worst ? `diag-${worst}` : ""].filter(Boolean).join(" ");
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

// ---------------------------------------------------------------------------------------------
// Catalog
// ---------------------------------------------------------------------------------------------

function catalogOptions(budget) {
  const c = state.catalog;
  const o = { format: c.format, includeLocation: c.location, toolName: TOOL_NAME };
  if (c.locale) o.locale = c.locale;
  if (budget !== null && budget !== undefined) o.budgetTokens = budget;
  return o;
}

function renderCatalog() {
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

// ---------------------------------------------------------------------------------------------
// A model turn: the skill tool
// ---------------------------------------------------------------------------------------------

function toolNames() {
  const def = state.tool.definition();
  return def?.inputSchema?.properties?.name?.enum ?? [];
}

function renderTurnControls() {
  const names = toolNames();
  const sel = $("#turn-skill");
  const keep = sel.value;
  sel.replaceChildren(...names.map((n) => h("option", { value: n, text: n })));
  if (names.includes(keep)) sel.value = keep;
  $("#turn-call").disabled = names.length === 0;
  renderPathOptions();
  $("#turn-definition").textContent = JSON.stringify(state.tool.definition(), null, 2);
}

function renderPathOptions(preset) {
  const name = $("#turn-skill").value;
  const meta = name ? state.registry.get(name) : null;
  const sel = $("#turn-path");
  const opts = [h("option", { value: "", text: "(instructions)" })];
  if (meta) {
    const dir = `${meta.directory}/`;
    for (const k of state.keys) {
      if (k.key.startsWith(dir) && k.key !== meta.location) opts.push(h("option", { value: k.key.slice(dir.length), text: k.key.slice(dir.length) }));
    }
  }
  sel.replaceChildren(...opts);
  if (preset !== undefined) sel.value = preset;
}

function openTurn(name, path) {
  $("#turn-skill").value = name;
  renderPathOptions(path);
  showTab("turn");
}

async function callTool() {
  const name = $("#turn-skill").value;
  const path = $("#turn-path").value;
  const input = { name };
  if (path) input.path = path;
  if ($("#turn-force").checked) input.force = true;
  const r = await state.tool.execute(input);
  const call = { type: "tool-call", toolName: TOOL_NAME, input };
  put($("#turn-result"), 
    h(
      "div",
      { class: "turn" },
      h("div", { class: "bubble model" }, h("div", { class: "who", text: "model → tool call" }), h("pre", { class: "code small", text: JSON.stringify(call, null, 2) })),
      h(
        "div",
        { class: "flags" },
        r.isError ? h("span", { class: "badge error", text: `error: ${r.error?.code ?? "tool error"}` }) : h("span", { class: "badge ok", text: "ok" }),
        r.alreadyLoaded ? h("span", { class: "badge info", text: "already loaded: pointer returned" }) : null,
        h("span", { class: "badge", text: `${fmt.format(r.size)} bytes behind it` }),
        h("span", { class: "badge", text: `${fmt.format(r.content.length)} chars to the model` }),
      ),
      h("div", { class: "two" },
        h("div", {}, h("h4", { text: "content — what the model reads" }), h("pre", { class: "code result", id: "turn-content", text: r.content })),
        h("div", {}, h("h4", { text: "client — what the chat UI shows" }), h("pre", { class: "code result", id: "turn-client", text: JSON.stringify(r.client, null, 2) })),
      ),
    ),
  );
  renderActivations();
}

function renderActivations() {
  const acts = state.session.activations();
  const body = $("#turn-activations tbody");
  put(body, 
    ...(acts.length
      ? acts.map((a) =>
          h("tr", {}, h("td", { text: String(a.index) }), h("td", { text: a.name }), h("td", { text: a.path ?? "—" }), h("td", { text: fmt.format(a.size) }), h("td", { text: new Date(a.at).toLocaleTimeString() })),
        )
      : [h("tr", {}, h("td", { colspan: "5", class: "muted", text: "Nothing loaded in this session yet." }))]),
  );
}

// ---------------------------------------------------------------------------------------------
// Chat: /skill autocomplete and invocation
// ---------------------------------------------------------------------------------------------

const chat = { suggestions: [], active: 0, token: null };

/** The `/partial` (at the start) or `$partial` token being typed at the caret, or null. */
function tokenAtCaret(text, caret) {
  const before = text.slice(0, caret);
  const slash = /^\/([\w.-]*)$/.exec(before);
  if (slash) return { kind: "/", partial: slash[1], start: 0, end: caret };
  const mention = /(^|\s)\$([\w.-]*)$/.exec(before);
  if (mention) return { kind: "$", partial: mention[2], start: caret - mention[2].length - 1, end: caret };
  return null;
}

function updateSuggestions() {
  const ta = $("#chat-text");
  const tok = tokenAtCaret(ta.value, ta.selectionStart ?? ta.value.length);
  const box = $("#suggestions");
  chat.token = tok;
  chat.suggestions = tok ? sw.autocomplete(state.registry, tok.partial, 8) : [];
  chat.active = 0;
  if (chat.suggestions.length === 0) {
    box.hidden = true;
    put(box, );
    return;
  }
  drawSuggestions();
  box.hidden = false;
}

function drawSuggestions() {
  put($("#suggestions"), 
    ...chat.suggestions.map((s, i) =>
      h(
        "li",
        {
          role: "option",
          class: `suggestion${i === chat.active ? " active" : ""}`,
          "aria-selected": String(i === chat.active),
          onmousedown: (ev) => {
            ev.preventDefault();
            chat.active = i;
            acceptSuggestion();
          },
        },
        h("span", { class: "s-name", text: `${chat.token.kind}${s.name}` }),
        s.argumentHint ? h("span", { class: "s-hint", text: s.argumentHint }) : null,
        h("span", { class: "s-kind", text: s.matchKind }),
        h("span", { class: "s-desc", text: s.description }),
      ),
    ),
  );
}

function acceptSuggestion() {
  const s = chat.suggestions[chat.active];
  const tok = chat.token;
  if (!s || !tok) return;
  const ta = $("#chat-text");
  const insert = `${tok.kind}${s.name} `;
  ta.value = ta.value.slice(0, tok.start) + insert + ta.value.slice(tok.end);
  const caret = tok.start + insert.length;
  ta.setSelectionRange(caret, caret);
  ta.focus();
  chat.suggestions = [];
  $("#suggestions").hidden = true;
}

async function sendChat() {
  const ta = $("#chat-text");
  const text = ta.value.trim();
  if (!text) return;
  ta.value = "";
  $("#suggestions").hidden = true;
  const inj = await state.tool.invoke(text);
  const log = $("#chat-log");
  log.querySelector(".empty")?.remove();
  log.append(
    h("div", { class: "bubble user" }, h("div", { class: "who", text: "you" }), h("div", { class: "msg", text: text })),
    ...inj.injected.map((i) =>
      h(
        "div",
        { class: "bubble injected" },
        h("div", { class: "who", text: `injected ${i.kind === "slash" ? "/" : "$"}${i.name}${i.arguments ? ` · arguments: ${i.arguments}` : ""} · ${fmt.format(i.size)} bytes` }),
        h("details", { open: true }, h("summary", { text: "skill content (goes into the conversation)" }), h("pre", { class: "code small injection", text: i.content })),
      ),
    ),
    ...inj.unknown.map((u) => h("div", { class: "bubble warn", text: `/${u}: no user-invocable skill of that name; the message is sent as it is.` })),
    ...inj.errors.map((d) => h("div", { class: "bubble warn", text: `${d.code}: ${d.message}` })),
    h(
      "div",
      { class: "bubble sent" },
      h("div", { class: "who", text: "sent on to the model" }),
      h("div", { class: "msg remaining", text: inj.remaining || "(nothing else)" }),
    ),
  );
  log.scrollTop = log.scrollHeight;
  renderActivations();
}

// ---------------------------------------------------------------------------------------------
// Compaction preview
// ---------------------------------------------------------------------------------------------

function renderCompactionChoices() {
  const names = toolNames();
  const box = $("#compact-skills");
  const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  const pick = checked.size ? checked : new Set(names.slice(0, 4));
  put(box, 
    ...(names.length
      ? names.map((n) => h("label", { class: "chip check" }, h("input", { type: "checkbox", value: n, checked: pick.has(n) }), n))
      : [h("span", { class: "muted", text: "Add skills first." })]),
  );
  $("#compact-run").disabled = names.length === 0;
}

async function runCompaction() {
  const chosen = [...document.querySelectorAll("#compact-skills input:checked")].map((i) => i.value);
  if (chosen.length === 0) throw new Error("tick at least one skill");
  // A tool with its own session: the preview does not touch the model-turn session.
  const tool = new sw.SkillTool(state.registry, { toolName: TOOL_NAME });
  const messages = [{ role: "system", content: "You are a helpful coding agent." }];
  let id = 0;
  for (const name of chosen) {
    messages.push({ role: "user", content: [{ type: "text", text: `Please help me with something ${name} is for.` }] });
    const r = await tool.execute({ name, force: true });
    const callId = `call_${id++}`;
    messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: callId, toolName: TOOL_NAME, input: { name } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: callId, toolName: TOOL_NAME, output: { type: "text", value: r.content } }] });
    const bash = `call_${id++}`;
    messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: bash, toolName: "bash", input: { command: "ls" } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: bash, toolName: "bash", output: { type: "text", value: "README.md\nsrc\n" } }] });
    messages.push({ role: "assistant", content: [{ type: "text", text: `Done, following the ${name} skill.` }] });
  }
  const keepRecent = Math.max(0, Number($("#compact-keep").value) || 0);
  const perSkillTokens = Math.max(1, Number($("#compact-per-skill").value) || 5000);
  const opts = { format: "ai-sdk", toolName: TOOL_NAME, keepRecent };
  const found = sw.findSkillContent(messages, opts);
  const compacted = sw.compactSkillContent(messages, opts);
  if (compacted.error) throw new Error(compacted.error.message);
  const reattached = await tool.reattach(compacted.transcript, { ...opts, perSkillTokens, totalTokens: perSkillTokens * 5 });
  if (reattached.error) throw new Error(reattached.error.message);
  tool.free();

  const before = compacted.report.tokensBefore;
  const after = compacted.report.tokensAfter;
  const back = reattached.report.tokensAfter;
  const max = Math.max(before, after, back, 1);
  const bar = (label, tokens, cls, id) =>
    h(
      "div",
      { class: "bar-row" },
      h("span", { class: "bar-label", text: label }),
      h("span", { class: "bar-track" }, h("span", { class: `bar ${cls}`, style: `width:${Math.max(1, (100 * tokens) / max).toFixed(1)}%` })),
      h("span", { class: "bar-value", id, dataset: { tokens: String(tokens) }, text: `${fmt.format(tokens)} tokens` }),
    );
  const saved = before > 0 ? Math.round((100 * (before - after)) / before) : 0;
  const parts = [
    h("p", { class: "summary", text: `${messages.length} messages, ${plural(found.uses?.length ?? 0, "piece")} of skill content found. Compaction saves ${saved}% of the tokens; re-attachment brings back the catalog and ${plural(chosen.length - reattached.report.omitted.length, "skill")} in one message (a host re-attaches after dropping old turns, so it pays for what the session still needs, once).` }),
    h(
      "div",
      { class: "bars" },
      bar("transcript", before, "before", "tokens-before"),
      bar("compacted", after, "after", "tokens-after"),
      bar("+ re-attached", back, "back", "tokens-reattached"),
    ),
    h(
      "table",
      { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", { text: "message" }), h("th", { text: "skill" }), h("th", { text: "action" }), h("th", { text: "tokens" }))),
      h(
        "tbody",
        {},
        [...compacted.report.changes, ...reattached.report.changes].map((c) =>
          h("tr", {}, h("td", { text: String(c.index) }), h("td", { text: c.skill ?? "—" }), h("td", { text: c.action }), h("td", { text: `${fmt.format(c.tokensBefore)} → ${fmt.format(c.tokensAfter)}` })),
        ),
      ),
    ),
    reattached.report.omitted.length ? h("p", { class: "muted", text: `left out of re-attachment for the budget: ${reattached.report.omitted.join(", ")}` }) : null,
    details("A compacted tool result", JSON.stringify(compacted.transcript.find((m, i) => compacted.report.changes.some((c) => c.index === i)) ?? null, null, 2)),
    details("The re-attached message", JSON.stringify(reattached.transcript.at(-1), null, 2)),
    details("The whole transcript before", JSON.stringify(messages, null, 2)),
  ];
  put($("#compact-result"), ...parts.filter(Boolean));
}

function details(summary, text) {
  return h("details", {}, h("summary", { text: summary }), h("pre", { class: "code small", text }));
}

// ---------------------------------------------------------------------------------------------
// Wiring
// ---------------------------------------------------------------------------------------------

function showTab(name) {
  for (const b of document.querySelectorAll(".tabs button")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== `panel-${name}`;
}

function wire() {
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("#skill-filter").addEventListener("input", () => state.registry && renderSkillList());

  const folder = $("#folder-input");
  folder.addEventListener(
    "change",
    busy(folder, async () => {
      const list = [...folder.files].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
      folder.value = "";
      if (list.length) await addFromList(list, "the folder");
    }),
  );
  const zip = $("#zip-input");
  $("#pick-zip").addEventListener("click", () => zip.click());
  zip.addEventListener(
    "change",
    busy(zip, async () => {
      const list = [...zip.files].map((file) => ({ path: file.name, file }));
      zip.value = "";
      if (list.length) await addFromList(list, list[0].path);
    }),
  );

  const zone = $("#dropzone");
  zone.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      folder.click();
    }
  });
  for (const t of ["dragenter", "dragover"]) {
    document.addEventListener(t, (ev) => {
      ev.preventDefault();
      zone.classList.add("over");
    });
  }
  document.addEventListener("dragleave", (ev) => {
    if (ev.relatedTarget === null) zone.classList.remove("over");
  });
  document.addEventListener("drop", async (ev) => {
    ev.preventDefault();
    zone.classList.remove("over");
    // Take every entry now: the item list is emptied once the event handler yields.
    const roots = [...(ev.dataTransfer?.items ?? [])].map((i) => (i.kind === "file" ? i.webkitGetAsEntry?.() ?? i.getAsFile() : null)).filter(Boolean);
    try {
      const list = [];
      for (const r of roots) {
        if (r instanceof File) list.push({ path: r.name, file: r });
        else await walkEntry(r, "", list);
      }
      if (list.length) await addFromList(list, roots.length === 1 ? `“${roots[0].name}”` : "the drop");
    } catch (e) {
      toast(String(e?.message ?? e), "error");
    }
  });

  const examples = $("#load-examples");
  examples.addEventListener("click", busy(examples, loadExamples));
  const clear = $("#clear");
  clear.addEventListener(
    "click",
    busy(clear, async () => {
      const n = await clearAll();
      toast(`Removed ${plural(n, "file")} from IndexedDB`);
    }),
  );

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

  $("#turn-skill").addEventListener("change", () => renderPathOptions());
  const call = $("#turn-call");
  call.addEventListener("click", busy(call, callTool));
  $("#turn-reset").addEventListener("click", () => {
    state.session.clear();
    renderActivations();
    toast("A new session: the next activation returns the instructions in full");
  });

  const ta = $("#chat-text");
  ta.addEventListener("input", updateSuggestions);
  ta.addEventListener("click", updateSuggestions);
  ta.addEventListener("blur", () => setTimeout(() => ($("#suggestions").hidden = true), 100));
  ta.addEventListener("keydown", (ev) => {
    const open = !$("#suggestions").hidden && chat.suggestions.length > 0;
    if (open && (ev.key === "ArrowDown" || ev.key === "ArrowUp")) {
      ev.preventDefault();
      const n = chat.suggestions.length;
      chat.active = (chat.active + (ev.key === "ArrowDown" ? 1 : n - 1)) % n;
      drawSuggestions();
    } else if (open && (ev.key === "Tab" || ev.key === "Enter")) {
      ev.preventDefault();
      acceptSuggestion();
    } else if (open && ev.key === "Escape") {
      $("#suggestions").hidden = true;
    } else if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      send();
    }
  });
  const sendButton = $("#chat-send");
  const send = busy(sendButton, sendChat);
  sendButton.addEventListener("click", send);
  $("#chat-log").append(h("p", { class: "empty", text: "Messages you send appear here, with the skill content they inject." }));

  const run = $("#compact-run");
  run.addEventListener("click", busy(run, runCompaction));
}

async function main() {
  wire();
  const t0 = performance.now();
  await sw.init();
  timings.initMs = performance.now() - t0;
  state.storage = sw.indexedDbStorage(DB);
  state.session = new sw.SkillSession();
  await reload();
  timings.discoverMs = state.discover.ms;
  timings.readyMs = performance.now();
  document.body.dataset.ready = "true";
}

playground.ready = main().catch((e) => {
  $("#status").textContent = `Could not start: ${e?.message ?? e}`;
  $("#status").classList.add("error");
  throw e;
});
