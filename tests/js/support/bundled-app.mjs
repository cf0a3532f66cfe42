// An app with the package installed as a user has it (a copy of pkg/ in node_modules), for the
// bundler tests; and its built page loaded in Chromium from 127.0.0.1.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PKG } from "../helpers.mjs";
import { serveStatic } from "./static-server.mjs";

/** A temporary project directory holding `files` (relative path -> text) and the package. */
export function appProject(files) {
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-bundler-"));
  cpSync(PKG, path.join(dir, "node_modules", "skillwasm"), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}

/**
 * Serves `distDir`, opens `page` in `browser`, waits for the app to set `window.__result` (or
 * `window.__failed`), and gives back both with the requests that failed and the page's errors.
 */
export async function loadApp(browser, distDir, page = "/index.html") {
  const server = await serveStatic({ "/": distDir });
  const tab = await browser.newPage();
  const failed = [];
  tab.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  try {
    await tab.goto(`${server.url}${page}`);
    await tab.waitForFunction(() => window.__result !== undefined || window.__failed !== undefined, null, { timeout: 30_000 }).catch(() => {});
    const [result, thrown] = await tab.evaluate(() => [window.__result ?? null, window.__failed ?? null]);
    return { result, thrown, failed, errors };
  } finally {
    await tab.close();
    await server.close();
  }
}
