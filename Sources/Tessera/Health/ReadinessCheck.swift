/// One thing an app needs before it can take traffic, such as its database answering.
///
/// ``HealthModule`` runs every check for each `/readyz` request, so a check should be cheap:
/// `SELECT 1`, not a table scan.
public protocol ReadinessCheck: Sendable {
    /// A short name, shown on the readiness answer and in the log when the check fails:
    /// `database`, `payments`.
    var name: String { get }

    /// Returns when ready; throws to say why not. The error is logged, never shown.
    func check() async throws
}
