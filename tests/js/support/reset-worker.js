// A Worker for the trap-recovery test (instance-reset.test.mjs), loaded by workerd.mjs beside the
// package files with the scenario module. Routes:
//
//   GET /parse      parse a small SKILL.md: { name, resets, keptRegistry }
//   GET /trap       a trap the Worker does not catch: the request fails (HTTP 500)
//   GET /keep       discover a registry and keep it in the isolate for later requests
//   GET /scenario   the whole scenario (support/instance-reset.mjs): its report
import * as sw from "./workerd.js";
import { resetScenario, trapInputs } from "./__test_instance-reset.mjs";

const DOC = "---\nname: demo\ndescription: A demo skill.\n---\nDemo body.\n";
let kept = null;

function keptState() {
  if (kept === null) return null;
  try {
    return { names: kept.names() };
  } catch (e) {
    return { threw: e.name, message: e.message };
  }
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    switch (url.pathname) {
      case "/parse":
        return Response.json({ name: sw.parseSkill(DOC).skill?.name ?? null, resets: sw.instanceResets(), keptRegistry: keptState() });
      case "/trap":
        sw.parseSkill(trapInputs.lying());
        return new Response("the trap did not happen", { status: 200 });
      case "/keep":
        kept = await sw.SkillRegistry.discover({ builtin: sw.memoryStorage({ ".agents/skills/demo/SKILL.md": DOC }) });
        return Response.json({ names: kept.names() });
      case "/scenario":
        return Response.json(await resetScenario(sw, url.searchParams.get("input") ?? "lying"));
      default:
        return new Response("not found", { status: 404 });
    }
  },
};
