//! [`Presented`]: what a binding is handed about a request's caller before it authenticates: the
//! client's verified TLS certificate ([`PeerCertificate`]), and the outcome of authentication when a
//! layer in front of the binding (the limits) ran it already ([`Authenticated`]), so that each
//! request is authenticated once.

use axum::extract::Extension;

use super::{Caller, PeerCertificate, Unauthenticated};

/// The outcome of authenticating a request, put into its extensions by the layer that did it (the
/// limits, which must know the caller before the binding runs), for the binding to use instead of
/// running the hook again.
#[derive(Clone, Debug)]
pub(crate) struct Authenticated(pub(crate) Result<Caller, Unauthenticated>);

/// What the connection and the layers in front of a binding know of a request's caller.
#[derive(Clone, Debug, Default)]
pub(crate) struct Presented {
    /// The certificate the client presented and the listener verified.
    pub(crate) certificate: Option<PeerCertificate>,
    /// The caller, when a layer authenticated the request already.
    pub(crate) authenticated: Option<Authenticated>,
}

impl Presented {
    /// What a handler's extractors found in the request's extensions.
    pub(crate) fn new(
        certificate: Option<Extension<PeerCertificate>>,
        authenticated: Option<Extension<Authenticated>>,
    ) -> Self {
        Presented {
            certificate: certificate.map(|Extension(certificate)| certificate),
            authenticated: authenticated.map(|Extension(outcome)| outcome),
        }
    }

    /// What a request's extensions hold (gRPC requests, whose extensions tonic hands over; served
    /// by tonic's own TLS server, the client certificate is read from tonic's connection info).
    pub(crate) fn of(extensions: &axum::http::Extensions) -> Self {
        Presented {
            certificate: PeerCertificate::of_extensions(extensions),
            authenticated: extensions.get().cloned(),
        }
    }
}
