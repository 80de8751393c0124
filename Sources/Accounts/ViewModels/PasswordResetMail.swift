/// What the password reset mail says, for its HTML part (`mail/password_reset.html`) and its
/// text part (`mail/password_reset.txt`), in the language the link was asked for in.
struct PasswordResetMail: Sendable {
    var name: String
    /// The reset page, in full: a mail has no site to be relative to.
    var link: String
    var validMinutes: Int
    /// `<html lang>` of the HTML part.
    var languageCode: String
}
