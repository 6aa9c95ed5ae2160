//! PEP 440 versions, as the official Python SDK reads `A2A-Version` values and the protocol versions
//! of agent cards (through `packaging.version.Version`): our own reader of the public version scheme,
//! with the spellings `packaging` normalizes, and its ordering.

use std::cmp::Ordering;

/// A PEP 440 version (what the SDK reads and compares protocol versions with, through `packaging`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pep440 {
    epoch: u64,
    release: Vec<u64>,
    pre: Option<(u8, u64)>,
    post: Option<u64>,
    dev: Option<u64>,
    local: bool,
}

impl Pep440 {
    /// Parses a version as `packaging.version.Version` does (case-insensitive, with the spellings it
    /// normalizes); `None` where it raises `InvalidVersion`.
    pub fn parse(text: &str) -> Option<Self> {
        let lower = text.trim().to_ascii_lowercase();
        let mut rest = lower.strip_prefix('v').unwrap_or(&lower);
        let mut version = Pep440 {
            epoch: 0,
            release: Vec::new(),
            pre: None,
            post: None,
            dev: None,
            local: false,
        };
        if let Some((epoch, after)) = rest.split_once('!') {
            version.epoch = digits(epoch)?;
            rest = after;
        }
        if let Some((main, local)) = rest.split_once('+') {
            let valid = !local.is_empty()
                && local
                    .split(['.', '-', '_'])
                    .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric()));
            if !valid {
                return None;
            }
            version.local = true;
            rest = main;
        }
        let release_end = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_digit()
                    || (c == '.' && rest[i + 1..].starts_with(|n: char| n.is_ascii_digit())))
            })
            .map_or(rest.len(), |(i, _)| i);
        for part in rest[..release_end].split('.') {
            version.release.push(digits(part)?);
        }
        let mut rest = &rest[release_end..];
        // Pre-release: a, b, rc (and alpha, beta, c, pre, preview).
        let pre_kinds: [(&str, u8); 8] = [
            ("alpha", 0),
            ("beta", 1),
            ("preview", 2),
            ("pre", 2),
            ("rc", 2),
            ("a", 0),
            ("b", 1),
            ("c", 2),
        ];
        let try_label = |rest: &str, labels: &[(&str, u8)]| -> Option<(u8, u64, usize)> {
            let sep = usize::from(rest.starts_with(['.', '-', '_']));
            let body = &rest[sep..];
            let (label, kind) = labels.iter().find(|(l, _)| body.starts_with(l))?;
            let after = &body[label.len()..];
            let sep2 = usize::from(after.starts_with(['.', '-', '_']));
            let number_len = after[sep2..].bytes().take_while(u8::is_ascii_digit).count();
            let (number, used) = if number_len == 0 {
                (0, 0)
            } else {
                (digits(&after[sep2..sep2 + number_len])?, sep2 + number_len)
            };
            Some((*kind, number, sep + label.len() + used))
        };
        if let Some((kind, number, used)) = try_label(rest, &pre_kinds) {
            version.pre = Some((kind, number));
            rest = &rest[used..];
        }
        if let Some(number) = rest.strip_prefix('-').and_then(|n| {
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits(n))
                .flatten()
        }) {
            version.post = Some(number);
            rest = "";
        } else if let Some((_, number, used)) =
            try_label(rest, &[("post", 0), ("rev", 0), ("r", 0)])
        {
            version.post = Some(number);
            rest = &rest[used..];
        }
        if let Some((_, number, used)) = try_label(rest, &[("dev", 0)]) {
            version.dev = Some(number);
            rest = &rest[used..];
        }
        rest.is_empty().then_some(version)
    }

    /// The release's first number, `Version.major`.
    pub(crate) fn major(&self) -> u64 {
        self.release.first().copied().unwrap_or(0)
    }

    /// The release's second number, `Version.minor` (0 when the release has one number).
    pub(crate) fn minor(&self) -> u64 {
        self.release.get(1).copied().unwrap_or(0)
    }

    fn key(&self) -> SortKey {
        let mut release = self.release.clone();
        while release.last() == Some(&0) {
            release.pop();
        }
        let pre = match (self.pre, self.post, self.dev) {
            (None, None, Some(_)) => (0, 0, 0),
            (Some((kind, n)), _, _) => (1, kind, n),
            (None, _, _) => (2, 0, 0),
        };
        let post = self.post.map_or((0, 0), |n| (1, n));
        let dev = self.dev.map_or((1, 0), |n| (0, n));
        (self.epoch, release, pre, post, dev, self.local)
    }
}

impl PartialOrd for Pep440 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pep440 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// Epoch, release without trailing zeros, pre-release, post-release, dev release, local label: the
/// order `packaging` sorts versions in.
type SortKey = (u64, Vec<u64>, (u8, u8, u64), (u8, u64), (u8, u64), bool);

fn digits(text: &str) -> Option<u64> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_orders_versions_as_packaging_does() {
        assert_eq!(Pep440::parse("1.2.3").unwrap().major(), 1);
        assert_eq!(Pep440::parse("1.2.3").unwrap().minor(), 2);
        assert_eq!(Pep440::parse("1").unwrap().minor(), 0);
        assert!(Pep440::parse("1.0-1").is_some());
        assert!(Pep440::parse("1..0").is_none());
        assert!(Pep440::parse("V1.0RC1").is_some());
        assert!(Pep440::parse("1!2.0").is_some_and(|v| v.major() == 2));
        assert!(Pep440::parse("1.0rc1") < Pep440::parse("1.0"));
        assert!(Pep440::parse("1.0") < Pep440::parse("1.0.post1"));
        assert!(Pep440::parse("1.0.dev1") < Pep440::parse("1.0rc1"));
        let (short, long) = (
            Pep440::parse("1.0").unwrap(),
            Pep440::parse("1.0.0").unwrap(),
        );
        assert_eq!(short.cmp(&long), Ordering::Equal);
    }
}
