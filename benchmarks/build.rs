//! Generates "plain prost" types for `lf.a2a.v1`: prost-build's defaults (prost-types' well-known types,
//! no ProtoJSON), the baseline a2a-proto's binary decoding is measured against.

fn main() {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    println!(
        "cargo:rerun-if-changed={}",
        spec.join("v1/a2a.proto").display()
    );
    let descriptors =
        protox::compile(["v1/a2a.proto"], [&spec]).expect("compile spec/v1/a2a.proto");
    prost_build::Config::new()
        .compile_fds(descriptors)
        .expect("generate plain prost types");
}
