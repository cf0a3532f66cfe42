// Rust source made easy to search for paths: comments blanked, and a second copy with the
// contents of string and char literals blanked too. Both keep every offset and line break of the
// source, so that a position found in one is the same in the other and in the file.

/** Spaces for `s`, keeping its line breaks. */
export const blank = (s) => s.replace(/[^\n]/g, " ");

/** `{ code, bare }`: `src` without comments (`code`), and without string contents either (`bare`). */
export function lexRust(src) {
  let code = "";
  let bare = "";
  let i = 0;
  const n = src.length;
  const keep = (s) => {
    code += s;
    bare += s;
  };
  const drop = (s) => {
    code += blank(s);
    bare += blank(s);
  };
  const literal = (open, body, close) => {
    code += open + body + close;
    bare += open + blank(body) + close;
  };
  while (i < n) {
    const c = src[i];
    const prev = i > 0 ? src[i - 1] : "";
    if (c === "/" && src[i + 1] === "/") {
      const end = src.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      drop(src.slice(i, stop));
      i = stop;
    } else if (c === "/" && src[i + 1] === "*") {
      let depth = 0;
      let j = i;
      while (j < n) {
        if (src[j] === "/" && src[j + 1] === "*") {
          depth++;
          j += 2;
        } else if (src[j] === "*" && src[j + 1] === "/") {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else j++;
      }
      drop(src.slice(i, j));
      i = j;
    } else if (c === "r" && !/\w/.test(prev === "b" ? src[i - 2] ?? "" : prev) && /^r#*"/.test(src.slice(i, i + 260))) {
      const hashes = /^r(#*)"/.exec(src.slice(i, i + 260))[1];
      const open = `r${hashes}"`;
      const close = `"${hashes}`;
      const end = src.indexOf(close, i + open.length);
      const stop = end < 0 ? n : end;
      literal(open, src.slice(i + open.length, stop), end < 0 ? "" : close);
      i = stop + (end < 0 ? 0 : close.length);
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
      literal('"', src.slice(i + 1, j), j < n ? '"' : "");
      i = j + 1;
    } else if (c === "'" && (!/\w/.test(prev) || (prev === "b" && !/\w/.test(src[i - 2] ?? "")))) {
      // A char literal ('x', '\n', '\u{1F600}', a character outside the BMP) or a lifetime ('a).
      let j = -1;
      if (src[i + 1] === "\\") j = src.indexOf("'", i + 3);
      else if (src[i + 2] === "'") j = i + 2;
      else if (src[i + 3] === "'" && /[\uD800-\uDBFF]/.test(src[i + 1])) j = i + 3;
      if (j < 0) {
        keep(c);
        i++;
      } else {
        literal("'", src.slice(i + 1, j), "'");
        i = j + 1;
      }
    } else {
      keep(c);
      i++;
    }
  }
  return { code, bare };
}

/** The offset just past the bracket that closes the one at `open` (`{`/`}`, `[`/`]`, `(`/`)`). */
export function closing(bare, open) {
  const o = bare[open];
  const c = { "{": "}", "[": "]", "(": ")" }[o];
  let depth = 0;
  for (let j = open; j < bare.length; j++) {
    if (bare[j] === o) depth++;
    else if (bare[j] === c && --depth === 0) return j + 1;
  }
  return bare.length;
}

/** The 1-based line of offset `at` in `text`. */
export function lineOf(text, at) {
  let line = 1;
  for (let j = 0; j < at && j < text.length; j++) if (text[j] === "\n") line++;
  return line;
}
