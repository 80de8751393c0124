import Logging
import TesseraViews

/// What a shared region renders with: the language and the app's views, and nothing of the
/// visitor. Its fragment is kept and shown to every visitor in that language, so it gets no
/// session, cookie, header, query value or middleware value to read: that fails to compile,
/// where a comment could only ask. The route's parameters and the services reach the region as
/// its own stored properties, through its factory.
public struct SharedRegionContext: Sendable {
    /// The language the fragment is rendered and kept in.
    public let language: Language
    /// The app's logger, with the id of the request that rendered the fragment; made when asked
    /// for, since most fragments log nothing.
    public var logger: Logger { loggerSource.logger }
    private let loggerSource: RequestContext.LoggerSource
    private let assets: AssetURLs

    init(_ context: RequestContext) {
        language = context.language
        loggerSource = context.loggerSource
        assets = context.application.assets
    }

    /// Renders `view` in ``language`` with the app's fingerprinted assets. A form in it carries
    /// no CSRF token, since the fragment is not the visitor's: forms belong in per-visitor regions.
    public func render<View: HTMLView>(_ view: View.Type, _ model: View.Model) -> HTMLOutput {
        View.render(model, formToken: .none, assets: assets, language: language)
    }

    /// A catalog message as text in ``language``.
    public func localized(_ message: LocalizedMessage, count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]) -> String {
        message.string(in: language, count: count, arguments)
    }
}
