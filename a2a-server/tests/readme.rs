//! The README's server quickstart is this crate's `examples/quickstart.rs`, byte for byte (so CI
//! compiles what a new user pastes), at most 40 lines, after its `<!-- quickstart:server -->` marker,
//! with a `[dependencies]` block naming the published packages at this crate's version.

use std::path::Path;

const MARKER: &str = "<!-- quickstart:server -->";

/// The body of the first fenced block of `language` in `text`, and what follows it.
fn fenced<'a>(text: &'a str, language: &str) -> (&'a str, &'a str) {
    let open = format!("```{language}\n");
    let start = text
        .find(&open)
        .unwrap_or_else(|| panic!("no ```{language} block"))
        + open.len();
    let end = start + text[start..].find("```\n").expect("the block is closed");
    (&text[start..end], &text[end + 4..])
}

#[test]
fn the_readme_quickstart_is_the_example_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../README.md")).expect("the README");
    let example =
        std::fs::read_to_string(root.join("examples/quickstart.rs")).expect("the example");
    let after = &readme[readme.find(MARKER).expect("the quickstart marker") + MARKER.len()..];
    let (toml, rest) = fenced(after, "toml");
    let (rust, _) = fenced(rest, "rust");
    assert!(
        rest.trim_start().starts_with("```rust"),
        "the rust block follows the toml block"
    );
    assert_eq!(
        rust, example,
        "README.md's quickstart differs from examples/quickstart.rs"
    );
    assert!(rust.lines().count() <= 40, "{} lines", rust.lines().count());

    let version = env!("CARGO_PKG_VERSION");
    let minor = &version[..version.rfind('.').unwrap()];
    assert!(toml.starts_with("[dependencies]\n"), "{toml}");
    for dependency in [
        format!("a2a-server = {{ package = \"a2a-spec-server\", version = \"{minor}\" }}"),
        format!("a2a-types = {{ package = \"a2a-spec-types\", version = \"{minor}\" }}"),
    ] {
        assert!(
            toml.contains(&dependency),
            "the toml block lacks {dependency}:\n{toml}"
        );
    }
    assert!(
        rust.contains("println!(\"serving on {}\""),
        "it prints its URL"
    );
}
