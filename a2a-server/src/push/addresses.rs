//! Which IP addresses a webhook may point at: the IANA special-purpose address registries (IPv4 and
//! IPv6) as tables, and every IPv6 form that carries an IPv4 address unwrapped first, so that
//! `[::ffff:10.0.0.1]`, `[::10.0.0.1]`, `[64:ff9b::a9fe:a9fe]` or `[2002:a9fe:a9fe::]` are judged as
//! the private or metadata IPv4 address they lead to.
//!
//! The rule is conservative: a range the registries mark as not globally reachable is refused
//! whole, even where a few addresses inside it are (anycast services in `192.0.0.0/24` and
//! `2001::/23`, which no webhook needs), and an IPv6 address outside global unicast (`2000::/3`) is
//! refused unless it embeds an IPv4 address that is itself public.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What an address is, for the webhook guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AddressKind {
    /// Reachable on the public internet.
    Public,
    /// This host (`127.0.0.0/8`, `::1`, or an IPv6 form of a loopback IPv4 address).
    Loopback,
    /// Not globally reachable: the registry range it falls in.
    Internal(&'static str),
}

/// IPv4 ranges that are not globally reachable: the IANA IPv4 special-purpose address registry
/// (entries whose "globally reachable" is false or not applicable), multicast and broadcast.
const IPV4_INTERNAL: &[(Ipv4Addr, u8, &str)] = &[
    (
        Ipv4Addr::new(0, 0, 0, 0),
        8,
        "0.0.0.0/8, this network (RFC 791)",
    ),
    (
        Ipv4Addr::new(10, 0, 0, 0),
        8,
        "10.0.0.0/8, private use (RFC 1918)",
    ),
    (
        Ipv4Addr::new(100, 64, 0, 0),
        10,
        "100.64.0.0/10, shared address space (RFC 6598)",
    ),
    (
        Ipv4Addr::new(169, 254, 0, 0),
        16,
        "169.254.0.0/16, link local (RFC 3927)",
    ),
    (
        Ipv4Addr::new(172, 16, 0, 0),
        12,
        "172.16.0.0/12, private use (RFC 1918)",
    ),
    (
        Ipv4Addr::new(192, 0, 0, 0),
        24,
        "192.0.0.0/24, IETF protocol assignments (RFC 6890)",
    ),
    (
        Ipv4Addr::new(192, 0, 2, 0),
        24,
        "192.0.2.0/24, documentation (RFC 5737)",
    ),
    (
        Ipv4Addr::new(192, 88, 99, 0),
        24,
        "192.88.99.0/24, deprecated 6to4 relay anycast (RFC 7526)",
    ),
    (
        Ipv4Addr::new(192, 168, 0, 0),
        16,
        "192.168.0.0/16, private use (RFC 1918)",
    ),
    (
        Ipv4Addr::new(198, 18, 0, 0),
        15,
        "198.18.0.0/15, benchmarking (RFC 2544)",
    ),
    (
        Ipv4Addr::new(198, 51, 100, 0),
        24,
        "198.51.100.0/24, documentation (RFC 5737)",
    ),
    (
        Ipv4Addr::new(203, 0, 113, 0),
        24,
        "203.0.113.0/24, documentation (RFC 5737)",
    ),
    (
        Ipv4Addr::new(224, 0, 0, 0),
        4,
        "224.0.0.0/4, multicast (RFC 5771)",
    ),
    (
        Ipv4Addr::new(240, 0, 0, 0),
        4,
        "240.0.0.0/4, reserved (RFC 1112), and the broadcast address",
    ),
];

