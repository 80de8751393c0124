/// A view: renders one model type into HTML. Templates in `Views/` compile into these.
///
/// The model is an associated type, so rendering a view with anything else does not compile,
/// as with `IDPView<Model>` in the seed article or Razor's `@model`.
public protocol HTMLView {
    associatedtype Model
    static func render(_ model: Model, into output: inout HTMLOutput)
}

extension HTMLView {
    /// Renders into a new output. Its `asset` filters link through `assets`, its messages are in
    /// `language`, and a debug build writes `savedMarkup`'s runs for its static text.
    public static func render(
        _ model: Model, assets: AssetURLs = .none, language: Language = .english, savedMarkup: SavedMarkup? = nil
    ) -> HTMLOutput {
        var output = HTMLOutput(assets: assets, language: language, savedMarkup: savedMarkup)
        render(model, into: &output)
        return output
    }
}

/// A layout: a view with named blocks that pages fill (`{% extends … %}` / `{% block … %}`).
public protocol HTMLLayout {
    associatedtype Model
    associatedtype Blocks
    static func render(_ model: Model, blocks: Blocks, into output: inout HTMLOutput)
}

/// A plain-text view, from a `.txt` template: an e-mail's text part, say. Values are written
/// unescaped, so it is its own protocol: an HTML page renders `HTMLView`s only, never one of these.
public protocol TextView {
    associatedtype Model
    static func render(_ model: Model, into output: inout HTMLOutput)
}

extension TextView {
    /// The text the view renders for `model`.
    public static func render(_ model: Model, language: Language = .english) -> String {
        var output = HTMLOutput(capacity: 1024, language: language)
        render(model, into: &output)
        return output.string
    }
}
