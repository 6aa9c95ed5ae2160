//! The module tree of one crate, read from its root file's `mod` declarations: which file holds each
//! module, what each module defines and what it imports under which name.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use syn::{Attribute, Item, UseTree};

/// A module's path from the crate root (`[]` is the root, `["store", "memory"]` is `crate::store::memory`).
pub(super) type ModulePath = Vec<String>;

/// The `.rs` files below `dir`, sorted, leaving out `generated/` folders (their layout is the generator's).
pub(super) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "generated") {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The crate roots under a package's `src/`: the library, the main binary and the other binaries.
pub(super) fn crate_roots(src: &Path) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|name| src.join(name))
        .filter(|file| file.is_file())
        .collect();
    if let Ok(entries) = std::fs::read_dir(src.join("bin")) {
        let mut binaries: Vec<PathBuf> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
            .collect();
        binaries.sort();
        roots.extend(binaries);
    }
    roots
}

/// Whether an item is compiled only for tests (`#[cfg(test)]`): test code is not part of the layout.
pub(super) fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

/// What one module holds, as far as name resolution needs it.
#[derive(Default)]
pub(super) struct Module {
    /// Index of the file that holds the module (an inline module shares its parent's file).
    pub(super) file: usize,
    /// Names of the items defined in it (types, functions, traits, constants, macros, modules).
    pub(super) definitions: BTreeSet<String>,
    /// Names brought in by `use`, each with the path it was written with.
    pub(super) imports: BTreeMap<String, Vec<String>>,
    /// Paths of `use …::*` imports.
    pub(super) globs: Vec<Vec<String>>,
}

/// Every module of a crate and the parsed files that hold them.
pub(super) struct ModuleTree {
    pub(super) files: Vec<PathBuf>,
    pub(super) syntax: Vec<syn::File>,
    /// The module each file opens with (inline modules below it are in [`Self::modules`] too).
    pub(super) file_modules: Vec<ModulePath>,
    pub(super) modules: BTreeMap<ModulePath, Module>,
    /// Files named `name.rs` that declare modules of their own in files: the workspace's convention
    /// is `name/mod.rs` for a module with children, so a folder holds all of its module.
    pub(super) parents_outside_their_folder: Vec<PathBuf>,
}

impl ModuleTree {
    /// Reads the crate whose root file is `root`, following every `mod name;` that is not test-only.
    pub(super) fn read(root: &Path) -> Result<Self> {
        let mut tree = Self {
            files: Vec::new(),
            syntax: Vec::new(),
            file_modules: Vec::new(),
            modules: BTreeMap::new(),
            parents_outside_their_folder: Vec::new(),
        };
        let root_dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
        let mut pending = VecDeque::from([(root.to_path_buf(), ModulePath::new(), root_dir)]);
        while let Some((file, path, child_dir)) = pending.pop_front() {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let syntax =
                syn::parse_file(&text).with_context(|| format!("parsing {}", file.display()))?;
            let index = tree.files.len();
            tree.files.push(file.clone());
            tree.file_modules.push(path.clone());
            let file_dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
            tree.add_module(
                index,
                &path,
                &syntax.items,
                &child_dir,
                &file_dir,
                &mut pending,
            );
            tree.syntax.push(syntax);
        }
        Ok(tree)
    }

    pub(super) fn file_count(&self) -> usize {
        self.files.len()
    }

