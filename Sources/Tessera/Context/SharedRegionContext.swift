public import Logging
public import TesseraViews

/// What a shared region loads its model in: the language, and nothing of the visitor. Its
/// fragment is kept and shown to every visitor in that language, so it gets no session, cookie,
/// header, query value or middleware value to read: that fails to compile, where a comment could
/// only ask. The route's parameters reach ``SharedRegion/load(_:in:)`` beside it; the services
/// are the region's own, given when the app was built.
public struct SharedRegionContext: Sendable {
    /// The language the fragment is rendered and kept in.
    public let language: Language
    /// The app's logger, with the id of the request that rendered the fragment; made when asked
    /// for, since most fragments log nothing.
    public var logger: Logger { loggerSource.logger }
    private let loggerSource: RequestContext.LoggerSource
    /// The app's fingerprinted assets, for the fragment's view.
    let assets: AssetURLs
    /// What the request that renders the fragment may spend on its database: every store call
    /// takes it (`within:`). Its patience is the same for every visitor, so it says nothing of
    /// the one who asked.
    public let databaseBudget: DatabaseBudget

    init(_ context: RequestContext) {
        language = context.language
        loggerSource = context.loggerSource
        assets = context.application.assets
        databaseBudget = context.databaseBudget
    }

    /// A catalog message as text in ``language``.
    public func localized(
        _ message: LocalizedMessage, count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]
    ) -> String {
        message.string(in: language, count: count, arguments)
    }
}
