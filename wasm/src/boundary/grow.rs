//! The module's allocator: the standard one (dlmalloc), growing the wasm memory in steps of a
//! fraction of its size instead of the few pages each allocation that runs out asks for.
//!
//! Why: every `memory.grow` gives JS a new `ArrayBuffer` over the whole memory, and V8 counts
//! its whole length as newly allocated external memory; past a few tens of MiB each grow then
//! costs a garbage collection of the JS heap. Grown a page at a time, a registry of 100,000 skills
//! grows the memory thousands of times and spends most of its discovery in those collections;
//! grown by an eighth of its size at a time (at most 8 MiB), it grows a few dozen times. The
//! memory is then at most that step larger than what the allocator has handed out (wasm memory
//! never shrinks).
//!
//! How: after an allocation, when the memory has grown since the last one, one block of that
//! fraction is allocated and freed at once. dlmalloc takes it from the new end of its top
//! chunk (growing the memory once for all of it) and merges it back into the top chunk when it
//! is freed; wasm memory cannot be returned, so it stays there for the allocations that follow.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One wasm page.
const PAGE: usize = 64 * 1024;
/// The least step worth taking (below it the memory is small and a grow cheap).
const MIN_STEP: usize = 1024 * 1024;
/// Each step adds the memory's size divided by this.
const STEP_DIVISOR: usize = 8;
/// The largest step: a large memory is not grown by tens of MiB it may never use (from 64 MiB
/// on a step is 8 MiB, and the memory at most that much larger than the allocator's need).
const MAX_STEP: usize = 8 * 1024 * 1024;

/// The standard allocator, growing the memory in steps (see the module docs).
pub struct Stepped;

/// The memory's size in pages after the last allocation.
static SEEN_PAGES: AtomicUsize = AtomicUsize::new(0);

fn pages() -> usize {
    core::arch::wasm32::memory_size(0)
}

/// When the memory has grown since the last allocation: reserves the next step at once.
fn after_allocation() {
    let now = pages();
    if now == SEEN_PAGES.load(Ordering::Relaxed) {
        return;
    }
    take_and_free((now.saturating_mul(PAGE) / STEP_DIVISOR).clamp(MIN_STEP, MAX_STEP));
}

/// Allocates one block of `bytes` and frees it at once: the memory grows once for all of it, and
/// the block goes back to the allocator's top chunk for the allocations that follow.
fn take_and_free(bytes: usize) {
    if let Ok(layout) = Layout::from_size_align(bytes, 16) {
        // SAFETY: a non-zero layout (every caller asks for at least one byte); the block is freed
        // with the same layout and never read.
        unsafe {
            let block = System.alloc(layout);
            if !block.is_null() {
                System.dealloc(block, layout);
            }
        }
    }
    SEEN_PAGES.store(pages(), Ordering::Relaxed);
}

/// Makes room for `bytes` more at once, ahead of work whose size is known before it starts (a
/// snapshot being decoded): one grow of the memory, one JS garbage collection, instead of one
/// per step the work would take it through. What the work does not use stays free.
pub fn reserve(bytes: usize) {
    if bytes > 0 {
        take_and_free(bytes);
    }
}

// SAFETY: every call is the standard allocator's; the step only adds an allocation and its free.
unsafe impl GlobalAlloc for Stepped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, passed on as it came.
        let p = unsafe { System.alloc(layout) };
        after_allocation();
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        after_allocation();
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` (through this allocator) with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` (through this allocator) with `layout`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        after_allocation();
        p
    }
}

#[global_allocator]
static ALLOCATOR: Stepped = Stepped;
