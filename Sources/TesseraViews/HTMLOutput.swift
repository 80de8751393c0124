/// Where views render: UTF-8 bytes appended to one buffer, never a `String` built piece by piece.
///
/// Static template text arrives as `StaticString`s, encoded by the compiler at build time;
/// dynamic values go through the escaping method that matches their place in the HTML, and the
/// template compiler picks that method, so a template cannot forget to escape.
///
/// Region slots (`{% region "name" %}`) are recorded as holes at byte offsets. A container
/// controller fills them later, or streams the output in pieces split at the holes.
public struct HTMLOutput: Sendable {
    /// Appended to only through the methods below, which is what keeps output escaped.
    @usableFromInline var storage: [UInt8]
    public private(set) var regions: [RegionSlot]
    /// The fingerprinted URLs of static files, for the `asset` filter; given by whoever starts
    /// the rendering (the framework's `RequestContext.render`).
    public let assets: AssetURLs
    /// The language catalog messages (`{{ t "key" }}`), numbers and prices are written in; the
    /// request's negotiated language when the framework starts the rendering.
    public let language: Language
    /// The markup saved since the build, which a debug build's views write instead of their
    /// static runs (``SavedMarkup``); `nil` outside `make dev`.
    public let savedMarkup: SavedMarkup?

    /// - Parameters:
    ///   - capacity: bytes to reserve; a page that fits needs no reallocation.
    ///   - assets: what `{{ path | asset }}` links to.
    ///   - language: what messages render in.
    ///   - savedMarkup: the markup `make dev` saved since the build, for debug builds' views.
    public init(capacity: Int = 4096, assets: AssetURLs = .none, language: Language = .english, savedMarkup: SavedMarkup? = nil) {
        storage = []
        storage.reserveCapacity(capacity)
        regions = []
        self.assets = assets
        self.language = language
        self.savedMarkup = savedMarkup
    }

    /// A new, empty output rendering for the same request: same assets, language and saved
    /// markup. For a piece rendered apart, such as a page's block before its layout takes it.
    public func emptyCopy(capacity: Int = 4096) -> HTMLOutput {
        HTMLOutput(capacity: capacity, assets: assets, language: language, savedMarkup: savedMarkup)
    }

    /// The rendered UTF-8.
    public var bytes: [UInt8] { storage }

    /// A named hole left by `{% region "name" %}`, at `offset` in ``bytes``.
    public struct RegionSlot: Sendable, Equatable {
        /// The slot's name, as in the template.
        public var name: String
        /// Where the slot is, in bytes from the start of the output.
        public var offset: Int
    }

    // MARK: Static and trusted output

    /// Template text, already UTF-8 in the binary.
    @inlinable
    public mutating func write(static text: StaticString) {
        text.withUTF8Buffer { storage.append(contentsOf: $0) }
    }

    /// HTML that is trusted as it is.
    public mutating func write(_ html: HTML) {
        storage.append(contentsOf: html.source.utf8)
    }

    /// Another rendered output, with its region slots moved along.
    public mutating func write(_ fragment: HTMLOutput) {
        let shift = storage.count
        storage.append(contentsOf: fragment.bytes)
        regions.append(contentsOf: fragment.regions.map { RegionSlot(name: $0.name, offset: $0.offset + shift) })
    }

    /// Appends raw bytes; for the framework's own trusted markup.
    public mutating func write(trusted bytes: some Sequence<UInt8>) {
        self.storage.append(contentsOf: bytes)
    }

    /// Records a region slot here: the compiler emits this for `{% region "name" %}`.
    public mutating func region(_ name: String) {
        regions.append(RegionSlot(name: name, offset: storage.count))
    }

    // MARK: Escaped output (the compiler chooses which)

    /// A value in text content: `& < > " '` are escaped.
    public mutating func text(_ value: some HTMLOutputConvertible) {
        value.write(to: &self, context: .text)
    }

    /// A value inside a quoted attribute.
    public mutating func attribute(_ value: some HTMLOutputConvertible) {
        value.write(to: &self, context: .attribute)
    }

    /// A value inside a URL attribute (`href`, `src`, `action`, `formaction` …): escaped, and a
    /// `javascript:`, `data:` or `vbscript:` URL becomes `#`.
    public mutating func urlAttribute(_ value: some HTMLOutputConvertible) {
        // Most URLs are strings: checked and escaped where they are, with no output in between.
        if var string = value as? String {
            string.withUTF8 { url in
                if URLSafety.isDangerous(url) {
                    write(static: "#")
                } else {
                    HTMLEscaping.append(url, to: &storage)
                }
            }
            return
        }
        var probe = HTMLOutput(capacity: 0, language: language)
        value.write(to: &probe, context: .raw)
        if URLSafety.isDangerous(probe.storage) {
            write(static: "#")
        } else {
            HTMLEscaping.append(probe.storage[...], to: &storage)
        }
    }

    /// A value in a text template (`.txt`), as it is: plain text has nothing to escape.
    public mutating func plainText(_ value: some HTMLOutputConvertible) {
        value.write(to: &self, context: .raw)
    }

    /// JSON inside `<script>`: only a ``ScriptJSON`` value (the `json` filter) can get here.
    public mutating func script(_ json: ScriptJSON) {
        storage.append(contentsOf: json.encoded.utf8)
    }

    /// Escapes and appends the UTF-8 of `string`.
    @inlinable
    public mutating func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { HTMLEscaping.append($0, to: &storage) }
    }

    /// Appends `string` as it is. Only for values the type itself guarantees are safe (digits).
    @inlinable
    public mutating func appendUnescaped(_ string: String) {
        var string = string
        string.withUTF8 { storage.append(contentsOf: $0) }
    }

    /// The output as a `String`, for tests and small tools.
    public var string: String {
        String(decoding: storage, as: UTF8.self)
    }
}
