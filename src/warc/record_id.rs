//! `WARC-Record-ID` values: `<urn:uuid:...>` with a version 4 (random)
//! UUID ([RFC 9562](https://www.rfc-editor.org/rfc/rfc9562#name-uuid-version-4)),
//! as Common Crawl, warcio and Heritrix write them.
//!
//! A record id must be unique across every archive, so the ids of a run
//! start from 128 bits of the system's random source (`getrandom`); each
//! next id is the SplitMix64 finalizer over a 64-bit Weyl sequence, one
//! per half, which gives distinct values for 2^64 ids of one source and
//! makes two sources collide only as two random UUIDs would. A source can
//! also start from a caller's seed, so that a test or a reproducible
//! build writes the same ids every time.

/// Where record ids come from (see the module docs).
///
/// ```
/// use htmltok::warc::RecordIds;
///
/// let mut ids = RecordIds::seeded(7);
/// let id = ids.next_id();
/// assert!(id.starts_with("<urn:uuid:") && id.ends_with('>'));
/// assert_eq!(&id[24..25], "4"); // version 4
/// assert_eq!(RecordIds::seeded(7).next_id(), id); // same seed, same ids
/// assert_ne!(ids.next_id(), id);
/// ```
#[derive(Clone, Debug)]
pub struct RecordIds {
    state: [u64; 2],
}

/// The Weyl sequence's step: 2^64 divided by the golden ratio, odd, so
/// that 2^64 steps visit every value once.
const STEP: u64 = 0x9E37_79B9_7F4A_7C15;

impl RecordIds {
    /// Ids from the system's random source. Falls back to the time and
    /// the process id, mixed, if the system has no random source to give.
    pub fn random() -> RecordIds {
        let mut seed = [0u8; 16];
        if getrandom::fill(&mut seed).is_err() {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            seed[..8].copy_from_slice(&(now.as_nanos() as u64).to_le_bytes());
            seed[8..].copy_from_slice(&u64::from(std::process::id()).to_le_bytes());
        }
        let half = |i: usize| u64::from_le_bytes(seed[i..i + 8].try_into().unwrap_or_default());
        RecordIds {
            state: [half(0), mix(half(8))],
        }
    }

    /// Ids that are the same for the same `seed`: for tests and
    /// reproducible output. Two runs with one seed write the same ids, so
    /// give each output its own.
    pub fn seeded(seed: u64) -> RecordIds {
        RecordIds {
            state: [seed, mix(seed ^ 0x5851_F42D_4C95_7F2D)],
        }
    }

    /// The next UUID, as 16 bytes with the version and variant bits set.
    pub fn next_uuid(&mut self) -> [u8; 16] {
        self.state[0] = self.state[0].wrapping_add(STEP);
        self.state[1] = self.state[1].wrapping_add(STEP);
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&mix(self.state[0]).to_be_bytes());
        bytes[8..].copy_from_slice(&mix(self.state[1]).to_be_bytes());
        bytes[6] = (bytes[6] & 0x0F) | 0x40; // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80; // the RFC 9562 variant
        bytes
    }

    /// The next record id: `<urn:uuid:xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx>`.
    pub fn next_id(&mut self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let uuid = self.next_uuid();
        let mut id = String::with_capacity(47);
        id.push_str("<urn:uuid:");
        for (i, byte) in uuid.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                id.push('-');
            }
            id.push(HEX[usize::from(byte >> 4)] as char);
            id.push(HEX[usize::from(byte & 0xF)] as char);
        }
        id.push('>');
        id
    }
}

/// SplitMix64's finalizer: a bijection of `u64` that mixes every bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_version_4_uuids_and_distinct() {
        let mut ids = RecordIds::random();
        let mut seen = HashSet::new();
        for _ in 0..10_000 {
            let id = ids.next_id();
            assert_eq!(id.len(), 47);
            let uuid = &id[10..46];
            let groups: Vec<usize> = uuid.split('-').map(str::len).collect();
            assert_eq!(groups, [8, 4, 4, 4, 12], "{id}");
            assert!(uuid.bytes().all(|b| b == b'-' || b.is_ascii_hexdigit()));
            assert_eq!(&uuid[14..15], "4");
            assert!(matches!(&uuid[19..20], "8" | "9" | "a" | "b"), "{id}");
            assert!(seen.insert(id));
        }
        // Two random sources do not start alike.
        assert_ne!(RecordIds::random().next_id(), RecordIds::random().next_id());
    }

    #[test]
    fn a_seed_gives_the_same_ids() {
        let a: Vec<String> = (0..5)
            .scan(RecordIds::seeded(42), |s, _| Some(s.next_id()))
            .collect();
        let b: Vec<String> = (0..5)
            .scan(RecordIds::seeded(42), |s, _| Some(s.next_id()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(RecordIds::seeded(43).next_id(), a[0]);
    }
}
