/// The headers every Tessera response carries unless it sets its own.
///
/// - `Content-Security-Policy`: everything from this origin only, so no inline scripts or styles,
///   no framing by anyone (`frame-ancestors 'none'`), and forms post back here only;
/// - `X-Content-Type-Options: nosniff`: browsers trust `Content-Type` instead of guessing;
/// - `Referrer-Policy`: other sites see the origin, never the path (which may hold ids);
/// - `X-Frame-Options: DENY`: the same as `frame-ancestors`, for older browsers.
public enum SecurityHeaders {
    /// The `Content-Security-Policy` value: this origin only (images also as `data:` URLs), no
    /// plugins, no framing. A response that needs more, such as a page with a map, sets its own.
    public static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

    /// All four headers, which ``ServerSettings/httpConfiguration`` hands the server to add to
    /// every response that does not set them itself.
    public static let defaults: HTTPFields = [
        .contentSecurityPolicy: contentSecurityPolicy,
        .xContentTypeOptions: "nosniff",
        .init("Referrer-Policy")!: "strict-origin-when-cross-origin",
        .init("X-Frame-Options")!: "DENY",
    ]
}
