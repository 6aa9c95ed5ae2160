//! [`ClientCertificates`] (feature `rustls`): the caller named by the certificate a client presented
//! over mutual TLS ([`AuthRequest::peer_certificate`]), from its subject's common name or its first
//! DNS or URI subject alternative name, read with x509-parser.
//!
//! It trusts the certificate as given: the TLS listener already verified it against the roots of
//! [`TlsIdentity::require_client_certificates`](crate::tls::TlsIdentity::require_client_certificates).

use a2a_types::v1::{MutualTlsSecurityScheme, SecurityScheme};
use async_trait::async_trait;
use axum::http::HeaderMap;
use x509_parser::certificate::X509Certificate;
use x509_parser::extensions::GeneralName;
use x509_parser::prelude::FromDer;

use super::security::CredentialScheme;
use super::{AuthRequest, Authenticator, Caller, Unauthenticated};

/// Which name of a client certificate is the caller's principal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CertificateName {
    /// The subject's (first) common name (`CN`).
    #[default]
    CommonName,
    /// The first DNS name or URI among the subject alternative names (a SPIFFE id, a host name).
    SubjectAltName,
}

/// The caller of a mutual-TLS connection, named by its client certificate. Requests without a
/// certificate are anonymous unless [`required`](Self::required); a certificate without the chosen
/// name is refused. Also a [`CredentialScheme`] (the card's `mtlsSecurityScheme`), to compose with
/// others in a [`Security`](super::Security).
///
/// ```
/// use a2a_server::auth::{CertificateName, ClientCertificates, Security};
///
/// let authenticator = Security::new().scheme(
///     "mtls",
///     ClientCertificates::new().name_from(CertificateName::SubjectAltName),
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct ClientCertificates {
    name: CertificateName,
    required: bool,
}

impl ClientCertificates {
    /// Callers named by their certificate's common name; requests without one anonymous.
    pub fn new() -> Self {
        ClientCertificates::default()
    }

    /// Names callers by `name` instead.
    pub fn name_from(mut self, name: CertificateName) -> Self {
        self.name = name;
        self
    }

    /// Refuses requests without a client certificate.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The card's description of this scheme (`MutualTlsSecurityScheme`).
    pub fn security_scheme(description: impl Into<String>) -> SecurityScheme {
        SecurityScheme::MtlsSecurityScheme(MutualTlsSecurityScheme {
            description: Some(description.into()),
        })
    }

    /// The principal a certificate's DER names.
    fn principal_of(&self, der: &[u8]) -> Result<String, Unauthenticated> {
        let unreadable =
            |e: &dyn std::fmt::Display| Unauthenticated(format!("the client certificate: {e}"));
        let (_, certificate) = X509Certificate::from_der(der).map_err(|e| unreadable(&e))?;
        let name = match self.name {
            CertificateName::CommonName => certificate
                .subject()
                .iter_common_name()
                .next()
                .map(|cn| cn.as_str().map_err(|e| unreadable(&e)))
                .transpose()?,
            CertificateName::SubjectAltName => certificate
                .subject_alternative_name()
                .map_err(|e| unreadable(&e))?
                .and_then(|san| {
                    san.value.general_names.iter().find_map(|name| match name {
                        GeneralName::DNSName(name) | GeneralName::URI(name) => Some(*name),
                        _ => None,
                    })
                }),
        };
        name.map(str::trim)
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| {
                Unauthenticated(match self.name {
                    CertificateName::CommonName => {
                        "the client certificate's subject has no common name".into()
                    }
                    CertificateName::SubjectAltName => {
                        "the client certificate has no DNS or URI subject alternative name".into()
                    }
                })
            })
    }
}

#[async_trait]
impl Authenticator for ClientCertificates {
    /// Headers alone carry no certificate: anonymous, or refused when [`required`](Self::required).
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Unauthenticated> {
        self.authenticate_request(&AuthRequest::new(headers)).await
    }

    async fn authenticate_request(
        &self,
        request: &AuthRequest<'_>,
    ) -> Result<Caller, Unauthenticated> {
        match self.identify(request).await? {
            Some(caller) => Ok(caller),
            None if self.required => Err(Unauthenticated(
                "this agent needs a client certificate (mutual TLS)".into(),
            )),
            None => Ok(Caller::anonymous()),
        }
    }
}

#[async_trait]
impl CredentialScheme for ClientCertificates {
    fn card_scheme(&self) -> SecurityScheme {
        ClientCertificates::security_scheme(
            "Mutual TLS: a client certificate issued under the agent's trusted roots.",
        )
    }

    async fn identify(&self, request: &AuthRequest<'_>) -> Result<Option<Caller>, Unauthenticated> {
        request
            .peer_certificate()
            .map(|certificate| {
                self.principal_of(certificate.der())
                    .map(Caller::authenticated)
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use rcgen::{CertificateParams, DistinguishedName, DnType, KeyPair, SanType};

    use super::*;
    use crate::auth::PeerCertificate;

    /// A self-signed certificate's DER with this common name and these alternative names.
    fn certificate(common_name: Option<&str>, alt_names: Vec<SanType>) -> PeerCertificate {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        // rcgen names a subject of its own by default; only the name given here.
        params.distinguished_name = DistinguishedName::new();
        if let Some(name) = common_name {
            params.distinguished_name.push(DnType::CommonName, name);
        }
        params.subject_alt_names = alt_names;
        let cert = params.self_signed(&KeyPair::generate().unwrap()).unwrap();
        PeerCertificate::from_der(cert.der().to_vec())
    }

    async fn caller_of(
        hook: &ClientCertificates,
        certificate: Option<&PeerCertificate>,
    ) -> Result<Caller, Unauthenticated> {
        let headers = HeaderMap::new();
        let request = AuthRequest::new(&headers).with_peer_certificate(certificate);
        hook.authenticate_request(&request).await
    }

    #[tokio::test]
    async fn the_caller_is_the_common_name_or_the_first_dns_or_uri_alt_name() {
        let alice = certificate(
            Some("alice"),
            vec![
                SanType::IpAddress([127, 0, 0, 1].into()),
                SanType::URI("spiffe://example.org/alice".try_into().unwrap()),
                SanType::DnsName("alice.example.org".try_into().unwrap()),
            ],
        );
        let by_cn = ClientCertificates::new();
        assert_eq!(
            caller_of(&by_cn, Some(&alice)).await,
            Ok(Caller::authenticated("alice"))
        );
        let by_san = ClientCertificates::new().name_from(CertificateName::SubjectAltName);
        assert_eq!(
            caller_of(&by_san, Some(&alice)).await,
            Ok(Caller::authenticated("spiffe://example.org/alice"))
        );
    }

    #[tokio::test]
    async fn a_certificate_without_the_name_or_unreadable_is_refused() {
        let nameless = certificate(None, vec![SanType::IpAddress([127, 0, 0, 1].into())]);
        for name in [CertificateName::CommonName, CertificateName::SubjectAltName] {
            let hook = ClientCertificates::new().name_from(name);
            assert!(caller_of(&hook, Some(&nameless)).await.is_err(), "{name:?}");
        }
        let garbage = PeerCertificate::from_der(vec![0x30, 0x01, 0x00]);
        assert!(
            caller_of(&ClientCertificates::new(), Some(&garbage))
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn without_a_certificate_the_caller_is_anonymous_unless_required() {
        assert_eq!(
            caller_of(&ClientCertificates::new(), None).await,
            Ok(Caller::anonymous())
        );
        assert!(
            caller_of(&ClientCertificates::new().required(), None)
                .await
                .is_err()
        );
    }
}
