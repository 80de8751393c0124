import HTTPTypes
import TesseraHTTP
import TesseraViews

/// One page request's use of the app's ``PageValidators``: a 304 before the page loads when the
/// visitor's `If-None-Match` names the version kept for it, and else, once the page is rendered,
/// its `ETag` and a validator kept until one of the topics it depends on is published.
///
/// Only for a `GET` or `HEAD` of the HTML page by a visitor whose session holds nothing: a
/// session with a user or a cart makes pages `no-store`, and those never get a validator.
struct PageValidation: Sendable {
    private let validators: PageValidators
    private let key: PageValidatorKey
    /// Taken before the page read its model: a validator made from a read that raced a
    /// publication is not kept.
    private let generation: PageValidators.Generation
    private let ifNoneMatch: EntityTagList?
    /// Absolute URLs on the page may be made from it (without `PUBLIC_URL`).
    private static let host = HTTPField.Name("Host")!

    /// `nil` when the request cannot be validated: no validators (the app has no live regions to
    /// hear publications), another method, a JSON request, or a session that holds values.
    init?(_ context: RequestContext) {
        guard let validators = context.application.pageValidators else { return nil }
        let request = context.request
        guard request.method == .get || request.method == .head,
            !AcceptHeader(request.headers[.accept]).prefersJSON,
            let session = context.session.validatorIdentity
        else { return nil }
        self.validators = validators
        self.generation = validators.generation
        self.key = PageValidatorKey(host: request.headers[Self.host] ?? "", target: request.target, language: context.language.code, session: session)
        self.ifNoneMatch = request.headers[.ifNoneMatch].map(EntityTagList.init)
    }

    /// The 304 for a visitor who already has the version kept for this page; `nil` otherwise.
    func notModified() -> Response? {
        guard let ifNoneMatch, let kept = validators.value(for: key), ifNoneMatch.matches(kept.eTag) else { return nil }
        return kept.notModified
    }

    /// The rendered page with its `ETag` (a digest of `body`), its validator kept until one of
    /// `topics` is published, or a 304 when the visitor already has these bytes. A page whose
    /// session changed while it rendered (a new token, a value taken) is left as it is.
    func validated(_ response: Response, body: [UInt8], until topics: [Topic], session: Session) -> Response {
        guard session.isUnchangedAndHoldsNothing else { return response }
        let validator = PageValidator(eTag: "W/\"" + RegionVersion.of(body) + "\"", cacheControl: session.cacheControl)
        validators.store(validator, for: key, until: topics, since: generation)
        if let ifNoneMatch, ifNoneMatch.matches(validator.eTag) { return validator.notModified }
        var response = response
        response.headers[.eTag] = validator.eTag
        return response
    }
}
