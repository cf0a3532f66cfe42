// Two refreshes of one registry that overlap (the first not awaited before the second): the one
// that completes last was compared with records the other has replaced meanwhile, and must still
// leave a registry whose every answer agrees with itself and, after one more refresh, with the
// stores.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";

const { SkillRegistry, memoryStorage } = await importPkg();

const md = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const key = (dir) => `.agents/skills/${dir}/SKILL.md`;

test("a refresh that completes after an overlapping one is applied whole", async () => {
  const store = memoryStorage();
  for (let i = 0; i < 8; i++) store.put(key(`s${i}`), md(`s${i}`, `Skill ${i}.`));
  // Reads of `held` wait for `release` while `holding` is set (and say they have begun).
  let holding = false;
  let release;
  let begun;
  const released = new Promise((r) => (release = r));
  const reached = new Promise((r) => (begun = r));
  const held = key("s2");
  const gated = {
    location: store.location,
    list: (prefix, opts) => store.list(prefix, opts),
    async read(k, opts) {
      if (holding && k === held) {
        begun();
        await released;
      }
      return store.read(k, opts);
    },
  };
  const reg = await SkillRegistry.discover({ user: gated });
  assert.deepEqual(reg.names(), ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]);

  // Refresh A finds the same keys with s2 renamed, and waits in the read of s2.
  store.put(held, md("renamed", "Renamed."));
  holding = true;
  const first = reg.refresh();
  await reached;
  // Refresh B, after a skill was added, lists and reads everything and completes first.
  holding = false;
  store.put(key("added"), md("added", "Added."));
  const second = await reg.refresh();
  assert.deepEqual(second.added.map((r) => r.name), ["added"]);
  assert.ok(reg.names().includes("added"));
  release();
  // A listed before the skill was added: applied whole, it says so (it is not a report of the
  // one position A read again, taken against records of another layout).
  const report = await first;
  assert.deepEqual(report.removed.map((r) => r.name), ["added"]);
  assert.deepEqual([report.added.length, report.changed.length], [0, 0]);

  // Whatever A installed, the registry agrees with itself: every name it lists is found under
  // that name, with the skill of that name.
  for (const name of reg.names()) assert.equal(reg.get(name)?.name, name, name);
  const metas = reg.listMetas();
  assert.deepEqual(metas.map((m) => m.name), reg.names());
  // And one more refresh meets the stores as a new discovery does.
  await reg.refresh();
  const fresh = await SkillRegistry.discover({ user: store });
  assert.deepEqual(reg.names(), fresh.names());
  assert.deepEqual(reg.listMetas(), fresh.listMetas());
  assert.ok(reg.names().includes("renamed") && !reg.names().includes("s2"));
});
