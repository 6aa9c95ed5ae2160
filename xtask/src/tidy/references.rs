//! Which file uses which: every path a file writes (in `use` items, types, expressions and patterns)
//! resolved to the file that defines what it names, following `use` re-exports to the definition.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use syn::visit::{self, Visit};

use super::modules::{ModulePath, ModuleTree, is_test_only, use_leaves};

/// Edges between files: `(from, to)` file indexes, with the names `from` takes from `to`.
pub(super) struct FileGraph<'tree> {
    pub(super) tree: &'tree ModuleTree,
    pub(super) edges: BTreeMap<(usize, usize), BTreeSet<String>>,
}

/// Resolves every path of every file of `tree`.
pub(super) fn file_graph(tree: &ModuleTree) -> Result<FileGraph<'_>> {
    let mut graph = FileGraph {
        tree,
        edges: BTreeMap::new(),
    };
    for (file, syntax) in tree.syntax.iter().enumerate() {
        let mut visitor = PathVisitor {
            tree,
            file,
            module: tree.file_modules[file].clone(),
            edges: &mut graph.edges,
        };
        visitor.visit_file(syntax);
    }
    Ok(graph)
}

struct PathVisitor<'a> {
    tree: &'a ModuleTree,
    file: usize,
    module: ModulePath,
    edges: &'a mut BTreeMap<(usize, usize), BTreeSet<String>>,
}

impl PathVisitor<'_> {
    fn record(&mut self, segments: &[String]) {
        let Some(absolute) = absolute_path(self.tree, &self.module, segments) else {
            return;
        };
        if let Some(target) = defining_file(self.tree, &absolute, 0)
            && target != self.file
        {
            let name = item_name(self.tree, &absolute);
            self.edges
                .entry((self.file, target))
                .or_default()
                .insert(name);
        }
    }
}

impl<'ast> Visit<'ast> for PathVisitor<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => return visit::visit_item(self, item),
        };
        if !is_test_only(attrs) {
            visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        // A `mod name;` declaration is the tree's shape, not a use; an inline module's paths are
        // resolved from inside it.
        if let Some((_, items)) = &item.content {
            self.module.push(item.ident.to_string());
            for item in items {
                self.visit_item(item);
            }
            self.module.pop();
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        // A re-export (`pub use`) shapes a module's face; it is not a use of what it names, and a
        // facade that re-exports its children while they use its own items is not a cycle.
        if !matches!(item.vis, syn::Visibility::Inherited) {
            return;
        }
        for leaf in use_leaves(&item.tree) {
            self.record(leaf.path());
        }
    }

    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {
        // `pub(crate)` and `pub(in path)` name where an item is seen, not something it uses.
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.record(&segments);
        visit::visit_path(self, path);
    }
}

/// The name a path takes from its module: the first segment after the longest module prefix, or the
/// module's own name when the path names a module.
fn item_name(tree: &ModuleTree, path: &[String]) -> String {
    let split = (0..=path.len())
        .rev()
        .find(|&len| tree.modules.contains_key(&path[..len]))
        .unwrap_or(0);
    path.get(split)
        .or(path.last())
        .cloned()
        .unwrap_or_else(|| "crate".to_owned())
}

/// The crate-absolute form of a path written inside `module`, or `None` when it leaves the crate or
/// names something local (a variable, a generic, an item of the same module).
fn absolute_path(
    tree: &ModuleTree,
    module: &ModulePath,
    segments: &[String],
) -> Option<ModulePath> {
    resolve_in(tree, module, segments, true)
}

/// [`absolute_path`]; a name the module imports is looked through only when `through_imports` (the
/// path of a `use` item is read without it: `use serde::serde;` must not lead back to itself).
fn resolve_in(
    tree: &ModuleTree,
    module: &ModulePath,
    segments: &[String],
    through_imports: bool,
) -> Option<ModulePath> {
    let (first, rest) = segments.split_first()?;
    match first.as_str() {
        "crate" => Some(rest.to_vec()),
        "self" => Some(module.iter().chain(rest).cloned().collect()),
        "super" => {
            let mut base = module.clone();
            base.pop()?;
            let mut rest = rest;
            while let Some(("super", tail)) = rest.split_first().map(|(s, t)| (s.as_str(), t)) {
                base.pop()?;
                rest = tail;
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        _ => {
            let mut child = module.clone();
            child.push(first.clone());
            if tree.modules.contains_key(&child) {
                return Some(child.into_iter().chain(rest.iter().cloned()).collect());
            }
            if !through_imports {
                return None;
            }
            let imported = tree.modules.get(module)?.imports.get(first)?;
            let base = resolve_in(tree, module, imported, false)?;
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
    }
}

/// The file that defines what `path` names: the longest module prefix's file, or, when that module
/// only re-exports the next name, the file the re-export leads to.
fn defining_file(tree: &ModuleTree, path: &[String], depth: usize) -> Option<usize> {
    let split = (0..=path.len())
        .rev()
        .find(|&len| tree.modules.contains_key(&path[..len]))?;
    let (module_path, rest) = path.split_at(split);
    let module = &tree.modules[module_path];
    let Some((name, tail)) = rest.split_first() else {
        return Some(module.file);
    };
    if module.definitions.contains(name) || depth > 8 {
        return Some(module.file);
    }
    let module_path = module_path.to_vec();
    if let Some(imported) = module.imports.get(name)
        && let Some(target) = resolve_in(tree, &module_path, imported, false)
    {
        let target: Vec<String> = target.into_iter().chain(tail.iter().cloned()).collect();
        return defining_file(tree, &target, depth + 1).or(Some(module.file));
    }
    for glob in &module.globs {
        if let Some(base) = resolve_in(tree, &module_path, glob, false)
            && let Some(source) = tree.modules.get(&base)
            && (source.definitions.contains(name) || source.imports.contains_key(name))
        {
            let target: Vec<String> = base.into_iter().chain(rest.iter().cloned()).collect();
            return defining_file(tree, &target, depth + 1).or(Some(module.file));
        }
    }
    Some(module.file)
}
