//! The `A2A-Version` service parameter, read by one rule that every binding and the v0.3 bridge use.
//!
//! **Reading** ([`ProtocolVersion::from_header`]): absent or empty is 0.3 (spec section 3.6.2); any
//! other value is read as the official Python SDK 1.3.0 reads it, as a PEP 440 version (surrounding
//! whitespace, a leading `v`, pre-, post- and dev-release parts and local labels allowed), of which
//! only major and minor count (section 3.6: the patch number must not be considered; a missing minor
//! is 0). A value that is no version is a [`VersionError`], which a server answers with
//! `VersionNotSupportedError` (section 3.2.6).
//!
//! **Serving** ([`ProtocolVersion::is_compatible_with`]): a request is served with the semantics of
//! the version it asks for, matching major and minor (section 3.6.2). Here the SDK is laxer: its
//! servers compare the major number only, so it serves `1.1` with its 1.0 handlers and `0.2` with its
//! 0.3 ones, where this rule answers `VersionNotSupportedError`. The interop test
//! `jsonrpc_interop_v1` probes the SDK's server with these values and holds both sides to the table.
//!
//! | `A2A-Version` | spec | SDK 1.3.0 (1.0 handlers) | here: read as | here: served by 1.0 |
//! |---|---|---|---|---|
//! | absent, `""` | 0.3 | 0.3, refused | 0.3 | no |
//! | `0.3` | 0.3 | refused | 0.3 | no |
//! | `1.0` | 1.0 | served | 1.0 | yes |
//! | `1.0.3` | 1.0 (patch ignored) | served | 1.0 | yes |
//! | `1`, `v1.0`, `1.0rc1`, ` 1.0 ` | not the `Major.Minor` a client must send | served | 1.0 | yes |
//! | `1.1` | 1.1 | served (same major) | 1.1 | no |
//! | `2.0` | 2.0 | refused | 2.0 | no |
//! | `latest`, `1.x`, `one` | not a version | refused | error | no |
//!
//! What a client sends is always `Major.Minor` ([`ProtocolVersion`]'s `Display`, section 14.2.1).

use std::fmt;
use std::str::FromStr;

use super::A2A_VERSION_HEADER;
use super::pep440::Pep440;

/// A protocol version as A2A negotiates it: major and minor only (section 3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtocolVersion {
    /// The major version.
    pub major: u32,
    /// The minor version.
    pub minor: u32,
}

impl ProtocolVersion {
    /// A2A 0.1, the first public version (`tasks/send`, `sessionId`), which had no `A2A-Version`.
    pub const V0_1: ProtocolVersion = ProtocolVersion { major: 0, minor: 1 };
    /// A2A 0.3, what an absent `A2A-Version` means.
    pub const V0_3: ProtocolVersion = ProtocolVersion { major: 0, minor: 3 };
    /// A2A 1.0, the version of these types.
    pub const V1_0: ProtocolVersion = ProtocolVersion { major: 1, minor: 0 };

    /// Reads the `A2A-Version` parameter by the one rule of this module: absent or empty (after
    /// trimming whitespace) is 0.3; anything else as [`FromStr`] reads it.
    pub fn from_header(value: Option<&str>) -> Result<Self, VersionError> {
        match value.map(str::trim) {
            None | Some("") => Ok(ProtocolVersion::V0_3),
            Some(value) => value.parse(),
        }
    }

    /// Whether a request asking for `other` is served with the semantics of `self`: equal major and
    /// minor (section 3.6.2; patch numbers are never part of a [`ProtocolVersion`]).
    pub fn is_compatible_with(self, other: ProtocolVersion) -> bool {
        self == other
    }
}

impl FromStr for ProtocolVersion {
    type Err = VersionError;

