//! The union reader through every kind of deserializer a union meets: the discriminator first or
//! last, a member choosing the variant, `null` choosing nothing, and errors naming what is at fault.

use serde::de::DeserializeOwned;

use crate::v0_3::{
    FileContent, GetTaskPushNotificationConfigRequestParams, JsonRpcResponse, Part,
    SendStreamingMessageResponse,
};

/// Reads `text` as `T` through every kind of deserializer a union meets: serde_json's text and
/// byte readers (raw text borrowed), its `io::Read` reader and a `Value` (raw text copied), the
/// path-tracking wrapper, and serde's own buffer (an untagged enum: values re-written). All agree.
fn every_way<T: DeserializeOwned + PartialEq + std::fmt::Debug>(text: &str) -> Result<T, String> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Wrapped<T> {
        One(T),
    }
    let plain = serde_json::from_str::<T>(text).map_err(|e| e.to_string());
    let bytes = serde_json::from_slice::<T>(text.as_bytes()).map_err(|e| e.to_string());
    let reader = serde_json::from_reader::<_, T>(text.as_bytes()).map_err(|e| e.to_string());
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let from_value = serde_json::from_value::<T>(value.clone()).map_err(|e| e.to_string());
    let tracked =
        serde_path_to_error::deserialize::<_, T>(&mut serde_json::Deserializer::from_str(text))
            .map_err(|e| e.to_string());
    let buffered = serde_json::from_str::<Wrapped<T>>(text)
        .map(|Wrapped::One(t)| t)
        .map_err(|e| e.to_string());
    match &plain {
        Ok(read) => {
            for (way, other) in [
                ("bytes", &bytes),
                ("reader", &reader),
                ("value", &from_value),
                ("tracked", &tracked),
                ("buffered", &buffered),
            ] {
                assert_eq!(other.as_ref(), Ok(read), "{way}: {text}");
            }
        }
        Err(_) => {
            for (way, other) in [
                ("bytes", &bytes),
                ("reader", &reader),
                ("value", &from_value),
                ("tracked", &tracked),
            ] {
                assert!(other.is_err(), "{way} accepted {text}: {other:?}");
            }
            // serde's untagged enums replace the error with their own.
            assert!(buffered.is_err(), "buffered accepted {text}");
        }
    }
    plain
}

#[test]
fn a_discriminator_first_or_last_reads_the_same_every_way() {
    let first = every_way::<Part>(
        r#"{"kind":"file","file":{"uri":"https://x.test/a.pdf"},"metadata":{"n":[1,2.5]}}"#,
    )
    .unwrap();
    let last = every_way::<Part>(
        r#"{"metadata":{"n":[1,2.5]},"file":{"uri":"https://x.test/a.pdf"},"kind":"file"}"#,
    )
    .unwrap();
    assert_eq!(first, last);
    assert!(matches!(first, Part::File(ref p) if matches!(p.file, FileContent::Uri(_))));
    let none =
        every_way::<Part>(r#"{"metadata":{"n":[1,2.5]},"file":{"uri":"https://x.test/a.pdf"}}"#)
            .unwrap();
    assert_eq!(none, first);
}

#[test]
fn a_response_commits_on_its_member_and_reads_the_rest_every_way() {
    let event = r#"{"jsonrpc":"2.0","id":"r-1","result":{"kind":"status-update","taskId":"t","contextId":"c",
        "status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m",
        "parts":[{"text":"hi","kind":"text"}]}},"final":false}}"#;
    let read = every_way::<SendStreamingMessageResponse>(event).unwrap();
    assert!(matches!(read, SendStreamingMessageResponse::Success(_)));
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        serde_json::from_str::<serde_json::Value>(event).unwrap()
    );
    // The member of the other variant after the choice: ambiguous, unless it is `null`.
    let both = r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}},"error":{"code":1,"message":"x"}}"#;
    let e = every_way::<SendStreamingMessageResponse>(both).unwrap_err();
    assert!(e.contains("ambiguous SendStreamingMessageResponse"), "{e}");
    let null_error = both.replace(r#"{"code":1,"message":"x"}"#, "null");
    assert!(matches!(
        every_way::<SendStreamingMessageResponse>(&null_error).unwrap(),
        SendStreamingMessageResponse::Success(_)
    ));
    // A `null` result chooses nothing: the error decides.
    let error =
        r#"{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32001,"message":"gone"}}"#;
    assert!(matches!(
        every_way::<SendStreamingMessageResponse>(error).unwrap(),
        SendStreamingMessageResponse::Error(_)
    ));
    // Variants without a member of their own are tried in turn, from kept text.
    let list = r#"{"jsonrpc":"2.0","id":"x","result":[{"taskId":"t","pushNotificationConfig":{"url":"https://cb.test/hook"}}]}"#;
    assert!(matches!(
        every_way::<JsonRpcResponse>(list).unwrap(),
        JsonRpcResponse::ListTaskPushNotificationConfig(_)
    ));
}

