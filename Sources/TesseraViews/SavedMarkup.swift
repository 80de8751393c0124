/// Where a debug build's views find a template's static runs as the developer last saved them,
/// when only its markup changed since the build (`make dev`). The framework gives one to the
/// render, read once for the request; the views only ask it, and know nothing of where the runs
/// are kept.
///
/// Generated views ask in debug builds only (`#if DEBUG`): a release build has no such call.
/// A class, not a protocol: every ``HTMLOutput`` carries one reference, a word, where an
/// existential would take five and cost the request's page an allocation.
public final class SavedMarkup: Sendable {
    private let lookup: @Sendable (String, Int) -> [[UInt8]]?

    /// Saved markup that `lookup` finds: the runs of a template path, when there are as many as
    /// asked for.
    public init(_ lookup: @escaping @Sendable (_ path: String, _ count: Int) -> [[UInt8]]?) {
        self.lookup = lookup
    }

    /// The saved runs of the template at `path` (`Views/Cookbook/home.html`), in the order the
    /// view writes them, when `count` of them were saved; `nil` otherwise.
    public func runs(for path: String, count: Int) -> [[UInt8]]? {
        lookup(path, count)
    }
}

extension HTMLOutput {
    /// `text`, or the saved run `index` when the template's markup was saved since the build.
    public mutating func write(static text: StaticString, saved runs: [[UInt8]]?, at index: Int) {
        guard let runs else { return write(static: text) }
        write(trusted: runs[index])
    }
}
