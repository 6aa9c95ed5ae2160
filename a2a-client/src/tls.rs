//! TLS (feature `rustls`): one trust configuration for every binding. The HTTP bindings (reqwest) and
//! gRPC (tonic) both verify the agent's certificate with rustls against the same trust anchors, the
//! web PKI roots (Mozilla's list,
//! [`ClientConfig::web_pki_roots`](crate::ClientConfig::web_pki_roots)) plus the extra
//! [`ClientConfig::root_certificates`](crate::ClientConfig::root_certificates) (a private CA), with
//! the same crypto provider: the one the program installed as the process default, else aws-lc-rs
//! (the rule tonic and reqwest follow too).
//!
//! A certificate the anchors do not vouch for fails the call with [`ClientError::Tls`], which never
//! moves the call to another interface (that could be a downgrade to plain HTTP).

use std::fmt;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, TrustAnchor};

use crate::error::ClientError;

/// A certificate to trust as a root (a private CA's, or a self-signed agent's).
#[derive(Clone, PartialEq, Eq)]
pub struct RootCertificate {
    der: CertificateDer<'static>,
}

impl RootCertificate {
    /// Every certificate of a PEM bundle (`-----BEGIN CERTIFICATE-----` sections; other sections are
    /// skipped). A bundle without one, or with one that is not valid base64, is refused.
    ///
    /// # Errors
    ///
    /// [`ClientError::InvalidConfig`] naming `root_certificates`.
    pub fn from_pem(pem: &[u8]) -> Result<Vec<Self>, ClientError> {
        let certificates = CertificateDer::pem_slice_iter(pem)
            .map(|der| der.map(|der| RootCertificate { der }))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| invalid("root_certificates", format!("not a PEM bundle: {e}")))?;
        if certificates.is_empty() {
            return Err(invalid(
                "root_certificates",
                "the PEM bundle holds no CERTIFICATE section",
            ));
        }
        Ok(certificates)
    }

    /// A DER-encoded certificate (checked when a client is made with it).
    pub fn from_der(der: impl Into<Vec<u8>>) -> Self {
        RootCertificate {
            der: CertificateDer::from(der.into()),
        }
    }

    /// The certificate's DER encoding.
    pub fn der(&self) -> &[u8] {
        &self.der
    }
}

/// The bytes are long and say nothing to a reader: only their length is shown.
impl fmt::Debug for RootCertificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RootCertificate({} bytes of DER)", self.der.len())
    }
}

/// A certificate chain and its private key, which the client presents to an agent that asks for a
/// client certificate (mutual TLS), on every binding.
#[derive(Clone)]
pub struct ClientIdentity {
    chain: Vec<CertificateDer<'static>>,
    key: Arc<PrivateKeyDer<'static>>,
    /// The same, as PEM, for tonic (which reads its identity from PEM).
    chain_pem: Vec<u8>,
    key_pem: Vec<u8>,
}

impl ClientIdentity {
    /// An identity from PEM: the certificate chain (the client's certificate first) and its private
    /// key (PKCS #8, PKCS #1 or SEC1).
    ///
    /// # Errors
    ///
    /// [`ClientError::InvalidConfig`] naming `client_identity.certificate_chain` or
    /// `client_identity.private_key`.
    pub fn from_pem(
        certificate_chain: impl Into<Vec<u8>>,
        private_key: impl Into<Vec<u8>>,
    ) -> Result<Self, ClientError> {
        let (chain_pem, key_pem): (Vec<u8>, Vec<u8>) =
            (certificate_chain.into(), private_key.into());
        let chain = CertificateDer::pem_slice_iter(&chain_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| invalid("client_identity.certificate_chain", format!("not PEM: {e}")))?;
        if chain.is_empty() {
            return Err(invalid(
                "client_identity.certificate_chain",
                "holds no CERTIFICATE section",
            ));
        }
        let key = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| {
            invalid(
                "client_identity.private_key",
                format!("no private key read: {e}"),
            )
        })?;
        Ok(ClientIdentity {
            chain,
            key: Arc::new(key),
            chain_pem,
            key_pem,
        })
    }
}

/// The key stays out of logs.
impl fmt::Debug for ClientIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ClientIdentity({} certificates, a key)",
            self.chain.len()
        )
    }
}

fn invalid(field: &str, message: impl fmt::Display) -> ClientError {
    ClientError::InvalidConfig {
        field: field.to_owned(),
        message: message.to_string(),
    }
}

