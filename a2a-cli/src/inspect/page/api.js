// The page's calls to its own server, and nothing else: each carries the run's token (from the
// page's address), sends and reads JSON; a chat answer is read as server-sent events.

const token = new URLSearchParams(location.search).get("token") ?? "";
const headers = { "content-type": "application/json", "x-a2a-inspect-token": token };

async function answer(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

export async function get(path) {
  return answer(await fetch(path, { headers }));
}

export async function post(path, body) {
  return answer(await fetch(path, { method: "POST", headers, body: JSON.stringify(body) }));
}

// Sends a chat message; `onEvent(name, data)` is called for each server-sent event as it arrives.
export async function chat(body, onEvent) {
  const response = await fetch("/api/chat", { method: "POST", headers, body: JSON.stringify(body) });
  if (!response.ok) return answer(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) onEvent(event.name, event.data);
    }
  }
}

function parseEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  return data.length ? { name, data: JSON.parse(data.join("\n")) } : null;
}
