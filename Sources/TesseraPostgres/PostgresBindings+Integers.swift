import PostgresNIO

extension PostgresBindings {
    /// Integer values bound in order, `$1` first: for statements built from fragments, where
    /// string interpolation cannot number the placeholders.
    public init(_ values: Int...) {
        self.init(capacity: values.count)
        for value in values { append(value) }
    }
}
