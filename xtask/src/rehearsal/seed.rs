//! Seeds the rehearsal's target directory with the workspace's built dependencies, without copying them.
//!
//! A whole copy of `target/debug` doubles the disk a CI run needs (tens of gigabytes, most of it the
//! workspace's own test executables), which is more than a CI machine has. The rehearsal only needs the
//! third-party artifacts: every workspace crate is rebuilt in the copy anyway. So:
//!
//! - artifacts of third-party crates in `deps/` are hard-linked (no disk at all). That is safe because
//!   nothing in the copy writes to them: a fresh dependency is not rebuilt, and a rebuilt one gets new
//!   files (rustc and the linkers write a temporary file and rename it over the old name, which leaves the
//!   original inode, and so the workspace's own artifact, untouched). The exception is rustc's dep-info
//!   (`.d`) file, written in place, so those small files are copied;
//! - build-script directories (`build/`) and fingerprints (`.fingerprint/`) of third-party crates are
//!   copied: cargo rewrites those in place when it reruns a build script, so sharing them would let the
//!   copy change the workspace's files;
//! - nothing of a workspace crate is seeded, nor `incremental/`, `examples/` or the uplifted files at the
//!   top of `target/debug`.
//!
//! Where a hard link cannot be made (another file system), the file is copied.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, ensure};

/// What the seeding did, for the step's log line.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Seeded {
    pub(crate) linked: usize,
    pub(crate) copied: usize,
    pub(crate) skipped: usize,
}

/// Seeds `target_dir/debug` from `built` (the workspace's `target/debug`), unless the rehearsal already
/// has a target directory or nothing is built yet.
pub(crate) fn seed_target_dir(root: &Path, built: &Path, target_dir: &Path) -> Result<()> {
    if target_dir.exists() || !built.is_dir() {
        eprintln!("    nothing to seed");
        return Ok(());
    }
    let workspace = workspace_names(root)?;
    let debug = target_dir.join("debug");
    match seed(built, &debug, &workspace) {
        Ok(seeded) => eprintln!(
            "    {} dependency artifacts hard-linked, {} copied, {} workspace artifacts left to rebuild",
            seeded.linked, seeded.copied, seeded.skipped
        ),
        Err(error) => {
            // Only slower, not wrong: cargo builds the dependencies itself.
            eprintln!("    seeding failed ({error:#}); building from scratch");
            std::fs::remove_dir_all(&debug).ok();
        }
    }
    Ok(())
}

/// The workspace's package names and target names, as they appear in artifact file names (`-` as `_`).
fn workspace_names(root: &Path) -> Result<BTreeSet<String>> {
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .context("running cargo metadata")?;
    ensure!(
        output.status.success(),
        "cargo metadata failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("reading cargo metadata's output")?;
    let mut names = BTreeSet::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        names.extend(package["name"].as_str().map(artifact_name));
        for target in package["targets"].as_array().into_iter().flatten() {
            names.extend(target["name"].as_str().map(artifact_name));
        }
    }
    Ok(names)
}

fn artifact_name(name: &str) -> String {
    name.replace('-', "_")
}

/// The crate or package an entry of `deps/`, `build/` or `.fingerprint/` belongs to: its name without
/// the `lib` prefix, the `-<hash>` suffix and the extension, with `-` as `_`.
fn owner_of(file_name: &str) -> String {
    let stem = file_name.split('.').next().unwrap_or(file_name);
    let without_hash = match stem.rsplit_once('-') {
        Some((name, hash)) if !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name
        }
        _ => stem,
    };
    artifact_name(without_hash)
}

fn belongs_to_workspace(file_name: &str, workspace: &BTreeSet<String>) -> bool {
    let owner = owner_of(file_name);
    workspace.contains(&owner)
        || owner
            .strip_prefix("lib")
            .is_some_and(|name| workspace.contains(name))
}

