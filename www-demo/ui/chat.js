// The chat box: `/skill` (at the start) and `$skill` (anywhere) autocompleted from the registry,
// and a message sent through tool.invoke, showing what it injects and what goes on to the model.
import * as sw from "/pkg/browser.js";
import { $, busy, fmt, h, put } from "./dom.js";
import { state } from "./state.js";
import { renderActivations } from "./turn.js";

const chat = { suggestions: [], active: 0, token: null };

/** The `/partial` (at the start) or `$partial` token being typed at the caret, or null. */
function tokenAtCaret(text, caret) {
  const before = text.slice(0, caret);
  const slash = /^\/([\w.-]*)$/.exec(before);
  if (slash) return { kind: "/", partial: slash[1], start: 0, end: caret };
  const mention = /(^|\s)\$([\w.-]*)$/.exec(before);
  if (mention) return { kind: "$", partial: mention[2], start: caret - mention[2].length - 1, end: caret };
  return null;
}

function updateSuggestions() {
  const ta = $("#chat-text");
  const tok = tokenAtCaret(ta.value, ta.selectionStart ?? ta.value.length);
  const box = $("#suggestions");
  chat.token = tok;
  chat.suggestions = tok ? sw.autocomplete(state.registry, tok.partial, 8) : [];
  chat.active = 0;
  if (chat.suggestions.length === 0) {
    box.hidden = true;
    put(box, );
    return;
  }
  drawSuggestions();
  box.hidden = false;
}

function drawSuggestions() {
  put($("#suggestions"), 
    ...chat.suggestions.map((s, i) =>
      h(
        "li",
        {
          role: "option",
          class: `suggestion${i === chat.active ? " active" : ""}`,
          "aria-selected": String(i === chat.active),
          onmousedown: (ev) => {
            ev.preventDefault();
            chat.active = i;
            acceptSuggestion();
          },
        },
        h("span", { class: "s-name", text: `${chat.token.kind}${s.name}` }),
        s.argumentHint ? h("span", { class: "s-hint", text: s.argumentHint }) : null,
        h("span", { class: "s-kind", text: s.matchKind }),
        h("span", { class: "s-desc", text: s.description }),
      ),
    ),
  );
}

function acceptSuggestion() {
  const s = chat.suggestions[chat.active];
  const tok = chat.token;
  if (!s || !tok) return;
  const ta = $("#chat-text");
  const insert = `${tok.kind}${s.name} `;
  ta.value = ta.value.slice(0, tok.start) + insert + ta.value.slice(tok.end);
  const caret = tok.start + insert.length;
  ta.setSelectionRange(caret, caret);
  ta.focus();
  chat.suggestions = [];
  $("#suggestions").hidden = true;
}

async function sendChat() {
  const ta = $("#chat-text");
  const text = ta.value.trim();
  if (!text) return;
  ta.value = "";
  $("#suggestions").hidden = true;
  const inj = await state.tool.invoke(text);
  const log = $("#chat-log");
  log.querySelector(".empty")?.remove();
  log.append(
    h("div", { class: "bubble user" }, h("div", { class: "who", text: "you" }), h("div", { class: "msg", text: text })),
    ...inj.injected.map((i) =>
      h(
        "div",
        { class: "bubble injected" },
        h("div", { class: "who", text: `injected ${i.kind === "slash" ? "/" : "$"}${i.name}${i.arguments ? ` · arguments: ${i.arguments}` : ""} · ${fmt.format(i.size)} bytes` }),
        h("details", { open: true }, h("summary", { text: "skill content (goes into the conversation)" }), h("pre", { class: "code small injection", text: i.content })),
      ),
    ),
    ...inj.unknown.map((u) => h("div", { class: "bubble warn", text: `/${u}: no user-invocable skill of that name; the message is sent as it is.` })),
    ...inj.errors.map((d) => h("div", { class: "bubble warn", text: `${d.code}: ${d.message}` })),
    h(
      "div",
      { class: "bubble sent" },
      h("div", { class: "who", text: "sent on to the model" }),
      h("div", { class: "msg remaining", text: inj.remaining || "(nothing else)" }),
    ),
  );
  log.scrollTop = log.scrollHeight;
  renderActivations();
}

/** Typing, the suggestion keys, and the send button. */
export function wireChat() {
  const ta = $("#chat-text");
  ta.addEventListener("input", updateSuggestions);
  ta.addEventListener("click", updateSuggestions);
  ta.addEventListener("blur", () => setTimeout(() => ($("#suggestions").hidden = true), 100));
  ta.addEventListener("keydown", (ev) => {
    const open = !$("#suggestions").hidden && chat.suggestions.length > 0;
    if (open && (ev.key === "ArrowDown" || ev.key === "ArrowUp")) {
      ev.preventDefault();
      const n = chat.suggestions.length;
      chat.active = (chat.active + (ev.key === "ArrowDown" ? 1 : n - 1)) % n;
      drawSuggestions();
    } else if (open && (ev.key === "Tab" || ev.key === "Enter")) {
      ev.preventDefault();
      acceptSuggestion();
    } else if (open && ev.key === "Escape") {
      $("#suggestions").hidden = true;
    } else if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      send();
    }
  });
  const sendButton = $("#chat-send");
  const send = busy(sendButton, sendChat);
  sendButton.addEventListener("click", send);
  $("#chat-log").append(h("p", { class: "empty", text: "Messages you send appear here, with the skill content they inject." }));
}
