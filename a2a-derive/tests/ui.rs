//! Compile-time behaviour of `#[a2a_skill]` and `skills!` under rustc: `ui/pass/*.rs` must build and
//! run, `ui/fail/*.rs` must fail with exactly the errors in the `.stderr` beside them
//! (`TRYBUILD=overwrite cargo test -p a2a-spec-derive --test ui` rewrites those).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
