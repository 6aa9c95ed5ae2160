//! Reading a typed request from path, query and body: the fields as gathered ([`Node`]) are a serde
//! `Deserializer`, so each query value is converted to what its field's type reads.

use std::collections::BTreeMap;

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};
use serde_json::Value;

/// The request's fields as gathered: text from the path or query string (converted to whatever the
/// field's type asks for), JSON from the body, and nested messages.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Text(Vec<String>),
    Json(Value),
    Object(BTreeMap<String, Node>),
}

type DeError = serde_json::Error;

/// A member of a JSON object (the body, or a JSON query value) as a field of the request.
pub(super) fn json_leaf((key, value): (String, Value)) -> (String, Node) {
    (key, Node::Json(value))
}

impl Node {
    /// The one text value of a singular field.
    fn single(self) -> Result<String, DeError> {
        match self {
            Node::Text(mut values) if values.len() == 1 => Ok(values.remove(0)),
            Node::Text(values) => Err(de::Error::custom(format!(
                "expected one value, got {} (the field is not repeated)",
                values.len()
            ))),
            Node::Json(_) | Node::Object(_) => Err(de::Error::invalid_type(
                de::Unexpected::Map,
                &"a single value",
            )),
        }
    }

    fn visit_text_seq<'de, V: Visitor<'de>>(
        values: Vec<String>,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let mut seq = SeqDeserializer::new(values.into_iter().map(|v| Node::Text(vec![v])));
        let value = visitor.visit_seq(&mut seq)?;
        seq.end()?;
        Ok(value)
    }
}

impl<'de> IntoDeserializer<'de, DeError> for Node {
    type Deserializer = Node;

    fn into_deserializer(self) -> Node {
        self
    }
}

macro_rules! integer {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            match self {
                Node::Json(value) => value.$method(visitor),
                node => {
                    let text = node.single()?;
                    if let Ok(number) = text.parse::<i64>() {
                        visitor.visit_i64(number)
                    } else if let Ok(number) = text.parse::<u64>() {
                        visitor.visit_u64(number)
                    } else {
                        Err(de::Error::invalid_value(de::Unexpected::Str(&text), &visitor))
                    }
                }
            }
        }
    )*};
}

