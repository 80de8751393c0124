import Testing

@testable import TesseraLoop

/// The loop's timer heap: timers come in deadline order, a cancelled one never comes and leaves
/// nothing behind, and a handle whose slot went to another timer cancels nothing.
@Suite struct LoopTimersTests {
    final class Calls: @unchecked Sendable {
        var fired: [Int] = []
    }

    @Test func timersComeInDeadlineOrderAndCancelledOnesNever() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var timers = LoopTimers()
            let calls = Calls()
            var scheduled: [(id: Int, deadline: Int64, timer: LoopTimer)] = []
            for id in 0..<200 {
                let deadline = Int64.random(in: 0..<1_000, using: &generator)
                scheduled.append((id, deadline, timers.schedule(at: deadline, repeating: nil) { calls.fired.append(id) }))
            }
            let cancelled = Set(scheduled.indices.filter { _ in Bool.random(using: &generator) })
            for index in cancelled { timers.cancel(scheduled[index].timer) }
            #expect(timers.count == 200 - cancelled.count, "a cancelled timer leaves the heap at once")
            for now in stride(from: Int64(0), through: 1_001, by: 7) {
                while let body = timers.nextDue(now: now) { body() }
            }
            let expected = scheduled.indices.filter { !cancelled.contains($0) }.map { scheduled[$0] }
            #expect(calls.fired.sorted() == expected.map(\.id).sorted())
            let firedDeadlines = calls.fired.map { id in scheduled[id].deadline }
            #expect(firedDeadlines == firedDeadlines.sorted(), "soonest first")
            #expect(timers.count == 0)
        }
    }

    /// A timer set again and again (a daemon's next run after every resume) keeps the heap at
    /// one entry, however often.
    @Test func settingATimerAgainLeavesNothingBehind() {
        var timers = LoopTimers()
        var timer = timers.schedule(at: 1_000_000, repeating: nil) {}
        for step in 0..<10_000 {
            timers.cancel(timer)
            timer = timers.schedule(at: Int64(1_000_000 - step), repeating: nil) {}
        }
        #expect(timers.count == 1)
        #expect(timers.millisecondsToNext(now: 0) == 1, "the last deadline, 990,001 ns, rounded up")
    }

    @Test func aStaleHandleCancelsNothing() {
        var timers = LoopTimers()
        let calls = Calls()
        let first = timers.schedule(at: 10, repeating: nil) { calls.fired.append(1) }
        timers.cancel(first)
        _ = timers.schedule(at: 20, repeating: nil) { calls.fired.append(2) }  // takes the freed slot
        timers.cancel(first)
        while let body = timers.nextDue(now: 100) { body() }
        #expect(calls.fired == [2])
    }

    @Test func aRepeatingTimerComesAgainWithoutCatchingUp() {
        var timers = LoopTimers()
        let calls = Calls()
        let timer = timers.schedule(at: 10, repeating: 10) { calls.fired.append(calls.fired.count) }
        while let body = timers.nextDue(now: 10) { body() }
        while let body = timers.nextDue(now: 55) { body() }  // late: once, not four times
        #expect(calls.fired.count == 2)
        #expect(timers.millisecondsToNext(now: 55) == 1, "next at 65")
        timers.cancel(timer)
        #expect(timers.count == 0)
    }
}
