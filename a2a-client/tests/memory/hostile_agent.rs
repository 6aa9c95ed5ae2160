//! The hostile agents of the memory test, served from a child process (this same test binary run
//! with [`SERVE_FLAG`]), so that nothing they allocate is counted with the client: the test's
//! allocator sees only the client's process.
//!
//! One loopback server answers by path, each answer sized by the `{mib}` in its path and sent lazily
//! in 64 KiB chunks (the existing fakes of `tests/suite/agent.rs`):
//!
//! | path | answer |
//! |---|---|
//! | `/error-chunked/{mib}` | HTTP 500, `text/plain`, `{mib}` MiB, no length |
//! | `/error-length/{mib}` | HTTP 500 announcing `{mib}` MiB in `Content-Length`, then nothing |
//! | `/endless` | an event stream repeating one JSON-RPC status event forever |
//! | `/oversized/{mib}` | an event stream of one JSON-RPC event whose text is `{mib}` MiB |
//! | `/card-html/{mib}/.well-known/agent-card.json` | HTTP 200, `text/html`, `{mib}` MiB of HTML |
//!
//! A prefix matches deeper paths too, so `/error-chunked/5` also serves as a v0.3 HTTP+JSON interface
//! URL (its `GetTask` is `GET /error-chunked/5/v1/tasks/t-1`).
//!
//! It prints `{"base": "http://127.0.0.1:PORT"}` once it listens and exits when its standard input
//! closes.

use std::io::Read;

use axum::body::Body;
use axum::response::Response;
use serde_json::json;

use crate::agent::{Chunk, Recorded, rpc_event, serve, sse, streamed};

/// The argument that makes the test binary serve instead of measure.
pub const SERVE_FLAG: &str = "--serve-hostile-agent";

const CHUNK: usize = 64 * 1024;

/// `mib` MiB of `fill` in 64 KiB chunks.
fn chunks(mib: usize, fill: char) -> Vec<Chunk> {
    let chunk = fill.to_string().repeat(CHUNK);
    (0..mib * 1024 * 1024 / CHUNK)
        .map(|_| Chunk::Text(chunk.clone()))
        .collect()
}

/// The size a path names after `prefix`.
fn mib_after(path: &str, prefix: &str) -> Option<usize> {
    path.strip_prefix(prefix)?.split('/').next()?.parse().ok()
}

fn answer(request: &Recorded) -> Response {
    let path = request.path.as_str();
    if let Some(mib) = mib_after(path, "/error-chunked/") {
        return streamed(500, "text/plain", chunks(mib, 'e'));
    }
    if let Some(mib) = mib_after(path, "/error-length/") {
        return Response::builder()
            .status(500)
            .header("content-type", "application/json")
            .header("content-length", (mib * 1024 * 1024).to_string())
            .body(Body::from_stream(tokio_stream::pending::<
                Result<Vec<u8>, std::io::Error>,
            >()))
            .expect("response");
    }
    if path == "/endless" {
        let update = json!({"statusUpdate": {"taskId": "t-1", "contextId": "c-1",
            "status": {"state": "TASK_STATE_WORKING"}}});
        let Chunk::Text(event) = rpc_event(request, None, update) else {
            unreachable!("rpc_event gives text")
        };
        return sse(vec![Chunk::Forever(event)]);
    }
    if let Some(mib) = mib_after(path, "/oversized/") {
        let opening = format!(
            r#"data: {{"jsonrpc": "2.0", "id": {}, "result": {{"message": {{"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{{"text": ""#,
            request.body["id"]
        );
        let mut body = vec![Chunk::Text(opening)];
        body.extend(chunks(mib, 'x'));
        body.push(Chunk::Text("\"}]}}}\n\n".to_owned()));
        return sse(body);
    }
    if let Some(mib) = mib_after(path, "/card-html/") {
        let mut body = vec![Chunk::Text("<html><body>".to_owned())];
        body.extend(chunks(mib, 'h'));
        return streamed(200, "text/html", body);
    }
    streamed(
        404,
        "text/plain",
        vec![Chunk::Text("no such hostile agent".into())],
    )
}

/// Serves until standard input closes.
pub fn run() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let agent = runtime.block_on(serve(|request, _, _| answer(request)));
    println!("{}", json!({"base": agent.base}));
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    drop(agent);
}
