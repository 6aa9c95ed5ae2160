//! End-to-end tests of the verbs that call an agent: the real `a2a` binary against the example
//! agent served in-process on loopback, on each binding, its printed output, its `--json` lines
//! and its exit statuses checked; and the verbs that test an agent (`conformance`, `load`).

mod agent;
mod conformance;
mod credentials;
mod discover;
mod errors;
mod load;
mod messages;
mod push;
mod rule_breaker;
mod sdk_server;
mod sdk_verbs;
mod tasks;
mod undeclared;
