//! Reading a column of a fetched row. SQLite keeps any value in any column, so a row changed by hand
//! or corrupted can hold a value of another type than the store wrote; reading it is an error that
//! names the row, never a panic (sqlx's `Row::get` panics on a value it cannot decode).

use std::fmt::Display;

use a2a_server::store::StoreError;
use sqlx::{ColumnIndex, Decode, Row, Type};

/// Column `index` of `row`, as `T`; the error names the row as `what` and `id` (`task`, `t-1`;
/// an empty `id` when the row's own id is what failed to read).
pub(crate) fn column<'r, R, T>(
    row: &'r R,
    index: usize,
    what: &str,
    id: impl Display,
) -> Result<T, StoreError>
where
    R: Row,
    usize: ColumnIndex<R>,
    T: Decode<'r, R::Database> + Type<R::Database>,
{
    row.try_get(index).map_err(|error| {
        let id = id.to_string();
        let separator = if id.is_empty() { "" } else { " " };
        StoreError::Backend(format!(
            "{what}{separator}{id}: stored column {index} cannot be read ({error})"
        ))
    })
}
