//! Reading JSON as a schema type of one of the older versions, chosen by name: the check at each end of
//! every step of the older bridges, so what one step writes is a valid value of the next version.

use a2a_types::registry::{SchemaType, SchemaTypeVisitor};
use serde_json::Value;

use crate::bridge::{BridgeError, BridgeErrorKind};

/// Reads JSON as `T` and writes it back: the canonical form of a valid value, or the error naming the
/// member at fault.
struct Canonical(Value);

impl SchemaTypeVisitor for Canonical {
    type Output = Result<Value, BridgeError>;

    fn visit<T: SchemaType>(self) -> Result<Value, BridgeError> {
        let typed: T = serde_path_to_error::deserialize(&self.0).map_err(|e| {
            let path = e.path().to_string();
            let error = BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: T::SCHEMA_NAME.to_owned(),
                message: e.into_inner().to_string(),
            });
            if path == "." { error } else { error.at(&path) }
        })?;
        serde_json::to_value(&typed).map_err(|e| {
            BridgeError::new(BridgeErrorKind::InvalidJson {
                type_name: T::SCHEMA_NAME.to_owned(),
                message: e.to_string(),
            })
        })
    }
}

fn unknown(name: &str) -> BridgeError {
    BridgeError::new(BridgeErrorKind::UnknownType {
        name: name.to_owned(),
    })
}

/// `json` read as the v0.1 schema type `name` and written back.
pub(super) fn v0_1(name: &str, json: Value) -> Result<Value, BridgeError> {
    crate::v0_1::visit_schema_type(name, Canonical(json)).unwrap_or_else(|| Err(unknown(name)))
}

/// `json` read as the v0.2 schema type `name` and written back.
pub(super) fn v0_2(name: &str, json: Value) -> Result<Value, BridgeError> {
    crate::v0_2::visit_schema_type(name, Canonical(json)).unwrap_or_else(|| Err(unknown(name)))
}

/// `json` read as the v0.3 schema type `name` and written back.
pub(super) fn v0_3(name: &str, json: Value) -> Result<Value, BridgeError> {
    crate::v0_3::visit_schema_type(name, Canonical(json)).unwrap_or_else(|| Err(unknown(name)))
}
