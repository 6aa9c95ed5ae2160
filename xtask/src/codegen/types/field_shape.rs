//! How each proto field appears in `a2a-types`: the one classification that the serde attributes,
//! the proto conversions and the property-test strategies are all generated from.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto};

use crate::codegen::descriptor::{is_oneof_member, is_written_in_full, last_segment, map_entry};

/// The value kind of a field (or of the elements of a repeated field or the values of a map).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    String,
    Bool,
    /// Any numeric scalar, by the Rust type it is held in.
    Number(Number),
    Bytes,
    /// A proto enum, by Rust name.
    Enum(String),
    /// A message, by Rust name.
    Message(String),
    /// A message that is nothing but a oneof (a Rust enum in `a2a-types`), by Rust name.
    OneofMessage(String),
    Timestamp,
    Struct,
    Value,
}

/// A numeric protobuf scalar, by the Rust type that both prost and `a2a-types` hold it in (the JSON form
/// follows from it: 64-bit integers are strings, floats may be `"NaN"` and the infinities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Number {
    /// `int32`, `sint32`, `sfixed32`.
    I32,
    /// `uint32`, `fixed32`.
    U32,
    /// `int64`, `sint64`, `sfixed64`.
    I64,
    /// `uint64`, `fixed64`.
    U64,
    /// `float`.
    F32,
    /// `double`.
    F64,
}

impl Number {
    /// The numeric kind of a protobuf field type; `None` for every other type.
    pub(crate) fn of(ty: Type) -> Option<Self> {
        Some(match ty {
            Type::Int32 | Type::Sint32 | Type::Sfixed32 => Self::I32,
            Type::Uint32 | Type::Fixed32 => Self::U32,
            Type::Int64 | Type::Sint64 | Type::Sfixed64 => Self::I64,
            Type::Uint64 | Type::Fixed64 => Self::U64,
            Type::Float => Self::F32,
            Type::Double => Self::F64,
            _ => return None,
        })
    }

    /// The Rust type, on both sides (prost and `a2a-types`).
    pub(crate) fn rust_type(self) -> proc_macro2::TokenStream {
        match self {
            Self::I32 => quote::quote!(i32),
            Self::U32 => quote::quote!(u32),
            Self::I64 => quote::quote!(i64),
            Self::U64 => quote::quote!(u64),
            Self::F32 => quote::quote!(f32),
            Self::F64 => quote::quote!(f64),
        }
    }
}

/// How a field is held in an `a2a-types` struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `Vec<T>`.
    Repeated(Elem),
    /// `BTreeMap<String, T>`.
    Map(Elem),
    /// A REQUIRED field: plain `T`.
    Plain(Elem),
    /// A field with presence (proto3 `optional`, a message, a timestamp, a struct): `Option<T>`,
    /// `Some(default)` kept.
    Presence(Elem),
    /// A scalar or enum without presence and not REQUIRED: `Option<T>`, where `None` is the default.
    UnlessDefault(Elem),
}

/// What the classifier needs to know about the package.
pub(crate) struct Package<'a> {
    pub(crate) name: &'a str,
    /// Full names of REQUIRED fields (`lf.a2a.v1.Task.id`).
    pub(crate) required: &'a [String],
    /// Full names of messages that are nothing but a oneof.
    pub(crate) oneof_messages: &'a [String],
    /// Full protobuf name → Rust ident of every message.
    pub(crate) rust_names: &'a BTreeMap<String, String>,
}

impl Package<'_> {
    /// The full protobuf name and the Rust name of a top-level message of the package.
    pub(crate) fn names(&self, message: &DescriptorProto) -> Result<(String, String)> {
        let full_name = format!("{}.{}", self.name, message.name());
        let rust = self
            .rust_names
            .get(&full_name)
            .ok_or_else(|| anyhow::anyhow!("no Rust name for {full_name}"))?
            .clone();
        Ok((full_name, rust))
    }

    /// Whether `message`'s fields are written even at their default value
    /// ([`is_written_in_full`]).
    pub(crate) fn written_in_full(&self, message: &DescriptorProto) -> bool {
        is_written_in_full(&format!("{}.{}", self.name, message.name()))
    }

    /// The shape of `field` of `message`; errors name what the generator does not support yet.
    pub(crate) fn shape(
        &self,
        message: &DescriptorProto,
        field: &FieldDescriptorProto,
    ) -> Result<Shape> {
        let full_name = format!("{}.{}", self.name, message.name());
        if field.label() == Label::Repeated {
            if let Some(entry) = map_entry(message, field) {
                let key = entry.field.iter().find(|f| f.number() == 1);
                if key.is_none_or(|k| k.r#type() != Type::String) {
                    bail!(
                        "{full_name}.{}: maps with non-string keys are not supported yet",
                        field.name()
                    );
                }
                let value = entry.field.iter().find(|f| f.number() == 2);
                let Some(value) = value else {
                    bail!("{full_name}.{}: map entry without value", field.name())
                };
                return Ok(Shape::Map(self.elem(value)?));
            }
            return Ok(Shape::Repeated(self.elem(field)?));
        }
        let elem = self.elem(field)?;
        let required = self
            .required
            .contains(&format!("{full_name}.{}", field.name()));
        Ok(match elem {
            // No default value exists for these, so they stay optional even when REQUIRED.
            Elem::OneofMessage(_) | Elem::Timestamp | Elem::Struct => Shape::Presence(elem),
            Elem::Value => bail!(
                "{full_name}.{}: google.protobuf.Value fields outside a oneof are not supported yet",
                field.name()
            ),
            Elem::Bytes if !is_oneof_member(field) => {
                bail!(
                    "{full_name}.{}: bytes fields outside a oneof are not supported yet",
                    field.name()
                )
            }
            _ if required => Shape::Plain(elem),
            Elem::Message(_) => Shape::Presence(elem),
            _ if field.proto3_optional() => Shape::Presence(elem),
            _ => Shape::UnlessDefault(elem),
        })
    }

    /// The value kind of a field.
    pub(crate) fn elem(&self, field: &FieldDescriptorProto) -> Result<Elem> {
        Ok(match field.r#type() {
            Type::String => Elem::String,
            Type::Bool => Elem::Bool,
            Type::Bytes => Elem::Bytes,
            Type::Enum => Elem::Enum(last_segment(field.type_name()).to_owned()),
            Type::Message => match field.type_name() {
                ".google.protobuf.Timestamp" => Elem::Timestamp,
                ".google.protobuf.Struct" => Elem::Struct,
                ".google.protobuf.Value" => Elem::Value,
                other if other.starts_with(".google.") => {
                    bail!("well-known type {other} is not supported yet")
                }
                other => {
                    let full_name = other.trim_start_matches('.');
                    let rust = self
                        .rust_names
                        .get(full_name)
                        .cloned()
                        .unwrap_or_else(|| last_segment(other).to_owned());
                    if self.oneof_messages.iter().any(|m| m == full_name) {
                        Elem::OneofMessage(rust)
                    } else {
                        Elem::Message(rust)
                    }
                }
            },
            other => match Number::of(other) {
                Some(number) => Elem::Number(number),
                None => bail!(
                    "fields of type {other:?} are not supported yet ({})",
                    field.name()
                ),
            },
        })
    }
}
