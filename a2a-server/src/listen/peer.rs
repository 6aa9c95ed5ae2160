//! What a connection says of its client beyond its address: the certificate it presented in the
//! TLS handshake (mutual TLS), which the accept loop puts into every request it serves.

use tokio::net::TcpStream;

use crate::auth::PeerCertificate;

/// A connection the accept loop serves, asked once for its client's verified certificate.
pub(crate) trait ClientCertificateOf {
    /// The end-entity certificate the client presented and the handshake verified (`None` on plain
    /// TCP, or when the client presented none).
    fn client_certificate(&self) -> Option<PeerCertificate>;
}

impl ClientCertificateOf for TcpStream {
    fn client_certificate(&self) -> Option<PeerCertificate> {
        None
    }
}

#[cfg(feature = "rustls")]
impl ClientCertificateOf for tokio_rustls::server::TlsStream<TcpStream> {
    fn client_certificate(&self) -> Option<PeerCertificate> {
        // rustls hands out the chain only after its verifier accepted it; the client's own
        // certificate comes first.
        let (_, session) = self.get_ref();
        let chain = session.peer_certificates()?;
        chain
            .first()
            .map(|end_entity| PeerCertificate::from_der(end_entity.as_ref()))
    }
}
