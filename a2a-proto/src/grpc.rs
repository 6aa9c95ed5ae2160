//! The decode budget of [`crate::limits`] on gRPC: the codec of the generated tonic stubs checks
//! every incoming message against a [`Limits`] before prost decodes it (feature `grpc`).
//!
//! tonic builds a codec for each call with `Default::default()`, so the stubs cannot be handed the
//! limits directly. Instead [`BudgetCodec`] reads the limits in scope while it decodes:
//!
//! - on a server, wrap the generated service in [`Budgeted`]: every request it decodes is checked
//!   against the limits it was given;
//! - on a client, run a call inside [`with_limits`] to check the response it decodes;
//! - anywhere else, [`Limits::default()`] applies (16 MiB and 100,000 fields per message), so a stub
//!   never decodes an unbounded message.
//!
//! A message over the budget is answered with `OUT_OF_RANGE`, the code tonic gives a message over its
//! `max_decoding_message_size`, and a text naming the limit and the path of the first field over it.
//! Set tonic's `max_decoding_message_size` to the same `max_bytes` as well: tonic checks it before it
//! buffers a message, the codec only once the message is in memory.
//!
//! ```
//! # #[cfg(feature = "grpc")]
//! # mod example {
//! use a2a_proto::grpc::Budgeted;
//! use a2a_proto::limits::Limits;
//! use a2a_proto::v1::a2a_service_server::{A2aService, A2aServiceServer};
//!
//! struct Agent;
//!
//! #[tonic::async_trait]
//! impl A2aService for Agent {}
//!
//! fn routes() -> tonic::service::Routes {
//!     let limits = Limits::default().with_max_bytes(1 << 20).with_max_elements(10_000);
//!     let server = A2aServiceServer::new(Agent).max_decoding_message_size(limits.max_bytes());
//!     tonic::service::Routes::new(Budgeted::new(server, limits))
//! }
//! # }
//! ```

use std::any::TypeId;
use std::cell::Cell;
use std::collections::HashMap;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::OnceLock;
use std::task::{Context, Poll};

use prost::bytes::Buf;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder};
use tonic::server::NamedService;
use tonic_prost::ProstEncoder;

use crate::limits::{CheckBinary as _, Limits};
use crate::registry::{MessageVisitor, ProtoMessage};

thread_local! {
    /// The limits of the [`Scoped`] future being polled on this thread, if any.
    static SCOPED_LIMITS: Cell<Option<Limits>> = const { Cell::new(None) };
}

/// The limits the codec applies on this thread now: the innermost [`with_limits`] or [`Budgeted`]
/// being polled, else [`Limits::default()`].
pub fn current_limits() -> Limits {
    SCOPED_LIMITS.with(Cell::get).unwrap_or_default()
}

/// Runs `future` with `limits` in scope: every message a [`BudgetCodec`] decodes while the future
/// is polled (a client call's response, for instance) is checked against them.
pub fn with_limits<F: Future>(limits: Limits, future: F) -> Scoped<F> {
    Scoped {
        limits,
        inner: Box::pin(future),
    }
}

/// A future polled with its [`Limits`] in scope; made by [`with_limits`] and by [`Budgeted`].
#[must_use = "futures do nothing unless polled"]
pub struct Scoped<F> {
    limits: Limits,
    inner: Pin<Box<F>>,
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        /// Puts the outer scope back however the poll ends, a panic included.
        struct Restore(Option<Limits>);
        impl Drop for Restore {
            fn drop(&mut self) {
                SCOPED_LIMITS.with(|scoped| scoped.set(self.0));
            }
        }
        let _restore = Restore(SCOPED_LIMITS.with(|scoped| scoped.replace(Some(self.limits))));
        self.inner.as_mut().poll(cx)
    }
}

/// A gRPC service (such as a generated `A2aServiceServer`) whose requests are decoded under `limits`.
#[derive(Clone, Debug)]
pub struct Budgeted<S> {
    inner: S,
    limits: Limits,
}

impl<S> Budgeted<S> {
    /// Wraps `inner`, so that each of its calls decodes its request under `limits`.
    pub fn new(inner: S, limits: Limits) -> Self {
        Budgeted { inner, limits }
    }

    /// The limits requests are decoded under.
    pub fn limits(&self) -> Limits {
        self.limits
    }
}

