//! Push URL screening: which webhook URLs an agent agrees to POST to.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;

use url::{Host, Url};

use super::address::classify;
pub use super::address::{AddressClass, RefusedAddress};

/// Which webhook URLs an agent agrees to POST to.
///
/// The default (every flag `false`) accepts only `https` URLs whose host is a public address, or
/// a name that resolves only to public addresses. Each flag widens it by one class:
///
/// | flag | permits |
/// |---|---|
/// | `allow_loopback` | `127.0.0.0/8`, `::1`, and the names `localhost` and `*.localhost` |
/// | `allow_private` | `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, `fc00::/7`, `fec0::/10`, `64:ff9b:1::/48`, and the shared address space `100.64.0.0/10` (RFC 6598, carrier-grade NAT, some cluster networks) |
/// | `allow_http` | plain `http` besides `https` |
///
/// Never permitted, whatever the flags: link-local addresses (`169.254.0.0/16`, where cloud
/// metadata services answer, and `fe80::/10`), unspecified (`0.0.0.0/8`, `::`), multicast,
/// broadcast, documentation ranges, the other reserved ranges (see [`AddressClass`]), a scheme
/// other than `http`/`https`, and a URL with a user name or password in it. An IPv6 address that
/// carries an IPv4 address (`::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`)
/// is judged as that IPv4 address.
///
/// ```
/// use a2a_agent::push::{AddressClass, PushUrlError, PushUrlPolicy};
///
/// let strict = PushUrlPolicy::default();
/// assert!(strict.screen("https://hooks.example.com/a2a").is_ok());
/// assert_eq!(strict.screen("http://hooks.example.com/a2a"), Err(PushUrlError::InsecureScheme));
/// match strict.screen("https://169.254.169.254/latest/meta-data") {
///     Err(PushUrlError::Address { refused }) => assert_eq!(refused.class, AddressClass::LinkLocal),
///     other => panic!("{other:?}"),
/// }
///
/// // What a local test setup (the A2A TCK's webhook, say) needs:
/// let local = PushUrlPolicy { allow_loopback: true, allow_private: true, allow_http: true };
/// assert!(local.screen("http://localhost:9000/webhook").is_ok());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PushUrlPolicy {
    /// Permit loopback addresses and the `localhost` names.
    pub allow_loopback: bool,
    /// Permit private addresses and the shared address space (see the table above).
    pub allow_private: bool,
    /// Permit plain `http` URLs (the notification and its credentials then travel unencrypted).
    pub allow_http: bool,
}

/// Why a push URL was refused. Each variant names the rule; none carries the URL's credentials.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PushUrlError {
    /// The URL does not parse (WHATWG URL rules, as the `url` crate applies them).
    Unparseable {
        /// What the parser said.
        reason: String,
    },
    /// The scheme is neither `https` nor `http`.
    UnsupportedScheme {
        /// The scheme, lowercased.
        scheme: String,
    },
    /// The scheme is `http` and [`PushUrlPolicy::allow_http`] is off.
    InsecureScheme,
    /// The URL carries a user name or a password (`https://user:secret@host/`): credentials
    /// belong in the config's `authentication`, never in a URL that ends up in logs.
    Userinfo,
    /// The URL has no host.
    NoHost,
    /// The host is `localhost` or a name under `.localhost` (RFC 6761: always the local host)
    /// and [`PushUrlPolicy::allow_loopback`] is off.
    LocalhostName {
        /// The host as written (lowercased).
        host: String,
    },
    /// The host is an IP literal the policy refuses.
    Address {
        /// The address and the rule that refuses it.
        refused: RefusedAddress,
    },
    /// The host is a name that resolves to an address the policy refuses (among others, maybe:
    /// one refused address refuses the name).
    ResolvesTo {
        /// The host name (lowercased).
        host: String,
        /// The first address refused, and the rule that refuses it.
        refused: RefusedAddress,
    },
    /// The host name did not resolve (failed, or gave no address). Refused: a URL that cannot be
    /// checked is not used.
    Unresolvable {
        /// The host name.
        host: String,
        /// What the resolver said.
        reason: String,
    },
}

