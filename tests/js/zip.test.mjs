// The package's zip reader on its own: what skill-folder archives hold, and archives that lie.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";
import { zip } from "./support/zip.mjs";

const { unzip, ZipError } = await importPkg();
const skillMd = { rel: "pdf/SKILL.md", bytes: Buffer.from("---\nname: pdf\ndescription: d\n---\nbody\n") };

test("stored and deflated entries come back byte for byte", async () => {
  const files = await unzip(zip([skillMd, { rel: "pdf/data.bin", bytes: Buffer.from([0, 1, 2, 255]), method: 0 }]));
  assert.deepEqual(files.map((f) => [f.path, Buffer.from(f.bytes)]), [["pdf/SKILL.md", skillMd.bytes], ["pdf/data.bin", Buffer.from([0, 1, 2, 255])]]);
});

test("limits hold even when headers lie, and corruption is refused", async () => {
  const refused = async (bytes, limits, status, pattern) => {
    await assert.rejects(unzip(bytes, limits), (e) => e instanceof ZipError && e.status === status && pattern.test(e.message));
  };
  await refused(zip([{ rel: "bomb.bin", bytes: Buffer.alloc(4 << 20), declaredSize: 100 }]), { fileBytes: 1 << 20 }, 413, /inflates past the limit/);
  await refused(zip([skillMd, skillMd, skillMd]), { files: 2 }, 413, /more than 2 files/);
  await refused(zip([skillMd, { rel: "b", bytes: Buffer.alloc(3000), method: 0 }]), { uploadBytes: 2000 }, 413, /add up to more than/);
  const corrupt = zip([{ ...skillMd, method: 0 }]);
  corrupt[30 + skillMd.rel.length + 5] ^= 0xff;
  await refused(corrupt, {}, 400, /CRC mismatch/);
  await refused(zip([skillMd]).subarray(0, 40), {}, 400, /not a zip file/);
  await refused(Buffer.from("PK not really"), {}, 400, /not a zip file/);
});
