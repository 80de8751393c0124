public import Foundation
public import TesseraViews

/// Too many requests for a ``RateLimit``: a 429 page that says when to try again, with
/// `Retry-After` for clients that read it.
public struct RateLimited: LocalizedResponseError, Equatable {
    /// Whole seconds until the window ends, at least 1.
    public let retryAfterSeconds: Int

    /// The refusal for a wait of `seconds`, rounded up to whole seconds (after rounding to whole
    /// milliseconds, so that a clock's floating-point seconds cannot turn 2 s into 3).
    public init(retryAfter seconds: TimeInterval) {
        retryAfterSeconds = max(1, Int(((seconds * 1000).rounded() / 1000).rounded(.up)))
    }

    public var status: HTTPResponse.Status { .tooManyRequests }
    public var headers: HTTPFields { [.retryAfter: String(retryAfterSeconds)] }

    /// How long to wait, in `language`: seconds under two minutes, else whole minutes.
    public func publicMessage(in language: Language) -> String {
        retryAfterSeconds < 120
            ? Messages.errorRateLimitedSeconds.string(in: language, count: retryAfterSeconds)
            : Messages.errorRateLimitedMinutes.string(in: language, count: (retryAfterSeconds + 59) / 60)
    }
}