/// IPv6 ranges that are not globally reachable, from the IANA IPv6 special-purpose address
/// registry, plus multicast and the deprecated site-local range. The forms that carry an IPv4
/// address are unwrapped before this table is read (see [`embedded_ipv4`]).
const IPV6_INTERNAL: &[(Ipv6Addr, u8, &str)] = &[
    (
        Ipv6Addr::UNSPECIFIED,
        128,
        "::/128, the unspecified address (RFC 4291)",
    ),
    (
        Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0),
        48,
        "64:ff9b:1::/48, local-use IPv4/IPv6 translation (RFC 8215)",
    ),
    (
        Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0),
        64,
        "100::/64, discard-only (RFC 6666)",
    ),
    (
        Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
        23,
        "2001::/23, IETF protocol assignments, Teredo among them (RFC 2928, RFC 4380)",
    ),
    (
        Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0),
        32,
        "2001:db8::/32, documentation (RFC 3849)",
    ),
    (
        Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0),
        20,
        "3fff::/20, documentation (RFC 9637)",
    ),
    (
        Ipv6Addr::new(0x5f00, 0, 0, 0, 0, 0, 0, 0),
        16,
        "5f00::/16, segment routing SIDs (RFC 9602)",
    ),
    (
        Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0),
        7,
        "fc00::/7, unique local (RFC 4193)",
    ),
    (
        Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0),
        10,
        "fe80::/10, link local (RFC 4291)",
    ),
    (
        Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0),
        10,
        "fec0::/10, deprecated site local (RFC 3879)",
    ),
    (
        Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0),
        8,
        "ff00::/8, multicast (RFC 4291)",
    ),
];

/// Classifies an address, after unwrapping any IPv4 address an IPv6 form carries.
pub(crate) fn classify(ip: IpAddr) -> AddressKind {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => match embedded_ipv4(v6) {
            Some(v4) => classify_v4(v4),
            None => classify_v6(v6),
        },
    }
}

fn classify_v4(ip: Ipv4Addr) -> AddressKind {
    if ip.is_loopback() {
        return AddressKind::Loopback;
    }
    let bits = u32::from(ip);
    IPV4_INTERNAL
        .iter()
        .find(|(network, prefix, _)| {
            in_prefix(
                u128::from(bits),
                u128::from(u32::from(*network)),
                *prefix,
                32,
            )
        })
        .map_or(AddressKind::Public, |(_, _, name)| {
            AddressKind::Internal(name)
        })
}

fn classify_v6(ip: Ipv6Addr) -> AddressKind {
    if ip == Ipv6Addr::LOCALHOST {
        return AddressKind::Loopback;
    }
    let bits = u128::from(ip);
    if let Some((_, _, name)) = IPV6_INTERNAL
        .iter()
        .find(|(network, prefix, _)| in_prefix(bits, u128::from(*network), *prefix, 128))
    {
        return AddressKind::Internal(name);
    }
    // Only global unicast (2000::/3) reaches the internet; the rest is reserved by IANA.
    if bits >> 125 != 0b001 {
        return AddressKind::Internal("outside 2000::/3, not IPv6 global unicast (RFC 4291)");
    }
    AddressKind::Public
}

/// Whether the first `prefix` bits of the `width`-bit address `bits` are those of `network` (a
/// prefix of 0 matches every address).
fn in_prefix(bits: u128, network: u128, prefix: u8, width: u32) -> bool {
    let shift = width - u32::from(prefix).min(width);
    bits.checked_shr(shift).unwrap_or(0) == network.checked_shr(shift).unwrap_or(0)
}

