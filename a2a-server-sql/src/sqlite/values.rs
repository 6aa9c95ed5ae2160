//! What SQLite's writer binds: a write's values kept as plain data ([`Value`]), so that a write
//! queued for the writer thread can be bound in its group and bound again alone when its group
//! fails.

use rusqlite::ToSql;
use rusqlite::types::ToSqlOutput;

/// One value of a write, of the kinds the store's columns have.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Text(String),
    Int(i32),
    Integer(i64),
    Bool(bool),
}

impl From<String> for Value {
    fn from(value: String) -> Self {
        Value::Text(value)
    }
}

impl From<i32> for Value {
    fn from(value: i32) -> Self {
        Value::Int(value)
    }
}

impl From<i64> for Value {
    fn from(value: i64) -> Self {
        Value::Integer(value)
    }
}

impl From<bool> for Value {
    fn from(value: bool) -> Self {
        Value::Bool(value)
    }
}

/// Bound as sqlx binds the same Rust types on the store's other connections: text as text, the
/// numbers as integers, a flag as 0 or 1.
impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Value::Text(text) => text.to_sql(),
            Value::Int(number) => number.to_sql(),
            Value::Integer(number) => number.to_sql(),
            Value::Bool(flag) => flag.to_sql(),
        }
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::types::{ToSqlOutput, Value as Sql};

    use super::*;

    #[test]
    fn values_bind_as_sqlx_binds_their_types() {
        let bound = |value: Value| match value.to_sql().expect("binds") {
            ToSqlOutput::Owned(owned) => owned,
            ToSqlOutput::Borrowed(borrowed) => borrowed.into(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            bound(Value::from("t".to_owned())),
            Sql::Text("t".to_owned())
        );
        assert_eq!(bound(Value::from(7_i32)), Sql::Integer(7));
        assert_eq!(bound(Value::from(8_i64)), Sql::Integer(8));
        assert_eq!(bound(Value::from(true)), Sql::Integer(1));
        assert_eq!(bound(Value::from(false)), Sql::Integer(0));
    }
}