    fn add_module(
        &mut self,
        file: usize,
        path: &ModulePath,
        items: &[Item],
        child_dir: &Path,
        file_dir: &Path,
        pending: &mut VecDeque<(PathBuf, ModulePath, PathBuf)>,
    ) {
        let mut module = Module {
            file,
            ..Module::default()
        };
        for item in items {
            if let Some(name) = defined_name(item) {
                module.definitions.insert(name);
            }
            match item {
                Item::Use(item) if !is_test_only(&item.attrs) => {
                    for leaf in use_leaves(&item.tree) {
                        match leaf {
                            UseLeaf::Named { visible, path } => {
                                module.imports.insert(visible, path);
                            }
                            UseLeaf::Glob(path) => module.globs.push(path),
                        }
                    }
                }
                Item::Mod(item) if !is_test_only(&item.attrs) => {
                    let name = item.ident.to_string();
                    let mut child = path.clone();
                    child.push(name.clone());
                    match &item.content {
                        Some((_, inner)) => {
                            let inner_dir = child_dir.join(&name);
                            self.add_module(file, &child, inner, &inner_dir, file_dir, pending);
                        }
                        None => {
                            let own_file = &self.files[file];
                            let is_root_or_mod_rs = own_file.file_name().is_some_and(|name| {
                                name == "mod.rs" || name == "lib.rs" || name == "main.rs"
                            });
                            if !is_root_or_mod_rs
                                && !self.parents_outside_their_folder.contains(own_file)
                            {
                                self.parents_outside_their_folder.push(own_file.clone());
                            }
                            if let Some(found) = module_file(item, child_dir, file_dir, &name) {
                                let grandchild_dir = if found.ends_with("mod.rs")
                                    || path_attribute(&item.attrs).is_some()
                                {
                                    found.parent().unwrap_or(child_dir).to_path_buf()
                                } else {
                                    child_dir.join(&name)
                                };
                                pending.push_back((found, child, grandchild_dir));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        self.modules.insert(path.clone(), module);
    }
}

/// The file a `mod name;` declaration loads: its `#[path]`, else `name.rs` or `name/mod.rs`.
fn module_file(
    item: &syn::ItemMod,
    child_dir: &Path,
    file_dir: &Path,
    name: &str,
) -> Option<PathBuf> {
    if let Some(path) = path_attribute(&item.attrs) {
        return Some(file_dir.join(path));
    }
    [
        child_dir.join(format!("{name}.rs")),
        child_dir.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|file| file.is_file())
}

fn path_attribute(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        syn::Meta::NameValue(pair) if pair.path.is_ident("path") => match &pair.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => Some(text.value()),
            _ => None,
        },
        _ => None,
    })
}

/// The name an item defines in its module's namespace, if any.
fn defined_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(item) => &item.ident,
        Item::Enum(item) => &item.ident,
        Item::Fn(item) => &item.sig.ident,
        Item::Macro(item) => item.ident.as_ref()?,
        Item::Mod(item) => &item.ident,
        Item::Static(item) => &item.ident,
        Item::Struct(item) => &item.ident,
        Item::Trait(item) => &item.ident,
        Item::TraitAlias(item) => &item.ident,
        Item::Type(item) => &item.ident,
        Item::Union(item) => &item.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// One leaf of a `use` tree: a name it brings in, with the path it was written with, or a glob.
pub(super) enum UseLeaf {
    Named { visible: String, path: Vec<String> },
    Glob(Vec<String>),
}

impl UseLeaf {
    /// The path the leaf names (a glob names its module).
    pub(super) fn path(&self) -> &[String] {
        match self {
            UseLeaf::Named { path, .. } | UseLeaf::Glob(path) => path,
        }
    }
}

/// Every leaf of a `use` tree, in order.
pub(super) fn use_leaves(tree: &UseTree) -> Vec<UseLeaf> {
    fn walk(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<UseLeaf>) {
        let named = |ident: &syn::Ident, visible: String| {
            let mut path = prefix.clone();
            if ident != "self" {
                path.push(ident.to_string());
            }
            UseLeaf::Named { visible, path }
        };
        match tree {
            UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                walk(&path.tree, prefix, out);
                prefix.pop();
            }
            UseTree::Name(name) => {
                // `use a::b::{self}` brings in `b`.
                let visible = if name.ident == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    name.ident.to_string()
                };
                out.push(named(&name.ident, visible));
            }
            UseTree::Rename(rename) => {
                out.push(named(&rename.ident, rename.rename.to_string()));
            }
            UseTree::Glob(_) => out.push(UseLeaf::Glob(prefix.clone())),
            UseTree::Group(group) => {
                for tree in &group.items {
                    walk(tree, prefix, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(tree, &mut Vec::new(), &mut out);
    out
}
