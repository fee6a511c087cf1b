//! Which TCP peers are proxies whose forwarded headers are believed (`--trusted-proxy`),
//! and the client address such a proxy reports.
use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

/// One address or a CIDR range: `10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpRange {
    network: IpAddr,
    prefix_len: u8,
}

impl IpRange {
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                prefix_matches(&net.octets(), &ip.octets(), self.prefix_len)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                prefix_matches(&net.octets(), &ip.octets(), self.prefix_len)
            }
            _ => false,
        }
    }
}

/// Whether the first `prefix_len` bits of `a` and `b` are equal.
fn prefix_matches(a: &[u8], b: &[u8], prefix_len: u8) -> bool {
    let full_bytes = usize::from(prefix_len / 8);
    let rest_bits = prefix_len % 8;
    if a[..full_bytes] != b[..full_bytes] {
        return false;
    }
    if rest_bits == 0 {
        return true;
    }
    let mask = 0xffu8 << (8 - rest_bits);
    a[full_bytes] & mask == b[full_bytes] & mask
}

impl FromStr for IpRange {
    type Err = String;

    fn from_str(text: &str) -> Result<IpRange, String> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr = address
            .parse::<IpAddr>()
            .map_err(|_| format!("`{text}` is not an IP address or a CIDR range"))?
            .to_canonical();
        let max_len = if network.is_ipv4() { 32 } else { 128 };
        let prefix_len = match prefix {
            None => max_len,
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|len| *len <= max_len)
                .ok_or_else(|| {
                    format!("`{text}`: the prefix length must be a number from 0 to {max_len}")
                })?,
        };
        Ok(IpRange {
            network,
            prefix_len,
        })
    }
}

impl fmt::Display for IpRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix_len)
    }
}

/// The proxies whose forwarded headers are believed; none by default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpRange>);

impl TrustedProxies {
    /// Parses `--trusted-proxy` values; each may itself be a comma-separated list.
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<TrustedProxies, String> {
        let mut ranges = Vec::new();
        for value in values {
            for item in value.as_ref().split(',').map(str::trim) {
                if !item.is_empty() {
                    ranges.push(item.parse()?);
                }
            }
        }
        Ok(TrustedProxies(ranges))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(ip))
    }

    /// The client behind `peer`. When the peer is a trusted proxy: the right-most address
    /// in `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the
    /// address it got the request from; what lies left of that was written by the client
    /// and proves nothing), or the left-most when all of them are trusted. Otherwise, and
    /// when the header is missing or unreadable, the peer itself.
    pub fn client_ip<'h>(
        &self,
        peer: IpAddr,
        forwarded_for: impl DoubleEndedIterator<Item = &'h str>,
    ) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.contains(peer) {
            return peer;
        }
        let mut client = peer;
        for hop in forwarded_for.rev() {
            let Some(hop) = parse_hop(hop) else {
                // Not an address: written by someone untrusted; the last trusted hop is
                // as near to the client as can be told.
                return client;
            };
            client = hop;
            if !self.contains(hop) {
                return hop;
            }
        }
        client
    }
}

/// One `X-Forwarded-For` entry: `203.0.113.7`, `2001:db8::1`, `[2001:db8::1]:4711` or
/// `203.0.113.7:4711`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
        .map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ranges_parse_and_match() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8, 192.168.1.7", "fd00::/8"]).unwrap();
        assert!(proxies.contains(ip("10.200.3.4")));
        assert!(proxies.contains(ip("192.168.1.7")));
        assert!(!proxies.contains(ip("192.168.1.8")));
        assert!(proxies.contains(ip("fd12::1")));
        assert!(!proxies.contains(ip("fe80::1")));
        // An IPv4 peer seen on an IPv6 socket.
        assert!(proxies.contains(ip("::ffff:10.1.2.3")));
        let odd = TrustedProxies::parse(&["172.16.0.0/12"]).unwrap();
        assert!(odd.contains(ip("172.31.255.255")));
        assert!(!odd.contains(ip("172.32.0.0")));
        assert!(
            TrustedProxies::parse(&["0.0.0.0/0"])
                .unwrap()
                .contains(ip("8.8.8.8"))
        );
        assert!(TrustedProxies::parse(&[""]).unwrap().is_empty());
        for bad in [
            "proxy.local",
            "10.0.0.0/33",
            "10.0.0.0/x",
            "::/129",
            "10.0.0",
        ] {
            let err = TrustedProxies::parse(&[bad]).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }

    #[test]
    fn the_client_is_the_right_most_untrusted_hop_behind_a_trusted_peer() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8"]).unwrap();
        let client = |peer: &str, hops: &[&str]| {
            proxies
                .client_ip(ip(peer), hops.iter().copied())
                .to_string()
        };
        // An untrusted peer is the client, whatever it writes.
        assert_eq!(client("203.0.113.9", &["1.2.3.4"]), "203.0.113.9");
        // Through two trusted proxies; the left-most entry was forged by the client.
        assert_eq!(
            client("10.0.0.1", &["6.6.6.6", "198.51.100.4", "10.0.0.2"]),
            "198.51.100.4"
        );
        assert_eq!(client("10.0.0.1", &[" [2001:db8::5]:4711 "]), "2001:db8::5");
        assert_eq!(client("10.0.0.1", &["198.51.100.4:4711"]), "198.51.100.4");
        // All hops trusted: the left-most. No header: the proxy itself.
        assert_eq!(client("10.0.0.1", &["10.0.0.3", "10.0.0.2"]), "10.0.0.3");
        assert_eq!(client("10.0.0.1", &[]), "10.0.0.1");
        // Garbage left by an untrusted writer stops the walk at the last trusted hop.
        assert_eq!(client("10.0.0.1", &["x", "10.0.0.2"]), "10.0.0.2");
        // Nobody is trusted by default.
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_ip(ip("10.0.0.1"), ["1.2.3.4"].into_iter())
                .to_string(),
            "10.0.0.1"
        );
    }
}
