//! Rewrites `pbjson-build`'s serde impls where its defaults break ProtoJSON interoperability.
//!
//! The rewrite works on the syntax tree, driven by the descriptor, and fails loudly on any shape it does
//! not recognise, so a new pbjson release or a spec bump cannot silently skip a fix:
//!
//! - **null means absent.** pbjson reads a repeated, map, scalar or enum field as `Some(map_.next_value()?)`,
//!   which rejects `null`. Each becomes `map_.next_value::<Option<T>>()?`, so `null` leaves the default.
//! - **`google.protobuf.Value` fields keep `null`.** For them JSON `null` is a value (`NullValue`), not
//!   absence; pbjson reads them through `Option`, losing it (`"data": null` in a Part vanished).
//! - **open enums.** pbjson rejects enum numbers the schema does not know and fails to serialize them. Enum
//!   fields go through `OpenEnum`, which keeps any `i32` and writes unknown ones back as numbers.
//! - **numbers.** pbjson's number reader becomes ours, which also takes integral floats for integers.
//!   64-bit integers need nothing more: pbjson writes them as decimal strings and reads both forms.
//! - **duplicate map keys.** serde's `BTreeMap` keeps the last of two equal keys; map fields are read
//!   through `UniqueMap`, which rejects the document naming the key, as protobuf's JSON parsers do.
//! - **non-finite floats.** pbjson writes NaN and the infinities through serde_json, as `null`; every
//!   `float` and `double` field is written through `Floats`, which names them as ProtoJSON does.
//! - **messages written in full.** pbjson leaves out fields at their default value; the few messages
//!   the spec wants written with every field (`descriptor::is_written_in_full`: `ListTasksResponse`)
//!   write each field unconditionally, as `a2a-types` does.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Result, anyhow};
use prost_types::field_descriptor_proto::Type;
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorSet};
use quote::ToTokens;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, parse_quote};

use crate::codegen::descriptor::{is_singular_value, is_written_in_full, map_entry};
use crate::codegen::syntax::{is_named_type, option_inner, path_string};

/// The descriptor's fields, found from a Rust message type and a field's JSON name.
pub(crate) struct FieldIndex {
    /// Rust path (as `a::B`) → its fields.
    messages: BTreeMap<String, MessageFields>,
}

/// The fields of one message.
struct MessageFields {
    full_name: String,
    /// JSON name → field.
    by_json_name: BTreeMap<String, FieldDescriptorProto>,
    /// JSON names of the fields holding `float`s or `double`s: singular, repeated or as map values.
    floats: BTreeSet<String>,
}

impl FieldIndex {
    pub(crate) fn new(
        descriptors: &FileDescriptorSet,
        rust_names: &BTreeMap<String, syn::Path>,
    ) -> Self {
        let mut by_full_name = BTreeMap::new();
        for file in &descriptors.file {
            for message in &file.message_type {
                index_message(file.package(), message, &mut by_full_name);
            }
        }
        let messages = rust_names
            .iter()
            .filter_map(|(full_name, path)| {
                let fields = by_full_name.remove(full_name)?;
                Some((path_string(path), fields))
            })
            .collect();
        Self { messages }
    }

    fn message(&self, rust_type: &syn::Type) -> Option<&MessageFields> {
        match rust_type {
            syn::Type::Path(path) => self.messages.get(&path_string(&path.path)),
            _ => None,
        }
    }
}

