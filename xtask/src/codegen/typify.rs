//! typify as both serde-type generators (`types-v1`, `types-v0_3`) run it: the same settings (no
//! builders, `PartialEq` derived, maps as `BTreeMap`), their own replacements, and the output as a syntax
//! tree to rewrite.

use anyhow::{Context, Result, anyhow};
use serde_json::Value;

/// typify's settings, built up with the replacements of one generator.
pub(crate) struct Typify {
    settings: ::typify::TypeSpaceSettings,
}

impl Typify {
    pub(crate) fn new() -> Self {
        let mut settings = ::typify::TypeSpaceSettings::default();
        settings
            .with_struct_builder(false)
            .with_derive("PartialEq".to_owned())
            .with_map_type("::std::collections::BTreeMap");
        Self { settings }
    }

    /// Makes typify refer to `rust_path` wherever the schema refers to definition `name`, instead of
    /// generating a type for it.
    pub(crate) fn replace(mut self, name: &str, rust_path: &str) -> Self {
        self.settings
            .with_replacement(name, rust_path, std::iter::empty());
        self
    }

    /// Runs typify over a draft-07 schema with `definitions`; `what` names the schema in errors.
    pub(crate) fn generate(&self, schema: Value, what: &str) -> Result<syn::File> {
        let mut space = ::typify::TypeSpace::new(&self.settings);
        let root: schemars::schema::RootSchema = serde_json::from_value(schema)
            .with_context(|| format!("{what} is not a schemars RootSchema"))?;
        space
            .add_root_schema(root)
            .map_err(|e| anyhow!("typify on {what}: {e}"))?;
        syn::parse2(space.to_stream())
            .with_context(|| format!("parsing typify's output for {what}"))
    }
}
