/// `loop` inside `{% for %}`: where the iteration is, as Jinja and Twig name it.
public struct TemplateLoop: Sendable {
    /// 0-based position.
    public let index0: Int
    public let last: Bool

    public init(index0: Int, isLast: Bool) {
        self.index0 = index0
        self.last = isLast
    }

    /// 1-based position, for display.
    public var index: Int { index0 + 1 }
    public var first: Bool { index0 == 0 }
}
