import Testing

@testable import TesseraLoop

/// A deadline list's timer outlives nothing: a server whose daemon has stopped drops its lists
/// while the shared loops run on, and a timer still set must then do nothing, not reach a list
/// that has gone (the suites crashed so, under load, on `tessera-loop-0`).
@Suite struct DeadlineListTests {
    final class Member: DeadlineListMember {
        var deadlineLinks = DeadlineLinks()
        func deadlinePassed() {}
    }

    @Test func aListDroppedWithItsTimerSetLeavesTheLoopRunning() async {
        let loops = EventLoops(count: 1)
        let loop = loops.loops[0]
        let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            loop.execute {
                var list: DeadlineList? = DeadlineList(loop: loop, patience: .milliseconds(5))
                list?.insert(Member())
                list = nil
                // Past the dropped list's deadline: its timer has fired by now.
                _ = loop.schedule(after: .milliseconds(40)) { continuation.resume(returning: list == nil) }
            }
        }
        #expect(ran)
        await loops.shutdown()
    }
}