fn index_message(
    prefix: &str,
    message: &DescriptorProto,
    out: &mut BTreeMap<String, MessageFields>,
) {
    let full_name = format!("{prefix}.{}", message.name());
    let by_json_name = message
        .field
        .iter()
        .map(|field| (field.json_name().to_owned(), field.clone()))
        .collect();
    let is_float =
        |field: &FieldDescriptorProto| matches!(field.r#type(), Type::Float | Type::Double);
    let floats = message
        .field
        .iter()
        .filter(|field| match map_entry(message, field) {
            Some(entry) => entry
                .field
                .iter()
                .any(|value| value.number() == 2 && is_float(value)),
            None => is_float(field),
        })
        .map(|field| field.json_name().to_owned())
        .collect();
    for nested in &message.nested_type {
        index_message(&full_name, nested, out);
    }
    out.insert(
        full_name.clone(),
        MessageFields {
            full_name,
            by_json_name,
            floats,
        },
    );
}

/// Applies every adjustment to pbjson's output for one package.
pub(crate) fn adjust(file: &mut syn::File, fields: &FieldIndex, support_path: &str) -> Result<()> {
    let support: syn::Path = syn::parse_str(support_path)?;
    let mut errors = Vec::new();
    for item in &mut file.items {
        let syn::Item::Impl(imp) = item else { continue };
        let Some((trait_path, _)) = &imp.trait_ else {
            continue;
        };
        let Some(trait_name) = trait_path.segments.last().map(|s| s.ident.to_string()) else {
            continue;
        };
        let Some(message) = fields.message(&imp.self_ty) else {
            continue; // enums: pbjson's impls for the enum types themselves are correct
        };
        match trait_name.as_str() {
            "Serialize" => {
                let mut rewriter = EnumSerialization { support: &support };
                rewriter.visit_item_impl_mut(imp);
                FloatWrites {
                    floats: &message.floats,
                    support: &support,
                }
                .visit_item_impl_mut(imp);
                if is_written_in_full(&message.full_name)
                    && let Err(error) = write_every_field(imp)
                {
                    errors.push(format!("{}: {error}", message.full_name));
                }
            }
            "Deserialize" => {
                let mut rewriter = FieldReads {
                    message: &message.full_name,
                    fields: &message.by_json_name,
                    support: &support,
                    errors: &mut errors,
                };
                rewriter.visit_item_impl_mut(imp);
            }
            _ => {}
        }
    }
    NumberReads { support: &support }.visit_file_mut(file);
    UniqueMapReads { support: &support }.visit_file_mut(file);
    let text = file.to_token_stream().to_string();
    if text.contains("next_value :: < :: core :: option :: Option < std :: collections :: BTreeMap")
    {
        errors.push("a map field read was not made to reject duplicate keys".to_owned());
    }
    if text.contains("pbjson :: private :: NumberDeserialize") {
        errors.push("a pbjson number read was not replaced".to_owned());
    }
    if text.contains("Invalid variant") {
        errors.push(
            "an enum serialization in pbjson's output still rejects unknown values (a repeated or map enum \
             field?): teach xtask/src/codegen/protojson.rs its shape"
                .to_owned(),
        );
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(anyhow!(
            "adjusting pbjson output:\n  {}",
            errors.join("\n  ")
        ))
    }
}

/// Drops the guards of pbjson's `serialize` (`if !self.tasks.is_empty() { ... }` around each field's
/// count and write), so every field is written. Only plain guards are expected: a `if let` (a oneof)
/// or an `else` is a shape this does not know, and an error.
fn write_every_field(imp: &mut syn::ItemImpl) -> Result<()> {
    let serialize = imp
        .items
        .iter_mut()
        .find_map(|item| match item {
            syn::ImplItem::Fn(function) if function.sig.ident == "serialize" => Some(function),
            _ => None,
        })
        .ok_or_else(|| anyhow!("no serialize fn"))?;
    let mut statements = Vec::new();
    let mut guards = 0;
    for statement in std::mem::take(&mut serialize.block.stmts) {
        match statement {
            syn::Stmt::Expr(Expr::If(guard), _) => {
                if guard.else_branch.is_some() || matches!(*guard.cond, Expr::Let(_)) {
                    return Err(anyhow!("a field guard of an unknown shape"));
                }
                guards += 1;
                statements.extend(guard.then_branch.stmts);
            }
            other => statements.push(other),
        }
    }
    if guards == 0 {
        return Err(anyhow!("no field guard found in serialize"));
    }
    serialize.block.stmts = statements;
    Ok(())
}

/// `::pbjson::private::NumberDeserialize` → our `NumberDeserialize`, which also takes integral floats
/// and exponents for integer fields (`50.0`, `1e3`), as the protobuf conformance suite requires.
struct NumberReads<'a> {
    support: &'a syn::Path,
}

impl VisitMut for NumberReads<'_> {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if names == ["pbjson", "private", "NumberDeserialize"] {
            let arguments = path
                .segments
                .last()
                .map(|s| s.arguments.clone())
                .unwrap_or_default();
            let support = self.support;
            let mut replaced: syn::Path = parse_quote!(#support::NumberDeserialize);
            if let Some(last) = replaced.segments.last_mut() {
                last.arguments = arguments;
            }
            *path = replaced;
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

/// `map_.next_value::<Option<BTreeMap<K, V>>>()?` →
/// `map_.next_value::<Option<UniqueMap<K, V>>>()?.map(|present__| present__.0)`: serde's `BTreeMap` keeps
/// the last of two equal keys, where protobuf's JSON parsers reject the document.
struct UniqueMapReads<'a> {
    support: &'a syn::Path,
}