fn seed(built: &Path, debug: &Path, workspace: &BTreeSet<String>) -> Result<Seeded> {
    let mut seeded = Seeded::default();
    let deps = debug.join("deps");
    std::fs::create_dir_all(&deps)?;
    for entry in std::fs::read_dir(built.join("deps"))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.file_type()?.is_file() || belongs_to_workspace(&name, workspace) {
            seeded.skipped += 1;
            continue;
        }
        let to = deps.join(&name);
        if !name.ends_with(".d") && std::fs::hard_link(entry.path(), &to).is_ok() {
            seeded.linked += 1;
        } else {
            std::fs::copy(entry.path(), &to).with_context(|| format!("copying deps/{name}"))?;
            seeded.copied += 1;
        }
    }
    for directory in ["build", ".fingerprint"] {
        let into = debug.join(directory);
        std::fs::create_dir_all(&into)?;
        let Ok(entries) = std::fs::read_dir(built.join(directory)) else {
            continue;
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if belongs_to_workspace(&name, workspace) {
                seeded.skipped += 1;
                continue;
            }
            // `cp -a` keeps the modification times cargo's freshness check compares.
            let status = Command::new("cp")
                .arg("-a")
                .arg(entry.path())
                .arg(&into)
                .status()
                .context("running cp")?;
            ensure!(status.success(), "copying {directory}/{name} failed");
            seeded.copied += 1;
        }
    }
    Ok(seeded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> BTreeSet<String> {
        ["a2a_spec_types", "a2a_types", "suite", "xtask"]
            .map(String::from)
            .into()
    }

    #[test]
    fn workspace_artifacts_are_recognised_by_their_crate_name() {
        let workspace = workspace();
        for name in [
            "liba2a_types-0123456789abcdef.rlib",
            "liba2a_types-0123456789abcdef.rmeta",
            "a2a_types-0123456789abcdef.d",
            "suite-0123456789abcdef",
            "a2a-spec-types-0123456789abcdef",
            "xtask-fedcba9876543210",
        ] {
            assert!(belongs_to_workspace(name, &workspace), "{name}");
        }
    }

    #[test]
    fn dependency_artifacts_are_seeded() {
        let workspace = workspace();
        for name in [
            "libserde_json-0123456789abcdef.rlib",
            "libaws_lc_sys-0123456789abcdef.rlib",
            "aws-lc-sys-0123456789abcdef",
            "libtypify_impl-0123456789abcdef.rmeta",
            "suite_helpers-0123456789abcdef.d",
        ] {
            assert!(!belongs_to_workspace(name, &workspace), "{name}");
        }
    }

    #[test]
    fn seeding_links_dependencies_and_leaves_the_workspace_alone() {
        let scratch = std::env::temp_dir().join(format!("xtask-seed-test-{}", std::process::id()));
        let built = scratch.join("built");
        let debug = scratch.join("copy/debug");
        std::fs::create_dir_all(built.join("deps")).unwrap();
        std::fs::create_dir_all(built.join("build/ring-0123456789abcdef/out")).unwrap();
        std::fs::create_dir_all(built.join(".fingerprint/a2a-spec-types-0123456789abcdef"))
            .unwrap();
        std::fs::write(built.join("deps/libserde-0123456789abcdef.rlib"), "serde").unwrap();
        std::fs::write(
            built.join("deps/liba2a_types-0123456789abcdef.rlib"),
            "ours",
        )
        .unwrap();
        std::fs::write(built.join("deps/suite-0123456789abcdef"), "test binary").unwrap();
        std::fs::write(built.join("build/ring-0123456789abcdef/out/x.o"), "obj").unwrap();

        let seeded = seed(&built, &debug, &workspace()).unwrap();

        assert_eq!(seeded.linked + seeded.copied, 2, "{seeded:?}");
        assert_eq!(seeded.skipped, 3, "{seeded:?}");
        assert_eq!(
            std::fs::read_to_string(debug.join("deps/libserde-0123456789abcdef.rlib")).unwrap(),
            "serde"
        );
        assert!(
            !debug
                .join("deps/liba2a_types-0123456789abcdef.rlib")
                .exists()
        );
        assert!(!debug.join("deps/suite-0123456789abcdef").exists());
        assert!(
            !debug
                .join(".fingerprint/a2a-spec-types-0123456789abcdef")
                .exists()
        );
        assert_eq!(
            std::fs::read_to_string(debug.join("build/ring-0123456789abcdef/out/x.o")).unwrap(),
            "obj"
        );
        std::fs::remove_dir_all(&scratch).unwrap();
    }
}