impl fmt::Display for PushUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushUrlError::Unparseable { reason } => write!(f, "the push URL does not parse: {reason}"),
            PushUrlError::UnsupportedScheme { scheme } => write!(
                f,
                "the push URL's scheme `{scheme}` is not https or http"
            ),
            PushUrlError::InsecureScheme => write!(
                f,
                "the push URL is plain http; set PushUrlPolicy::allow_http to permit it"
            ),
            PushUrlError::Userinfo => write!(
                f,
                "the push URL carries a user name or password; put credentials in the config's `authentication`"
            ),
            PushUrlError::NoHost => write!(f, "the push URL has no host"),
            PushUrlError::LocalhostName { host } => write!(
                f,
                "the push URL's host `{host}` is a loopback name; set PushUrlPolicy::allow_loopback to permit it"
            ),
            PushUrlError::Address { refused } => write!(f, "the push URL's host is {refused}"),
            PushUrlError::ResolvesTo { host, refused } => {
                write!(f, "the push URL's host `{host}` resolves to {refused}")
            }
            PushUrlError::Unresolvable { host, reason } => {
                write!(f, "the push URL's host `{host}` does not resolve: {reason}")
            }
        }
    }
}

impl std::error::Error for PushUrlError {}

/// A URL that passed [`PushUrlPolicy::resolve_and_screen`], with the addresses it was checked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreenedUrl {
    /// The parsed URL.
    pub url: Url,
    /// Every address the host resolved to (or the literal address), with the URL's port; all of
    /// them passed the policy.
    pub addrs: Vec<SocketAddr>,
}

/// The future a [`PushResolver`] returns.
pub type Lookup = Pin<Box<dyn Future<Output = io::Result<Vec<IpAddr>>> + Send + 'static>>;

/// Resolves a host name to addresses for screening and connecting.
///
/// [`SystemResolver`] (the operating system's resolver, through `tokio::net::lookup_host`) is
/// the default; implement this to use another DNS client, or a fixed table in tests. Whatever it
/// returns is screened, and a [`PushSender`](super::PushSender) connects only to what it
/// returned.
pub trait PushResolver: Send + Sync + 'static {
    /// Every address `host` (a name, never an IP literal) resolves to.
    fn lookup(&self, host: &str) -> Lookup;
}

/// The operating system's resolver (`getaddrinfo`, through `tokio::net::lookup_host`).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemResolver;

impl PushResolver for SystemResolver {
    fn lookup(&self, host: &str) -> Lookup {
        let host = host.to_owned();
        Box::pin(async move {
            let addrs = tokio::net::lookup_host((host.as_str(), 0)).await?;
            Ok(addrs.map(|addr| addr.ip()).collect())
        })
    }
}

// Here rather than beside the classes: the classes know no policy.
impl AddressClass {
    /// Whether `policy` permits addresses of this class.
    pub fn allowed_by(self, policy: &PushUrlPolicy) -> bool {
        match self {
            AddressClass::Loopback => policy.allow_loopback,
            AddressClass::Private | AddressClass::SharedAddressSpace => policy.allow_private,
            _ => false,
        }
    }
}

impl PushUrlPolicy {
    /// Checks a push URL without resolving its host: the scheme, userinfo, the `localhost`
    /// names, and the host when it is an IP literal (in any form the WHATWG parser accepts:
    /// `http://2130706433/` and `http://0x7f.1/` are 127.0.0.1). A host name passes here and is
    /// checked on resolution ([`resolve_and_screen`](Self::resolve_and_screen), and again by
    /// [`PushSender`](super::PushSender) when it connects).
    pub fn screen(&self, url: &str) -> Result<Url, PushUrlError> {
        let parsed = Url::parse(url.trim()).map_err(|e| PushUrlError::Unparseable {
            reason: e.to_string(),
        })?;
        match parsed.scheme() {
            "https" => {}
            "http" if self.allow_http => {}
            "http" => return Err(PushUrlError::InsecureScheme),
            other => {
                return Err(PushUrlError::UnsupportedScheme {
                    scheme: other.to_owned(),
                })
            }
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(PushUrlError::Userinfo);
        }
        match parsed.host() {
            None => return Err(PushUrlError::NoHost),
            Some(Host::Domain(name)) => self.screen_name(name)?,
            Some(Host::Ipv4(ip)) => self.screen_literal(IpAddr::V4(ip))?,
            Some(Host::Ipv6(ip)) => self.screen_literal(IpAddr::V6(ip))?,
        }
        Ok(parsed)
    }