/// The IPv4 address an IPv6 address stands for, in each form that carries one: IPv4-mapped
/// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated), IPv4-translated (SIIT,
/// `::ffff:0:a.b.c.d`), the well-known NAT64 prefix (`64:ff9b::a.b.c.d`) and 6to4
/// (`2002:aabb:ccdd::`). Teredo (`2001::/32`) obscures its address and is refused as a whole.
pub(crate) fn embedded_ipv4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(ip);
    let low = Ipv4Addr::from(bits as u32);
    let segments = ip.segments();
    match segments {
        // `::` and `::1` are the unspecified and loopback addresses, not IPv4-compatible ones.
        [0, 0, 0, 0, 0, 0, 0, 0 | 1] => None,
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0, 0, 0, 0, 0, 0, _, _] => Some(low),
        [0, 0, 0, 0, 0xffff, 0, _, _] => Some(low),
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(low),
        [0x2002, high, low_half, ..] => Some(Ipv4Addr::from(
            (u32::from(high) << 16) | u32::from(low_half),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> AddressKind {
        classify(text.parse().unwrap())
    }

    /// Every range of both tables refuses its first and last address; the addresses either side of
    /// a range are judged by what they are.
    #[test]
    fn every_registry_range_is_internal_from_first_to_last_address() {
        for (network, prefix, name) in IPV4_INTERNAL {
            let first = u32::from(*network);
            let last = first | u32::MAX.checked_shr(u32::from(*prefix)).unwrap_or(0);
            for bits in [first, last] {
                let ip = IpAddr::V4(Ipv4Addr::from(bits));
                assert_eq!(classify(ip), AddressKind::Internal(name), "{ip}");
            }
        }
        for (network, prefix, name) in IPV6_INTERNAL {
            let first = u128::from(*network);
            let last = first | u128::MAX.checked_shr(u32::from(*prefix)).unwrap_or(0);
            for bits in [first, last] {
                let ip = Ipv6Addr::from(bits);
                if embedded_ipv4(ip).is_none() {
                    assert_eq!(
                        classify(IpAddr::V6(ip)),
                        AddressKind::Internal(name),
                        "{ip}"
                    );
                }
            }
        }
        assert_eq!(kind("9.255.255.255"), AddressKind::Public);
        assert_eq!(kind("11.0.0.0"), AddressKind::Public);
        assert_eq!(kind("100.63.255.255"), AddressKind::Public);
        assert_eq!(kind("100.128.0.0"), AddressKind::Public);
        assert_eq!(kind("2001:200::1"), AddressKind::Public);
    }

    /// The IPv6 spellings of private and metadata IPv4 addresses that slipped through the guard's
    /// first version, and their public counterparts, which stay allowed.
    #[test]
    fn ipv6_forms_of_ipv4_addresses_are_judged_as_that_ipv4_address() {
        for (text, expected) in [
            ("::10.0.0.1", "10.0.0.0/8"),
            ("::169.254.169.254", "169.254.0.0/16"),
            ("::ffff:10.0.0.1", "10.0.0.0/8"),
            ("::ffff:169.254.169.254", "169.254.0.0/16"),
            ("::ffff:0:a00:1", "10.0.0.0/8"),
            ("64:ff9b::a9fe:a9fe", "169.254.0.0/16"),
            ("64:ff9b::c0a8:1", "192.168.0.0/16"),
            ("64:ff9b:1::a00:1", "64:ff9b:1::/48"),
            ("2002:a9fe:a9fe::", "169.254.0.0/16"),
            ("2002:a00:1::1", "10.0.0.0/8"),
            ("2001::1", "2001::/23"),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::/23"),
            ("100::1", "100::/64"),
            ("fd00::1", "fc00::/7"),
            ("fe80::1", "fe80::/10"),
            ("ff02::1", "ff00::/8"),
            ("::", "::/128"),
            ("::2:0:0:1", "outside 2000::/3"),
        ] {
            match kind(text) {
                AddressKind::Internal(name) => {
                    assert!(name.starts_with(expected), "{text}: {name}")
                }
                other => panic!("{text} is {other:?}, not {expected}"),
            }
        }
        for loopback in [
            "127.0.0.1",
            "127.255.0.9",
            "::1",
            "::ffff:127.0.0.1",
            "::127.0.0.1",
            "64:ff9b::7f00:1",
            "2002:7f00:1::",
        ] {
            assert_eq!(kind(loopback), AddressKind::Loopback, "{loopback}");
        }
        for public in [
            "93.184.216.34",
            "::ffff:93.184.216.34",
            "64:ff9b::5db8:d822",
            "2002:5db8:d822::1",
            "2606:2800:220:1:248:1893:25c8:1946",
        ] {
            assert_eq!(kind(public), AddressKind::Public, "{public}");
        }
    }
}
