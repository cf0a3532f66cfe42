// The skills column and the header: every skill the registry found, shadowed ones, SKILL.md files
// the core refused, their diagnostic counts, and the registry's own notes.
import * as sw from "/pkg/browser.js";
import { counts, diagList, skillCounts, skillEntries } from "./diagnostics.js";
import { $, h, plural, put, showTab } from "./dom.js";
import { renderSkillDetail } from "./source.js";
import { state } from "./state.js";

/** The header: skills, files, what discovery cost, the package version. */
export function renderStatus() {
  const { skills, refused } = skillCounts(skillEntries().entries);
  const { ms, stats } = state.discover;
  put($("#status"),
    h("span", { class: "pill strong", text: plural(skills, "skill") }),
    refused > 0 ? h("span", { class: "pill error", text: `${refused} refused SKILL.md` }) : null,
    h("span", { class: "pill", text: `${plural(state.keys.length, "file")} in IndexedDB` }),
    h("span", { class: "pill", text: `${state.discover.report ? "refresh" : "discovery"} ${ms.toFixed(0)} ms · ${plural(stats.listCalls, "list")} · ${plural(stats.readCalls, "read")}` }),
    h("span", { class: "pill muted", text: `skillwasm ${sw.version()}` }),
  );
}

/** The skills column, and the registry notes under it. */
export function renderSkillList() {
  const { entries, notes } = skillEntries();
  const list = $("#skill-list");
  const { skills, refused } = skillCounts(entries);
  $("#skill-count").textContent = entries.length ? `${skills}${refused > 0 ? ` · ${refused} refused` : ""}` : "";
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
  put($("#registry-notes"), ...(notes.length ? [h("h3", { text: "Registry notes" }), diagList(notes)] : []));
}

function matchesFilter(e) {
  const q = $("#skill-filter").value.trim().toLowerCase();
  return q === "" || e.name.toLowerCase().includes(q) || (e.meta?.description ?? "").toLowerCase().includes(q);
}

/** Redraws the list when the filter changes. */
export function wireSkills() {
  $("#skill-filter").addEventListener("input", () => state.registry && renderSkillList());
}
