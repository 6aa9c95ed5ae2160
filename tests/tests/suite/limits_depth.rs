//! The nesting limit (`a2a_support::MAX_NESTING_DEPTH`, re-exported by both crates) on every path:
//! JSON decode in both crates and in v0.3, protobuf binary decode, the conversions types ⇄ proto and
//! v0.3 ⇄ v1, and drop. At the limit everything works and round-trips; one level deeper is an error that
//! names the field, never a stack overflow; far deeper input is refused before it can recurse.

use a2a_proto::wkt;
use a2a_types::validate::Validate as _;
use prost::Message as _;
use prost_reflect::{DescriptorPool, Kind};
use serde_json::{Value, json};

const MAX: usize = a2a_types::MAX_NESTING_DEPTH;

/// `depth` objects inside one another, `{"k": {"k": ... {"leaf": 1}}}`: depth 1 is `{"leaf": 1}`.
fn objects(depth: usize) -> Value {
    let mut value = json!({"leaf": 1});
    for _ in 1..depth {
        value = json!({ "k": value });
    }
    value
}

/// `depth` containers alternating array and object, innermost empty: `[{"k": [...]}]`.
fn mixed(depth: usize) -> Value {
    let mut value = if depth.is_multiple_of(2) {
        json!({})
    } else {
        json!([])
    };
    for level in 1..depth {
        value = if (depth - level).is_multiple_of(2) {
            json!({ "k": value })
        } else {
            json!([value])
        };
    }
    value
}

/// An object holding `shape(depth - 1)`: `depth` deep, and an object as `metadata` must be.
fn in_object(shape: fn(usize) -> Value, depth: usize) -> Value {
    json!({ "m": shape(depth - 1) })
}

fn depth_of(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth_of).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(depth_of).max().unwrap_or(0),
        _ => 0,
    }
}

fn message_with(data: Value, metadata: Value) -> Value {
    json!({"messageId": "m-1", "role": "ROLE_USER",
        "parts": [{"text": "hi"}, {"data": data}], "metadata": metadata})
}

fn is_depth_error(text: &str) -> bool {
    text.contains(&format!("nested deeper than {MAX} levels"))
}

#[test]
fn the_two_crates_agree_on_the_limit_and_it_fits_under_prost() {
    assert_eq!(depth_of(&objects(MAX)), MAX);
    assert_eq!(depth_of(&mixed(MAX)), MAX);
    // The deepest `Struct`/`Value` of any message, in protobuf message levels below the root. A JSON
    // object then costs three levels (map entry, `Value`, `Struct`), its innermost scalar one more.
    for set in [
        a2a_proto::v1::FILE_DESCRIPTOR_SET,
        a2a_proto::v0_3::FILE_DESCRIPTOR_SET,
    ] {
        let pool = DescriptorPool::decode(set).unwrap();
        let mut deepest = (0, String::new());
        for message in pool.all_messages() {
            if message.package_name().starts_with("google.") {
                continue;
            }
            let mut stack = vec![(message.clone(), 0usize, message.full_name().to_owned())];
            while let Some((at, level, path)) = stack.pop() {
                for field in at.fields() {
                    let Kind::Message(inner) = field.kind() else {
                        continue;
                    };
                    let path = format!("{path}.{}", field.name());
                    // A `Value` holding an object puts the `Struct` one level further down.
                    let structure = match inner.full_name() {
                        "google.protobuf.Struct" => Some(level + 1),
                        "google.protobuf.Value" => Some(level + 2),
                        _ => None,
                    };
                    match structure {
                        Some(level) if level > deepest.0 => deepest = (level, path),
                        Some(_) => {}
                        None if level < 20 && !inner.full_name().starts_with("google.") => {
                            stack.push((inner, level + 1, path))
                        }
                        None => {}
                    }
                }
            }
        }
        let innermost_scalar = deepest.0 + 3 * (MAX - 1) + 2;
        assert!(
            innermost_scalar <= 100,
            "{}: {innermost_scalar} levels exceed prost's 100",
            deepest.1
        );
    }
}

