/// Where a value is being written; the compiler decides it from the surrounding HTML.
public enum HTMLContext: Sendable {
    case text
    case attribute
    /// Unescaped bytes, only used internally to inspect URLs before escaping them.
    case raw
}

/// A value that can appear in `{{ … }}`. Strings and numbers conform; so does ``HTML``, which is
/// written as it is. A type of your own can conform by writing its text with `appendEscaped`.
///
/// There is deliberately no conformance for `Optional`: a template must unwrap with
/// `{% if let … %}`, so "nil" never shows up on a page.
public protocol HTMLOutputConvertible {
    func write(to output: inout HTMLOutput, context: HTMLContext)
}

extension String: HTMLOutputConvertible {
    /// Escaped for text and attributes; as it is in raw context.
    @inlinable
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        if context == .raw { output.appendUnescaped(self) } else { output.appendEscaped(self) }
    }
}

extension Substring: HTMLOutputConvertible {
    /// Written as its `String`.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        String(self).write(to: &output, context: context)
    }
}

extension Character: HTMLOutputConvertible {
    /// Written as its `String`.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        String(self).write(to: &output, context: context)
    }
}

extension Int: HTMLOutputConvertible {
    /// Digits need no escaping, and are written without building a `String`.
    @inlinable
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.appendDecimal(self)
    }
}

extension Int64: HTMLOutputConvertible {
    /// Digits, written without building a `String`.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.appendDecimal(Int(self))
    }
}

extension Int32: HTMLOutputConvertible {
    /// Digits, written without building a `String`.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.appendDecimal(Int(self))
    }
}

extension UInt: HTMLOutputConvertible {
    /// Digits need no escaping.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.appendUnescaped(String(self))
    }
}

extension Double: HTMLOutputConvertible {
    /// Its decimal text; digits, `.`, `e` and signs need no escaping.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.appendUnescaped(String(self))
    }
}

extension Bool: HTMLOutputConvertible {
    /// `true` or `false`.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.write(static: self ? "true" : "false")
    }
}

extension HTMLOutput {
    /// Appends `value` in decimal, without building a `String`.
    @inlinable
    public mutating func appendDecimal(_ value: Int) {
        if value == 0 {
            write(static: "0")
            return
        }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 {
                buffer[19 - count] = UInt8(ascii: "-")
                count += 1
            }
            write(trusted: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }
}
