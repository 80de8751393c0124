/// A timer scheduled on an ``EventLoop``, to cancel it.
public struct LoopTimer: Sendable, Hashable {
    fileprivate let slot: Int
    fileprivate let generation: UInt32
}

/// One loop's timers: a binary heap of deadlines over a table of slots, each slot knowing its
/// place in the heap. Cancelling takes the timer out of the heap at once (O(log n)), so a timer
/// set again and again (a daemon's next run, a connection's next deadline) leaves nothing
/// behind; a `LoopTimer` whose slot has moved on to another timer cancels nothing. A repeating
/// timer keeps its slot and its closure, so it allocates nothing after it is scheduled.
///
/// Touched on its loop's thread only (a plain struct inside the loop).
struct LoopTimers {
    private struct Slot {
        var generation: UInt32 = 0
        var body: (() -> Void)?
        var interval: Int64?
        var deadline: Int64 = 0
        /// Where the slot is in `heap`, while it is scheduled.
        var heapIndex: Int?
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Scheduled slots, soonest deadline first.
    private var heap: [Int] = []

    /// Calls `body` at `deadline` (the monotonic clock, in nanoseconds), then every `interval`.
    mutating func schedule(at deadline: Int64, repeating interval: Int64?, _ body: @escaping () -> Void) -> LoopTimer {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            slots.append(Slot())
            // The free list and the heap hold one entry per slot at most: grown now, with the
            // table, so that releasing a timer and setting it again later (what an idle loop's
            // timers do) never allocates. Freed slots outnumber any seen before exactly when a
            // loop goes idle, which is when an allocation would be a leak of work into idleness.
            if freeSlots.capacity < slots.count { freeSlots.reserveCapacity(slots.capacity) }
            if heap.capacity < slots.count { heap.reserveCapacity(slots.capacity) }
        }
        slots[slot].body = body
        slots[slot].interval = interval.map { max($0, 1) }
        slots[slot].deadline = deadline
        push(slot)
        return LoopTimer(slot: slot, generation: slots[slot].generation)
    }

    mutating func cancel(_ timer: LoopTimer) {
        guard timer.slot < slots.count, slots[timer.slot].generation == timer.generation else { return }
        if let index = slots[timer.slot].heapIndex { remove(at: index) }
        release(timer.slot)
    }

    /// The next timer whose deadline is `now` or earlier, taken off the heap (a repeating one
    /// put back at its next deadline), for the loop to call; `nil` when none has come. One at a
    /// time, so that what the loop calls may schedule and cancel timers itself.
    mutating func nextDue(now: Int64) -> (() -> Void)? {
        guard let slot = heap.first, slots[slot].deadline <= now, let body = slots[slot].body else { return nil }
        remove(at: 0)
        if let interval = slots[slot].interval {
            // The next deadline from this one, never in the past: a loop that was late does
            // not call a repeating timer several times to catch up.
            var next = slots[slot].deadline + interval
            if next <= now { next = now + interval }
            slots[slot].deadline = next
            push(slot)
        } else {
            release(slot)
        }
        return body
    }

    /// How long `epoll_wait` may sleep before the next timer: -1 with none, rounded up to whole
    /// milliseconds so that the loop never wakes just before a deadline.
    func millisecondsToNext(now: Int64) -> Int32 {
        guard let slot = heap.first else { return -1 }
        let nanoseconds = max(0, slots[slot].deadline - now)
        return Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
    }

    /// Timers scheduled and not yet called or cancelled.
    var count: Int { heap.count }

    private mutating func release(_ slot: Int) {
        slots[slot].generation &+= 1
        slots[slot].body = nil
        slots[slot].interval = nil
        slots[slot].heapIndex = nil
        freeSlots.append(slot)
    }

    // MARK: The heap

    private mutating func push(_ slot: Int) {
        heap.append(slot)
        slots[slot].heapIndex = heap.count - 1
        siftUp(heap.count - 1)
    }

    private mutating func remove(at index: Int) {
        let removed = heap[index]
        slots[removed].heapIndex = nil
        let last = heap.removeLast()
        guard index < heap.count else { return }
        heap[index] = last
        slots[last].heapIndex = index
        siftDown(index)
        siftUp(index)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard slots[heap[child]].deadline < slots[heap[parent]].deadline else { return }
            swapInHeap(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, slots[heap[left]].deadline < slots[heap[smallest]].deadline { smallest = left }
            if right < heap.count, slots[heap[right]].deadline < slots[heap[smallest]].deadline { smallest = right }
            guard smallest != parent else { return }
            swapInHeap(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapInHeap(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        slots[heap[a]].heapIndex = a
        slots[heap[b]].heapIndex = b
    }
}

extension Duration {
    /// Whole nanoseconds, as the loop's clock counts.
    package var loopNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
