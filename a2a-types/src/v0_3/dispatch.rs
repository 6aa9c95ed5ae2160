//! Not public API: how the generated v0.3 markers and unions read their JSON.
//!
//! A union buffers its object as a [`Value`], picks the variant by its discriminator (`kind`, `type`,
//! `method`, `code`) or, without one, by a member only that variant has, and only then parses it, so an
//! error names what was expected instead of serde's "did not match any variant".

use std::fmt;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A discriminator value.
#[derive(Clone, Copy, Debug)]
pub enum Tag {
    Str(&'static str),
    Int(i64),
}

impl Tag {
    fn matches(self, value: &Value) -> bool {
        match self {
            Tag::Str(s) => value.as_str() == Some(s),
            Tag::Int(n) => value.as_i64() == Some(n),
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tag::Str(s) => write!(f, "`{s}`"),
            Tag::Int(n) => write!(f, "`{n}`"),
        }
    }
}

/// Reads a string marker: exactly `expected`.
pub fn expect_str<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: &'static str,
) -> Result<(), D::Error> {
    let value = crate::json::UniqueKeys::deserialize(deserializer)?.0;
    if Tag::Str(expected).matches(&value) {
        Ok(())
    } else {
        Err(D::Error::custom(crate::json::bounded(&format!(
            "expected `{expected}`, found {}",
            crate::json::shown(&value)
        ))))
    }
}

/// Reads an integer marker: exactly `expected`.
pub fn expect_int<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: i64,
) -> Result<(), D::Error> {
    let value = crate::json::UniqueKeys::deserialize(deserializer)?.0;
    if Tag::Int(expected).matches(&value) {
        Ok(())
    } else {
        Err(D::Error::custom(crate::json::bounded(&format!(
            "expected `{expected}`, found {}",
            crate::json::shown(&value)
        ))))
    }
}

/// One variant of a union.
pub struct Variant<T> {
    /// The Rust type it wraps, for messages.
    pub type_name: &'static str,
    /// Its discriminator value, if the union has one.
    pub tag: Option<Tag>,
    /// Members only this variant has; any of them present selects it.
    pub keys: &'static [&'static str],
    pub parse: fn(Value) -> Result<T, String>,
}

/// Parses `value` as `V` and wraps it in the union `U`; an error names the member inside `V` at fault
/// (the outer path, up to the union, is the caller's).
pub fn parse_as<V: DeserializeOwned, U: From<V>>(value: Value) -> Result<U, String> {
    // Tracking the path slows every read down, so it is done only to explain a failure.
    match V::deserialize(&value) {
        Ok(parsed) => Ok(U::from(parsed)),
        Err(plain) => match serde_path_to_error::deserialize::<_, V>(&value) {
            Err(e) if e.path().to_string() != "." => {
                let path = e.path().to_string();
                Err(format!("at `{path}`: {}", e.into_inner()))
            }
            _ => Err(plain.to_string()),
        },
    }
}

/// Whether a member is present with a value other than `null`.
fn is_set(member: Option<&Value>) -> bool {
    member.is_some_and(|value| !value.is_null())
}

/// A union: how to pick its variant.
pub struct Union<T: 'static> {
    pub name: &'static str,
    pub tag: Option<&'static str>,
    /// Whether the tag must be present (JSON-RPC's `method`, an error's `code`); otherwise a missing tag
    /// falls back to choosing by members.
    pub tag_required: bool,
    pub variants: &'static [Variant<T>],
}

impl<T> Union<T> {
    pub fn deserialize<'de, D: Deserializer<'de>>(&self, deserializer: D) -> Result<T, D::Error> {
        let value = crate::json::UniqueKeys::deserialize(deserializer)?.0;
        // A message may quote the value (an unknown `kind`), however large.
        self.parse(value)
            .map_err(|message| D::Error::custom(crate::json::bounded(&message)))
    }

    fn tag_list(&self) -> String {
        let tags: Vec<String> = self
            .variants
            .iter()
            .filter_map(|v| v.tag.map(|t| t.to_string()))
            .collect();
        tags.join(", ")
    }

    fn run(&self, variant: &Variant<T>, value: Value) -> Result<T, String> {
        (variant.parse)(value).map_err(|e| format!("{} ({}): {e}", self.name, variant.type_name))
    }

    pub fn parse(&self, value: Value) -> Result<T, String> {
        let Value::Object(object) = &value else {
            return Err(format!(
                "expected a JSON object for {}, found {}",
                self.name,
                crate::json::shown(&value)
            ));
        };
        if let Some(tag) = self.tag {
            match object.get(tag) {
                Some(found) => {
                    return match self
                        .variants
                        .iter()
                        .find(|v| v.tag.is_some_and(|t| t.matches(found)))
                    {
                        Some(variant) => self.run(variant, value),
                        None => Err(format!(
                            "unknown {tag} {} for {}, expected one of {}",
                            crate::json::shown(found),
                            self.name,
                            self.tag_list()
                        )),
                    };
                }
                None if self.tag_required => {
                    return Err(format!(
                        "missing field `{tag}` for {}, expected one of {}",
                        self.name,
                        self.tag_list()
                    ));
                }
                None => {}
            }
        }
        let present: Vec<&Variant<T>> = self
            .variants
            .iter()
            // `null` is how the SDK's models say "not set": a member set to `null` identifies nothing
            // (`"pushNotificationConfigId": null` must not pick a variant that then writes it out).
            .filter(|v| v.keys.iter().any(|k| is_set(object.get(*k))))
            .collect();
        match present.as_slice() {
            [variant] => self.run(variant, value),
            [] => {
                let mut errors = Vec::new();
                for variant in self.variants.iter().filter(|v| v.keys.is_empty()) {
                    match (variant.parse)(value.clone()) {
                        Ok(parsed) => return Ok(parsed),
                        Err(e) => errors.push(format!("as {}: {e}", variant.type_name)),
                    }
                }
                let identifying: Vec<String> = self
                    .variants
                    .iter()
                    .filter(|v| !v.keys.is_empty())
                    .map(|v| format!("`{}` ({})", v.keys.join("`/`"), v.type_name))
                    .collect();
                let mut message = format!("cannot tell which {} this is", self.name);
                if let Some(tag) = self.tag {
                    message.push_str(&format!(": no `{tag}`"));
                }
                if !identifying.is_empty() {
                    message.push_str(&format!(", and none of {}", identifying.join(", ")));
                }
                if !errors.is_empty() {
                    message.push_str(&format!("; {}", errors.join("; ")));
                }
                Err(message)
            }
            several => {
                let found: Vec<String> = several
                    .iter()
                    .map(|v| {
                        let keys: Vec<&str> = v
                            .keys
                            .iter()
                            .copied()
                            .filter(|k| is_set(object.get(*k)))
                            .collect();
                        format!("`{}` ({})", keys.join("`/`"), v.type_name)
                    })
                    .collect();
                Err(format!(
                    "ambiguous {}: it has members of several variants: {}",
                    self.name,
                    found.join(" and ")
                ))
            }
        }
    }
}
