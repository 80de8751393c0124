import TesseraHTTP

/// Random world ids (and new random numbers), drawn from a generator each event loop keeps,
/// seeded once from the system's: a request draws without a system call, as the C reference's
/// `rand()` does. The standard library's `SystemRandomNumberGenerator` asks the kernel for every
/// number, one `getrandom` for `/db` and twenty for `/queries?queries=20`.
///
/// The ids only spread the reads over the table; nothing secret is drawn here.
final class WorldIDs: Sendable {
    private let perLoop = LoopLocal { SplitMix64() }

    /// An id, or a new random number: both are drawn from 1...10,000.
    func next() -> Int32 {
        perLoop.withValue { generator in
            var generator = generator
            return Int32.random(in: 1...World.count, using: &generator)
        }
    }

    /// `count` ids, drawn from the loop's generator found once: finding it costs a lookup in
    /// the loop's table, which twenty draws would pay twenty times.
    func next(_ count: Int) -> [Int32] {
        next(count) { $0 }
    }

    /// `count` ids, each made into what the caller keeps, with no array of the ids between.
    func next<Element>(_ count: Int, _ make: (Int32) -> Element) -> [Element] {
        perLoop.withValue { generator in
            var generator = generator
            return (0..<count).map { _ in make(Int32.random(in: 1...World.count, using: &generator)) }
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state and three mixing steps per number,
/// enough to spread reads over a table. A class, so that a loop keeps one and draws from it in
/// place.
final class SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
