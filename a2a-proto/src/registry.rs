//! Dispatch from a message's full protobuf name to its Rust type.
//!
//! Tools that work on any message chosen at run time (a transcoder, a fuzzer, a test walking the
//! descriptor) implement [`MessageVisitor`] once and call the generated `visit_message` of a package, such
//! as [`crate::v1::visit_message`].

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Everything a generated message type offers: binary encoding, its protobuf name, and ProtoJSON.
pub trait ProtoMessage:
    prost::Message
    + prost::Name
    + Default
    + Clone
    + PartialEq
    + Debug
    + Serialize
    + DeserializeOwned
    + 'static
{
}

impl<T> ProtoMessage for T where
    T: prost::Message
        + prost::Name
        + Default
        + Clone
        + PartialEq
        + Debug
        + Serialize
        + DeserializeOwned
        + 'static
{
}

/// Work to do with one message type, chosen by name at run time.
pub trait MessageVisitor {
    /// What the work produces.
    type Output;

    /// Does the work with the message type `M`.
    fn visit<M: ProtoMessage>(self) -> Self::Output;
}