impl VisitMut for UniqueMapReads<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if let Expr::Try(try_expr) = expr
            && let Expr::MethodCall(call) = try_expr.expr.as_ref()
            && call.method == "next_value"
            && let Some(turbofish) = &call.turbofish
            && let Some(syn::GenericArgument::Type(read)) = turbofish.args.first()
            && let Some(syn::Type::Path(map)) = option_inner(read)
            && let Some(last) = map.path.segments.last()
            && last.ident == "BTreeMap"
        {
            let receiver = &call.receiver;
            let arguments = &last.arguments;
            let support = self.support;
            *expr = parse_quote!(
                #receiver.next_value::<::core::option::Option<#support::UniqueMap #arguments>>()?
                    .map(|present__| present__.0)
            );
            return;
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

/// `E::try_from(self.f).map_err(..)?` (fails on unknown values) → `OpenEnum::<E>::new(self.f)`.
struct EnumSerialization<'a> {
    support: &'a syn::Path,
}

impl VisitMut for EnumSerialization<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if let Expr::Try(try_expr) = expr
            && let Expr::MethodCall(map_err) = try_expr.expr.as_ref()
            && map_err.method == "map_err"
            && let Expr::Call(call) = map_err.receiver.as_ref()
            && let Expr::Path(func) = call.func.as_ref()
            && func
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "try_from")
            && call.args.len() == 1
        {
            let mut enum_path = func.path.clone();
            enum_path.segments.pop();
            enum_path.segments.pop_punct();
            let raw = &call.args[0];
            let support = self.support;
            *expr = parse_quote!(#support::OpenEnum::<#enum_path>::new(#raw));
            return;
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

/// `struct_ser.serialize_field("f", value)` → `struct_ser.serialize_field("f", &Floats(value))` for
/// `float` and `double` fields (singular, optional, repeated, map values and oneof members alike: the
/// value is a reference to the field either way).
struct FloatWrites<'a> {
    /// JSON names of the float fields.
    floats: &'a BTreeSet<String>,
    support: &'a syn::Path,
}

impl VisitMut for FloatWrites<'_> {
    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        if call.method == "serialize_field"
            && call.args.len() == 2
            && let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(json_name),
                ..
            }) = &call.args[0]
            && self.floats.contains(&json_name.value())
        {
            let value = &call.args[1];
            let support = self.support;
            call.args[1] = parse_quote!(&#support::Floats(#value));
            return;
        }
        syn::visit_mut::visit_expr_method_call_mut(self, call);
    }
}

/// Rewrites how each field of one message is read in its `Deserialize` impl.
struct FieldReads<'a> {
    message: &'a str,
    fields: &'a BTreeMap<String, FieldDescriptorProto>,
    support: &'a syn::Path,
    errors: &'a mut Vec<String>,
}

impl VisitMut for FieldReads<'_> {
    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        let Some(json_name) = duplicate_field_name(&arm.body) else {
            syn::visit_mut::visit_arm_mut(self, arm);
            return;
        };
        let Some(field) = self.fields.get(&json_name) else {
            self.errors.push(format!(
                "{}: pbjson reads `{json_name}`, which the descriptor does not have",
                self.message
            ));
            return;
        };
        let Expr::Block(body) = arm.body.as_mut() else {
            self.errors.push(format!(
                "{}.{json_name}: unexpected arm shape",
                self.message
            ));
            return;
        };
        let mut rewritten = 0;
        for stmt in &mut body.block.stmts {
            let syn::Stmt::Expr(Expr::Assign(assign), _) = stmt else {
                continue;
            };
            let result = if is_singular_value(field) {
                keep_null_value(&assign.right)
            } else {
                open_enum_reads(&mut assign.right, self.support);
                null_means_absent(&assign.right)
            };
            match result {
                Ok(Some(new_right)) => *assign.right = new_right,
                Ok(None) => {}
                Err(why) => self
                    .errors
                    .push(format!("{}.{json_name}: {why}", self.message)),
            }
            if has_cast(&assign.right) {
                self.errors.push(format!(
                    "{}.{json_name}: an enum read pbjson wrote in a shape the adjustment does not know: {}",
                    self.message,
                    assign.right.to_token_stream()
                ));
            }
            rewritten += 1;
        }
        if rewritten != 1 {
            self.errors.push(format!(
                "{}.{json_name}: expected one assignment in the field's arm, found {rewritten}",
                self.message
            ));
        }
    }
}