/// What both transports are built from: the trust anchors and the crypto provider.
#[derive(Clone, Debug)]
pub(crate) struct Trust {
    pub(crate) anchors: Vec<TrustAnchor<'static>>,
    pub(crate) provider: Arc<CryptoProvider>,
    /// The client certificate presented when an agent asks for one.
    pub(crate) identity: Option<ClientIdentity>,
}

impl Trust {
    /// The anchors a configuration names: the web PKI roots when wanted, then each extra root,
    /// checked.
    pub(crate) fn of(
        web_pki_roots: bool,
        root_certificates: &[RootCertificate],
    ) -> Result<Self, ClientError> {
        let mut anchors = Vec::new();
        if web_pki_roots {
            anchors.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        }
        for (index, root) in root_certificates.iter().enumerate() {
            let anchor = webpki::anchor_from_trusted_cert(&root.der).map_err(|e| {
                invalid(
                    &format!("root_certificates[{index}]"),
                    format!("not a usable certificate: {e}"),
                )
            })?;
            anchors.push(anchor.to_owned());
        }
        if anchors.is_empty() {
            return Err(invalid(
                "root_certificates",
                "no certificate is trusted: set web_pki_roots or give root certificates",
            ));
        }
        let provider = CryptoProvider::get_default()
            .cloned()
            .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
        Ok(Trust {
            anchors,
            provider,
            identity: None,
        })
    }

    /// The same trust, presenting `identity` to agents that ask for a client certificate.
    pub(crate) fn presenting(mut self, identity: Option<ClientIdentity>) -> Self {
        self.identity = identity;
        self
    }

    /// The rustls configuration of the HTTP bindings.
    pub(crate) fn rustls_config(&self) -> Result<rustls::ClientConfig, ClientError> {
        let roots = RootCertStore::from_iter(self.anchors.iter().cloned());
        let builder = rustls::ClientConfig::builder_with_provider(self.provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| invalid("root_certificates", format!("no TLS version usable: {e}")))?
            .with_root_certificates(roots);
        match &self.identity {
            Some(identity) => builder
                .with_client_auth_cert(identity.chain.clone(), identity.key.clone_key())
                .map_err(|e| {
                    invalid(
                        "client_identity.private_key",
                        format!("not usable with the certificate: {e}"),
                    )
                }),
            None => Ok(builder.with_no_client_auth()),
        }
    }

    /// tonic's configuration of the gRPC binding: the same anchors (tonic picks the same provider).
    pub(crate) fn tonic_config(&self) -> tonic::transport::ClientTlsConfig {
        let config =
            tonic::transport::ClientTlsConfig::new().trust_anchors(self.anchors.iter().cloned());
        match &self.identity {
            Some(identity) => config.identity(tonic::transport::Identity::from_pem(
                &identity.chain_pem,
                &identity.key_pem,
            )),
            None => config,
        }
    }
}

/// The TLS refusal in `error`'s chain of sources, if the failure was one: rustls' error, found
/// directly, inside an `io::Error` or inside a boxed error (neither of which lists the error it wraps
/// as its source: both skip to that error's own source).
pub(crate) fn tls_failure(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut current = Some(error);
    // Each step goes one wrapper deeper (an io::Error may wrap another); the bound guards a cycle.
    for _ in 0..32 {
        let cause = current?;
        if let Some(tls) = cause.downcast_ref::<rustls::Error>() {
            return Some(tls.to_string());
        }
        current = if let Some(inner) = cause
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner as &(dyn std::error::Error + 'static))
        } else {
            cause.source()
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_without_certificates_is_refused_by_field() {
        let error = RootCertificate::from_pem(b"no pem here").expect_err("empty");
        assert!(
            matches!(&error, ClientError::InvalidConfig { field, .. } if field == "root_certificates"),
            "{error:?}"
        );
    }

    #[test]
    fn a_certificate_that_does_not_parse_is_refused_with_its_index() {
        let roots = [RootCertificate::from_der(vec![0x30, 0x03, 1, 2, 3])];
        let error = Trust::of(true, &roots).expect_err("not a certificate");
        assert!(
            matches!(&error, ClientError::InvalidConfig { field, .. } if field == "root_certificates[0]"),
            "{error:?}"
        );
    }

    #[test]
    fn no_roots_at_all_is_refused() {
        assert!(matches!(
            Trust::of(false, &[]),
            Err(ClientError::InvalidConfig { .. })
        ));
    }
}
