//! The README's client quickstart is the crate's `examples/client_quickstart.rs` (which `cargo test` compiles),
//! at most 25 lines, with the `[dependencies]` it needs.

use std::path::Path;

/// The fenced blocks right after the `<!-- quickstart:client -->` comment: (language, text).
fn quickstart_blocks(readme: &str) -> Vec<(String, String)> {
    let start = readme
        .find("<!-- quickstart:client -->")
        .expect("the README has a <!-- quickstart:client --> comment");
    let mut blocks = Vec::new();
    let mut lines = readme[start..].lines().skip(1);
    while blocks.len() < 2 {
        let Some(line) = lines.next() else { break };
        if let Some(language) = line.strip_prefix("```") {
            let mut text = String::new();
            for line in lines.by_ref() {
                if line == "```" {
                    break;
                }
                text.push_str(line);
                text.push('\n');
            }
            blocks.push((language.to_owned(), text));
        } else {
            assert!(
                line.trim().is_empty(),
                "only blank lines between the blocks: {line:?}"
            );
        }
    }
    blocks
}

#[test]
fn the_readme_quickstart_is_the_example_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../README.md")).expect("README.md");
    let example =
        std::fs::read_to_string(root.join("examples/client_quickstart.rs")).expect("the example");
    let blocks = quickstart_blocks(&readme);
    assert_eq!(blocks.len(), 2, "a toml block then a rust block");
    let (toml_language, toml) = &blocks[0];
    let (rust_language, rust) = &blocks[1];
    assert_eq!(
        (toml_language.as_str(), rust_language.as_str()),
        ("toml", "rust")
    );
    assert_eq!(
        rust, &example,
        "the README's rust block and examples/client_quickstart.rs differ"
    );
    assert!(
        example.lines().count() <= 25,
        "{} lines",
        example.lines().count()
    );
    assert!(example.contains("fn main"), "a complete main.rs");
    assert!(toml.starts_with("[dependencies]\n"), "{toml}");
    for package in [
        format!("{} = \"0.1\"", env!("CARGO_PKG_NAME")),
        "a2a-spec-types = \"0.1\"".to_owned(),
        "tokio = ".to_owned(),
    ] {
        assert!(
            toml.contains(&package),
            "the toml block lacks {package}: {toml}"
        );
    }
}