/// The JSON name in the arm's `duplicate_field("…")` error, which identifies the field it reads.
fn duplicate_field_name(body: &Expr) -> Option<String> {
    struct Finder(Option<String>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if let Expr::Path(func) = call.func.as_ref()
                && func
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "duplicate_field")
                && let Some(Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(name),
                    ..
                })) = call.args.first()
            {
                self.0 = Some(name.value());
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let mut finder = Finder(None);
    finder.visit_expr(body);
    finder.0
}

/// A `map_.next_value::<T>()?` (or untyped `map_.next_value()?`) expression, taken apart.
struct NextValue {
    receiver: Expr,
    ty: Option<syn::Type>,
}

fn as_next_value(expr: &Expr) -> Option<NextValue> {
    let Expr::Try(try_expr) = expr else {
        return None;
    };
    let Expr::MethodCall(call) = try_expr.expr.as_ref() else {
        return None;
    };
    if call.method != "next_value" || !call.args.is_empty() {
        return None;
    }
    let ty = match &call.turbofish {
        None => None,
        Some(turbofish) => match turbofish.args.first() {
            Some(syn::GenericArgument::Type(ty)) if turbofish.args.len() == 1 => Some(ty.clone()),
            _ => return None,
        },
    };
    Some(NextValue {
        receiver: call.receiver.as_ref().clone(),
        ty,
    })
}

/// `map_.next_value::<E>()? as i32` → `map_.next_value::<OpenEnum<E>>()?.0`.
fn open_enum_reads(expr: &mut Expr, support: &syn::Path) {
    struct Rewriter<'a>(&'a syn::Path);
    impl VisitMut for Rewriter<'_> {
        fn visit_expr_mut(&mut self, expr: &mut Expr) {
            if let Expr::Cast(cast) = expr
                && is_named_type(&cast.ty, "i32")
                && let Some(NextValue {
                    receiver,
                    ty: Some(enum_ty),
                }) = as_next_value(&cast.expr)
            {
                let support = self.0;
                *expr = parse_quote!(#receiver.next_value::<#support::OpenEnum<#enum_ty>>()?.0);
                return;
            }
            syn::visit_mut::visit_expr_mut(self, expr);
        }
    }
    Rewriter(support).visit_expr_mut(expr);
}