#[test]
fn json_in_both_crates_takes_the_limit_and_names_the_field_beyond_it() {
    for shape in [objects, mixed] {
        let at_limit = message_with(shape(MAX), in_object(shape, MAX));
        let text = at_limit.to_string();
        let ours: a2a_types::v1::Message = a2a_types::json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_value(&ours).unwrap(), at_limit);
        let proto: a2a_proto::v1::Message = a2a_proto::json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_value(&proto).unwrap(), at_limit);

        for (beyond, path) in [
            (message_with(shape(MAX + 1), json!({})), "parts[1]"),
            (
                message_with(json!(1), in_object(shape, MAX + 1)),
                "metadata",
            ),
        ] {
            let text = beyond.to_string();
            let error = a2a_types::json::from_str::<a2a_types::v1::Message>(&text).unwrap_err();
            assert!(error.path().starts_with(path), "{error}");
            assert!(is_depth_error(&error.to_string()), "{error}");
            let error = a2a_proto::json::from_str::<a2a_proto::v1::Message>(&text).unwrap_err();
            assert!(error.path().starts_with(path), "{error}");
            assert!(is_depth_error(&error.to_string()), "{error}");
            // Plain serde_json refuses as well.
            assert!(serde_json::from_str::<a2a_types::v1::Message>(&text).is_err());
            assert!(serde_json::from_str::<a2a_proto::v1::Message>(&text).is_err());
        }
    }
}

#[test]
fn v0_3_json_in_both_crates_takes_the_limit_and_names_the_field_beyond_it() {
    let part = |data: Value, metadata: Value| {
        json!({"kind": "message", "messageId": "m-1", "role": "user",
            "parts": [{"kind": "data", "data": data, "metadata": metadata}]})
    };
    let at_limit = part(objects(MAX), in_object(mixed, MAX));
    let message: a2a_compat::v0_3::Message = a2a_types::json::from_value(at_limit.clone()).unwrap();
    assert_eq!(serde_json::to_value(&message).unwrap(), at_limit);
    for beyond in [
        part(objects(MAX + 1), json!({})),
        part(json!({}), objects(MAX + 1)),
    ] {
        let error = a2a_types::json::from_str::<a2a_compat::v0_3::Message>(&beyond.to_string())
            .unwrap_err();
        assert!(error.path().starts_with("parts[0]"), "{error}");
        assert!(is_depth_error(&error.to_string()), "{error}");
    }
    // The JSON-RPC form of a request, read whole.
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send",
        "params": {"message": part(objects(MAX + 1), json!({}))}});
    let error = a2a_types::json::from_value::<a2a_compat::v0_3::A2aRequest>(request).unwrap_err();
    assert!(is_depth_error(&error.to_string()), "{error}");

    // a2a-proto's v0.3 messages (ProtoJSON): the `Struct` of a DataPart.
    let proto = |data: Value| json!({"messageId": "m-1", "content": [{"data": {"data": data}}]});
    let ok: a2a_proto::v0_3::Message =
        a2a_proto::json::from_str(&proto(objects(MAX)).to_string()).unwrap();
    assert_eq!(serde_json::to_value(&ok).unwrap(), proto(objects(MAX)));
    let error =
        a2a_proto::json::from_str::<a2a_proto::v0_3::Message>(&proto(objects(MAX + 1)).to_string())
            .unwrap_err();
    assert!(error.path().starts_with("content[0].data.data"), "{error}");
    assert!(is_depth_error(&error.to_string()), "{error}");
}

/// `depth` `ListValue`s inside one another as protobuf bytes, built from the inside out (a `Value`
/// that deep could not be built, encoded or dropped by recursion on a small stack).
fn nested_lists(depth: usize) -> Vec<u8> {
    let mut value: Vec<u8> = Vec::new(); // an empty Value
    for _ in 0..depth {
        // ListValue { values: [value] }, then Value { list_value: that }.
        let mut list = vec![0x0a];
        prost::encoding::encode_varint(value.len() as u64, &mut list);
        list.extend_from_slice(&value);
        let mut outer = vec![0x32];
        prost::encoding::encode_varint(list.len() as u64, &mut outer);
        outer.extend_from_slice(&list);
        value = outer;
    }
    value
}

#[test]
fn binary_decode_takes_the_limit_and_refuses_beyond_it_before_recursing() {
    for depth in [1, MAX] {
        let value = wkt::Value::decode(nested_lists(depth).as_slice()).unwrap();
        assert_eq!(value.encode_to_vec(), nested_lists(depth));
    }
    // Refused at the limit on a stack far too small to recurse through the input, with the messages
    // and fields prost was in.
    let deep = nested_lists(5_000);
    let error = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || wkt::Value::decode(deep.as_slice()).unwrap_err().to_string())
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert!(is_depth_error(&error), "{error}");
    assert!(error.contains("ListValue.values"), "{error}");
    let error = wkt::Value::decode(nested_lists(MAX + 1).as_slice()).unwrap_err();
    assert!(is_depth_error(&error.to_string()), "{error}");

    // An empty object one level too deep is refused as in JSON, and so is a root `Struct`'s.
    let mut too_deep = json!({});
    for _ in 0..MAX {
        too_deep = json!({ "k": too_deep });
    }
    let root: wkt::Struct = serde_json::from_value(objects(MAX)).unwrap();
    assert_eq!(
        wkt::Struct::decode(root.encode_to_vec().as_slice()).unwrap(),
        root
    );
    assert!(serde_json::from_value::<wkt::Struct>(too_deep).is_err());
}

