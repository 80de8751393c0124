/// A quantity written with the thousands separator of the output's language (`12,500`,
/// `12.500`), for a message's placeholder. Plain `Int`s are written as digits: order numbers,
/// years and ids must not read "Order #1,234".
public struct LocalizedNumber: Sendable, HTMLOutputConvertible {
    public var value: Int

    public init(_ value: Int) {
        self.value = value
    }

    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.language.format(value).write(to: &output, context: context)
    }
}
