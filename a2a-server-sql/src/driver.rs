//! What the generic store code asks of a database's driver, written once: [`sql_store_impl!`]
//! opens an `impl` block of [`SqlStore`](crate::SqlStore) with these bounds, for the tasks
//! (`store`), the execution queue (`executions`) and the push outbox (`outbox`) alike.
//!
//! Rust does not carry bounds on other types (`i64: Encode<'q, D>`, `&mut D::Connection:
//! Executor`) from a trait to its users, so they cannot live in [`Dialect`](crate::Dialect); a
//! macro writes them where each block needs them. Both of sqlx's drivers meet all of them; the
//! store's trait impls (one per database) are where they are checked.

/// `impl<D: Dialect> SqlStore<D> { … }` with the driver bounds the generic code needs.
macro_rules! sql_store_impl {
    (impl<$db:ident: $dialect:path> $store:ident<$db2:ident> { $($items:tt)* }) => {
        impl<$db: $dialect> $store<$db2>
        where
            for<'c> &'c mut <$db as sqlx::Database>::Connection:
                sqlx::Executor<'c, Database = $db>,
            for<'q> <$db as sqlx::Database>::Arguments<'q>: sqlx::IntoArguments<'q, $db>,
            for<'q> String: sqlx::Encode<'q, $db> + sqlx::Decode<'q, $db> + sqlx::Type<$db>,
            for<'q> i64: sqlx::Encode<'q, $db> + sqlx::Decode<'q, $db> + sqlx::Type<$db>,
            for<'q> i32: sqlx::Encode<'q, $db> + sqlx::Type<$db>,
            for<'q> bool: sqlx::Encode<'q, $db> + sqlx::Type<$db>,
            for<'q> Option<String>: sqlx::Encode<'q, $db> + sqlx::Type<$db>,
            for<'q> Option<i64>: sqlx::Encode<'q, $db> + sqlx::Type<$db>,
            for<'q> Option<i32>: sqlx::Encode<'q, $db> + sqlx::Type<$db>,
            usize: sqlx::ColumnIndex<<$db as sqlx::Database>::Row>,
        {
            $($items)*
        }
    };
}

pub(crate) use sql_store_impl;
