//! Regression tests for what `cargo fuzz-run` found (the fuzzer's findings, each reduced to the fact
//! it showed). A finding outside this helper's area is kept `#[ignore]`d with a note until it is fixed.

use a2a_proto::wkt;
use prost::Message as _;

/// binary-v1, seed 13: a `Part.metadata` double of 0x1.8p-1010 (1.3670853786668245e-304) decoded from
/// binary, written as ProtoJSON and read back, came back one ulp lower (`…243e-304`): JSON number
/// parsing is not correctly rounded (serde_json without `float_roundtrip`). Part of the float
/// exactness work (issue 13, "Exactness"), not of the hostile-input limits.
#[test]
#[ignore = "float parsing is not correctly rounded yet: issue 13, exactness (helper `exact`)"]
fn a_double_read_from_binary_survives_protojson() {
    let number = f64::from_bits(0x00d8_0000_0000_0000);
    let object: wkt::Struct = [("chunk", wkt::Value::from(number))].into_iter().collect();
    let part = a2a_proto::v1::Part {
        metadata: Some(object),
        ..Default::default()
    };
    let binary = part.encode_to_vec();
    let decoded = a2a_proto::v1::Part::decode(binary.as_slice()).unwrap();
    let text = a2a_proto::json::to_string(&decoded).unwrap();
    assert!(text.contains("1.3670853786668245e-304"), "{text}");
    let back: a2a_proto::v1::Part = a2a_proto::json::from_str(&text).unwrap();
    assert_eq!(back.encode_to_vec(), binary, "{text}");
}
