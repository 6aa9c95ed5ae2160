//! Connections counted per client ([`ClientSlots`]): an IPv4 address, or an IPv6 /64 (what one
//! subscriber is usually given, so one client cannot take a fresh address per connection), with
//! IPv4-mapped IPv6 addresses counted as the IPv4 address they carry.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// Open connections per client, each client capped.
#[derive(Debug)]
pub(crate) struct ClientSlots {
    cap: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl ClientSlots {
    pub(crate) fn new(cap: usize) -> Arc<Self> {
        Arc::new(ClientSlots {
            cap,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for one more connection from `ip`, or `None` when its client has `cap` open.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Option<ClientSlot> {
        let client = client_of(ip);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(client).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(ClientSlot {
            slots: self.clone(),
            client,
        })
    }

    #[cfg(test)]
    fn clients(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// One open connection of a client; dropping it frees the slot.
#[derive(Debug)]
pub(crate) struct ClientSlot {
    slots: Arc<ClientSlots>,
    client: IpAddr,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self
            .slots
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// The key a connection from `ip` is counted under.
pub(crate) fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(network.into())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn a_client_gets_its_cap_and_no_more_and_others_are_not_affected() {
        let slots = ClientSlots::new(2);
        let first = slots.take(ip("192.0.2.1")).expect("first");
        let _second = slots.take(ip("192.0.2.1")).expect("second");
        assert!(slots.take(ip("192.0.2.1")).is_none(), "over the cap");
        assert!(slots.take(ip("192.0.2.2")).is_some(), "another client");
        drop(first);
        assert!(slots.take(ip("192.0.2.1")).is_some(), "a slot came back");
    }

    #[test]
    fn an_ipv6_slash_64_is_one_client_and_mapped_ipv4_is_its_ipv4_address() {
        let slots = ClientSlots::new(1);
        let _held = slots.take(ip("2001:db8:1:2::1")).expect("first");
        assert!(slots.take(ip("2001:db8:1:2:ffff::9")).is_none(), "same /64");
        assert!(slots.take(ip("2001:db8:1:3::1")).is_some(), "another /64");
        let _v4 = slots.take(ip("198.51.100.7")).expect("IPv4");
        assert!(slots.take(ip("::ffff:198.51.100.7")).is_none(), "mapped");
    }

    #[test]
    fn a_client_with_no_connection_left_is_forgotten() {
        let slots = ClientSlots::new(4);
        let held = slots.take(ip("192.0.2.1")).expect("taken");
        assert_eq!(slots.clients(), 1);
        drop(held);
        assert_eq!(slots.clients(), 0);
    }
}
