// Text that is not ASCII is lowered by the host's String.prototype.toLowerCase (the module carries
// no case tables): the name check and search see the same lowercase the Rust core's tables give.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ROOT, importPkg } from "./helpers.mjs";

const { parseSkill, SkillRegistry, memoryStorage } = await importPkg();

const codes = (name) => parseSkill(`---\nname: ${name}\ndescription: d\n---\n`).diagnostics.map((d) => d.code);

test("a name with an uppercase letter outside ASCII is not lowercase; its lowercase is", () => {
  for (const upper of ["École", "straßE", "ΣΊΣΥΦΟΣ", "İstanbul"]) {
    assert.ok(codes(upper).includes("name-not-lowercase"), upper);
  }
  for (const lower of ["école", "straße", "σίσυφος", "日本語"]) {
    assert.ok(!codes(lower).includes("name-not-lowercase"), lower);
  }
});

test("search matches words outside ASCII whatever their case", async () => {
  const store = memoryStorage({
    ".agents/skills/cafe/SKILL.md": "---\nname: cafe\ndescription: Bestellungen im CAFÉ über die Kasse.\n---\n",
    ".agents/skills/other/SKILL.md": "---\nname: other\ndescription: Something else entirely.\n---\n",
  });
  const reg = await SkillRegistry.discover({ user: store });
  assert.equal(reg.search("café")[0]?.name, "cafe");
  assert.equal(reg.search("ÜBER")[0]?.name, "cafe");
});

test("the name check lowers text as the shared table (tests/cases/lowercase.json) says", () => {
  const { cases } = JSON.parse(readFileSync(path.join(ROOT, "tests", "cases", "lowercase.json"), "utf8"));
  assert.ok(cases.length >= 10);
  for (const { text, lower } of cases) {
    assert.equal(codes(text).includes("name-not-lowercase"), text !== lower, text);
    assert.ok(!codes(lower).includes("name-not-lowercase"), lower);
  }
});
