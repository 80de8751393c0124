import Synchronization
import TesseraLoop
import Testing

/// Each loop keeps its own value, made on first use; code on no loop shares one more.
@Suite struct LoopLocalTests {
    final class Tally {
        var count = 0
    }

    final class Label {
        var text = "fresh"
    }

    @Test func eachLoopKeepsItsOwnValue() async {
        let loops = EventLoops(count: 2)
        let local = LoopLocal { Tally() }
        var seen: [ObjectIdentifier] = []
        for loop in loops.loops {
            for _ in 0..<3 {
                let (identity, count) = await loop.submit {
                    local.withValue { tally in
                        tally.count += 1
                        return (ObjectIdentifier(tally), tally.count)
                    }
                }
                seen.append(identity)
                #expect(count == seen.count - (seen.count - 1) / 3 * 3, "one value per loop, kept between calls")
            }
        }
        let offLoop = local.withValue { tally in
            tally.count += 1
            return (ObjectIdentifier(tally), tally.count)
        }
        #expect(Set(seen).count == 2, "two loops, two values")
        #expect(!seen.contains(offLoop.0) && offLoop.1 == 1, "off the loops, a third value")
        await loops.shutdown()
    }

    /// A `LoopLocal` that has gone leaves its identity free for a new object: the new one must
    /// get a value of its own, never the old one's (which may not even be of its type).
    @Test func aNewOwnerNeverGetsAGoneOwnersValue() async {
        let loops = EventLoops(count: 1)
        let loop = loops.loops[0]
        for _ in 0..<200 {
            let tallies = LoopLocal { Tally() }
            await loop.submit { tallies.withValue { $0.count = 7 } }
            let labels = LoopLocal { Label() }
            let text = await loop.submit {
                labels.withValue { label in
                    defer { label.text = "used" }
                    return label.text
                }
            }
            #expect(text == "fresh")
            let count = await loop.submit { LoopLocal { Tally() }.withValue { $0.count } }
            #expect(count == 0)
        }
        await loops.shutdown()
    }
}
