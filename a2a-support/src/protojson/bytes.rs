//! `bytes` fields: base64 out, both alphabets with or without padding in.

use base64::Engine as _;
use serde::de;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Key;

/// Bytes as ProtoJSON writes them (standard base64 with padding) and reads them (standard or URL-safe,
/// padded or not).
pub struct Base64(pub Vec<u8>);

/// A borrowed [`Base64`], for writing.
pub struct Base64Ref<'a>(pub &'a [u8]);

impl Serialize for Base64Ref<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&base64::engine::general_purpose::STANDARD.encode(self.0))
    }
}

impl<'de> Deserialize<'de> for Base64 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
        const LENIENT: GeneralPurposeConfig =
            GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
        const STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, LENIENT);
        const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, LENIENT);

        let text = Key::deserialize(deserializer)?;
        let alphabet = if text.contains(['-', '_']) {
            URL_SAFE
        } else {
            STANDARD
        };
        alphabet
            .decode(text.as_bytes())
            .map(Base64)
            .map_err(|e| de::Error::custom(format!("invalid base64: {e}")))
    }
}
