// Tar archives for tests, hostile ones included: any name, any entry type, gzip'd by node:zlib.
import { gzipSync } from "node:zlib";

/** A ustar archive of [{ name, bytes?, type?, link? }] (type "0" file, "5" directory, "2" symlink,
 * "1" hard link); names are written as given, `..` and absolute ones too. */
export function tar(entries) {
  const blocks = [];
  for (const e of entries) {
    const h = Buffer.alloc(512);
    const data = Buffer.from(e.bytes ?? "");
    h.write(e.name, 0, 100, "utf8");
    h.write("0000644\0", 100);
    h.write("0000000\0", 108);
    h.write("0000000\0", 116);
    h.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
    h.write("00000000000\0", 136);
    h.write(e.type ?? "0", 156);
    if (e.link) h.write(e.link, 157, 100, "utf8");
    h.write("ustar\0", 257);
    h.write("00", 263);
    h.fill(" ", 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** `tar(entries)` gzip'd. */
export function tgz(entries) {
  return gzipSync(tar(entries));
}
