// Debian's Chromium as the browser tests launch it: the path, the flags this machine's closed
// network needs, and whether a missing browser skips (locally) or fails (under CI).
import { existsSync } from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";
export const ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
export const CI = Boolean(process.env.CI) && process.env.CI !== "false" && process.env.CI !== "0";
export const missing = !existsSync(CHROMIUM);