#[test]
fn a_null_member_chooses_nothing_wherever_it_sits() {
    use GetTaskPushNotificationConfigRequestParams as Params;
    for text in [
        r#"{"id":"t-1","pushNotificationConfigId":null}"#,
        r#"{"pushNotificationConfigId":null,"id":"t-1"}"#,
    ] {
        assert!(
            matches!(every_way::<Params>(text).unwrap(), Params::TaskId(_)),
            "{text}"
        );
    }
    for text in [
        r#"{"id":"t-1","pushNotificationConfigId":"c"}"#,
        r#"{"pushNotificationConfigId":"c","id":"t-1"}"#,
    ] {
        assert!(
            matches!(
                every_way::<Params>(text).unwrap(),
                Params::GetTaskPushNotificationConfig(_)
            ),
            "{text}"
        );
    }
    let e = every_way::<FileContent>(r#"{"bytes":"aGk=","uri":"https://x.test"}"#).unwrap_err();
    assert!(e.contains("ambiguous FileContent"), "{e}");
    let bytes = every_way::<FileContent>(r#"{"bytes":"aGk=","uri":null}"#).unwrap();
    assert!(matches!(bytes, FileContent::Bytes(_)));
    let uri = every_way::<FileContent>(r#"{"bytes":null,"uri":"https://x.test"}"#).unwrap();
    assert!(matches!(uri, FileContent::Uri(_)));
}

#[test]
fn errors_name_the_union_the_variant_and_the_member_every_way() {
    for text in [
        // The member read live, after the discriminator.
        r#"{"kind":"file","file":{"uri":5}}"#,
        // The member kept before it.
        r#"{"file":{"uri":5},"kind":"file"}"#,
    ] {
        let e = every_way::<Part>(text).unwrap_err();
        assert!(
            e.contains("Part (FilePart): at `file`: FileContent (FileWithUri): at `uri`: invalid type: integer `5`"),
            "{e}"
        );
        // One position, the input's.
        assert_eq!(e.matches(" at line ").count(), 1, "{e}");
    }
    // (A `Value` keeps one of two equal keys, so only text can hold a duplicate.)
    let twice = r#"{"kind":"file","file":{"uri":"u"},"kind":"text","text":"x"}"#;
    for e in [
        serde_json::from_str::<Part>(twice).unwrap_err(),
        serde_json::from_reader::<_, Part>(twice.as_bytes()).unwrap_err(),
    ] {
        assert!(e.to_string().contains("duplicate key \"kind\""), "{e}");
    }
    let e = every_way::<Part>(r#"{"text":"x","kind":"image"}"#).unwrap_err();
    assert!(e.contains(r#"unknown kind "image" for Part"#), "{e}");
    let e = every_way::<Part>(r#""a part""#).unwrap_err();
    assert!(
        e.contains(r#"expected a JSON object for Part, found "a part""#),
        "{e}"
    );
    let e = every_way::<Part>(r#"{"metadata":{}}"#).unwrap_err();
    assert!(
        e.contains("cannot tell which Part this is: no `kind`"),
        "{e}"
    );
}

#[test]
fn the_path_tracker_follows_members_read_from_the_input() {
    let text = r#"{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"a"},{"kind":"data","data":{"a":1,"a":2}}]}"#;
    let error = a2a_types::json::from_str::<crate::v0_3::Message>(text).unwrap_err();
    assert_eq!(error.path(), "parts[1].data", "{error}");
    assert!(error.to_string().contains("duplicate key \"a\""), "{error}");
    // A kept member: the path ends at the union, the message names the member.
    let text = text.replace(
        r#"{"kind":"data","data":{"a":1,"a":2}}"#,
        r#"{"data":{"a":1,"a":2},"kind":"data"}"#,
    );
    let error = a2a_types::json::from_str::<crate::v0_3::Message>(&text).unwrap_err();
    assert_eq!(error.path(), "parts[1]", "{error}");
    assert!(
        error
            .to_string()
            .contains("Part (DataPart): at `data`: duplicate key \"a\""),
        "{error}"
    );
}
