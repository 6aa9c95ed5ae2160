//! [`ScopeRequirements`]: the scopes each operation needs. A caller without them is refused with the
//! specification's authorization error (section 3.3.2) on every binding, before the operation runs.

use std::collections::BTreeMap;

use a2a_protocol::operations::Operation;

use super::{AccessDenied, Caller, Forbidden, Unauthenticated};

/// The scopes each operation needs (none by default). An anonymous caller asking for an operation
/// that needs scopes is unauthenticated (401); an authenticated one without them is forbidden (403).
///
/// ```
/// use a2a_protocol::operations::Operation;
/// use a2a_server::auth::ScopeRequirements;
///
/// let scopes = ScopeRequirements::new()
///     .operation(Operation::SendMessage, ["a2a.write"])
///     .operation(Operation::CancelTask, ["a2a.write"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScopeRequirements {
    operations: BTreeMap<Operation, Vec<String>>,
}

impl ScopeRequirements {
    /// No operation needs a scope.
    pub fn new() -> Self {
        ScopeRequirements::default()
    }

    /// `operation` needs every one of `scopes` (added to what it needed).
    pub fn operation(
        mut self,
        operation: Operation,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        let needed = self.operations.entry(operation).or_default();
        for scope in scopes {
            let scope = scope.into();
            if !needed.contains(&scope) {
                needed.push(scope);
            }
        }
        self
    }

    /// Whether no operation needs a scope.
    pub fn is_empty(&self) -> bool {
        self.operations.values().all(Vec::is_empty)
    }

    /// Whether `caller` may call `operation`.
    pub fn check(&self, operation: Operation, caller: &Caller) -> Result<(), AccessDenied> {
        let Some(needed) = self.operations.get(&operation).filter(|n| !n.is_empty()) else {
            return Ok(());
        };
        if !caller.is_authenticated() {
            return Err(Unauthenticated(format!(
                "{operation} needs an authenticated caller with the scopes {}",
                needed.join(" ")
            ))
            .into());
        }
        let missing: Vec<&str> = needed
            .iter()
            .filter(|scope| !caller.scopes.contains(*scope))
            .map(String::as_str)
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(Forbidden::missing_scopes(
            format!(
                "{operation} needs the scopes {}; the credential lacks {}",
                needed.join(" "),
                missing.join(" ")
            ),
            needed.clone(),
        )
        .into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_needs_every_scope_of_the_operation() {
        let scopes = ScopeRequirements::new().operation(Operation::CancelTask, ["a2a.write"]);
        let reader = Caller::authenticated("r").with_scopes(["a2a.read"]);
        let writer = Caller::authenticated("w").with_scopes(["a2a.read", "a2a.write"]);
        assert!(scopes.check(Operation::GetTask, &reader).is_ok());
        assert!(scopes.check(Operation::CancelTask, &writer).is_ok());
        assert!(matches!(
            scopes.check(Operation::CancelTask, &reader),
            Err(AccessDenied::Forbidden(f)) if f.scopes == ["a2a.write"]
        ));
        assert!(matches!(
            scopes.check(Operation::CancelTask, &Caller::anonymous()),
            Err(AccessDenied::Unauthenticated(_))
        ));
    }
}
