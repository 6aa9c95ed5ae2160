// Builds the page's pieces from the agent's JSON (A2A v1 ProtoJSON): the card, a message's or an
// artifact's parts, a task, the raw exchange. Text from the agent only ever goes in as text
// (`textContent`), never as markup.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// `TASK_STATE_INPUT_REQUIRED` as `input required`.
export function stateName(state) {
  return String(state ?? "unknown").replace(/^TASK_STATE_/, "").replaceAll("_", " ").toLowerCase();
}

// The parts as text: text as is, data as JSON, files by name and type.
export function partsText(parts = []) {
  return parts
    .map((part) => {
      if (part.text !== undefined) return part.text;
      if (part.data !== undefined) return JSON.stringify(part.data, null, 2);
      const kind = part.url !== undefined ? `link ${part.url}` : "file";
      return `[${kind} ${part.filename ?? ""} ${part.mediaType ?? ""}]`.replace(/\s+]/, "]");
    })
    .join("\n");
}

export function renderCard(container, info) {
  const card = info.card;
  const violations = info.violations ?? [];
  const validity = violations.length
    ? el("div", {},
        el("p", { id: "card-validity", class: "invalid" }, `Not valid: ${violations.length} violation(s) of the card rules`),
        el("ul", { id: "card-violations" }, violations.map((v) => el("li", {}, el("code", {}, v.field), ": ", v.description))))
    : el("p", { id: "card-validity", class: "valid" }, "Valid: the card follows the card rules");
  const signatures = info.signatures ?? {};
  const capabilities = Object.entries(card.capabilities ?? {})
    .filter(([, value]) => value === true)
    .map(([name]) => name);
  container.replaceChildren(
    el("h3", { id: "card-name" }, card.name),
    el("p", {}, card.description),
    el("table", {},
      el("tr", {}, el("th", {}, "version"), el("td", {}, card.version)),
      el("tr", {}, el("th", {}, "document"), el("td", {}, `A2A ${info.documentVersion} card`)),
      card.provider ? el("tr", {}, el("th", {}, "provider"), el("td", {}, `${card.provider.organization} (${card.provider.url})`)) : null,
      el("tr", {}, el("th", {}, "capabilities"), el("td", {}, capabilities.join(", ") || "none")),
      el("tr", {}, el("th", {}, "signatures"), el("td", { id: "card-signatures" }, `${signatures.status}: ${signatures.detail}`))),
    validity,
    el("h3", {}, "Interfaces"),
    el("table", {}, (card.supportedInterfaces ?? []).map((i) =>
      el("tr", {}, el("td", {}, i.protocolBinding), el("td", {}, i.protocolVersion), el("td", {}, el("code", {}, i.url))))),
    el("h3", {}, "Skills"),
    el("ul", {}, (card.skills ?? []).map((skill) =>
      el("li", {}, el("strong", {}, skill.name), ` (${skill.id}): ${skill.description ?? ""}`))),
    el("details", {}, el("summary", {}, "The card's JSON"), el("pre", {}, JSON.stringify(card, null, 2))),
  );
}

export function renderTask(task) {
  const history = (task.history ?? []).map((message) =>
    el("li", {}, el("strong", {}, message.role === "ROLE_AGENT" ? "agent" : "user"), ": ", partsText(message.parts)));
  const artifacts = (task.artifacts ?? []).map((artifact) =>
    el("li", {}, el("strong", {}, artifact.name ?? artifact.artifactId), ": ", el("pre", {}, partsText(artifact.parts))));
  return el("details", { class: "task", "data-task-id": task.id, open: "" },
    el("summary", {}, `${task.id} · ${stateName(task.status?.state)}`),
    el("p", { class: "muted" }, `context ${task.contextId}`),
    el("h3", {}, "History"),
    history.length ? el("ol", {}, history) : el("p", { class: "muted" }, "none"),
    el("h3", {}, "Artifacts"),
    artifacts.length ? el("ul", {}, artifacts) : el("p", { class: "muted" }, "none"));
}

// Appends the exchange records to the container, grouped by exchange (one request and its answer).
export function renderExchange(container, records) {
  for (const record of records) {
    let group = container.querySelector(`[data-exchange="${record.exchange}"]`);
    if (!group) {
      group = el("details", { class: "exchange", "data-exchange": record.exchange, "data-binding": record.binding },
        el("summary", {}, `#${record.exchange} ${record.binding} ${record.operation}`));
      container.prepend(group);
    }
    group.append(renderRecord(record));
  }
}

function renderRecord(record) {
  const headers = (record.headers ?? []).map(([name, value]) => `${name}: ${value}`).join("\n");
  const size = record.size !== undefined ? ` (${record.size} bytes${record.encoding === "protobuf" ? " of protobuf" : ""})` : "";
  const title = {
    request: `→ ${record.method} ${record.url}`,
    response: `← ${record.status}`,
    body: `← body${size}`,
    status: `← ${record.status}`,
  }[record.kind] ?? record.kind;
  return el("div", { class: `record ${record.kind}` },
    el("div", {}, el("strong", {}, title)),
    headers ? el("pre", {}, headers) : null,
    record.kind === "request" && size ? el("div", { class: "muted" }, `body${size}`) : null,
    record.hex ? el("pre", { class: "muted" }, `protobuf: ${record.hex}${record.size > 64 ? "…" : ""}`) : null,
    record.body ? el("pre", {}, record.body) : null);
}
