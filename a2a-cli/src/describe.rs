//! `a2a describe`: an agent's OpenAPI or OpenRPC document, or its HTML page, from its card
//! (`a2a_protocol::describe`).

use std::io::Read;

use a2a_types::v1::AgentCard;

use crate::cli::{DescribeArgs, DescribeFormat};
use crate::failure::Failure;

/// Reads the card (from `--card`, or `stdin` for `-`) and returns what to write to stdout.
pub fn run(args: &DescribeArgs, stdin: &mut impl Read) -> Result<Vec<u8>, Failure> {
    let mut text = Vec::new();
    if args.card == "-" {
        stdin
            .read_to_end(&mut text)
            .map_err(|e| Failure::input(format!("cannot read stdin: {e}")))?;
    } else {
        text = std::fs::read(&args.card)
            .map_err(|e| Failure::input(format!("cannot read {}: {e}", args.card)))?;
    }
    let card: AgentCard = a2a_types::json::from_slice(&text).map_err(|e| {
        Failure::input(format!(
            "invalid JSON for lf.a2a.v1.AgentCard at `{}`: {}",
            e.path(),
            e.inner()
        ))
    })?;
    let invalid = |violations: a2a_types::validate::Violations| {
        let each: Vec<String> = violations
            .iter()
            .map(|v| format!("{}: {}", v.field, v.description))
            .collect();
        Failure::input(format!("the card is not valid: {}", each.join("; ")))
    };
    let mut output = match args.format {
        DescribeFormat::Openapi => {
            pretty(&a2a_protocol::describe::openapi(&card).map_err(invalid)?)
        }
        DescribeFormat::Openrpc => {
            pretty(&a2a_protocol::describe::openrpc(&card).map_err(invalid)?)
        }
        DescribeFormat::Html => a2a_protocol::describe::html(&card).map_err(invalid)?,
    };
    if !output.ends_with('\n') {
        output.push('\n');
    }
    Ok(output.into_bytes())
}

fn pretty(document: &serde_json::Value) -> String {
    serde_json::to_string_pretty(document).expect("a JSON value always serializes")
}
