//! The generators over `xtask/testdata/scalars.proto`: every protobuf scalar type, plain, `optional`,
//! repeated and REQUIRED, as map values and as oneof members, in a package of its own. A spec bump that
//! adds such a field gets exactly this.

use std::collections::BTreeMap;

use quote::ToTokens;
use serde_json::{Value, json};

use super::GeneratedFile;
use super::json_schema::{self, SchemaTarget};
use super::proto::{self, ProtoTarget};
use super::types::{self, TypesTarget};

const INCLUDES: &[&str] = &["xtask/testdata", "spec"];
const PACKAGE: &str = "xtask.testdata.scalars";

const SCHEMA: SchemaTarget = SchemaTarget::new(
    "scalars.proto",
    PACKAGE,
    "xtask/testdata/generated/scalars.json",
    "xtask test scalars",
)
.includes(INCLUDES);

const TYPES: TypesTarget = TypesTarget::new(&SCHEMA)
    .module("crate::v1")
    .out_dir("xtask/testdata/generated")
    .strategies_file("xtask/testdata/generated/strategies.rs");

const PROTO: ProtoTarget = ProtoTarget::new("scalars.proto", PACKAGE)
    .includes(INCLUDES)
    .out_dir("xtask/testdata/generated");

/// Each scalar type of the test proto with the Rust type both sides hold it in.
const SCALARS: &[(&str, &str)] = &[
    ("int32", "i32"),
    ("sint32", "i32"),
    ("sfixed32", "i32"),
    ("uint32", "u32"),
    ("fixed32", "u32"),
    ("int64", "i64"),
    ("sint64", "i64"),
    ("sfixed64", "i64"),
    ("uint64", "u64"),
    ("fixed64", "u64"),
    ("float", "f32"),
    ("double", "f64"),
];

/// Generated Rust files by file name (the descriptor set, which is binary, left out).
fn rust_files(files: Vec<GeneratedFile>) -> BTreeMap<String, String> {
    files
        .into_iter()
        .filter(|file| file.path.extension().is_some_and(|e| e == "rs"))
        .map(|file| {
            let name = file
                .path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, String::from_utf8(file.contents).unwrap())
        })
        .collect()
}

/// Tokens as one string without spaces, for comparing generated code with expectations.
fn compact(tokens: impl ToTokens) -> String {
    tokens.to_token_stream().to_string().replace(' ', "")
}

/// Formatted source without whitespace and without the trailing commas prettyplease adds, for finding
/// expected snippets in it.
fn compact_source(source: &str) -> String {
    let mut text: String = source.chars().filter(|c| !c.is_whitespace()).collect();
    for close in [")", ">", "]", "}"] {
        text = text.replace(&format!(",{close}"), close);
    }
    text
}

/// `(type, serde attribute)` of every field of struct `name` in `source`, by field name.
fn struct_fields(source: &str, name: &str) -> BTreeMap<String, (String, String)> {
    let file = syn::parse_file(source).unwrap();
    let structure = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Struct(s) if s.ident == name => Some(s),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no struct {name}"));
    structure
        .fields
        .iter()
        .map(|field| {
            let serde = field
                .attrs
                .iter()
                .filter(|a| a.path().is_ident("serde"))
                .map(compact)
                .collect::<String>();
            (
                field.ident.as_ref().unwrap().to_string(),
                (compact(&field.ty), serde),
            )
        })
        .collect()
}

