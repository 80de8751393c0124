/// Where a sign-in may send the visitor back to: a path on this site, never another site.
/// `//evil.example` and `/\\evil.example` are protocol-relative URLs that browsers follow off-site.
enum SafeRedirect {
    static func localPath(_ candidate: String?) -> String {
        guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
            !candidate.contains("\\"), candidate.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
            candidate.utf8.count <= 2000
        else { return "/" }
        return candidate
    }
}
