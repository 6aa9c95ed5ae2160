//! What a user's clean build of `a2a-spec-types` with default features compiles: nothing in it pulls
//! syn's `full` feature (the costly half of syn), which `#[a2a_skill]` once needed and no longer does.

use std::process::Command;

use a2a_tests::workspace_root;

#[test]
fn the_default_build_compiles_syn_without_full() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // `-e normal` resolves features as a dependent crate sees them: dev-dependencies (which do ask for
    // `full`, for the macro's own tests) are left out.
    let output = Command::new(cargo)
        .args([
            "tree",
            "-p",
            "a2a-spec-types",
            "-e",
            "normal",
            "--offline",
            "--prefix",
            "none",
            "-f",
            "{p} [{f}]",
        ])
        .current_dir(workspace_root())
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tree = String::from_utf8(output.stdout).unwrap();
    let syn: Vec<&str> = tree.lines().filter(|l| l.starts_with("syn v")).collect();
    assert!(
        !syn.is_empty(),
        "syn is in the tree (serde_derive):\n{tree}"
    );
    for line in syn {
        assert!(!line.contains("full"), "syn built with `full`: {line}");
    }
    assert!(
        tree.lines().any(|l| l.starts_with("a2a-spec-derive v")),
        "the default build has #[a2a_skill]:\n{tree}"
    );
}
