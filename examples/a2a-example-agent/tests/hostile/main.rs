//! One hostile client against the example agent (its own process, loopback only), each attack of
//! issue 29 that applies to a binding run on every binding, on the memory store and on SQLite,
//! asserting what the server held and what another caller saw. Before each fix the attack did
//! what the right-hand column says it must not (the figures of that column's "before" were
//! measured against the release before the fix; `A2A_EXAMPLE_AGENT_BIN` runs the suite against
//! another build of the agent to see a bound fail):
//!
//! | row | attack | where | bound asserted |
//! |---|---|---|---|
//! | 1 | webhook URLs whose host hides loopback or an internal IPv4 address (`[::ffff:7f00:1]`, `[64:ff9b::a9fe:a9fe]`, `[2002:a9fe:a9fe::]`, Teredo, `2130706433`, ...) | every binding, as a config and inline | each refused (`InvalidParams` naming `url`) when the config is made; a listener they point at sees no connection, while a plain loopback URL on an agent that allows it is called (the control) |
//! | 2 | SendMessage with an inline push config whose token is 4 MiB, three times | every binding, memory and SQLite | each refused naming `token`; the peak grows by under 10 times the bytes sent (100 times, for good, before) |
//! | 4 | 100 SubscribeToTask streams on a 14 MiB task, never read | JSON-RPC (memory), HTTP+JSON (SQLite), gRPC (memory) | the peak grows by under 300 MB (+890 MB before); an authenticated caller's stream begins within 2 s |
//! | 5 | 70 anonymous streams held open, never read | opened on JSON-RPC; refusal and a member's stream checked on every binding | the 71st anonymous stream is a temporary refusal; a member streams within 2 s (HTTP 500 before) |
//! | 7 | 20 turns of 1 MiB on one task | GetTask on every binding, memory and SQLite | the answer fits the 16 MiB budget and keeps the newest turn (84 MB before) |
//! | 9 | 300 idle connections from one address | the HTTP and the gRPC listener | those over the per-address cap are closed at once; another address is answered within 2 s |
//!
//! Rows 6, 8 and 10 (the stores' bounds) are `hostile_store.rs`. Every wait is bounded; each
//! agent is killed by its pid when its test ends.

#[path = "../common/mod.rs"]
mod common;
mod connections;
mod probe;
mod push;
mod streams;
mod turns;
mod wire;