macro_rules! text {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            match self {
                Node::Json(value) => value.$method(visitor),
                node => visitor.visit_string(node.single()?),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Node {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_any(visitor),
            Node::Object(fields) => {
                let mut map = MapDeserializer::new(fields.into_iter());
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
            Node::Text(values) if values.len() == 1 => {
                let text = values.into_iter().next().unwrap_or_default();
                // An integer is offered as one, so fields read through `deserialize_any` (int32
                // written as strings or numbers, enums by number) take it; strings ask for strings.
                match text.parse::<i64>() {
                    Ok(number) if number.to_string() == text => visitor.visit_i64(number),
                    _ => visitor.visit_string(text),
                }
            }
            Node::Text(values) => Node::visit_text_seq(values, visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_bool(visitor),
            node => match node.single()?.as_str() {
                "true" => visitor.visit_bool(true),
                "false" => visitor.visit_bool(false),
                other => Err(de::Error::invalid_value(
                    de::Unexpected::Str(other),
                    &"true or false",
                )),
            },
        }
    }

    integer!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_f64(visitor),
            node => {
                let text = node.single()?;
                match text.parse::<f64>() {
                    Ok(number) => visitor.visit_f64(number),
                    Err(_) => Err(de::Error::invalid_value(
                        de::Unexpected::Str(&text),
                        &visitor,
                    )),
                }
            }
        }
    }

    text!(deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_identifier);

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_option(visitor),
            node => visitor.visit_some(node),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_unit(visitor),
            _ => visitor.visit_unit(),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_seq(visitor),
            Node::Text(values) => Node::visit_text_seq(values, visitor),
            Node::Object(_) => Err(de::Error::invalid_type(de::Unexpected::Map, &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Node::Text(values) => Err(de::Error::invalid_type(
                de::Unexpected::Str(&values.join(",")),
                &"a message (set its fields as `field.subfield=value`)",
            )),
            node => node.deserialize_any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self {
            Node::Json(value) => value.deserialize_enum(name, variants, visitor),
            Node::Object(_) => self.deserialize_any(visitor),
            node => {
                let text: de::value::StringDeserializer<DeError> =
                    node.single()?.into_deserializer();
                visitor.visit_enum(text)
            }
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rest::client::query_string;
    use crate::rest::encoding::{insert_query_value, parse_query};
    use crate::rest::error::RouteError;
    use crate::rest::server::ReadRequest;

    fn query_fields(query: &str) -> Result<Node, RouteError> {
        let mut fields = BTreeMap::new();
        for (key, value) in parse_query(query)? {
            let names: Vec<&str> = key.split('.').collect();
            insert_query_value(&mut fields, &names, value, &key)?;
        }
        Ok(Node::Object(fields))
    }

    fn read_as(request_type: &str, query: &str) -> Result<Value, RouteError> {
        a2a_types::v1::visit_message(request_type, ReadRequest(query_fields(query)?)).unwrap()
    }

    #[test]
    fn query_values_fill_repeated_and_nested_fields_by_their_types() {
        let query = "configuration.acceptedOutputModes=text%2Fplain\
            &configuration.acceptedOutputModes=application%2Fjson&configuration.history_length=3\
            &configuration.returnImmediately=true&message.messageId=m-1&message.role=1\
            &message.referenceTaskIds=t-1&message.referenceTaskIds=t-2&message.contextId=42\
            &metadata.source=cli";
        let json = read_as("lf.a2a.v1.SendMessageRequest", query).unwrap();
        let expected = json!({
            "configuration": {
                "acceptedOutputModes": ["text/plain", "application/json"],
                "historyLength": 3,
                "returnImmediately": true
            },
            "message": {
                "messageId": "m-1",
                "role": "ROLE_USER",
                "referenceTaskIds": ["t-1", "t-2"],
                "contextId": "42"
            },
            "metadata": {"source": "cli"}
        });
        assert_eq!(json, expected);
        // A single value of a repeated field is a list of one.
        let json = read_as(
            "lf.a2a.v1.SendMessageRequest",
            "configuration.acceptedOutputModes=text%2Fplain",
        )
        .unwrap();
        assert_eq!(
            json["configuration"]["acceptedOutputModes"],
            json!(["text/plain"])
        );

        // The client side writes the same fields as a query string that reads back the same.
        let Value::Object(object) = &expected else {
            unreachable!()
        };
        let rebuilt = query_string(object).unwrap();
        assert!(rebuilt.contains("message.referenceTaskIds=t-1&message.referenceTaskIds=t-2"));
        assert_eq!(
            read_as("lf.a2a.v1.SendMessageRequest", &rebuilt).unwrap(),
            expected
        );
    }

    #[test]
    fn query_errors_name_the_nested_field() {
        let error = read_as(
            "lf.a2a.v1.SendMessageRequest",
            "configuration.historyLength=three",
        )
        .unwrap_err();
        assert!(
            matches!(&error, RouteError::InvalidField { field, .. } if field == "configuration.historyLength"),
            "{error:?}"
        );
        let error = read_as("lf.a2a.v1.SendMessageRequest", "configuration=x").unwrap_err();
        assert!(
            matches!(&error, RouteError::InvalidField { field, problem } if field == "configuration" && problem.contains("field.subfield")),
            "{error:?}"
        );
        let error = query_fields("message=x&message.role=1").unwrap_err();
        assert!(
            matches!(&error, RouteError::InvalidField { field, .. } if field == "message.role"),
            "{error:?}"
        );
        let error = query_fields("message..role=1").unwrap_err();
        assert!(
            matches!(error, RouteError::InvalidField { .. }),
            "{error:?}"
        );

        let parts = json!({"message": {"parts": [{"text": "hi"}]}});
        let error = query_string(parts.as_object().unwrap()).unwrap_err();
        assert_eq!(error.field, "message.parts");
    }
}
