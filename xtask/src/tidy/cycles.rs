//! Import cycles: the strongly connected groups of the file graph (Tarjan's algorithm).

use std::collections::BTreeMap;
use std::path::Path;

use super::references::FileGraph;

/// Files that reach each other through imports, with the imports that tie them.
pub(super) struct Cycle<'graph> {
    pub(super) files: Vec<usize>,
    graph: &'graph FileGraph<'graph>,
}

impl Cycle<'_> {
    /// One line per import inside the cycle: `from -> to: names`.
    pub(super) fn describe(&self, root: &Path) -> String {
        let name = |file: usize| {
            let path = &self.graph.tree.files[file];
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        };
        let mut lines = Vec::new();
        for (&(from, to), names) in &self.graph.edges {
            if self.files.contains(&from) && self.files.contains(&to) {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                lines.push(format!(
                    "  {} -> {}: {}",
                    name(from),
                    name(to),
                    names.join(", ")
                ));
            }
        }
        lines.join("\n")
    }
}

/// Every group of two or more files that import each other, directly or through others.
pub(super) fn find<'graph>(graph: &'graph FileGraph<'graph>) -> Vec<Cycle<'graph>> {
    let count = graph.tree.files.len();
    let mut successors: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &(from, to) in graph.edges.keys() {
        successors.entry(from).or_default().push(to);
    }
    let mut state = Tarjan {
        successors: &successors,
        index: vec![None; count],
        low: vec![0; count],
        on_stack: vec![false; count],
        stack: Vec::new(),
        next: 0,
        groups: Vec::new(),
    };
    for file in 0..count {
        if state.index[file].is_none() {
            state.visit(file);
        }
    }
    state
        .groups
        .into_iter()
        .filter(|group| group.len() > 1)
        .map(|mut files| {
            files.sort();
            Cycle { files, graph }
        })
        .collect()
}

struct Tarjan<'a> {
    successors: &'a BTreeMap<usize, Vec<usize>>,
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    groups: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    // Recursion depth is bounded by the number of files of one crate (a few hundred at most).
    fn visit(&mut self, file: usize) {
        self.index[file] = Some(self.next);
        self.low[file] = self.next;
        self.next += 1;
        self.stack.push(file);
        self.on_stack[file] = true;
        for &next in self.successors.get(&file).map(Vec::as_slice).unwrap_or(&[]) {
            match self.index[next] {
                None => {
                    self.visit(next);
                    self.low[file] = self.low[file].min(self.low[next]);
                }
                Some(index) if self.on_stack[next] => {
                    self.low[file] = self.low[file].min(index);
                }
                Some(_) => {}
            }
        }
        if Some(self.low[file]) == self.index[file] {
            let mut group = Vec::new();
            while let Some(member) = self.stack.pop() {
                self.on_stack[member] = false;
                group.push(member);
                if member == file {
                    break;
                }
            }
            self.groups.push(group);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{modules::ModuleTree, references::file_graph};

    /// A crate written to disk whose `a.rs` and `b.rs` use each other, and whose `c.rs` is only used:
    /// one cycle of two files, naming what ties them; re-exports are followed to the definition.
    #[test]
    fn a_two_file_cycle_is_found_and_a_re_export_is_followed() {
        let dir = std::env::temp_dir().join(format!("xtask-tidy-{}", std::process::id()));
        let src = dir.join("src");
        std::fs::create_dir_all(&src).unwrap();
        let write = |name: &str, text: &str| std::fs::write(src.join(name), text).unwrap();
        write(
            "lib.rs",
            "//! root\nmod a;\nmod b;\nmod c;\npub use c::Leaf;\n",
        );
        write(
            "a.rs",
            "//! a\nuse crate::b::Bee;\npub struct Ay;\nfn f(_: Bee) {}\n",
        );
        write(
            "b.rs",
            "//! b\npub struct Bee;\nfn g(_: super::a::Ay, _: crate::Leaf) {}\n",
        );
        write(
            "c.rs",
            "//! c\npub struct Leaf;\n#[cfg(test)]\nmod tests { use crate::a::Ay; }\n",
        );
        let tree = ModuleTree::read(&src.join("lib.rs")).unwrap();
        let graph = file_graph(&tree).unwrap();
        let cycles = super::find(&graph);
        assert_eq!(cycles.len(), 1);
        let text = cycles[0].describe(&dir);
        assert!(text.contains("src/a.rs -> src/b.rs: Bee"), "{text}");
        assert!(text.contains("src/b.rs -> src/a.rs: Ay"), "{text}");
        // `crate::Leaf` is a re-export in lib.rs: the edge goes to c.rs, where it is defined.
        let file = |name: &str| tree.files.iter().position(|f| f.ends_with(name)).unwrap();
        assert!(graph.edges.contains_key(&(file("b.rs"), file("c.rs"))));
        assert!(!graph.edges.contains_key(&(file("b.rs"), file("lib.rs"))));
        // The test-only module of c.rs is not part of the layout.
        assert!(!graph.edges.contains_key(&(file("c.rs"), file("a.rs"))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
