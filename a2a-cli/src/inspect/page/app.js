// The inspector page's behaviour: load the card, pick an interface, chat with the agent (its
// answer streamed in), list its tasks, and follow the raw exchange.

import { chat, get, post } from "./api.js";
import { el, partsText, renderCard, renderExchange, renderTask, stateName } from "./render.js";

const $ = (id) => document.getElementById(id);
let lastSeq = 0;
let contextId = null;

function status(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

// The agent and interface chosen in the page.
function target() {
  const [binding, version] = ($("interface").value || "|").split("|");
  return { url: $("agent-url").value.trim(), binding: binding || null, version: version || null };
}

async function loadCard(event) {
  event?.preventDefault();
  status("Reading the card…");
  try {
    const info = await post("/api/card", { url: $("agent-url").value.trim() });
    renderCard($("card"), info);
    const select = $("interface");
    select.replaceChildren(...info.interfaces.map((i) =>
      el("option", { value: `${i.binding}|${i.version}` }, `${i.binding} ${i.version} · ${i.url}`)));
    select.disabled = info.interfaces.length === 0;
    $("send").disabled = info.interfaces.length === 0;
    $("refresh-tasks").disabled = info.interfaces.length === 0;
    contextId = null;
    status(info.interfaces.length ? `Card read: ${info.card.name}` : "The card offers no interface this page speaks", !info.interfaces.length);
    await refreshTasks();
  } catch (error) {
    status(error.message, true);
  }
  await refreshExchange();
}

// Shows one event of the answer (a task, a status or artifact update, or a message) in its bubble.
function showEvent(bubble, event) {
  const artifacts = bubble.artifacts;
  let state = bubble.dataset.state;
  bubble.dataset.events = String(Number(bubble.dataset.events ?? 0) + 1);
  if (event.task) {
    bubble.dataset.taskId = event.task.id;
    contextId = event.task.contextId;
    state = event.task.status?.state ?? state;
    for (const artifact of event.task.artifacts ?? []) artifacts.set(artifact.artifactId, partsText(artifact.parts));
    if (event.task.status?.message) artifacts.set("status", partsText(event.task.status.message.parts));
  } else if (event.statusUpdate) {
    bubble.dataset.taskId = event.statusUpdate.taskId;
    contextId = event.statusUpdate.contextId;
    state = event.statusUpdate.status?.state ?? state;
    if (event.statusUpdate.status?.message) artifacts.set("status", partsText(event.statusUpdate.status.message.parts));
  } else if (event.artifactUpdate) {
    const artifact = event.artifactUpdate.artifact;
    const before = event.artifactUpdate.append ? artifacts.get(artifact.artifactId) ?? "" : "";
    artifacts.set(artifact.artifactId, before + partsText(artifact.parts));
  } else if (event.message) {
    contextId = event.message.contextId ?? contextId;
    artifacts.set(event.message.messageId, partsText(event.message.parts));
    state = "message";
  }
  bubble.dataset.state = state;
  bubble.querySelector(".state").textContent = bubble.dataset.taskId
    ? `task ${bubble.dataset.taskId} · ${stateName(state)}`
    : stateName(state);
  bubble.querySelector(".text").textContent = [...artifacts.values()].join("\n");
}

async function send(event) {
  event.preventDefault();
  const text = $("message-text").value;
  if (!text) return;
  $("message-text").value = "";
  $("chat").append(el("li", { class: "user" }, text));
  const bubble = el("li", { class: "answer", "data-state": "sent" },
    el("span", { class: "state" }, "sent"), el("span", { class: "text" }));
  bubble.artifacts = new Map();
  $("chat").append(bubble);
  $("send").disabled = true;
  try {
    await chat({ ...target(), text, contextId }, (name, data) => {
      if (name === "event") showEvent(bubble, data);
      else if (name === "error") {
        bubble.dataset.error = data.error;
        bubble.querySelector(".text").textContent = `error: ${data.error}`;
      }
      refreshExchange();
    });
    status(bubble.dataset.error ? "The call failed" : `Answered over ${target().binding} ${target().version}`, !!bubble.dataset.error);
  } catch (error) {
    bubble.dataset.error = error.message;
    bubble.querySelector(".text").textContent = `error: ${error.message}`;
    status(error.message, true);
  }
  bubble.dataset.done = "true";
  $("send").disabled = false;
  await refreshTasks();
  await refreshExchange();
}

async function refreshTasks() {
  try {
    const listing = await post("/api/tasks", target());
    $("tasks-via").textContent = `${listing.tasks.length} task(s), by ${listing.via} over ${target().binding} ${target().version}`;
    $("tasks").replaceChildren(...listing.tasks.map(renderTask));
  } catch (error) {
    $("tasks-via").textContent = `The tasks could not be listed: ${error.message}`;
  }
}

let refreshing = false;
async function refreshExchange() {
  if (refreshing) return;
  refreshing = true;
  try {
    const { records } = await get(`/api/exchange?after=${lastSeq}`);
    if (records.length) {
      lastSeq = records[records.length - 1].seq;
      renderExchange($("exchange"), records);
    }
  } catch (error) {
    status(error.message, true);
  } finally {
    refreshing = false;
  }
}

$("agent-form").addEventListener("submit", loadCard);
$("chat-form").addEventListener("submit", send);
$("refresh-tasks").addEventListener("click", refreshTasks);
$("interface").addEventListener("change", () => { contextId = null; refreshTasks().then(refreshExchange); });

const config = await get("/api/config").catch((error) => { status(error.message, true); return {}; });
if (config.agentUrl) {
  $("agent-url").value = config.agentUrl;
  await loadCard();
}
document.body.dataset.ready = "true";
