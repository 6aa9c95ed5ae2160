//! `JwtBearer` (feature `oidc`) against an issuer served on 127.0.0.1 by the test (discovery document
//! and key set, the fetches of the key set counted): each check on a token (signature, algorithm of
//! the key, `iss`, `aud`, `exp` and `nbf` with the leeway, the caller's claims), key rotation, and
//! the bound on key fetches when tokens name unknown key ids.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_server::auth::{AuthRequest, CredentialScheme, JwksCache, JwtBearer, JwtRules};
use axum::Router;
use axum::http::HeaderMap;
use axum::routing::get;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

const AUDIENCE: &str = "urn:test:agent";

/// One signing key of the test issuer.
struct SigningKey {
    kid: String,
    alg: Algorithm,
    encoding: EncodingKey,
    public: Jwk,
}

impl SigningKey {
    fn new(kid: &str, alg: Algorithm) -> Self {
        let curve = match alg {
            Algorithm::ES384 => &rcgen::PKCS_ECDSA_P384_SHA384,
            _ => &rcgen::PKCS_ECDSA_P256_SHA256,
        };
        let pair = rcgen::KeyPair::generate_for(curve).expect("an EC key");
        let encoding = EncodingKey::from_ec_pem(pair.serialize_pem().as_bytes()).expect("PEM");
        let mut public = Jwk::from_encoding_key(&encoding, alg).expect("a JWK");
        public.common.key_id = Some(kid.to_owned());
        SigningKey {
            kid: kid.to_owned(),
            alg,
            encoding,
            public,
        }
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid.clone());
        encode(&header, claims, &self.encoding).expect("signed")
    }
}

/// The test issuer: its published keys and how often the key set was fetched.
struct Issuer {
    url: String,
    published: Arc<Mutex<Vec<Jwk>>>,
    fetches: Arc<AtomicUsize>,
}

