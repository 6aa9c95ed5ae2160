//! Keeps the JSON-RPC glue small and its documentation honest: the protocol glue of
//! `a2a-types/examples/jsonrpc_agent.rs` (card, five methods, streaming, errors, the version header,
//! on axum) stays under 60 lines, and the README's JSON-RPC example is the code the `jsonrpc` module
//! compiles and runs as a doctest.

use a2a_tests::workspace_root;

fn read(path: &str) -> String {
    std::fs::read_to_string(workspace_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of code between the example's glue markers: blank lines and comments not counted.
fn glue_lines(source: &str) -> Vec<&str> {
    let start = source
        .find("// --- protocol glue ---")
        .expect("the example marks where its protocol glue starts");
    let end = source
        .find("// --- end of protocol glue ---")
        .expect("the example marks where its protocol glue ends");
    assert!(start < end, "the glue markers are in order");
    source[start..end]
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
        .collect()
}

#[test]
fn the_example_agent_needs_under_60_lines_of_glue() {
    let source = read("a2a-types/examples/jsonrpc_agent.rs");
    let lines = glue_lines(&source);
    eprintln!("jsonrpc_agent.rs: {} lines of protocol glue", lines.len());
    // The glue really is the protocol: it reads requests, checks the version and answers with SSE.
    for needle in [
        "JsonRpcRequest::parse",
        "A2A_VERSION_HEADER",
        "sse::encode_json",
        "MEDIA_TYPE_EVENT_STREAM",
    ] {
        assert!(
            lines.iter().any(|line| line.contains(needle)),
            "the glue uses {needle}"
        );
    }
    assert!(
        lines.len() < 60,
        "{} lines of glue:\n{}",
        lines.len(),
        lines.join("\n")
    );
}

#[test]
fn glue_lines_are_counted_without_blanks_and_comments() {
    let source = "fn a() {}\n// --- protocol glue ---\n\nfn b() {\n    // why\n    1\n}\n// --- end of protocol glue ---\nfn c() {}\n";
    assert_eq!(glue_lines(source), ["fn b() {", "1", "}"]);
}

/// The first Rust code block after `marker` in a Markdown text.
fn rust_block_after<'a>(markdown: &'a str, marker: &str) -> &'a str {
    let from = markdown
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} not found"));
    let rest = &markdown[from..];
    let start = rest.find("```rust\n").expect("a Rust block follows") + "```rust\n".len();
    let end = rest[start..].find("```").expect("the block ends") + start;
    &rest[start..end]
}

#[test]
fn the_readme_jsonrpc_example_is_the_doctest() {
    let readme = read("README.md");
    let in_readme = rust_block_after(&readme, "Answering one JSON-RPC request");
    let module = read("a2a-types/src/jsonrpc.rs");
    let docs: String = module
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| format!("{}\n", line.strip_prefix(' ').unwrap_or(line)))
        .collect();
    let start = docs
        .find("# Answering a request")
        .expect("the module documents answering a request");
    let doctest = &docs[start..];
    let code_start = doctest.find("```\n").expect("a doctest") + 4;
    let code_end = doctest[code_start..].find("```").expect("the doctest ends") + code_start;
    assert_eq!(in_readme, &doctest[code_start..code_end]);
}