#[test]
fn json_at_the_limit_survives_binary_in_the_deepest_envelopes() {
    // v1: a DataPart of an artifact update inside a stream response; all objects, 3 levels each.
    let v1 = json!({"artifactUpdate": {"taskId": "t", "contextId": "c",
        "artifact": {"artifactId": "a", "parts": [{"data": objects(MAX), "metadata": objects(MAX)}],
            "metadata": objects(MAX)}}});
    let message: a2a_proto::v1::StreamResponse =
        a2a_proto::json::from_str(&v1.to_string()).unwrap();
    let bytes = message.encode_to_vec();
    let back = a2a_proto::v1::StreamResponse::decode(bytes.as_slice()).unwrap();
    assert_eq!(back, message);
    // The same through a2a-types and its conversions, both ways.
    let ours: a2a_types::v1::StreamResponse = a2a_types::json::from_value(v1.clone()).unwrap();
    let proto = a2a_proto::v1::StreamResponse::from(ours.clone());
    assert_eq!(proto, message);
    assert_eq!(a2a_types::v1::StreamResponse::try_from(back).unwrap(), ours);

    // v0.3: StreamResponse.artifact_update.artifact.parts.data.data, the deepest Struct of all.
    let v0_3 = json!({"artifactUpdate": {"taskId": "t", "contextId": "c",
        "artifact": {"artifactId": "a", "parts": [{"data": {"data": objects(MAX)}}]}}});
    let message: a2a_proto::v0_3::StreamResponse =
        a2a_proto::json::from_str(&v0_3.to_string()).unwrap();
    let back = a2a_proto::v0_3::StreamResponse::decode(message.encode_to_vec().as_slice()).unwrap();
    assert_eq!(back, message);
}

#[test]
fn conversions_from_protobuf_stop_at_the_limit_with_the_path() {
    // A value built in code may nest deeper than any decoder accepts; converting it is an error.
    let mut value = wkt::Value::from("leaf");
    for _ in 0..MAX + 1 {
        value = wkt::Value::from(wkt::ListValue {
            values: vec![value],
        });
    }
    let part = a2a_proto::v1::Part {
        content: Some(a2a_proto::v1::part::Content::Data(value)),
        ..Default::default()
    };
    let error = a2a_types::v1::Part::try_from(part).unwrap_err();
    assert!(error.path().starts_with("data[0][0]"), "{error}");
    assert!(is_depth_error(error.reason()), "{error}");
    // Writing it as JSON is refused the same way (a2a-proto's serializer counts too).
    let mut value = wkt::Value::from("leaf");
    for _ in 0..MAX + 1 {
        value = wkt::Value::from(wkt::ListValue {
            values: vec![value],
        });
    }
    let error = a2a_proto::json::to_string(&value).unwrap_err();
    assert!(is_depth_error(&error.to_string()), "{error}");
}

#[test]
fn the_bridge_carries_the_limit_both_ways_and_refuses_beyond_it() {
    let v0_3 = |data: Value| json!({"kind": "data", "data": data, "metadata": {"m": 1}});
    let (name, v1) = a2a_compat::bridge::upgrade_json("Part", v0_3(objects(MAX))).unwrap();
    assert_eq!(name, "lf.a2a.v1.Part");
    assert_eq!(v1["data"], objects(MAX));
    let (_, back) = a2a_compat::bridge::downgrade_json("lf.a2a.v1.Part", v1).unwrap();
    assert_eq!(back["data"], objects(MAX));
    let error = a2a_compat::bridge::upgrade_json("Part", v0_3(objects(MAX + 1))).unwrap_err();
    assert!(is_depth_error(&error.to_string()), "{error}");
    let error =
        a2a_compat::bridge::downgrade_json("lf.a2a.v1.Part", json!({"data": objects(MAX + 1)}))
            .unwrap_err();
    assert!(is_depth_error(&error.to_string()), "{error}");
}

#[test]
fn validation_and_drop_of_values_at_the_limit_need_little_stack() {
    let text = message_with(mixed(MAX), in_object(mixed, MAX)).to_string();
    let report = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let message: a2a_types::v1::Message = a2a_types::json::from_str(&text).unwrap();
            let proto: a2a_proto::v1::Message = a2a_proto::json::from_str(&text).unwrap();
            let bytes = proto.encode_to_vec();
            let decoded = a2a_proto::v1::Message::decode(bytes.as_slice()).unwrap();
            let valid = message.validate().is_ok();
            drop((message, proto, decoded));
            valid
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert!(report);
}
