//! The certified OpenID provider (`oidc-provider` from npm, tests/interop/oidc/provider.mjs) on
//! 127.0.0.1 for the tests of this client's own OAuth 2 credentials: started by node, its issuer read
//! from the line it prints, killed by its process id when dropped. Three clients are registered for
//! the client-credentials grant (secret `<id>-secret`), for the scope `a2a.call`: `alice` and `bob`
//! sending their secret in the form (`client_secret_post`), `carol` in a Basic header;
//! their tokens are JWTs for [`AUDIENCE`], or for [`OTHER_AUDIENCE`] when asked for that resource.
//! Without node or `npm ci` in tests/interop/oidc, [`start`] skips with one line, and fails under
//! `CI=true`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The agent's identifier at the provider: the audience its tokens name by default.
pub const AUDIENCE: &str = "urn:a2a:sdk-agent";
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

/// The secret the provider registered for `client`.
pub fn client_secret(client: &str) -> String {
    format!("{client}-secret")
}

/// Starts the provider; `None` (said in one line) when node or the package is missing, a failure
/// under `CI=true`.
pub fn start(test: &str) -> Option<Provider> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/interop/oidc");
    let installed = dir
        .join("node_modules/oidc-provider/package.json")
        .is_file();
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed || !node {
        let why = "needs node and `npm ci` in tests/interop/oidc (the oidc-provider package)";
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{test}: {why}, and CI=true needs it run"
        );
        eprintln!("skipping {test}: {why}");
        return None;
    }
    let mut child = Command::new("node")
        .arg("provider.mjs")
        .args([AUDIENCE, OTHER_AUDIENCE])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
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