/// `Some(f(map_.next_value::<T>()?))` → `map_.next_value::<Option<T>>()?.map(|present__| f(present__))`,
/// so `null` leaves the field at its default. Assignments not wrapped in `Some` already read an
/// `Option` (messages, oneof members, proto3 `optional` scalars) and stay as they are.
fn null_means_absent(right: &Expr) -> Result<Option<Expr>, String> {
    let Expr::Call(call) = right else {
        return Ok(None);
    };
    let is_some = matches!(call.func.as_ref(), Expr::Path(p) if p.path.is_ident("Some"));
    if !is_some || call.args.len() != 1 {
        return Ok(None);
    }
    let mut inner = call.args[0].clone();
    let mut taker = TakeNextValue(None);
    taker.visit_expr_mut(&mut inner);
    let Some(NextValue { receiver, ty }) = taker.0 else {
        return Err(format!(
            "no `next_value` call in `{}`",
            right.to_token_stream()
        ));
    };
    let ty = ty.unwrap_or_else(|| parse_quote!(_));
    let read: Expr = parse_quote!(#receiver.next_value::<::core::option::Option<#ty>>()?);
    let is_placeholder = matches!(&inner, Expr::Path(p) if p.path.is_ident("present__"));
    Ok(Some(if is_placeholder {
        read
    } else {
        parse_quote!(#read.map(|present__| #inner))
    }))
}

/// Replaces the first `next_value` read with the placeholder `present__`, remembering it.
struct TakeNextValue(Option<NextValue>);

impl VisitMut for TakeNextValue {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if self.0.is_none()
            && let Some(next) = as_next_value(expr)
        {
            self.0 = Some(next);
            *expr = parse_quote!(present__);
            return;
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

/// For a `google.protobuf.Value` field, JSON `null` is the null value: read the value itself, not an
/// `Option` of it.
fn keep_null_value(right: &Expr) -> Result<Option<Expr>, String> {
    // A oneof member: `map_.next_value::<Option<_>>()?.map(path::Member)`.
    if let Expr::MethodCall(call) = right
        && call.method == "map"
        && call.args.len() == 1
        && let Expr::Path(member) = &call.args[0]
        && let Some(NextValue { receiver, .. }) = as_next_value(&call.receiver)
    {
        return Ok(Some(
            parse_quote!(::core::option::Option::Some(#member(#receiver.next_value()?))),
        ));
    }
    // A plain singular field: `map_.next_value()?` into an `Option<Value>`.
    if let Some(NextValue { receiver, ty: None }) = as_next_value(right) {
        return Ok(Some(
            parse_quote!(::core::option::Option::Some(#receiver.next_value()?)),
        ));
    }
    Err(format!(
        "a google.protobuf.Value read of unknown shape: `{}`",
        right.to_token_stream()
    ))
}

fn has_cast(expr: &Expr) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_cast(&mut self, _: &'ast syn::ExprCast) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    finder.visit_expr(expr);
    finder.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn rewrite(f: fn(&Expr) -> Result<Option<Expr>, String>, input: Expr) -> String {
        f(&input).unwrap().unwrap().to_token_stream().to_string()
    }

    #[test]
    fn scalar_repeated_and_map_reads_tolerate_null() {
        let cases: [(Expr, Expr); 3] = [
            (
                parse_quote!(Some(map_.next_value()?)),
                parse_quote!(map_.next_value::<::core::option::Option<_>>()?),
            ),
            (
                parse_quote!(Some(map_.next_value::<::pbjson::private::NumberDeserialize<_>>()?.0)),
                parse_quote!(map_
                    .next_value::<::core::option::Option<::pbjson::private::NumberDeserialize<_>>>()?
                    .map(|present__| present__.0)),
            ),
            (
                parse_quote!(Some(map_.next_value::<std::collections::BTreeMap<_, _>>()?)),
                parse_quote!(map_.next_value::<::core::option::Option<std::collections::BTreeMap<_, _>>>()?),
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(
                rewrite(null_means_absent, input),
                expected.to_token_stream().to_string()
            );
        }
    }

    #[test]
    fn enum_reads_become_open_and_null_tolerant() {
        let mut read: Expr = parse_quote!(Some(map_.next_value::<TaskState>()? as i32));
        open_enum_reads(&mut read, &parse_quote!(crate::protojson));
        let expected: Expr = parse_quote!(
            map_.next_value::<::core::option::Option<crate::protojson::OpenEnum<TaskState>>>()?
                .map(|present__| present__.0)
        );
        assert_eq!(
            rewrite(null_means_absent, read),
            expected.to_token_stream().to_string()
        );
    }

    #[test]
    fn value_oneof_members_keep_null() {
        let read: Expr = parse_quote!(
            map_.next_value::<::std::option::Option<_>>()?
                .map(part::Content::Data)
        );
        let expected: Expr = parse_quote!(::core::option::Option::Some(part::Content::Data(
            map_.next_value()?
        )));
        assert_eq!(
            rewrite(keep_null_value, read),
            expected.to_token_stream().to_string()
        );
    }

    #[test]
    fn unknown_shapes_are_errors_not_silent_skips() {
        let read: Expr = parse_quote!(map_.next_value::<Vec<_>>()?.into_iter().collect());
        assert!(keep_null_value(&read).is_err());
        let without_read: Expr = parse_quote!(Some(Default::default()));
        assert!(null_means_absent(&without_read).is_err());
    }

    #[test]
    fn float_writes_name_non_finite_values() {
        let floats = BTreeSet::from(["ratio".to_owned()]);
        let mut body: syn::Block = parse_quote!({
            struct_ser.serialize_field("ratio", &self.ratio)?;
            struct_ser.serialize_field("count", ToString::to_string(&self.count).as_str())?;
        });
        FloatWrites {
            floats: &floats,
            support: &parse_quote!(crate::protojson),
        }
        .visit_block_mut(&mut body);
        let expected: syn::Block = parse_quote!({
            struct_ser.serialize_field("ratio", &crate::protojson::Floats(&self.ratio))?;
            struct_ser.serialize_field("count", ToString::to_string(&self.count).as_str())?;
        });
        assert_eq!(
            body.to_token_stream().to_string(),
            expected.to_token_stream().to_string()
        );
    }

    #[test]
    fn enum_serialization_keeps_unknown_values() {
        let mut expr: Expr =
            parse_quote!(TaskState::try_from(self.state).map_err(
                |_| serde::ser::Error::custom(format!("Invalid variant {}", self.state))
            )?);
        EnumSerialization {
            support: &parse_quote!(crate::protojson),
        }
        .visit_expr_mut(&mut expr);
        let expected = quote!(crate::protojson::OpenEnum::<TaskState>::new(self.state));
        assert_eq!(expr.to_token_stream().to_string(), expected.to_string());
    }
}
