//! The crate README's quickstart is `examples/durable_agent.rs` byte for byte (so `cargo test`, which
//! builds the examples, compiles what a new user pastes), after its `<!-- quickstart:sql -->` marker and a
//! `[dependencies]` block naming every package it imports at this crate's version.

use std::path::Path;

#[test]
fn the_readme_quickstart_is_the_example_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the crate's README");
    let example =
        std::fs::read_to_string(root.join("examples/durable_agent.rs")).expect("the example");
    let marker = "<!-- quickstart:sql -->\n";
    let after = &readme[readme.find(marker).expect("the quickstart marker") + marker.len()..];
    // Fences split the text into: what precedes the first block, its body, what lies between the
    // two blocks, the second body.
    let pieces: Vec<&str> = after.splitn(5, "```").collect();
    assert!(pieces.len() == 5, "two fenced blocks follow the marker");
    assert_eq!(pieces[0], "", "the toml block follows the marker at once");
    assert_eq!(
        pieces[2].trim(),
        "",
        "only blank lines between the two blocks"
    );
    let toml = pieces[1]
        .strip_prefix("toml\n")
        .expect("a toml block first");
    let rust = pieces[3].strip_prefix("rust\n").expect("then a rust block");
    assert_eq!(
        rust, example,
        "README.md's quickstart differs from examples/durable_agent.rs"
    );

    let version = env!("CARGO_PKG_VERSION");
    let minor = &version[..version.rfind('.').expect("a three-part version")];
    assert!(toml.starts_with("[dependencies]\n"), "{toml}");
    for (name, package) in [
        ("a2a-server", "a2a-spec-server"),
        ("a2a-server-sql", "a2a-spec-server-sql"),
        ("a2a-types", "a2a-spec-types"),
        ("a2a-protocol", "a2a-spec-protocol"),
    ] {
        let line = format!("{name} = {{ package = \"{package}\", version = \"{minor}\" }}");
        assert!(toml.contains(&line), "the toml block lacks {line}:\n{toml}");
        let import = name.replace('-', "_");
        assert!(
            rust.contains(&format!("use {import}::")),
            "the example does not import {import}, which the toml block names"
        );
    }
}
