//! Dispatch from a message's full protobuf name to its Rust type.
//!
//! Tools that handle a message type chosen at run time (a transcoder, a test walking the descriptor)
//! implement [`MessageVisitor`] once and call the generated [`crate::v1::visit_message`].

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A message type of the protocol: serde in ProtoJSON form, validation, and its protobuf name.
pub trait A2aMessage:
    Serialize + DeserializeOwned + Clone + PartialEq + Debug + crate::validate::Validate + 'static
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
