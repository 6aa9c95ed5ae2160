//! Keeps the JSON-RPC documentation honest: the README's JSON-RPC example is the code the `jsonrpc`
//! module compiles and runs as a doctest.

use a2a_tests::workspace_root;

fn read(path: &str) -> String {
    std::fs::read_to_string(workspace_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
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
    let module = read("a2a-protocol/src/jsonrpc/mod.rs");
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
