// What the playground's views share: its settings, its state, the timings it reports, and the
// package's naming rules (read once the wasm is ready).
import * as sw from "/pkg/browser.js";

export const DB = { dbName: "skillwasm-playground", storeName: "files" };
export const ROOT = ".agents/skills/";
export const TOOL_NAME = "view_skill";
export const MAX_FILE_BYTES = 2 * 1024 * 1024; // larger files are not stored (the tool refuses over 256 KiB anyway)
export const REPAIRS = /^(yaml-repair-|yaml-duplicate-key$)/;

export const state = {
  storage: null,
  registry: null,
  tool: null,
  session: null,
  keys: [], // every { key, size } under ROOT
  selected: null, // a location
  catalog: { format: "xml", location: true, locale: "", budget: null, full: 0 },
  discover: null,
};

/** Timings, reported to the console and the browser test. */
export const timings = {};

let names;
/** The file names that make a directory a skill, as the core says (`SKILL.md`, `skill.md`). */
export function skillFileNames() {
  names ??= sw.skillFileNames({ acceptLowercaseSkillMd: true });
  return names;
}

/** Whether a path's last segment names a SKILL.md. */
export function isSkillFile(path) {
  return skillFileNames().includes(String(path).split("/").at(-1));
}

/** Set by app.js: discover or refresh, then draw everything again. */
export const hooks = { reload: async (_opts) => {} };