impl<S, Request> tonic::codegen::Service<Request> for Budgeted<S>
where
    S: tonic::codegen::Service<Request>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Scoped<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        with_limits(self.limits, self.inner.call(request))
    }
}

impl<S: NamedService> NamedService for Budgeted<S> {
    const NAME: &'static str = S::NAME;
}

/// The codec of the generated stubs: prost's encoder, and a decoder that checks each message against
/// the [`current_limits`] first.
#[derive(Debug)]
pub struct BudgetCodec<T, U> {
    _messages: PhantomData<(T, U)>,
}

impl<T, U> Default for BudgetCodec<T, U> {
    fn default() -> Self {
        BudgetCodec {
            _messages: PhantomData,
        }
    }
}

impl<T, U> Codec for BudgetCodec<T, U>
where
    T: prost::Message + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = BudgetDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::default()
    }

    fn decoder(&mut self) -> Self::Decoder {
        BudgetDecoder {
            _message: PhantomData,
        }
    }
}

/// Decodes a `U` after checking its bytes against the [`current_limits`].
#[derive(Debug)]
pub struct BudgetDecoder<U> {
    _message: PhantomData<U>,
}

impl<U: prost::Message + Default + 'static> Decoder for BudgetDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        // The whole message as one slice: tonic's buffer is a `BytesMut`, so this splits, not copies.
        let bytes = buf.copy_to_bytes(buf.remaining());
        current_limits()
            .check_binary_as(full_name_of::<U>().unwrap_or(""), &bytes)
            .map_err(|error| Status::out_of_range(error.to_string()))?;
        // Bytes that are no message are the sender's mistake: INVALID_ARGUMENT, as gRPC's status
        // codes say of a malformed request (tonic's own prost codec answers INTERNAL). A client
        // decoding an agent's answer reports it as the call's error the same way.
        U::decode(bytes)
            .map(Some)
            .map_err(|error| Status::invalid_argument(error.to_string()))
    }
}

/// The full protobuf name of the generated message type `U`; `None` for a type of another crate
/// (`google.protobuf.Empty`), whose top-level fields alone are then counted.
fn full_name_of<U: 'static>() -> Option<&'static str> {
    static NAMES: OnceLock<HashMap<TypeId, &'static str>> = OnceLock::new();
    struct IdOf;
    impl MessageVisitor for IdOf {
        type Output = TypeId;
        fn visit<M: ProtoMessage>(self) -> TypeId {
            TypeId::of::<M>()
        }
    }
    let names = NAMES.get_or_init(|| {
        let mut names = HashMap::new();
        for &name in crate::v1::MESSAGE_NAMES {
            names.extend(crate::v1::visit_message(name, IdOf).map(|id| (id, name)));
        }
        #[cfg(feature = "v0_3")]
        for &name in crate::v0_3::MESSAGE_NAMES {
            names.extend(crate::v0_3::visit_message(name, IdOf).map(|id| (id, name)));
        }
        names
    });
    names.get(&TypeId::of::<U>()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_message_has_its_name() {
        assert_eq!(
            full_name_of::<crate::v1::SendMessageRequest>(),
            Some("lf.a2a.v1.SendMessageRequest")
        );
        assert_eq!(
            full_name_of::<crate::v1::ListTasksResponse>(),
            Some("lf.a2a.v1.ListTasksResponse")
        );
        assert_eq!(full_name_of::<pbjson_types::Empty>(), None);
        #[cfg(feature = "v0_3")]
        assert_eq!(
            full_name_of::<crate::v0_3::SendMessageRequest>(),
            Some("a2a.v1.SendMessageRequest")
        );
    }

    #[test]
    fn a_scope_applies_while_polled_and_is_restored_after() {
        let small = Limits::default().with_max_elements(3);
        let inner = Limits::default().with_max_bytes(10);
        let observed = block_on(with_limits(small, async move {
            let outer = current_limits();
            let nested = with_limits(inner, async { current_limits() }).await;
            (outer, nested, current_limits())
        }));
        assert_eq!(observed, (small, inner, small));
        assert_eq!(current_limits(), Limits::default());
    }

    /// Polls a future that never waits to completion.
    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut cx = Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(output) => output,
            Poll::Pending => panic!("the future waited"),
        }
    }
}
