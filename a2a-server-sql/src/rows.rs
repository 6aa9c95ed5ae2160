//! Reading a column of a fetched row. SQLite keeps any value in any column, so a row changed by hand
//! or corrupted can hold a value of another type than the store wrote; reading it is an error that
//! names the row, never a panic (sqlx's `Row::get` panics on a value it cannot decode).

use std::fmt::Display;

use a2a_server::store::StoreError;
use sqlx::{ColumnIndex, Decode, Row, Type};

/// Column `index` of `row`, as `T`; `row_name` names the row in the error (`task t-1`).
pub(crate) fn column<'r, R, T>(
    row: &'r R,
    index: usize,
    row_name: impl Display,
) -> Result<T, StoreError>
where
    R: Row,
    usize: ColumnIndex<R>,
    T: Decode<'r, R::Database> + Type<R::Database>,
{
    row.try_get(index).map_err(|error| {
        StoreError::Backend(format!(
            "{row_name}: stored column {index} cannot be read ({error})"
        ))
    })
}
