// How the CLI writes to a terminal: colour only on a TTY (NO_COLOR turns it off, FORCE_COLOR on),
// and progress lines on stderr only on a TTY or when asked for. Printing only: no skill logic.

/**
 * Whether to colour what goes to `stream`: FORCE_COLOR (other than "0" or "false") forces it,
 * NO_COLOR (any non-empty value) or FORCE_COLOR=0 turns it off, else only on a TTY.
 * @param {{ isTTY?: boolean }} stream
 */
export function colourFor(stream, env = process.env) {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return stream.isTTY === true;
}

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39], dim: [2, 22], bold: [1, 22] };

/** The styles for `stream`: each wraps text in ANSI codes when colour is on, else returns it. */
export function stylesFor(stream) {
  const on = colourFor(stream);
  const styles = {};
  for (const [name, [open, close]] of Object.entries(CODES)) {
    styles[name] = (text) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : String(text));
  }
  /** A diagnostic's severity in its colour. */
  styles.severity = (s) => (s === "error" ? styles.red(s) : s === "warning" ? styles.yellow(s) : styles.cyan(s));
  return styles;
}

/**
 * Progress on stderr: shown when `wanted` (--progress) or, for `large` work, on a TTY. On a TTY
 * the line is rewritten in place; otherwise each update is a line.
 * @param {{ wanted: boolean, large: boolean }} when
 */
export function progress({ wanted, large }, stream = process.stderr) {
  const tty = stream.isTTY === true;
  const shown = wanted || (large && tty);
  let last = 0;
  return {
    shown,
    tty,
    /** Reports `text`; on a TTY at most every 100 ms unless `force`. */
    update(text, force = false) {
      if (!shown) return;
      const now = Date.now();
      if (tty && !force && now - last < 100) return;
      last = now;
      stream.write(tty ? `\r\u001b[2K${text}` : `${text}\n`);
    },
    /** Ends the progress (clears the TTY line). */
    done(text) {
      if (!shown) return;
      if (tty) stream.write("\r\u001b[2K");
      if (text !== undefined) stream.write(`${text}\n`);
    },
  };
}

/**
 * A diagnostic as a line for a person, compiler style: `<file>:<line>: <severity>: <code>:
 * <message>`. The core names a skill's file `<scope>:<key>`; `roots` maps a scope to the
 * directory its store reads, so that the file is named as a path the user can open. A path of
 * another scope is shown as the core gives it; a diagnostic without a path has no file part.
 * @param {{ severity: string, code: string, message: string, path?: string, line?: number }} d
 * @param {Record<string, string>} roots
 * @param {ReturnType<typeof stylesFor>} [style]
 */
export function diagnosticLine(d, roots = {}, style = stylesFor({})) {
  let file = typeof d.path === "string" && d.path !== "" ? d.path : null;
  if (file !== null) {
    const colon = file.indexOf(":");
    const root = colon > 0 && Object.hasOwn(roots, file.slice(0, colon)) ? roots[file.slice(0, colon)] : undefined;
    if (root !== undefined) file = `${root.replace(/\/+$/, "")}/${file.slice(colon + 1)}`;
  }
  const where = file === null ? "" : `${file}${Number.isInteger(d.line) && d.line > 0 ? `:${d.line}` : ""}: `;
  return `${where}${style.severity(d.severity)}: ${d.code}: ${d.message}`;
}
