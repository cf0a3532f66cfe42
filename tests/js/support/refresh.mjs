// What every refresh must leave behind: a registry that answers as a new discovery over the same
// store does (its names, metas and diagnostics), whatever the refresh skipped or read again.
import assert from "node:assert/strict";
import { importPkg } from "../helpers.mjs";

const { SkillRegistry } = await importPkg();

/** The registry's answers, to compare with a new discovery's. */
export const answers = (reg) => JSON.stringify([reg.names(), reg.listMetas(), reg.diagnostics()]);

/** Asserts that `reg` answers as a new discovery over `storage`, as scope `user`, does. */
export async function agreesWithDiscovery(reg, storage) {
  const fresh = await SkillRegistry.discover({ user: storage });
  assert.equal(answers(reg), answers(fresh));
}