#[test]
fn schema_spells_every_scalar_as_protojson_does() {
    let schema = json_schema::build(&SCHEMA).unwrap();
    let properties = &schema["$defs"]["Scalars"]["properties"];
    let int64 = json!({
        "type": ["string", "integer"],
        "format": "int64",
        "pattern": "^-?[0-9]+$",
        "minimum": i64::MIN,
        "maximum": i64::MAX
    });
    let uint64 = json!({
        "type": ["string", "integer"],
        "format": "uint64",
        "pattern": "^[0-9]+$",
        "minimum": 0,
        "maximum": u64::MAX
    });
    let float = |format: &str| {
        json!({
            "format": format,
            "anyOf": [
                { "type": "number" },
                { "type": "string", "enum": ["NaN", "Infinity", "-Infinity"] }
            ]
        })
    };
    let expected: [(&str, Value); 12] = [
        (
            "plainInt32",
            json!({ "type": "integer", "minimum": i32::MIN, "maximum": i32::MAX }),
        ),
        (
            "plainSfixed32",
            json!({ "type": "integer", "minimum": i32::MIN, "maximum": i32::MAX }),
        ),
        (
            "plainFixed32",
            json!({ "type": "integer", "format": "uint32", "minimum": 0, "maximum": u32::MAX }),
        ),
        ("plainInt64", int64.clone()),
        ("requiredSint64", int64.clone()),
        ("optionalSfixed64", int64.clone()),
        ("plainFixed64", uint64.clone()),
        ("plainFloat", float("float")),
        ("requiredDouble", float("double")),
        (
            "repeatedUint64",
            json!({ "type": "array", "items": uint64 }),
        ),
        (
            "int64Map",
            json!({ "type": "object", "additionalProperties": int64 }),
        ),
        (
            "doubleMap",
            json!({ "type": "object", "additionalProperties": float("double") }),
        ),
    ];
    for (name, schema) in expected {
        assert_eq!(properties[name], schema, "{name}");
    }
    let required = &schema["$defs"]["Scalars"]["required"];
    assert!(
        required
            .as_array()
            .unwrap()
            .contains(&json!("requiredUint64"))
    );
    let choice = &schema["$defs"]["Scalars"]["oneOf"];
    assert!(
        choice
            .as_array()
            .unwrap()
            .contains(&json!({ "required": ["choiceInt64"] }))
    );
}

#[test]
fn every_scalar_field_gets_its_rust_type_and_protojson_helper() {
    let files = rust_files(types::generate_files(&TYPES).unwrap());
    let fields = struct_fields(&files["types.rs"], "Scalars");
    for (proto, rust) in SCALARS {
        // Singular 32-bit signed integers keep the read-only int32 helpers (serde writes them as they are).
        let int32 = *rust == "i32";
        let expectations = [
            (
                format!("plain_{proto}"),
                format!("::std::option::Option<{rust}>"),
                if int32 {
                    "deserialize_with=\"::a2a_support::protojson::int32_unless_default\""
                } else {
                    "with=\"::a2a_support::protojson::number_unless_default\""
                },
            ),
            (
                format!("optional_{proto}"),
                format!("::std::option::Option<{rust}>"),
                if int32 {
                    "deserialize_with=\"::a2a_support::protojson::optional_int32\""
                } else {
                    "with=\"::a2a_support::protojson::optional_number\""
                },
            ),
            (
                format!("repeated_{proto}"),
                format!("::std::vec::Vec<{rust}>"),
                "with=\"::a2a_support::protojson::repeated_numbers\"",
            ),
            (
                format!("required_{proto}"),
                (*rust).to_owned(),
                if int32 {
                    "deserialize_with=\"::a2a_support::protojson::int32\""
                } else {
                    "with=\"::a2a_support::protojson::number\""
                },
            ),
        ];
        for (field, ty, helper) in expectations {
            let (actual_ty, serde) = fields
                .get(&field)
                .unwrap_or_else(|| panic!("no field {field}"));
            assert_eq!(actual_ty, &ty, "{field}");
            assert!(serde.contains(helper), "{field}: {serde}");
        }
    }
    for (field, rust) in [
        ("int64_map", "i64"),
        ("uint64_map", "u64"),
        ("uint32_map", "u32"),
        ("double_map", "f64"),
        ("float_map", "f32"),
    ] {
        let (ty, serde) = &fields[field];
        assert_eq!(
            ty,
            &format!("::std::collections::BTreeMap<::std::string::String,{rust}>")
        );
        assert!(
            serde.contains("with=\"::a2a_support::protojson::number_map\""),
            "{field}: {serde}"
        );
    }
    // The synthetic oneofs of proto3 `optional` fields are no oneof fields.
    assert_eq!(
        fields
            .keys()
            .filter(|name| !name.starts_with(['p', 'o', 'r']))
            .collect::<Vec<_>>(),
        [
            "choice",
            "double_map",
            "flag",
            "float_map",
            "int64_map",
            "name",
            "uint32_map",
            "uint64_map"
        ]
    );
    let probe = struct_fields(&files["types.rs"], "Probe");
    assert_eq!(
        probe["counter"],
        (
            "::std::option::Option<i64>".to_owned(),
            "#[serde(default,with=\"::a2a_support::protojson::number_unless_default\",skip_serializing_if=\"::a2a_support::protojson::is_unset\")]".to_owned()
        )
    );
}

