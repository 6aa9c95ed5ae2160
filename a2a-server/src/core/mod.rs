//! What the server does, whatever the binding: every v1 operation with the specification's
//! semantics ([`call`]), the executions of the agent ([`execution`]) and the streams of a task's
//! events ([`streams`]), as functions over the [`ServerState`](state::ServerState) they are
//! handed. The bindings translate wire forms to these calls and back.

pub(crate) mod call;
pub(crate) mod context;
pub(crate) mod execution;
pub(crate) mod history;
pub(crate) mod identifiers;
pub(crate) mod owner_quota;
pub(crate) mod owner_slots;
pub(crate) mod push_configs;
pub(crate) mod state;
pub(crate) mod streams;
pub(crate) mod tasks;