    /// [`screen`](Self::screen), then resolves a host name with the system resolver and refuses
    /// the URL when any address it resolves to is refused (a name with one public and one
    /// private address is refused), or when it does not resolve.
    ///
    /// Use it when a config is registered, to refuse a bad URL early. It is not enough on its
    /// own: a name can resolve to something else at delivery (DNS rebinding), which is why
    /// [`PushSender`](super::PushSender) screens again when it connects.
    pub async fn resolve_and_screen(&self, url: &str) -> Result<ScreenedUrl, PushUrlError> {
        self.resolve_and_screen_with(url, &SystemResolver).await
    }

    /// [`resolve_and_screen`](Self::resolve_and_screen) with another resolver.
    pub async fn resolve_and_screen_with(
        &self,
        url: &str,
        resolver: &dyn PushResolver,
    ) -> Result<ScreenedUrl, PushUrlError> {
        let url = self.screen(url)?;
        let port = url.port_or_known_default().unwrap_or(443);
        let ips = match url.host() {
            Some(Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
            Some(Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
            Some(Host::Domain(name)) => {
                let name = name.to_owned();
                self.resolve_name(&name, resolver).await?
            }
            None => return Err(PushUrlError::NoHost),
        };
        let addrs = ips
            .into_iter()
            .map(|ip| SocketAddr::new(ip, port))
            .collect();
        Ok(ScreenedUrl { url, addrs })
    }

    /// Checks one address: `Ok` when the policy permits it, else the rule that refuses it.
    ///
    /// ```
    /// use a2a_agent::push::{AddressClass, PushUrlPolicy};
    ///
    /// let policy = PushUrlPolicy::default();
    /// assert!(policy.screen_ip("8.8.8.8".parse().unwrap()).is_ok());
    /// let refused = policy.screen_ip("::ffff:10.0.0.1".parse().unwrap()).unwrap_err();
    /// assert_eq!((refused.class, refused.range), (AddressClass::Private, "10.0.0.0/8"));
    /// ```
    pub fn screen_ip(&self, addr: IpAddr) -> Result<(), RefusedAddress> {
        match classify(addr) {
            Some(refused) if !refused.class.allowed_by(self) => Err(refused),
            _ => Ok(()),
        }
    }

    /// The name rule: `localhost` and `*.localhost` are loopback (RFC 6761 §6.3).
    pub(crate) fn screen_name(&self, name: &str) -> Result<(), PushUrlError> {
        let lower = name.trim_end_matches('.').to_ascii_lowercase();
        if !self.allow_loopback && (lower == "localhost" || lower.ends_with(".localhost")) {
            return Err(PushUrlError::LocalhostName {
                host: name.to_ascii_lowercase(),
            });
        }
        Ok(())
    }

    fn screen_literal(&self, ip: IpAddr) -> Result<(), PushUrlError> {
        self.screen_ip(ip)
            .map_err(|refused| PushUrlError::Address { refused })
    }

    /// Resolves a name and screens every address; what the sender's connector uses too.
    pub(crate) async fn resolve_name(
        &self,
        name: &str,
        resolver: &dyn PushResolver,
    ) -> Result<Vec<IpAddr>, PushUrlError> {
        self.screen_name(name)?;
        let ips = resolver
            .lookup(name)
            .await
            .map_err(|e| PushUrlError::Unresolvable {
                host: name.to_owned(),
                reason: e.to_string(),
            })?;
        if ips.is_empty() {
            return Err(PushUrlError::Unresolvable {
                host: name.to_owned(),
                reason: "no addresses".to_owned(),
            });
        }
        for &ip in &ips {
            self.screen_ip(ip)
                .map_err(|refused| PushUrlError::ResolvesTo {
                    host: name.to_owned(),
                    refused,
                })?;
        }
        Ok(ips)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: PushUrlPolicy = PushUrlPolicy {
        allow_loopback: false,
        allow_private: false,
        allow_http: false,
    };
    const OPEN: PushUrlPolicy = PushUrlPolicy {
        allow_loopback: true,
        allow_private: true,
        allow_http: true,
    };

    /// Every rule, with addresses on both sides of its edges: (address, class or None for public).
    const ADDRESSES: &[(&str, Option<AddressClass>, &str)] = &[
        // Public IPv4, including the neighbours of every refused range.
        ("8.8.8.8", None, ""),
        ("1.1.1.1", None, ""),
        ("1.0.0.0", None, ""),
        ("9.255.255.255", None, ""),
        ("11.0.0.0", None, ""),
        ("100.63.255.255", None, ""),
        ("100.128.0.0", None, ""),
        ("126.255.255.255", None, ""),
        ("128.0.0.0", None, ""),
        ("169.253.255.255", None, ""),
        ("169.255.0.0", None, ""),
        ("172.15.255.255", None, ""),
        ("172.32.0.0", None, ""),
        ("192.0.1.0", None, ""),
        ("192.0.3.0", None, ""),
        ("192.167.255.255", None, ""),
        ("192.169.0.0", None, ""),
        ("198.17.255.255", None, ""),
        ("198.20.0.0", None, ""),
        ("223.255.255.255", None, ""),
        // Refused IPv4.
        ("0.0.0.0", Some(AddressClass::Unspecified), "0.0.0.0/8"),
        ("0.1.2.3", Some(AddressClass::Unspecified), "0.0.0.0/8"),
        ("127.0.0.1", Some(AddressClass::Loopback), "127.0.0.0/8"),
        (
            "127.255.255.254",
            Some(AddressClass::Loopback),
            "127.0.0.0/8",
        ),
        ("10.0.0.1", Some(AddressClass::Private), "10.0.0.0/8"),
        ("10.255.255.255", Some(AddressClass::Private), "10.0.0.0/8"),
        ("172.16.0.1", Some(AddressClass::Private), "172.16.0.0/12"),
        (
            "172.31.255.255",
            Some(AddressClass::Private),
            "172.16.0.0/12",
        ),
        ("192.168.1.1", Some(AddressClass::Private), "192.168.0.0/16"),
        (
            "100.64.0.1",
            Some(AddressClass::SharedAddressSpace),
            "100.64.0.0/10",
        ),
        (
            "100.127.255.255",
            Some(AddressClass::SharedAddressSpace),
            "100.64.0.0/10",
        ),
        (
            "169.254.169.254",
            Some(AddressClass::LinkLocal),
            "169.254.0.0/16",
        ),
        ("192.0.0.8", Some(AddressClass::Reserved), "192.0.0.0/24"),
        (
            "192.0.2.1",
            Some(AddressClass::Documentation),
            "192.0.2.0/24",
        ),
        (
            "198.51.100.7",
            Some(AddressClass::Documentation),
            "198.51.100.0/24",
        ),
        (
            "203.0.113.255",
            Some(AddressClass::Documentation),
            "203.0.113.0/24",
        ),
        (
            "192.88.99.1",
            Some(AddressClass::Reserved),
            "192.88.99.0/24",
        ),
        ("198.18.0.1", Some(AddressClass::Reserved), "198.18.0.0/15"),
        (
            "198.19.255.255",
            Some(AddressClass::Reserved),
            "198.18.0.0/15",
        ),
        ("224.0.0.1", Some(AddressClass::Multicast), "224.0.0.0/4"),
        (
            "239.255.255.250",
            Some(AddressClass::Multicast),
            "224.0.0.0/4",
        ),
        ("240.0.0.1", Some(AddressClass::Reserved), "240.0.0.0/4"),
        (
            "255.255.255.254",
            Some(AddressClass::Reserved),
            "240.0.0.0/4",
        ),
        (
            "255.255.255.255",
            Some(AddressClass::Broadcast),
            "255.255.255.255/32",
        ),
        // Public IPv6.
        ("2606:4700:4700::1111", None, ""),
        ("2001:4860:4860::8888", None, ""),
        ("2001:200::1", None, ""),
        ("2001:db7:ffff::1", None, ""),
        ("2001:db9::1", None, ""),
        ("3ffe::1", None, ""),
        ("3fff:1000::1", None, ""),
        ("2002:808:808::1", None, ""),
        ("64:ff9b::808:808", None, ""),
        ("::ffff:8.8.8.8", None, ""),
        // Refused IPv6.
        ("::", Some(AddressClass::Unspecified), "::/128"),
        ("::1", Some(AddressClass::Loopback), "::1/128"),
        (
            "::7f00:1",
            Some(AddressClass::Reserved),
            "::/96 (IPv4-compatible, deprecated)",
        ),
        (
            "::2",
            Some(AddressClass::Reserved),
            "::/96 (IPv4-compatible, deprecated)",
        ),
        ("fc00::1", Some(AddressClass::Private), "fc00::/7"),
        ("fd12:3456::1", Some(AddressClass::Private), "fc00::/7"),
        (
            "fec0::1",
            Some(AddressClass::Private),
            "fec0::/10 (site-local, deprecated)",
        ),
        (
            "64:ff9b:1::1",
            Some(AddressClass::Private),
            "64:ff9b:1::/48",
        ),
        ("fe80::1", Some(AddressClass::LinkLocal), "fe80::/10"),
        ("febf:ffff::1", Some(AddressClass::LinkLocal), "fe80::/10"),
        ("ff02::1", Some(AddressClass::Multicast), "ff00::/8"),
        (
            "2001:db8::1",
            Some(AddressClass::Documentation),
            "2001:db8::/32",
        ),
        ("3fff::1", Some(AddressClass::Documentation), "3fff::/20"),
        ("100::1", Some(AddressClass::Reserved), "100::/64"),
        ("2001::1", Some(AddressClass::Reserved), "2001::/23"),
        ("2001:2::1", Some(AddressClass::Reserved), "2001::/23"),
        (
            "4000::1",
            Some(AddressClass::Reserved),
            "outside 2000::/3 (not global unicast)",
        ),
        (
            "1fff::1",
            Some(AddressClass::Reserved),
            "outside 2000::/3 (not global unicast)",
        ),
        // IPv6 forms carrying an IPv4 address are judged as that address.
        (
            "::ffff:127.0.0.1",
            Some(AddressClass::Loopback),
            "127.0.0.0/8",
        ),
        ("::ffff:10.1.2.3", Some(AddressClass::Private), "10.0.0.0/8"),
        (
            "::ffff:169.254.169.254",
            Some(AddressClass::LinkLocal),
            "169.254.0.0/16",
        ),
        (
            "::ffff:0.0.0.0",
            Some(AddressClass::Unspecified),
            "0.0.0.0/8",
        ),
        (
            "::ffff:100.64.0.1",
            Some(AddressClass::SharedAddressSpace),
            "100.64.0.0/10",
        ),
        (
            "::ffff:255.255.255.255",
            Some(AddressClass::Broadcast),
            "255.255.255.255/32",
        ),
        (
            "64:ff9b::7f00:1",
            Some(AddressClass::Loopback),
            "127.0.0.0/8",
        ),
        (
            "64:ff9b::a9fe:a9fe",
            Some(AddressClass::LinkLocal),
            "169.254.0.0/16",
        ),
        (
            "2002:c0a8:101::1",
            Some(AddressClass::Private),
            "192.168.0.0/16",
        ),
        ("2002:7f00:1::", Some(AddressClass::Loopback), "127.0.0.0/8"),
    ];

    #[test]
    fn every_address_rule_classifies_both_sides_of_its_edges() {
        for &(text, class, range) in ADDRESSES {
            let addr: IpAddr = text.parse().unwrap();
            let got = classify(addr);
            assert_eq!(got.map(|r| r.class), class, "{text}");
            if let Some(refused) = got {
                assert_eq!(refused.range, range, "{text}");
                assert_eq!(refused.addr, addr, "{text}");
            }
        }
    }

    #[test]
    fn the_flags_permit_exactly_their_classes() {
        let loopback = PushUrlPolicy {
            allow_loopback: true,
            ..STRICT
        };
        let private = PushUrlPolicy {
            allow_private: true,
            ..STRICT
        };
        for &(text, class, _) in ADDRESSES {
            let addr: IpAddr = text.parse().unwrap();
            let public = class.is_none();
            assert_eq!(STRICT.screen_ip(addr).is_ok(), public, "{text} strict");
            assert_eq!(
                loopback.screen_ip(addr).is_ok(),
                public || class == Some(AddressClass::Loopback),
                "{text} allow_loopback"
            );
            assert_eq!(
                private.screen_ip(addr).is_ok(),
                public
                    || matches!(
                        class,
                        Some(AddressClass::Private | AddressClass::SharedAddressSpace)
                    ),
                "{text} allow_private"
            );
            let never = matches!(
                class,
                Some(
                    AddressClass::LinkLocal
                        | AddressClass::Unspecified
                        | AddressClass::Multicast
                        | AddressClass::Broadcast
                        | AddressClass::Documentation
                        | AddressClass::Reserved
                )
            );
            assert_eq!(OPEN.screen_ip(addr).is_ok(), !never, "{text} every flag");
        }
    }

    #[test]
    fn every_literal_address_rule_applies_to_urls() {
        for &(text, class, _) in ADDRESSES {
            let addr: IpAddr = text.parse().unwrap();
            let host = match addr {
                IpAddr::V4(_) => text.to_owned(),
                IpAddr::V6(_) => format!("[{text}]"),
            };
            let url = format!("https://{host}:8443/hook");
            match (STRICT.screen(&url), class) {
                (Ok(_), None) => {}
                (Err(PushUrlError::Address { refused, .. }), Some(class)) => {
                    assert_eq!(refused.class, class, "{url}")
                }
                (other, _) => panic!("{url}: {other:?}"),
            }
        }
    }

    fn rule(result: Result<Url, PushUrlError>) -> String {
        match result {
            Ok(_) => "ok".to_owned(),
            Err(PushUrlError::Unparseable { .. }) => "unparseable".to_owned(),
            Err(PushUrlError::UnsupportedScheme { scheme }) => format!("scheme {scheme}"),
            Err(PushUrlError::InsecureScheme) => "http".to_owned(),
            Err(PushUrlError::Userinfo) => "userinfo".to_owned(),
            Err(PushUrlError::NoHost) => "no host".to_owned(),
            Err(PushUrlError::LocalhostName { .. }) => "localhost".to_owned(),
            Err(PushUrlError::Address { refused }) => format!("{:?}", refused.class),
            Err(PushUrlError::ResolvesTo { .. }) => "resolves to".to_owned(),
            Err(PushUrlError::Unresolvable { .. }) => "unresolvable".to_owned(),
        }
    }

    #[test]
    fn url_rules_strict_and_with_each_flag() {
        let http = PushUrlPolicy {
            allow_http: true,
            ..STRICT
        };
        let loopback = PushUrlPolicy {
            allow_loopback: true,
            ..STRICT
        };
        // (url, strict, allow_http, allow_loopback, every flag)
        let cases: &[(&str, &str, &str, &str, &str)] = &[
            ("https://hooks.example.com/a2a?x=1", "ok", "ok", "ok", "ok"),
            ("HTTPS://Hooks.Example.COM/a2a", "ok", "ok", "ok", "ok"),
            ("https://93.184.216.34/", "ok", "ok", "ok", "ok"),
            ("  https://hooks.example.com/  ", "ok", "ok", "ok", "ok"),
            ("http://hooks.example.com/", "http", "ok", "http", "ok"),
            (
                "ftp://hooks.example.com/",
                "scheme ftp",
                "scheme ftp",
                "scheme ftp",
                "scheme ftp",
            ),
            (
                "file:///etc/passwd",
                "scheme file",
                "scheme file",
                "scheme file",
                "scheme file",
            ),
            (
                "gopher://127.0.0.1/",
                "scheme gopher",
                "scheme gopher",
                "scheme gopher",
                "scheme gopher",
            ),
            (
                "ws://hooks.example.com/",
                "scheme ws",
                "scheme ws",
                "scheme ws",
                "scheme ws",
            ),
            (
                "not a url",
                "unparseable",
                "unparseable",
                "unparseable",
                "unparseable",
            ),
            (
                "https://",
                "unparseable",
                "unparseable",
                "unparseable",
                "unparseable",
            ),
            (
                "https://[::1",
                "unparseable",
                "unparseable",
                "unparseable",
                "unparseable",
            ),
            (
                "https://user:pw@hooks.example.com/",
                "userinfo",
                "userinfo",
                "userinfo",
                "userinfo",
            ),
            (
                "https://user@hooks.example.com/",
                "userinfo",
                "userinfo",
                "userinfo",
                "userinfo",
            ),
            (
                "https://:pw@hooks.example.com/",
                "userinfo",
                "userinfo",
                "userinfo",
                "userinfo",
            ),
            ("https://localhost/", "localhost", "localhost", "ok", "ok"),
            ("https://LOCALHOST./", "localhost", "localhost", "ok", "ok"),
            (
                "https://api.localhost:8080/",
                "localhost",
                "localhost",
                "ok",
                "ok",
            ),
            ("https://localhost.example.com/", "ok", "ok", "ok", "ok"),
            ("https://notlocalhost/", "ok", "ok", "ok", "ok"),
            (
                "http://localhost:9000/webhook",
                "http",
                "localhost",
                "http",
                "ok",
            ),
            ("https://127.0.0.1/", "Loopback", "Loopback", "ok", "ok"),
            ("https://[::1]:8443/", "Loopback", "Loopback", "ok", "ok"),
            (
                "https://[::ffff:127.0.0.1]/",
                "Loopback",
                "Loopback",
                "ok",
                "ok",
            ),
            (
                "https://[::ffff:7f00:1]/",
                "Loopback",
                "Loopback",
                "ok",
                "ok",
            ),
            // Every IPv4 form the WHATWG parser accepts reads as the same address.
            ("https://2130706433/", "Loopback", "Loopback", "ok", "ok"),
            ("https://0x7f.1/", "Loopback", "Loopback", "ok", "ok"),
            ("https://0177.0.0.1/", "Loopback", "Loopback", "ok", "ok"),
            ("https://127.1/", "Loopback", "Loopback", "ok", "ok"),
            ("https://127.0.0.1./", "Loopback", "Loopback", "ok", "ok"),
            (
                "https://0/",
                "Unspecified",
                "Unspecified",
                "Unspecified",
                "Unspecified",
            ),
            (
                "https://0.0.0.0:80/",
                "Unspecified",
                "Unspecified",
                "Unspecified",
                "Unspecified",
            ),
            (
                "https://[::]/",
                "Unspecified",
                "Unspecified",
                "Unspecified",
                "Unspecified",
            ),
            ("https://10.0.0.5/", "Private", "Private", "Private", "ok"),
            ("https://[fd00::5]/", "Private", "Private", "Private", "ok"),
            (
                "https://100.100.100.100/",
                "SharedAddressSpace",
                "SharedAddressSpace",
                "SharedAddressSpace",
                "ok",
            ),
            (
                "https://169.254.169.254/",
                "LinkLocal",
                "LinkLocal",
                "LinkLocal",
                "LinkLocal",
            ),
            (
                "https://[fe80::1]/",
                "LinkLocal",
                "LinkLocal",
                "LinkLocal",
                "LinkLocal",
            ),
            (
                "https://[::ffff:169.254.169.254]/",
                "LinkLocal",
                "LinkLocal",
                "LinkLocal",
                "LinkLocal",
            ),
            (
                "https://224.0.0.251/",
                "Multicast",
                "Multicast",
                "Multicast",
                "Multicast",
            ),
            (
                "https://255.255.255.255/",
                "Broadcast",
                "Broadcast",
                "Broadcast",
                "Broadcast",
            ),
            (
                "https://192.0.2.10/",
                "Documentation",
                "Documentation",
                "Documentation",
                "Documentation",
            ),
            (
                "https://[2001:db8::10]/",
                "Documentation",
                "Documentation",
                "Documentation",
                "Documentation",
            ),
        ];
        for &(url, strict, with_http, with_loopback, open) in cases {
            assert_eq!(rule(STRICT.screen(url)), strict, "{url} strict");
            assert_eq!(rule(http.screen(url)), with_http, "{url} allow_http");
            assert_eq!(
                rule(loopback.screen(url)),
                with_loopback,
                "{url} allow_loopback"
            );
            assert_eq!(rule(OPEN.screen(url)), open, "{url} every flag");
        }
    }

    #[test]
    fn errors_name_the_rule_and_the_address() {
        let e = STRICT.screen("https://[::ffff:127.0.0.1]/").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the push URL's host is ::ffff:127.0.0.1 (carrying the IPv4 address 127.0.0.1), a \
             loopback address (127.0.0.0/8); set PushUrlPolicy::allow_loopback to permit it"
        );
        let e = STRICT.screen("https://169.254.169.254/").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the push URL's host is 169.254.169.254, a link-local address (169.254.0.0/16); never permitted"
        );
        let e = STRICT
            .screen("https://user:hunter2@example.com/")
            .unwrap_err();
        assert!(!e.to_string().contains("hunter2"), "{e}");
        assert_eq!(
            STRICT
                .screen("http://example.com/")
                .unwrap_err()
                .to_string(),
            "the push URL is plain http; set PushUrlPolicy::allow_http to permit it"
        );
    }

    struct Table(Vec<IpAddr>);

    impl PushResolver for Table {
        fn lookup(&self, _host: &str) -> Lookup {
            let ips = self.0.clone();
            Box::pin(async move { Ok(ips) })
        }
    }

    struct Failing;

    impl PushResolver for Failing {
        fn lookup(&self, _host: &str) -> Lookup {
            Box::pin(async { Err(io::Error::new(io::ErrorKind::NotFound, "NXDOMAIN")) })
        }
    }

    fn ips(list: &[&str]) -> Table {
        Table(list.iter().map(|s| s.parse().unwrap()).collect())
    }

    #[tokio::test]
    async fn resolution_refuses_when_any_address_is_refused() {
        let url = "https://hooks.example.com:8443/a2a";
        let ok = STRICT
            .resolve_and_screen_with(url, &ips(&["93.184.216.34", "2606:2800:220:1::1"]))
            .await
            .unwrap();
        assert_eq!(
            ok.addrs,
            vec![
                "93.184.216.34:8443".parse::<SocketAddr>().unwrap(),
                "[2606:2800:220:1::1]:8443".parse().unwrap()
            ]
        );
        let e = STRICT
            .resolve_and_screen_with(url, &ips(&["93.184.216.34", "10.0.0.7"]))
            .await
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the push URL's host `hooks.example.com` resolves to 10.0.0.7, a private address \
             (10.0.0.0/8); set PushUrlPolicy::allow_private to permit it"
        );
        let e = STRICT
            .resolve_and_screen_with(url, &ips(&["::ffff:169.254.169.254"]))
            .await
            .unwrap_err();
        assert!(
            matches!(e, PushUrlError::ResolvesTo { refused, .. } if refused.class == AddressClass::LinkLocal)
        );
        let private = PushUrlPolicy {
            allow_private: true,
            ..STRICT
        };
        assert!(private
            .resolve_and_screen_with(url, &ips(&["93.184.216.34", "10.0.0.7"]))
            .await
            .is_ok());
    }

