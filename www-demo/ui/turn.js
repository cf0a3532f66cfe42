// A model turn through the skill tool: pick a skill (and a file), call SkillTool.execute, and see
// the call, what the model reads, what a chat UI shows, and the session's activations.
import { $, busy, fmt, h, put, showTab, toast } from "./dom.js";
import { TOOL_NAME, state } from "./state.js";

export function toolNames() {
  const def = state.tool.definition();
  return def?.inputSchema?.properties?.name?.enum ?? [];
}

export function renderTurnControls() {
  const names = toolNames();
  const sel = $("#turn-skill");
  const keep = sel.value;
  sel.replaceChildren(...names.map((n) => h("option", { value: n, text: n })));
  if (names.includes(keep)) sel.value = keep;
  $("#turn-call").disabled = names.length === 0;
  renderPathOptions();
  $("#turn-definition").textContent = JSON.stringify(state.tool.definition(), null, 2);
}

export function renderPathOptions(preset) {
  const name = $("#turn-skill").value;
  const meta = name ? state.registry.get(name) : null;
  const sel = $("#turn-path");
  const opts = [h("option", { value: "", text: "(instructions)" })];
  if (meta) {
    const dir = `${meta.directory}/`;
    for (const k of state.keys) {
      if (k.key.startsWith(dir) && k.key !== meta.location) opts.push(h("option", { value: k.key.slice(dir.length), text: k.key.slice(dir.length) }));
    }
  }
  sel.replaceChildren(...opts);
  if (preset !== undefined) sel.value = preset;
}

export function openTurn(name, path) {
  $("#turn-skill").value = name;
  renderPathOptions(path);
  showTab("turn");
}

async function callTool() {
  const name = $("#turn-skill").value;
  const path = $("#turn-path").value;
  const input = { name };
  if (path) input.path = path;
  if ($("#turn-force").checked) input.force = true;
  const r = await state.tool.execute(input);
  const call = { type: "tool-call", toolName: TOOL_NAME, input };
  put($("#turn-result"), 
    h(
      "div",
      { class: "turn" },
      h("div", { class: "bubble model" }, h("div", { class: "who", text: "model → tool call" }), h("pre", { class: "code small", text: JSON.stringify(call, null, 2) })),
      h(
        "div",
        { class: "flags" },
        r.isError ? h("span", { class: "badge error", text: `error: ${r.error?.code ?? "tool error"}` }) : h("span", { class: "badge ok", text: "ok" }),
        r.alreadyLoaded ? h("span", { class: "badge info", text: "already loaded: pointer returned" }) : null,
        h("span", { class: "badge", text: `${fmt.format(r.size)} bytes behind it` }),
        h("span", { class: "badge", text: `${fmt.format(r.content.length)} chars to the model` }),
      ),
      h("div", { class: "two" },
        h("div", {}, h("h4", { text: "content — what the model reads" }), h("pre", { class: "code result", id: "turn-content", text: r.content })),
        h("div", {}, h("h4", { text: "client — what the chat UI shows" }), h("pre", { class: "code result", id: "turn-client", text: JSON.stringify(r.client, null, 2) })),
      ),
    ),
  );
  renderActivations();
}

export function renderActivations() {
  const acts = state.session.activations();
  const body = $("#turn-activations tbody");
  put(body, 
    ...(acts.length
      ? acts.map((a) =>
          h("tr", {}, h("td", { text: String(a.index) }), h("td", { text: a.name }), h("td", { text: a.path ?? "—" }), h("td", { text: fmt.format(a.size) }), h("td", { text: new Date(a.at).toLocaleTimeString() })),
        )
      : [h("tr", {}, h("td", { colspan: "5", class: "muted", text: "Nothing loaded in this session yet." }))]),
  );
}

/** The skill picker, the call button, and a new session. */
export function wireTurn() {
  $("#turn-skill").addEventListener("change", () => renderPathOptions());
  const call = $("#turn-call");
  call.addEventListener("click", busy(call, callTool));
  $("#turn-reset").addEventListener("click", () => {
    state.session.clear();
    renderActivations();
    toast("A new session: the next activation returns the instructions in full");
  });
}
