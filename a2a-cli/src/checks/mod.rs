//! The verbs that test an agent: `a2a conformance` ([`conformance`], the conformance run of
//! `a2a_testkit::conformance` on every binding the card declares) and `a2a load` ([`load`], the
//! batches of `a2a_testkit::load` against any agent).

pub mod args;
pub mod conformance;
pub mod load;

use a2a_client::card::candidates;
use a2a_client::{A2aClient, Binding, CardResolver};

use crate::call::args::AgentArgs;
use crate::call::connect::{check_url, config, failure};
use crate::failure::Failure;

/// One client per binding the agent's card declares (and `--binding`, `--version` allow), in the
/// order JSON-RPC, HTTP+JSON, gRPC; each on the version the client prefers for it.
pub async fn clients_per_binding(args: &AgentArgs) -> Result<Vec<A2aClient>, Failure> {
    check_url(&args.url)?;
    let config = config(args)?;
    let resolver = CardResolver::from_config(&config).map_err(failure)?;
    let resolved = resolver.resolve(&args.url).await.map_err(failure)?;
    let offered = candidates(&resolved.card, &config.preference, &config.versions);
    let mut bindings: Vec<Binding> = Vec::new();
    for candidate in &offered {
        if !bindings.contains(&candidate.binding) {
            bindings.push(candidate.binding);
        }
    }
    if bindings.is_empty() {
        return Err(Failure::input(format!(
            "{}: the card offers no interface this command speaks (with these --binding and --version)",
            args.url
        )));
    }
    let mut clients = Vec::new();
    for binding in bindings {
        let client = A2aClient::connect(&args.url, config.clone().only(binding))
            .await
            .map_err(failure)?;
        clients.push(client);
    }
    Ok(clients)
}
