/// `loop` inside `{% for %}`: where the iteration is, as Jinja and Twig name it.
public struct TemplateLoop: Sendable {
    /// 0-based position.
    public let index0: Int
    /// Whether this is the last item.
    public let last: Bool

    /// The state for the item at `index0`; the compiler makes one per item.
    public init(index0: Int, isLast: Bool) {
        self.index0 = index0
        self.last = isLast
    }

    /// 1-based position, for display.
    public var index: Int { index0 + 1 }
    /// Whether this is the first item.
    public var first: Bool { index0 == 0 }
}