async fn issuer() -> Issuer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let published = Arc::new(Mutex::new(Vec::<Jwk>::new()));
    let fetches = Arc::new(AtomicUsize::new(0));
    let document = json!({"issuer": url, "jwks_uri": format!("{url}/jwks"), "token_endpoint": format!("{url}/token")});
    let (keys, count) = (published.clone(), fetches.clone());
    let app = Router::new()
        .route(
            "/.well-known/openid-configuration",
            get(move || async move { document.to_string() }),
        )
        .route(
            "/jwks",
            get(move || async move {
                count.fetch_add(1, Ordering::SeqCst);
                let set = JwkSet {
                    keys: keys.lock().unwrap().clone(),
                };
                serde_json::to_string(&set).unwrap()
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await });
    Issuer {
        url,
        published,
        fetches,
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn claims(issuer: &str) -> Value {
    json!({"iss": issuer, "aud": AUDIENCE, "sub": "alice", "org": "acme",
           "scope": "a2a.read a2a.write", "iat": now(), "exp": now() + 600})
}

async fn check(bearer: &JwtBearer, token: &str) -> Result<a2a_server::Caller, String> {
    let mut headers = HeaderMap::new();
    headers.insert(
        "authorization",
        format!("Bearer {token}").parse().expect("a header value"),
    );
    match bearer.identify(&AuthRequest::new(&headers)).await {
        Ok(Some(caller)) => Ok(caller),
        Ok(None) => Err("no credential seen".into()),
        Err(refusal) => Err(refusal.0),
    }
}

#[tokio::test]
async fn each_check_refuses_what_it_should_and_the_claims_name_the_caller() {
    let issuer = issuer().await;
    let key = SigningKey::new("k-256", Algorithm::ES256);
    let p384 = SigningKey::new("k-384", Algorithm::ES384);
    issuer.published.lock().unwrap().push(key.public.clone());
    let bearer = JwtBearer::discover(&issuer.url, AUDIENCE)
        .await
        .expect("discovery")
        .tenant_claim("org");

    let caller = check(&bearer, &key.sign(&claims(&issuer.url)))
        .await
        .expect("a good token");
    assert_eq!(caller.principal.as_deref(), Some("alice"));
    assert_eq!(caller.tenant.as_deref(), Some("acme"));
    assert!(caller.scopes.contains("a2a.write"));

    let refused = |mut changes: Value| {
        let mut all = claims(&issuer.url);
        for (name, value) in changes.as_object_mut().unwrap() {
            all[name.as_str()] = value.take();
        }
        key.sign(&all)
    };
    let cases = [
        (
            "expired beyond the leeway",
            refused(json!({"exp": now() - 120})),
            "expired",
        ),
        (
            "not valid yet",
            refused(json!({"nbf": now() + 600})),
            "not valid yet",
        ),
        (
            "another audience",
            refused(json!({"aud": "urn:test:other"})),
            "audience",
        ),
        (
            "another issuer",
            refused(json!({"iss": "http://127.0.0.1:1"})),
            "issuer",
        ),
        (
            "no exp",
            {
                let mut all = claims(&issuer.url);
                all.as_object_mut().unwrap().remove("exp");
                key.sign(&all)
            },
            "exp",
        ),
        // A P-384 signature under the P-256 key's id: ES384 is not an algorithm of that key.
        (
            "an algorithm outside the key's",
            {
                let mut header = Header::new(Algorithm::ES384);
                header.kid = Some("k-256".into());
                encode(&header, &claims(&issuer.url), &p384.encoding).unwrap()
            },
            "algorithm",
        ),
        // The key-confusion attack: HMAC with the public key's bytes as the secret.
        (
            "HS256 over the public key",
            {
                let mut header = Header::new(Algorithm::HS256);
                header.kid = Some("k-256".into());
                let secret = serde_json::to_vec(&key.public).unwrap();
                encode(
                    &header,
                    &claims(&issuer.url),
                    &EncodingKey::from_secret(&secret),
                )
                .unwrap()
            },
            "algorithm",
        ),
        (
            "alg none",
            {
                let b64 = |v: Value| {
                    use base64::Engine;
                    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
                };
                format!(
                    "{}.{}.",
                    b64(json!({"alg": "none", "kid": "k-256"})),
                    b64(claims(&issuer.url))
                )
            },
            "alg: none",
        ),
    ];
    for (case, token, said) in cases {
        let refusal = check(&bearer, &token).await.expect_err(case);
        assert!(refusal.contains(said), "{case}: {refusal}");
    }
    // Within the leeway (60 seconds by default), a just-expired token still passes.
    let lenient = check(&bearer, &refused(json!({"exp": now() - 20}))).await;
    assert!(lenient.is_ok(), "{lenient:?}");
    let strict = JwtBearer::new(
        JwtRules::new(issuer.url.clone(), AUDIENCE),
        JwksCache::new(reqwest::Client::new(), format!("{}/jwks", issuer.url)),
        format!("{}/.well-known/openid-configuration", issuer.url),
    )
    .leeway(Duration::ZERO);
    assert!(
        check(&strict, &refused(json!({"exp": now() - 20})))
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_rotated_key_is_fetched_once_and_unknown_key_ids_cannot_force_fetches() {
    let issuer = issuer().await;
    let old = SigningKey::new("old", Algorithm::ES256);
    let new = SigningKey::new("new", Algorithm::ES256);
    issuer.published.lock().unwrap().push(old.public.clone());
    let cooldown = Duration::from_millis(800);
    let keys =
        JwksCache::new(reqwest::Client::new(), format!("{}/jwks", issuer.url)).cooldown(cooldown);
    keys.load().await.expect("the key set");
    let bearer = JwtBearer::new(
        JwtRules::new(issuer.url.clone(), AUDIENCE),
        keys,
        format!("{}/.well-known/openid-configuration", issuer.url),
    );
    assert!(
        check(&bearer, &old.sign(&claims(&issuer.url)))
            .await
            .is_ok()
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);

    // The issuer rotates; within the cool-down the new key id is not fetched for, nor are made-up
    // ones, however many arrive.
    issuer
        .published
        .lock()
        .unwrap()
        .insert(0, new.public.clone());
    let new_token = new.sign(&claims(&issuer.url));
    assert!(check(&bearer, &new_token).await.is_err());
    for index in 0..20 {
        let made_up = SigningKey {
            kid: format!("made-up-{index}"),
            ..SigningKey::new("x", Algorithm::ES256)
        };
        assert!(
            check(&bearer, &made_up.sign(&claims(&issuer.url)))
                .await
                .is_err()
        );
    }
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);

    // After it, the new key id makes one fetch, and the token passes; old tokens still pass.
    tokio::time::sleep(cooldown + Duration::from_millis(100)).await;
    assert!(check(&bearer, &new_token).await.is_ok());
    assert!(
        check(&bearer, &old.sign(&claims(&issuer.url)))
            .await
            .is_ok()
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    // A burst of unknown key ids right after makes no more than that one fetch.
    for index in 0..20 {
        let made_up = SigningKey {
            kid: format!("again-{index}"),
            ..SigningKey::new("x", Algorithm::ES256)
        };
        assert!(
            check(&bearer, &made_up.sign(&claims(&issuer.url)))
                .await
                .is_err()
        );
    }
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    assert_eq!(bearer.keys().fetches(), 2);
}
