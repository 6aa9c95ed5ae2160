//! Rebuilds the crate when a migration is added or changed: `sqlx::migrate!` embeds the
//! `migrations` folders at compile time, and Cargo does not watch them by itself.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
