//! The certified OpenID provider (`oidc-provider` from npm, provider.mjs beside this file) that the
//! authentication tests of the example agent and of the client run on 127.0.0.1: started by node, its
//! issuer read from the line it prints, killed by its process id when dropped. Each test binary
//! includes this file as a module (`#[path]`). The clients provider.mjs registers for the
//! client-credentials grant (secret `<id>-secret`, scope `a2a.call`): `alice` (also `travel.book`) and
//! `bob` sending their secret in the form, `carol` in a Basic header; their tokens are JWTs for
//! [`AUDIENCE`], or for [`OTHER_AUDIENCE`] when asked for that resource. Without node or `npm ci` in
//! tests/interop/oidc, `start_provider` skips with one line, and fails under `CI=true`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use a2a_client::auth::{ClientCredentials, TokenSource};

/// The identifier of the agent under test at the provider: the audience its tokens name by default.
pub const AUDIENCE: &str = "urn:a2a:agent-under-test";
/// Another resource of the same provider: tokens for it are not for the agent.
pub const OTHER_AUDIENCE: &str = "urn:a2a:another-agent";
/// The longest the provider may take to start.
const START_LIMIT: Duration = Duration::from_secs(30);

/// The provider's node process, killed (by its id) when dropped.
pub struct Provider {
    child: Child,
    pub issuer: String,
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The secret provider.mjs registered for `client`.
pub fn client_secret(client: &str) -> String {
    format!("{client}-secret")
}

/// The provider's folder (tests/interop/oidc), found above the crate whose tests include this file.
fn provider_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/interop/oidc"))
        .find(|dir| dir.join("provider.mjs").is_file())
        .expect("tests/interop/oidc lies above the crate")
}

/// Starts the provider; `None` (said in one line) when node or the package is missing, a failure
/// under `CI=true`.
pub fn start_provider(test: &str) -> Option<Provider> {
    let dir = provider_dir();
    let installed = dir
        .join("node_modules/oidc-provider/package.json")
        .is_file();
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed || !node {
        let why = "needs node and `npm ci` in tests/interop/oidc (the oidc-provider package)";
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{test}: {why}, and CI=true needs it run");
        }
        eprintln!("skipping {test}: {why}");
        return None;
    }
    let mut child = Command::new("node")
        .arg("provider.mjs")
        .args([AUDIENCE, OTHER_AUDIENCE])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = sender.send(line);
    });
    let mut provider = Provider {
        child,
        issuer: String::new(),
    };
    let line = receiver
        .recv_timeout(START_LIMIT)
        .expect("the provider says where it listens");
    let announced: serde_json::Value =
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("the provider said {line:?}: {e}"));
    provider.issuer = announced["issuer"].as_str().expect("an issuer").to_owned();
    assert!(provider.issuer.starts_with("http://127.0.0.1:"));
    Some(provider)
}

impl Provider {
    /// A token the provider did not issue (`expired`, `other-key`, `none`) for `sub`.
    pub async fn forge(&self, case: &str, sub: &str) -> String {
        let url = format!("{}/test/forge?case={case}&sub={sub}", self.issuer);
        let response = reqwest::get(&url).await.expect("the provider forges");
        assert!(
            response.status().is_success(),
            "{url}: {}",
            response.status()
        );
        response.text().await.expect("a token")
    }

    /// A new signing key; its id.
    pub async fn rotate(&self) -> String {
        let response = reqwest::Client::new()
            .post(format!("{}/test/rotate", self.issuer))
            .send()
            .await
            .expect("the provider rotates");
        let body: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap())
            .expect("the new key's id as JSON");
        body["kid"].as_str().expect("a kid").to_owned()
    }

    /// An access token of `client` by the client-credentials grant, for `resource`.
    pub async fn token_for(&self, client: &str, resource: &str) -> String {
        let source = ClientCredentials::new(
            reqwest::Client::new(),
            format!("{}/token", self.issuer),
            client,
            client_secret(client),
        )
        .scopes(["a2a.call"])
        .resource(resource);
        source.token().await.expect("the provider issues a token")
    }
}
