//! IP address classes: which addresses are not public unicast, by the IANA special-purpose
//! registries, and the rule that refuses each (the part of push URL screening that knows no URL).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The class of a non-public IP address: which rule refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AddressClass {
    /// `127.0.0.0/8`, `::1` (and the names `localhost`, `*.localhost`). Permitted by
    /// [`PushUrlPolicy::allow_loopback`](super::PushUrlPolicy::allow_loopback).
    Loopback,
    /// `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, `fc00::/7`, `fec0::/10` (deprecated
    /// site-local), `64:ff9b:1::/48` (local-use NAT64). Permitted by
    /// [`PushUrlPolicy::allow_private`](super::PushUrlPolicy::allow_private).
    Private,
    /// `100.64.0.0/10`, the shared address space of RFC 6598 (carrier-grade NAT). Permitted by
    /// [`PushUrlPolicy::allow_private`](super::PushUrlPolicy::allow_private).
    SharedAddressSpace,
    /// `169.254.0.0/16` (cloud metadata services live at 169.254.169.254), `fe80::/10`. Never
    /// permitted.
    LinkLocal,
    /// `0.0.0.0/8` ("this network"; Linux connects `0.0.0.0` to the local host), `::`. Never
    /// permitted.
    Unspecified,
    /// `224.0.0.0/4`, `ff00::/8`. Never permitted.
    Multicast,
    /// `255.255.255.255`. Never permitted.
    Broadcast,
    /// `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`, `2001:db8::/32`, `3fff::/20`. Never
    /// permitted.
    Documentation,
    /// The other special-purpose ranges: `192.0.0.0/24`, `192.88.99.0/24`, `198.18.0.0/15`,
    /// `240.0.0.0/4`; `::/96` (IPv4-compatible, deprecated), `100::/64`, `2001::/23` (IETF
    /// protocol assignments, Teredo and benchmarking among them), and all of IPv6 outside
    /// `2000::/3` not named above. Never permitted.
    Reserved,
}

impl AddressClass {
    /// The policy flag that permits this class, if one does.
    pub fn flag(self) -> Option<&'static str> {
        match self {
            AddressClass::Loopback => Some("allow_loopback"),
            AddressClass::Private | AddressClass::SharedAddressSpace => Some("allow_private"),
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::SharedAddressSpace => "shared (carrier-grade NAT)",
            AddressClass::LinkLocal => "link-local",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Documentation => "documentation",
            AddressClass::Reserved => "reserved",
        }
    }
}

/// An address a [`PushUrlPolicy`](super::PushUrlPolicy) refuses, and the rule that refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefusedAddress {
    /// The address as written in the URL or as resolved.
    pub addr: IpAddr,
    /// The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64, 6to4), when that is what
    /// was judged.
    pub embedded_ipv4: Option<Ipv4Addr>,
    /// The class of the address.
    pub class: AddressClass,
    /// The range it falls in, as the IANA special-purpose registries write it (`127.0.0.0/8`).
    pub range: &'static str,
}

impl fmt::Display for RefusedAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.addr)?;
        if let Some(v4) = self.embedded_ipv4 {
            write!(f, " (carrying the IPv4 address {v4})")?;
        }
        write!(f, ", a {} address ({})", self.class.describe(), self.range)?;
        match self.class.flag() {
            Some(flag) => write!(f, "; set PushUrlPolicy::{flag} to permit it"),
            None => write!(f, "; never permitted"),
        }
    }
}

/// The rule that makes `addr` non-public, or `None` for a public unicast address.
pub(crate) fn classify(addr: IpAddr) -> Option<RefusedAddress> {
    match addr {
        IpAddr::V4(v4) => classify_v4(v4).map(|(class, range)| RefusedAddress {
            addr,
            embedded_ipv4: None,
            class,
            range,
        }),
        IpAddr::V6(v6) => {
            if let Some(v4) = embedded_ipv4(v6) {
                return classify_v4(v4).map(|(class, range)| RefusedAddress {
                    addr,
                    embedded_ipv4: Some(v4),
                    class,
                    range,
                });
            }
            classify_v6(v6).map(|(class, range)| RefusedAddress {
                addr,
                embedded_ipv4: None,
                class,
                range,
            })
        }
    }
}

fn in_v4(addr: Ipv4Addr, net: [u8; 4], prefix: u32) -> bool {
    let mask = if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - prefix)
    };
    u32::from(addr) & mask == u32::from(Ipv4Addr::from(net)) & mask
}

fn in_v6(addr: Ipv6Addr, net: [u16; 8], prefix: u32) -> bool {
    let mask = if prefix == 0 {
        0
    } else {
        u128::MAX << (128 - prefix)
    };
    u128::from(addr) & mask == u128::from(Ipv6Addr::from(net)) & mask
}

