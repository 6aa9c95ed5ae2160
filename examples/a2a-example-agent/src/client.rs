//! The example client: resolves an agent's card, picks a binding, and calls every operation.
