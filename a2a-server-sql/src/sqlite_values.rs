//! What SQLite's writer binds: a write's values kept as plain data ([`Value`]), so that the
//! writes of a group can be bound one after another in one text, and the same write bound again
//! alone when its group fails; [`renumbered`], which moves a write's `$n` past the values of
//! the writes before it in such a text; and [`execute`], which runs such a text in one hand-off to
//! the connection's thread (the writer's groups, and its slices of expiry).

use sqlx::error::BoxDynError;
use sqlx::sqlite::SqliteArguments;
use sqlx::{Arguments, Either, Executor, Sqlite, SqliteConnection};
use tokio_stream::StreamExt;

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

impl Value {
    /// Adds the value to `arguments` as the next one, encoded as sqlx encodes its Rust type.
    pub(crate) fn bind(&self, arguments: &mut SqliteArguments<'static>) -> Result<(), BoxDynError> {
        match self {
            Value::Text(text) => add::<String>(arguments, text.clone()),
            Value::Int(number) => add(arguments, *number),
            Value::Integer(number) => add(arguments, *number),
            Value::Bool(flag) => add(arguments, *flag),
        }
    }
}

fn add<T>(arguments: &mut SqliteArguments<'static>, value: T) -> Result<(), BoxDynError>
where
    T: sqlx::Encode<'static, Sqlite> + sqlx::Type<Sqlite> + 'static,
{
    Arguments::add(arguments, value)
}

/// `text` with each parameter `$n` written `$(n + offset)`; anything inside a quoted literal or
/// identifier is left as it is.
pub(crate) fn renumbered(text: &str, offset: usize) -> String {
    if offset == 0 {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut quote = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match quote {
            Some(open) => {
                if c == open {
                    quote = None;
                }
                out.push(c);
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '$' => {
                let digits_start = at + 1;
                let mut digits_end = digits_start;
                while let Some(&(next, d)) = chars.peek() {
                    if d.is_ascii_digit() {
                        digits_end = next + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                match text[digits_start..digits_end].parse::<usize>() {
                    Ok(number) => {
                        out.push('$');
                        out.push_str(&(number + offset).to_string());
                    }
                    Err(_) => {
                        out.push('$');
                        out.push_str(&text[digits_start..digits_end]);
                    }
                }
            }
            None => out.push(c),
        }
    }
    out
}

/// Runs `text` (one or several statements) with `values`; the rows each statement changed, in
/// order.
pub(crate) async fn execute(
    connection: &mut SqliteConnection,
    text: &str,
    values: &[Value],
) -> Result<Vec<u64>, sqlx::Error> {
    let mut arguments = SqliteArguments::default();
    for value in values {
        value.bind(&mut arguments).map_err(sqlx::Error::Encode)?;
    }
    let mut results = connection.fetch_many(sqlx::query_with(text, arguments));
    let mut changed = Vec::new();
    while let Some(result) = results.next().await {
        if let Either::Left(done) = result? {
            changed.push(done.rows_affected());
        }
    }
    Ok(changed)
}

/// A migrated in-memory database on one connection, for the writer's tests.
#[cfg(test)]
pub(crate) async fn test_database() -> sqlx::Pool<Sqlite> {
    use std::str::FromStr;

    use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

    use crate::dialect::Dialect;

    let options = SqliteConnectOptions::from_str("sqlite::memory:").expect("options");
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .expect("connects");
    <Sqlite as Dialect>::migrator()
        .run(&pool)
        .await
        .expect("migrates");
    pool
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_move_past_the_offset_and_literals_stay() {
        assert_eq!(
            renumbered("SELECT $1, $12 FROM t WHERE a = '$3' AND \"$4\" = $2", 10),
            "SELECT $11, $22 FROM t WHERE a = '$3' AND \"$4\" = $12"
        );
        assert_eq!(
            renumbered("SELECT $1; SELECT $2", 0),
            "SELECT $1; SELECT $2"
        );
        assert_eq!(renumbered("a $ b $x", 5), "a $ b $x");
    }

    #[test]
    fn values_bind_in_order() {
        let mut arguments = SqliteArguments::default();
        for value in [
            Value::from("t".to_owned()),
            Value::from(7_i32),
            Value::from(8_i64),
            Value::from(true),
        ] {
            value.bind(&mut arguments).expect("binds");
        }
        assert_eq!(Arguments::len(&arguments), 4);
    }
}
