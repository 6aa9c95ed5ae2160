#![doc = r#"
Support code for the generated Agent2Agent (A2A) crates: what the generated types of `a2a-spec-types`
(`a2a_types`) and `a2a-proto` call, written once so that a rule changes in one place for both.

Google's Rust client libraries keep the well-known protobuf types their generated crates share in one
crate of their own; this crate does the same for the JSON side of A2A:

| module | what | re-exported as |
|---|---|---|
| [`json`] | parsing whose errors name the field path ([`json::JsonError`]), the Unicode rule for JSON text, error text bounded in length, values read with no key twice | `a2a_types::json`, `a2a_proto::json` |
| [`json_write`] | ProtoJSON written straight into a buffer: the [`json_write::WriteJson`] encoders generated for `a2a_types`' messages call it; the same bytes as `serde_json::to_vec`, sooner | `a2a_types::json::{to_vec, to_string, WriteJson}` |
| [`limits`] | the decode budget ([`limits::Limits`]): bytes and elements per document, and the JSON pre-scan that counts values without allocating | `a2a_protocol::limits`, `a2a_proto::limits` (which adds the protobuf walk) |
| [`protojson`] | the ProtoJSON field rules the serde code generated for `a2a_types` names: numbers, enums, oneofs, timestamps, bytes, free-form `data`/`metadata` | not public API |
| [`pbjson`] | the adjustments of `pbjson`'s output in `a2a-proto`: open enums, lenient numbers, maps without a key twice, named non-finite floats | not public API |
| [`MAX_NESTING_DEPTH`], [`TooDeep`] | how deep free-form JSON may nest, on every path of both crates, and the error past it | `a2a_types::MAX_NESTING_DEPTH`, `a2a_proto::MAX_NESTING_DEPTH`, `a2a_proto::wkt::depth::TooDeep` |

Users depend on `a2a-spec-types` or `a2a-proto`, not on this crate: it is released together with them
(they require its exact version), and [`protojson`] and [`pbjson`] change whenever the code generator
does. The public paths of the type crates stay as they were before this crate existed.
"#]

pub mod json;
pub mod json_write;
pub mod limits;
#[doc(hidden)]
pub mod pbjson;
#[doc(hidden)]
pub mod protojson;

/// How deep objects and arrays may nest inside one free-form JSON value (a `data` or `metadata`
/// member, a `google.protobuf.Value` or `Struct`), counted as in JSON: `{"a": [{}]}` is 3 deep.
///
/// Deeper input is an error naming the field, never a stack overflow, on every path of both type
/// crates: reading JSON (v1 and v0.3, every entry point of `a2a_types`: `json`, `jsonrpc`, `rest`,
/// `sse`), `a2a_proto`'s ProtoJSON and protobuf binary decoding, JSON encoding, and the conversions
/// between the two crates. Values deeper than this that a program builds itself are outside what the
/// crates guarantee (serde_json's `Value` drops and serializes them recursively).
///
/// Why 30: a JSON object costs 3 protobuf message levels (`Value`, `Struct`, map entry) and the deepest
/// A2A message holds its `Struct` 6 levels down (v0.3's `StreamResponse.artifact_update.artifact.parts
/// .data.data`), so 30 levels need at most 96 of prost's 100: a value accepted as JSON always decodes
/// from the protobuf bytes it encodes to. serde_json's own limit (128, for the whole document) is never
/// the one reached first.
pub const MAX_NESTING_DEPTH: usize = 30;

/// A free-form value (`data`, `metadata`, a `google.protobuf.Value` or `Struct`) nested deeper than
/// [`MAX_NESTING_DEPTH`]: the one error of that limit in both type crates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep;

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "objects and arrays nested deeper than {MAX_NESTING_DEPTH} levels (the A2A nesting limit)"
        )
    }
}

impl std::error::Error for TooDeep {}

/// A JSON object, as `google.protobuf.Struct` members carry it.
pub(crate) type JsonObject = serde_json::Map<String, serde_json::Value>;
