//! Lookup by name: the traits that let a tool handle a type chosen at run time (a transcoder, a test
//! walking the descriptor or the schema), for each of the three families of types.
//!
//! | family | name | trait of each type | visitor | lookup |
//! |---|---|---|---|---|
//! | v1 messages | full protobuf name (`lf.a2a.v1.Task`) | [`A2aMessage`] | [`MessageVisitor`] | [`crate::v1::visit_message`] |
//! | v1 messages with their protobuf type (feature `proto`) | full protobuf name | [`A2aMessage`] | `ProtoPairVisitor` | `v1::visit_proto_pair` |
//! | v0.3 schema types (crate `a2a-spec-compat`) | JSON Schema definition name (`MessageSendParams`) | `SchemaType` | `SchemaTypeVisitor` | `a2a_compat::v0_3::visit_schema_type` |
//!
//! Implement the visitor once, and the lookup calls it with the type the name stands for.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A message type of the protocol: serde in ProtoJSON form (and the faster encoder,
/// [`crate::json::to_vec`], writing the same bytes), validation, and its protobuf name.
pub trait A2aMessage:
    Serialize
    + DeserializeOwned
    + crate::json::WriteJson
    + Clone
    + PartialEq
    + Debug
    + crate::validate::Validate
    + a2a_support::protojson::ReferenceRead
    + 'static
{
    /// The message's full protobuf name, such as `lf.a2a.v1.Task`.
    const FULL_NAME: &'static str;
}

/// Work to do with one message type, chosen by name at run time.
pub trait MessageVisitor {
    /// What the work produces.
    type Output;

    /// Does the work with the message type `M`.
    fn visit<M: A2aMessage>(self) -> Self::Output;
}

/// Work to do with the serde type `M` and the protobuf type `P` of one message, chosen by name at run
/// time through [`crate::v1::visit_proto_pair`].
#[cfg(feature = "proto")]
pub trait ProtoPairVisitor {
    /// What the work produces.
    type Output;

    /// Does the work with the pair.
    fn visit<M, P>(self) -> Self::Output
    where
        M: A2aMessage + Into<P> + TryFrom<P, Error = crate::proto::ConversionError>,
        P: a2a_proto::registry::ProtoMessage;
}

/// A type of the v0.3 JSON Schema (`a2a_compat::v0_3`); [`SchemaType::SCHEMA_NAME`] is its
/// definition's name.
pub trait SchemaType:
    Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync + 'static
{
    /// The name of the type's definition in the v0.3 JSON Schema, such as `MessageSendParams`.
    const SCHEMA_NAME: &'static str;
}

/// Something done with a v0.3 schema type chosen at run time by name; see
/// `a2a_compat::v0_3::visit_schema_type`.
pub trait SchemaTypeVisitor {
    /// What the work produces.
    type Output;

    /// Does the work with the schema type `T`.
    fn visit<T: SchemaType>(self) -> Self::Output;
}