#[test]
fn numeric_oneof_members_read_and_write_protojson() {
    let files = rust_files(types::generate_files(&TYPES).unwrap());
    let unions = compact_source(&files["unions.rs"]);
    for expected in [
        "ChoiceInt64(i64)",
        "ChoiceUint64(u64)",
        "ChoiceSint32(i32)",
        "ChoiceFixed32(u32)",
        "ChoiceFloat(f32)",
        "ChoiceDouble(f64)",
        "Count(i64)",
        "Ratio(f64)",
        "\"choiceInt64\"|\"choice_int64\"=>{match::a2a_support::protojson::read_optional::<::a2a_support::protojson::Number<i64>,A>(map)?.map(|v|v.0){::std::option::Option::Some(value)=>{::a2a_support::protojson::OneofRead::place(slot,Self::ChoiceInt64(value))}",
        "\"choiceSint32\"|\"choice_sint32\"=>{match::a2a_support::protojson::read_optional::<::a2a_support::protojson::Int32,A>(map)?.map(|v|v.0){::std::option::Option::Some(value)=>{::a2a_support::protojson::OneofRead::place(slot,Self::ChoiceSint32(value))}",
        "Self::ChoiceInt64(value)=>{map.serialize_entry(\"choiceInt64\",&::a2a_support::protojson::Number(*value))}",
        "Self::ChoiceDouble(value)=>{map.serialize_entry(\"choiceDouble\",&::a2a_support::protojson::Number(*value))}",
        "Self::Count(value)=>{map.serialize_entry(\"count\",&::a2a_support::protojson::Number(*value))}",
    ] {
        assert!(unions.contains(expected), "unions.rs lacks {expected}");
    }
}

#[test]
fn conversions_validation_and_strategies_cover_every_scalar() {
    let files = rust_files(types::generate_files(&TYPES).unwrap());
    let conversions = compact_source(&files["proto_conversions.rs"]);
    let validation = compact_source(&files["validate.rs"]);
    // The strategies come from the descriptor alone, and their header says so.
    assert!(files["strategies.rs"].starts_with(
        "// @generated by `cargo xtask codegen` from xtask/testdata/scalars.proto. Do not edit by hand.\n"
    ));
    let strategies = compact_source(&files["strategies.rs"]);
    for (proto, rust) in SCALARS {
        // prost holds every scalar in the same Rust type, so values pass through unchanged.
        for expected in [
            format!("plain_{proto}:value.plain_{proto}.unwrap_or_default()"),
            format!("optional_{proto}:value.optional_{proto},"),
            format!("repeated_{proto}:value.repeated_{proto},"),
            format!("required_{proto}:value.required_{proto},"),
        ] {
            assert!(
                conversions.contains(&expected),
                "conversions lack {expected}"
            );
        }
        let required = format!(
            "if::a2a_support::protojson::is_default(&self.required_{proto}){{out.push(crate::validate::FieldViolation::at(prefix,\"required_{proto}\",\"Fieldisrequired.\"));}}"
        );
        assert!(
            validation.contains(&required),
            "validation lacks {required}"
        );
        let strategy = match *rust {
            "f64" => "(any::<i32>(),0..6i32).prop_map(|(digits,scale)|f64::from(digits)/10f64.powi(scale))".to_owned(),
            "f32" => "(any::<i16>(),0..4i32).prop_map(|(digits,scale)|f32::from(digits)/10f32.powi(scale))".to_owned(),
            // The full range: 64-bit values beyond 2^53 included.
            integer => format!("any::<{integer}>()"),
        };
        assert!(strategies.contains(&strategy), "strategies lack {strategy}");
    }
    assert!(conversions.contains(
        "ScalarsChoice::ChoiceInt64(item)=>{::a2a_proto::v1::scalars::Choice::ChoiceInt64(item)}"
    ));
    assert!(conversions.contains("double_map:value.double_map,"));
    assert!(
        strategies.contains(
            "proptest::collection::btree_map(crate::strategy::string(),any::<u64>(),0..3)"
        )
    );
}

