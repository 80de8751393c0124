/// The headers every Tessera response carries unless it sets its own.
///
/// - `Content-Security-Policy`: everything from this origin only, so no inline scripts or styles,
///   no framing by anyone (`frame-ancestors 'none'`), and forms post back here only;
/// - `X-Content-Type-Options: nosniff`: browsers trust `Content-Type` instead of guessing;
/// - `Referrer-Policy`: other sites see the origin, never the path (which may hold ids);
/// - `X-Frame-Options: DENY`: the same as `frame-ancestors`, for older browsers;
/// - `Permissions-Policy`: no camera, microphone, location, payment or USB for any page or frame
///   (passkeys keep their default, this origin);
/// - over HTTPS, `Strict-Transport-Security` (``strictTransportSecurity``): browsers come back
///   over HTTPS only, for a year.
public enum SecurityHeaders {
    /// The `Content-Security-Policy` value: this origin only (images also as `data:` URLs), no
    /// plugins, no framing. A response that needs more, such as a page with a map, sets its own.
    public static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

    /// The `Permissions-Policy` value: powerful features off, for this origin and any frame.
    public static let permissionsPolicy = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

    /// The `Strict-Transport-Security` value for a site served over HTTPS: a year, this host only
    /// (an operator whose every subdomain is HTTPS can add `includeSubDomains` at the proxy).
    public static let strictTransportSecurity = "max-age=31536000"

    /// The headers ``ServerSettings/httpConfiguration`` hands the server to add to every response
    /// that does not set them itself; `https` adds ``strictTransportSecurity``.
    public static func defaults(https: Bool) -> HTTPFields {
        var fields: HTTPFields = [
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            .init("Referrer-Policy")!: "strict-origin-when-cross-origin",
            .init("X-Frame-Options")!: "DENY",
            .init("Permissions-Policy")!: permissionsPolicy,
        ]
        if https { fields[.strictTransportSecurity] = strictTransportSecurity }
        return fields
    }
}
