// The skillwasm playground: skills in IndexedDB, everything else done by the package's wasm core.
// This module starts the page and wires the views (ui/): importing skills (files.js), the skills
// and their diagnostics (skills.js, source.js, diagnostics.js), the catalog (catalog.js), a model
// turn (turn.js), the chat (chat.js) and the compaction preview (compaction.js).
import * as sw from "/pkg/browser.js";
import { wireCatalog, renderCatalog } from "./ui/catalog.js";
import { wireChat } from "./ui/chat.js";
import { renderCompactionChoices, wireCompaction } from "./ui/compaction.js";
import { $, busy, h, plural, showTab, toast } from "./ui/dom.js";
import { addFiles, addFromList, clearAll, listAll, loadExamples, walkEntry } from "./ui/files.js";
import { skillEntries } from "./ui/diagnostics.js";
import { renderSkillList, renderStatus, wireSkills } from "./ui/skills.js";
import { renderSkillDetail } from "./ui/source.js";
import { DB, ROOT, TOOL_NAME, hooks, state, timings } from "./ui/state.js";
import { renderActivations, renderTurnControls, wireTurn } from "./ui/turn.js";

/** A small scripting surface (the console, and the browser test). */
const playground = { timings, addFiles, clearAll, state };
window.playground = playground;

/** Discovery the first time, refresh() after a change; then every view again. */
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
    // Counted as the header counts: a SKILL.md the core refused is not an added skill.
    const refused = new Set(skillEntries().entries.filter((e) => e.kind === "refused").map((e) => e.location));
    const parts = [];
    for (const k of ["added", "changed", "removed"]) {
      const bad = k === "removed" ? 0 : report[k].filter((r) => refused.has(r.location)).length;
      if (report[k].length - bad > 0) parts.push(`${report[k].length - bad} ${k}`);
      if (bad > 0) parts.push(`${bad} refused`);
    }
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

hooks.reload = reload;

function wire() {
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));

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

  wireSkills();
  wireCatalog();
  wireTurn();
  wireChat();
  wireCompaction();
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
  // The catalog is on screen; invocation, autocomplete and compaction need the rest of the
  // package, which init() left loading in the background.
  await sw.ready();
  timings.readyMs = performance.now();
  document.body.dataset.ready = "true";
}

playground.ready = main().catch((e) => {
  $("#status").textContent = `Could not start: ${e?.message ?? e}`;
  $("#status").classList.add("error");
  throw e;
});