    /// Reads a version as the SDK does (PEP 440) and keeps its major and minor: `1.0`, `1.0.1`, `1`,
    /// `v1.0` and `1.0rc1` are all 1.0. Empty text is an error here (only an absent or empty header
    /// means 0.3, [`ProtocolVersion::from_header`]).
    fn from_str(text: &str) -> Result<Self, VersionError> {
        let error = || VersionError {
            value: text.to_owned(),
        };
        let version = Pep440::parse(text).ok_or_else(error)?;
        Ok(ProtocolVersion {
            major: u32::try_from(version.major()).map_err(|_| error())?,
            minor: u32::try_from(version.minor()).map_err(|_| error())?,
        })
    }
}

impl fmt::Display for ProtocolVersion {
    /// `major.minor`, the form to send (section 14.2.1).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// An `A2A-Version` value that is not a version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionError {
    /// The value received.
    pub value: String,
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{A2A_VERSION_HEADER} {:?} is not a version such as 1.0",
            self.value
        )
    }
}

impl std::error::Error for VersionError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case of the module's table, and a few more of each kind.
    #[test]
    fn the_one_rule_reads_each_case() {
        let v = |major, minor| Ok(ProtocolVersion { major, minor });
        let cases: [(Option<&str>, Result<ProtocolVersion, ()>); 22] = [
            (None, v(0, 3)),
            (Some(""), v(0, 3)),
            (Some("   "), v(0, 3)),
            (Some("0.3"), v(0, 3)),
            (Some("0.3.0"), v(0, 3)),
            (Some("0.2"), v(0, 2)),
            (Some("1.0"), v(1, 0)),
            (Some(" 1.0 "), v(1, 0)),
            (Some("1.0.3"), v(1, 0)),
            (Some("1"), v(1, 0)),
            (Some("v1.0"), v(1, 0)),
            (Some("1.0rc1"), v(1, 0)),
            (Some("1.0.post1"), v(1, 0)),
            (Some("1.1"), v(1, 1)),
            (Some("2.0"), v(2, 0)),
            (Some("12.34"), v(12, 34)),
            (Some("latest"), Err(())),
            (Some("1.x"), Err(())),
            (Some("1..0"), Err(())),
            (Some("one.zero"), Err(())),
            (Some("1.0."), Err(())),
            (Some("99999999999.0"), Err(())),
        ];
        for (header, expected) in cases {
            let read = ProtocolVersion::from_header(header);
            assert_eq!(read.clone().map_err(|_| ()), expected, "{header:?}");
            if let Err(error) = read {
                assert_eq!(Some(error.value.as_str()), header.map(str::trim));
                assert!(error.to_string().contains("A2A-Version"), "{error}");
            }
        }
    }

    /// Which of the table's values a 1.0 server serves: major and minor must match.
    #[test]
    fn a_server_serves_its_own_major_and_minor() {
        let served = |header| {
            ProtocolVersion::from_header(header)
                .is_ok_and(|asked| ProtocolVersion::V1_0.is_compatible_with(asked))
        };
        for header in ["1.0", "1.0.3", "1", "v1.0", "1.0rc1", " 1.0 "] {
            assert!(served(Some(header)), "{header:?}");
        }
        for header in [
            None,
            Some(""),
            Some("0.3"),
            Some("1.1"),
            Some("2.0"),
            Some("latest"),
        ] {
            assert!(!served(header), "{header:?}");
        }
        assert!(
            ProtocolVersion::V0_3.is_compatible_with(ProtocolVersion::from_header(None).unwrap())
        );
        assert!(!ProtocolVersion::V0_3.is_compatible_with("0.2".parse().unwrap()));
    }

    #[test]
    fn versions_are_written_major_dot_minor_and_ordered() {
        assert_eq!(ProtocolVersion::V1_0.to_string(), "1.0");
        assert_eq!(ProtocolVersion::V0_3.to_string(), "0.3");
        assert_eq!(
            "1.0.7".parse::<ProtocolVersion>().unwrap().to_string(),
            "1.0"
        );
        assert!("".parse::<ProtocolVersion>().is_err());
        assert!(ProtocolVersion::V0_3 < ProtocolVersion::V1_0);
    }
}
