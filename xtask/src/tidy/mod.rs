//! `cargo xtask tidy`: the layout rules no compiler checks, over every crate of the workspace.
//!
//! - Every hand-written `.rs` file opens with a `//!` doc that says what it is for ([`file_docs`]).
//! - A module with child modules in files of their own is its folder's `mod.rs`, never `name.rs`
//!   beside `name/` (one convention for the whole workspace).
//! - No import cycle between the files of a crate ([`cycles`]): a file that names another file's items,
//!   directly or through others, is never named back. The module tree is read from each crate root's
//!   `mod` declarations ([`modules`]) and the names each file uses are resolved to the file that
//!   defines them, following `use` re-exports ([`references`]).
//!
//! Generated code (`generated/` folders) and test-only code (`#[cfg(test)]` items) are left out.

mod cycles;
mod file_docs;
mod modules;
mod references;

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::codegen::project_root;

/// Folders of the workspace that hold crates whose layout is checked: every workspace member with a
/// `src/` folder (the benchmark workspace and its peers are someone else's layout).
fn crate_folders(root: &Path) -> Result<Vec<PathBuf>> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml"))?;
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .ok_or_else(|| anyhow::anyhow!("no `members = [...]` in the workspace Cargo.toml"))?;
    Ok(members
        .split(',')
        .map(|member| member.trim().trim_matches('"'))
        .filter(|member| !member.is_empty())
        .map(|member| root.join(member))
        .filter(|folder| folder.join("src").is_dir())
        .collect())
}

/// Runs every check over the workspace and fails listing every finding.
pub(crate) fn run() -> Result<()> {
    let root = project_root();
    let mut findings = Vec::new();
    let mut files_read = 0;
    let mut crates_read = 0;
    for folder in crate_folders(&root)? {
        let name = folder
            .strip_prefix(&root)
            .unwrap_or(&folder)
            .display()
            .to_string();
        findings.extend(file_docs::check(&folder.join("src"), &root)?);
        for crate_root in modules::crate_roots(&folder.join("src")) {
            let tree = modules::ModuleTree::read(&crate_root)?;
            files_read += tree.file_count();
            for file in &tree.parents_outside_their_folder {
                findings.push(format!(
                    "{}: declares modules in files of their own; a module with children lives in \
                     its folder as `mod.rs`",
                    file.strip_prefix(&root).unwrap_or(file).display()
                ));
            }
            crates_read += 1;
            let graph = references::file_graph(&tree)?;
            for cycle in cycles::find(&graph) {
                findings.push(format!(
                    "{name}: import cycle through {} files:\n{}",
                    cycle.files.len(),
                    cycle.describe(&root)
                ));
            }
        }
    }
    if findings.is_empty() {
        println!(
            "tidy: {crates_read} crate roots, {files_read} files: every file documented, one module-file \
             convention, no import cycle"
        );
        Ok(())
    } else {
        for finding in &findings {
            eprintln!("{finding}\n");
        }
        bail!("tidy: {} finding(s)", findings.len())
    }
}
