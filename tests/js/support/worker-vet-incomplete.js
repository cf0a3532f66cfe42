// The package as the example Worker imports it ("skillwasm"), but with the vetting of an upload
// (a registry discovered over the scope "upload") reporting that it could not read every file, as
// `vet(name)` does beyond the per-skill limits: the Worker's own limits keep an upload within
// them, so only this stand-in gives the Worker such a report to pass on.
import { SkillRegistry as Package } from "skillwasm-package";

export * from "skillwasm-package";

/** The vetting error the stand-in adds. */
const INCOMPLETE = Object.freeze({
  severity: "error",
  code: "vet-incomplete",
  message: "the skill has 600 files; the first 512 were vetted",
});

export const SkillRegistry = new Proxy(Package, {
  get(target, key) {
    if (key !== "discover") return Reflect.get(target, key);
    return async function discover(options) {
      const registry = await target.discover(options);
      if (options?.scopes?.[0]?.name === "upload") {
        const vet = registry.vet.bind(registry);
        registry.vet = async (...args) => ({ ...(await vet(...args)), error: { ...INCOMPLETE } });
      }
      return registry;
    };
  },
});
