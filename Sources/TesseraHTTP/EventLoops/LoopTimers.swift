/// A timer scheduled on an ``EventLoop``, to cancel it.
public struct LoopTimer: Sendable, Hashable {
    fileprivate let slot: Int
    fileprivate let generation: UInt32
}

/// One loop's timers: a binary heap of deadlines over a table of slots, as SwiftNIO's scheduled
/// tasks are. Cancelling is O(1): the slot's generation moves on, and the heap's entry for the
/// old one is dropped when it comes up. A repeating timer keeps its slot and its closure, so it
/// allocates nothing after it is scheduled.
///
/// Touched on its loop's thread only (a plain struct inside the loop).
struct LoopTimers {
    private struct Slot {
        var generation: UInt32 = 0
        var body: (() -> Void)?
        var interval: Int64?
    }

    private struct Entry {
        let deadline: Int64
        let slot: Int
        let generation: UInt32
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var heap: [Entry] = []

    /// Calls `body` at `deadline` (the monotonic clock, in nanoseconds), then every `interval`.
    mutating func schedule(at deadline: Int64, repeating interval: Int64?, _ body: @escaping () -> Void) -> LoopTimer {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            slots.append(Slot())
        }
        slots[slot].body = body
        slots[slot].interval = interval.map { max($0, 1) }
        let timer = LoopTimer(slot: slot, generation: slots[slot].generation)
        push(Entry(deadline: deadline, slot: slot, generation: timer.generation))
        return timer
    }

    mutating func cancel(_ timer: LoopTimer) {
        guard timer.slot < slots.count, slots[timer.slot].generation == timer.generation else { return }
        release(timer.slot)
    }

    /// The next timer whose deadline is `now` or earlier, taken off the heap (a repeating one
    /// put back at its next deadline), for the loop to call; `nil` when none has come. One at a
    /// time, so that what the loop calls may schedule and cancel timers itself.
    mutating func nextDue(now: Int64) -> (() -> Void)? {
        while let first = heap.first, first.deadline <= now {
            popFirst()
            guard slots[first.slot].generation == first.generation, let body = slots[first.slot].body else { continue }
            if let interval = slots[first.slot].interval {
                // The next deadline from this one, never in the past: a loop that was late
                // does not call a repeating timer several times to catch up.
                var next = first.deadline + interval
                if next <= now { next = now + interval }
                push(Entry(deadline: next, slot: first.slot, generation: first.generation))
            } else {
                release(first.slot)
            }
            return body
        }
        return nil
    }

    /// How long `epoll_wait` may sleep before the next timer: -1 with none, rounded up to whole
    /// milliseconds so that the loop never wakes just before a deadline.
    mutating func millisecondsToNext(now: Int64) -> Int32 {
        while let first = heap.first, slots[first.slot].generation != first.generation {
            popFirst()
        }
        guard let first = heap.first else { return -1 }
        let nanoseconds = max(0, first.deadline - now)
        return Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
    }

    private mutating func release(_ slot: Int) {
        slots[slot].generation &+= 1
        slots[slot].body = nil
        slots[slot].interval = nil
        freeSlots.append(slot)
    }

    // MARK: The heap

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

extension Duration {
    /// Whole nanoseconds, as the loop's clock counts.
    var loopNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