/// IPv4 special-purpose ranges (IANA registry), most specific first.
const V4_RULES: &[([u8; 4], u32, AddressClass, &str)] = &[
    ([0, 0, 0, 0], 8, AddressClass::Unspecified, "0.0.0.0/8"),
    ([127, 0, 0, 0], 8, AddressClass::Loopback, "127.0.0.0/8"),
    ([10, 0, 0, 0], 8, AddressClass::Private, "10.0.0.0/8"),
    ([172, 16, 0, 0], 12, AddressClass::Private, "172.16.0.0/12"),
    (
        [192, 168, 0, 0],
        16,
        AddressClass::Private,
        "192.168.0.0/16",
    ),
    (
        [100, 64, 0, 0],
        10,
        AddressClass::SharedAddressSpace,
        "100.64.0.0/10",
    ),
    (
        [169, 254, 0, 0],
        16,
        AddressClass::LinkLocal,
        "169.254.0.0/16",
    ),
    ([192, 0, 0, 0], 24, AddressClass::Reserved, "192.0.0.0/24"),
    (
        [192, 0, 2, 0],
        24,
        AddressClass::Documentation,
        "192.0.2.0/24",
    ),
    (
        [198, 51, 100, 0],
        24,
        AddressClass::Documentation,
        "198.51.100.0/24",
    ),
    (
        [203, 0, 113, 0],
        24,
        AddressClass::Documentation,
        "203.0.113.0/24",
    ),
    (
        [192, 88, 99, 0],
        24,
        AddressClass::Reserved,
        "192.88.99.0/24",
    ),
    ([198, 18, 0, 0], 15, AddressClass::Reserved, "198.18.0.0/15"),
    ([224, 0, 0, 0], 4, AddressClass::Multicast, "224.0.0.0/4"),
    (
        [255, 255, 255, 255],
        32,
        AddressClass::Broadcast,
        "255.255.255.255/32",
    ),
    ([240, 0, 0, 0], 4, AddressClass::Reserved, "240.0.0.0/4"),
];

fn classify_v4(addr: Ipv4Addr) -> Option<(AddressClass, &'static str)> {
    V4_RULES
        .iter()
        .find(|(net, prefix, _, _)| in_v4(addr, *net, *prefix))
        .map(|&(_, _, class, range)| (class, range))
}

/// IPv6 special-purpose ranges, most specific first (the forms carrying an IPv4 address are
/// handled before these).
const V6_RULES: &[([u16; 8], u32, AddressClass, &str)] = &[
    ([0; 8], 128, AddressClass::Unspecified, "::/128"),
    (
        [0, 0, 0, 0, 0, 0, 0, 1],
        128,
        AddressClass::Loopback,
        "::1/128",
    ),
    (
        [0; 8],
        96,
        AddressClass::Reserved,
        "::/96 (IPv4-compatible, deprecated)",
    ),
    (
        [0x64, 0xff9b, 1, 0, 0, 0, 0, 0],
        48,
        AddressClass::Private,
        "64:ff9b:1::/48",
    ),
    (
        [0x100, 0, 0, 0, 0, 0, 0, 0],
        64,
        AddressClass::Reserved,
        "100::/64",
    ),
    (
        [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
        32,
        AddressClass::Documentation,
        "2001:db8::/32",
    ),
    (
        [0x3fff, 0, 0, 0, 0, 0, 0, 0],
        20,
        AddressClass::Documentation,
        "3fff::/20",
    ),
    (
        [0x2001, 0, 0, 0, 0, 0, 0, 0],
        23,
        AddressClass::Reserved,
        "2001::/23",
    ),
    (
        [0xfc00, 0, 0, 0, 0, 0, 0, 0],
        7,
        AddressClass::Private,
        "fc00::/7",
    ),
    (
        [0xfe80, 0, 0, 0, 0, 0, 0, 0],
        10,
        AddressClass::LinkLocal,
        "fe80::/10",
    ),
    (
        [0xfec0, 0, 0, 0, 0, 0, 0, 0],
        10,
        AddressClass::Private,
        "fec0::/10 (site-local, deprecated)",
    ),
    (
        [0xff00, 0, 0, 0, 0, 0, 0, 0],
        8,
        AddressClass::Multicast,
        "ff00::/8",
    ),
];

fn classify_v6(addr: Ipv6Addr) -> Option<(AddressClass, &'static str)> {
    if let Some(&(_, _, class, range)) = V6_RULES
        .iter()
        .find(|(net, prefix, _, _)| in_v6(addr, *net, *prefix))
    {
        return Some((class, range));
    }
    // Global unicast is 2000::/3; the rest of the space is unassigned or special.
    if !in_v6(addr, [0x2000, 0, 0, 0, 0, 0, 0, 0], 3) {
        return Some((
            AddressClass::Reserved,
            "outside 2000::/3 (not global unicast)",
        ));
    }
    None
}

/// The IPv4 address an IPv6 address stands for: IPv4-mapped (`::ffff:0:0/96`), NAT64's
/// well-known prefix (`64:ff9b::/96`), and 6to4 (`2002::/16`, the IPv4 address in bits 16..48).
fn embedded_ipv4(addr: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = addr.segments();
    let low =
        |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if let Some(v4) = addr.to_ipv4_mapped() {
        return Some(v4);
    }
    if in_v6(addr, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96) {
        return Some(low(s[6], s[7]));
    }
    if s[0] == 0x2002 {
        return Some(low(s[1], s[2]));
    }
    None
}
