import Testing

@testable import TesseraLoop

/// A deadline list's timer outlives nothing: a server whose daemon has stopped drops its lists
/// while the shared loops run on, and a timer still set must then do nothing, not reach a list
/// that has gone (the suites crashed so, under load, on `tessera-loop-0`).
@Suite struct DeadlineListTests {
    final class Member: DeadlineListMember, @unchecked Sendable {
        var deadlineLinks = DeadlineLinks()
        var passed = false
        func deadlinePassed() { passed = true }
    }

    @Test func aListDroppedWithItsTimerSetLeavesTheLoopRunning() async {
        let loops = EventLoops(count: 1)
        let loop = loops.loops[0]
        let member = Member()
        let passed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            loop.execute {
                var list: DeadlineList? = DeadlineList(loop: loop, patience: .milliseconds(5))
                list?.insert(member)
                list = nil
                // Past the dropped list's deadline: its timer has fired by now, and found nothing.
                _ = loop.schedule(after: .milliseconds(40)) { continuation.resume(returning: member.passed) }
            }
        }
        #expect(!passed, "a list that has gone passes no member")
        await loops.shutdown()
    }
}
