//! Every hand-written Rust file opens with a `//!` doc saying what it is for.

use std::path::Path;

use anyhow::Result;

use super::modules::rust_files;

/// The files under `src` (outside `generated/` folders) whose first non-blank line is not a `//!` doc.
pub(super) fn check(src: &Path, root: &Path) -> Result<Vec<String>> {
    let mut findings = Vec::new();
    for file in rust_files(src) {
        let text = std::fs::read_to_string(&file)?;
        let first = text.lines().map(str::trim).find(|line| !line.is_empty());
        // `#![doc = …]` is the same inner doc, for a text long enough to want a raw string.
        if !first.is_some_and(|line| line.starts_with("//!") || line.starts_with("#![doc")) {
            findings.push(format!(
                "{}: no `//!` doc saying what the file is for",
                file.strip_prefix(root).unwrap_or(&file).display()
            ));
        }
    }
    Ok(findings)
}