    #[tokio::test]
    async fn a_name_that_does_not_resolve_is_refused() {
        let url = "https://hooks.example.com/";
        let e = STRICT
            .resolve_and_screen_with(url, &Failing)
            .await
            .unwrap_err();
        assert!(
            matches!(&e, PushUrlError::Unresolvable { host, .. } if host == "hooks.example.com"),
            "{e:?}"
        );
        let e = STRICT
            .resolve_and_screen_with(url, &ips(&[]))
            .await
            .unwrap_err();
        assert!(
            matches!(&e, PushUrlError::Unresolvable { reason, .. } if reason == "no addresses"),
            "{e:?}"
        );
    }

    #[tokio::test]
    async fn literals_are_not_resolved_and_keep_their_port() {
        let ok = STRICT
            .resolve_and_screen_with("https://93.184.216.34/x", &Failing)
            .await
            .unwrap();
        assert_eq!(
            ok.addrs,
            vec!["93.184.216.34:443".parse::<SocketAddr>().unwrap()]
        );
        let http = PushUrlPolicy {
            allow_http: true,
            ..STRICT
        };
        let ok = http
            .resolve_and_screen_with("http://[2606:4700::1]/x", &Failing)
            .await
            .unwrap();
        assert_eq!(
            ok.addrs,
            vec!["[2606:4700::1]:80".parse::<SocketAddr>().unwrap()]
        );
    }

    #[tokio::test]
    async fn the_system_resolver_screens_localhost() {
        let loopback = PushUrlPolicy {
            allow_loopback: true,
            allow_http: true,
            ..STRICT
        };
        let ok = loopback
            .resolve_and_screen("http://localhost:9/")
            .await
            .unwrap();
        assert!(
            ok.addrs
                .iter()
                .all(|a| a.ip().is_loopback() && a.port() == 9),
            "{ok:?}"
        );
        assert!(matches!(
            STRICT.resolve_and_screen("https://localhost/").await,
            Err(PushUrlError::LocalhostName { .. })
        ));
    }
}