#[test]
fn pbjson_64_bit_reads_and_writes_survive_the_protojson_rewrites() {
    let files = rust_files(proto::generate_package(&PROTO).unwrap());
    let serde = compact_source(&files[&format!("{PACKAGE}.serde.rs")]);
    for expected in [
        // Written as decimal strings, as pbjson does.
        "struct_ser.serialize_field(\"plainInt64\",ToString::to_string(&self.plain_int64).as_str())",
        "struct_ser.serialize_field(\"repeatedUint64\",&self.repeated_uint64.iter().map(ToString::to_string).collect::<Vec<_>>())",
        // Read through our lenient number reader, `null` meaning absent.
        "plain_int64__=map_.next_value::<::core::option::Option<::a2a_support::pbjson::NumberDeserialize<_>>>()?.map(|present__|present__.0);",
        "repeated_int64__=map_.next_value::<::core::option::Option<Vec<::a2a_support::pbjson::NumberDeserialize<_>>>>()?.map(|present__|{present__.into_iter().map(|x|x.0).collect()});",
        // Maps through `UniqueMap`, which rejects a key given twice.
        "map_.next_value::<::core::option::Option<::a2a_support::pbjson::UniqueMap<_,::a2a_support::pbjson::NumberDeserialize<i64>>>>()?.map(|present__|present__.0)",
        "optional_uint64__=map_.next_value::<::std::option::Option<::a2a_support::pbjson::NumberDeserialize<_>>>()?.map(|x|x.0);",
        "map_.next_value::<::std::option::Option<::a2a_support::pbjson::NumberDeserialize<_>>>()?.map(|x|scalars::Choice::ChoiceInt64(x.0));",
        // Floats written through `Floats`, which names NaN and the infinities (pbjson writes `null`).
        "struct_ser.serialize_field(\"plainDouble\",&::a2a_support::pbjson::Floats(&self.plain_double))",
        "struct_ser.serialize_field(\"optionalFloat\",&::a2a_support::pbjson::Floats(v))",
        "struct_ser.serialize_field(\"repeatedFloat\",&::a2a_support::pbjson::Floats(&self.repeated_float))",
        "struct_ser.serialize_field(\"doubleMap\",&::a2a_support::pbjson::Floats(&self.double_map))",
        "struct_ser.serialize_field(\"choiceDouble\",&::a2a_support::pbjson::Floats(v))",
        "struct_ser.serialize_field(\"ratio\",&::a2a_support::pbjson::Floats(v))",
    ] {
        assert!(serde.contains(expected), "serde.rs lacks {expected}");
    }
    assert!(!serde.contains("pbjson::private::NumberDeserialize"));
    // No float is written any other way.
    assert_eq!(
        serde.matches("::a2a_support::pbjson::Floats(").count(),
        4 * 2 + 2 + 2 + 1
    );
}
