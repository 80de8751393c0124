extension Duration {
    /// The duration in whole nanoseconds, the unit swift-metrics and the meters count in.
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
