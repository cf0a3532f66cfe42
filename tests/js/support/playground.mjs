// Starting the playground's own server (www-demo/serve.mjs) as a child process on a free port,
// as a person would (`node www-demo/serve.mjs 0`), and reading the URL it prints.
import { spawn } from "node:child_process";
import path from "node:path";
import { zip } from "./zip.mjs";
import { PKG, ROOT } from "../helpers.mjs";

export const SERVE = path.join(ROOT, "www-demo", "serve.mjs");

/** Resolves to { url, child, output(), close() } once the server printed its URL. */
export function startPlaygroundServer({ timeoutMs = 15_000 } = {}) {
  const child = spawn(process.execPath, [SERVE, "0"], {
    cwd: ROOT,
    env: { ...process.env, SKILLWASM_PKG: PKG, PORT: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const close = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      close();
      reject(new Error(`serve.mjs printed no URL within ${timeoutMs} ms: ${out}${err}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.mjs exited (${code}): ${out}${err}`));
    });
    child.stdout.on("data", (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child, output: () => out + err, close });
      }
    });
  });
}

/** A ZIP archive of `files` (path -> Buffer), deflated, as zip tools write it. */
export function makeZip(files) {
  return zip(Object.entries(files).map(([rel, bytes]) => ({ rel, bytes })));
}
