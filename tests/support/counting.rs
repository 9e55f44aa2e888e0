//! A global allocator that counts the bytes on the heap and their peak,
//! for the tests that bound memory: each is a test binary of its own that
//! declares it (`#[global_allocator] static ALLOCATOR: Counting =
//! Counting;`), so that no other test's allocations count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting.
pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only
// counts the bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Starts measuring the peak from what is on the heap now; returns that,
/// for [`peak_since`].
pub fn measure_from_now() -> usize {
    let now = CURRENT.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// The most bytes on the heap since [`measure_from_now`] gave `baseline`,
/// above it.
pub fn peak_since(baseline: usize) -> usize {
    PEAK.load(Ordering::Relaxed) - baseline
}
